"""The site layout, static assets, health and API documentation routes."""

import re

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse

pytestmark = pytest.mark.django_db

PAGES_FOR_EVERYONE = ["/", "/accounts/login/", "/accounts/signup/", "/accounts/password/reset/"]


def _scripts(html: str) -> list[str]:
    return re.findall(r"<script\b[^>]*>", html)


@pytest.mark.parametrize("url", PAGES_FOR_EVERYONE)
def test_pages_use_the_site_layout(client, url):
    response = client.get(url)
    assert response.status_code == 200
    html = response.content.decode()
    assert '<html lang="en">' in html
    assert 'class="site-nav"' in html and 'href="#main"' in html  # nav and skip link
    assert '<link rel="stylesheet" href="/static/css/site.css">' in html


@pytest.mark.parametrize("url", PAGES_FOR_EVERYONE)
def test_pages_load_vendored_htmx_and_no_inline_script(client, url):
    html = client.get(url).content.decode()
    scripts = _scripts(html)
    assert '<script src="/static/vendor/htmx.min.js" defer>' in scripts
    assert all("src=" in tag for tag in scripts), scripts  # a strict CSP comes later
    assert " on" + "click=" not in html.lower()


def test_htmx_requests_carry_the_csrf_token(client):
    response = client.get("/")
    match = re.search(
        r"""<body hx-headers='\{"X-CSRFToken": "([A-Za-z0-9]+)"\}'[^>]*>""",
        response.content.decode(),
    )
    assert match, "the body must send the CSRF token with every htmx request"
    assert len(match.group(1)) == 64


def test_anonymous_nav_offers_log_in_and_sign_up(client):
    html = client.get("/").content.decode()
    assert f'href="{reverse("account_login")}"' in html
    assert f'href="{reverse("account_signup")}"' in html
    assert f'href="{reverse("profile")}"' not in html


@pytest.mark.parametrize("name", ["account_login", "account_signup"])
def test_the_menu_marks_the_entrance_page_one_is_on(client, name):
    html = client.get(reverse(name)).content.decode()
    assert f'href="{reverse(name)}" aria-current="page"' in html
    assert html.count('aria-current="page"') == 1


def test_logged_in_nav_offers_profile_and_a_log_out_form(client, alice):
    client.force_login(alice)
    html = client.get("/").content.decode()
    assert f'href="{reverse("profile")}"' in html
    assert f'<form class="inline-form" method="post" action="{reverse("account_logout")}">' in html
    assert "Signed in as <strong>Alice</strong>" in html
    assert f'href="{reverse("account_login")}"' not in html


def test_static_assets_are_vendored_not_fetched():
    for path in ["vendor/htmx.min.js", "css/site.css", "img/favicon.svg"]:
        assert finders.find(path), path
    with open(finders.find("vendor/htmx.min.js")) as f:
        assert "htmx" in f.read(200)


def test_static_files_are_served_by_whitenoise(client):
    response = client.get("/static/css/site.css")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/css")


def test_health(client):
    response = client.get("/health/")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    assert "no-cache" in response["Cache-Control"]


def test_health_says_503_when_the_database_is_down(client, monkeypatch):
    from django.db import OperationalError

    from highsociety_site import views

    def broken_cursor():
        raise OperationalError("connection refused")

    monkeypatch.setattr(views.connection, "cursor", broken_cursor)
    response = client.get("/health/")
    assert response.status_code == 503
    assert response.json() == {"status": "error", "database": "unavailable"}
    assert "connection refused" not in response.content.decode()


def test_api_schema_is_openapi_3(client):
    response = client.get("/api/schema/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/vnd.oai.openapi")
    assert response.content.startswith(b"openapi: 3")


def test_api_schema_as_json(client):
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    assert response.json()["info"]["title"] == "High Society online API"


def test_api_docs_served_locally(client):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "swagger-ui" in html
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in html
    assert "cdn." not in html and "unpkg" not in html  # no CDN: works offline
    assert all("src=" in tag for tag in _scripts(html))  # start-up code is a file too
    init = client.get("/api/docs/?script=")
    assert init.status_code == 200
    assert "/api/schema/" in init.content.decode()
    # The page says its language and leads back to the site and to the document.
    assert '<html lang="en">' in html
    assert '<a href="/">← High Society online</a>' in html and 'href="/api/schema/"' in html
    assert '<header class="api-docs-head" lang="en">' in html


def test_unknown_page_is_404(client):
    assert client.get("/no-such-page/").status_code == 404


def test_favicon_ico_leads_to_the_site_icon(client):
    """Browsers ask for /favicon.ico on every response that names no icon (JSON)."""
    from django.templatetags.static import static

    response = client.get("/favicon.ico")
    assert response.status_code == 302
    assert response["Location"] == static("img/favicon.svg")
    assert response["Location"].endswith(".svg")
    assert client.post("/favicon.ico").status_code == 405


@pytest.mark.parametrize("language", ["en", "de", "fr"])
def test_a_stale_form_gets_the_sites_own_page_not_djangos(language, alice):
    """A form sent without a valid CSRF token (opened before a log-in in another tab)
    is refused with a page of the site, in the reader's language, that says nothing
    changed and leads on, not Django's bare "CSRF verification failed"."""
    from django.test import Client

    client = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE=language)
    response = client.post(reverse("account_login"), {"login": "alice", "password": "x"})
    assert response.status_code == 403
    page = response.content.decode()
    assert "CSRF verification failed" not in page
    assert f'<html lang="{language}">' in page and 'href="/"' in page
    assert {"en": "Nothing was changed.", "de": "Nichts wurde", "fr": "Rien n"}[language] in page
    assert client.session.get("_auth_user_id") is None


def test_a_form_address_opened_in_the_browser_gets_a_page_not_a_blank(client, alice):
    """GET on an address that only takes a form's POST: still 405 with its Allow
    header, but a page with words and a way on, not an empty white one.  The API's 405
    stays its JSON error."""
    client.force_login(alice)
    response = client.get("/accounts/profile/sign-out-everywhere/")
    assert response.status_code == 405 and response["Allow"] == "POST"
    page = response.content.decode()
    assert "has no page of its own" in page and 'href="/"' in page
    api = client.patch("/api/v1/games/1/")
    assert api.status_code == 405 and api.json()["code"] == "method_not_allowed"
    # A form posted to a page that is only read (a forged post, or a stale form) is
    # not told that the page does not exist: it is offered the page.
    for path in ("/leaderboard/", "/rules/", "/players/alice/"):
        posted = client.post(path, {"x": "1"})
        assert posted.status_code == 405 and "GET" in posted["Allow"]
        page = posted.content.decode()
        assert "has no page of its own" not in page, path
        assert "This page takes no form; nothing was changed." in page
        assert f'href="{path}"' in page


def test_a_tables_form_address_opened_in_the_browser_leads_back_to_the_table(client, alice):
    """A refused seat change leaves the browser at /games/7/seat/: opened again (or
    bookmarked), its page offered only the lobby."""
    from tests.games.factories import GameFactory

    game = GameFactory(creator=alice, players=3, seats=[{"open": True}, {"ai": "easy"}])
    client.force_login(alice)
    for form in ("seat", "join", "leave"):
        response = client.get(f"/games/{game.pk}/{form}/")
        assert response.status_code == 405, form
        page = response.content.decode()
        assert f'<a href="/games/{game.pk}/">Back to table {game.pk}</a>' in page
    # An address of no table keeps the lobby alone.
    page = client.get("/accounts/profile/sign-out-everywhere/").content.decode()
    assert "Back to table" not in page


def test_every_page_leads_to_the_api_docs(client):
    """A program's author finds the API from any page's footer, signed in or not."""
    for path in ("/", "/rules/", "/accounts/login/"):
        html = client.get(path).content.decode()
        footer = html.split('<footer class="site-footer">')[1]
        assert '<a href="/api/docs/">API for your own program</a>' in footer, path


@pytest.mark.parametrize("url", ["/", "/rules/", "/api/v1/games/", "/no/such/page/"])
def test_features_the_site_never_uses_are_switched_off(client, url):
    """Permissions-Policy on pages, the API and error pages alike: no camera,
    microphone, location or payment for a page of the site or a frame in it."""
    policy = client.get(url)["Permissions-Policy"]
    for feature in ("camera=()", "microphone=()", "geolocation=()", "payment=()"):
        assert feature in policy, policy
