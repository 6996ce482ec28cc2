"""The Content-Security-Policy (django-csp) and pages that keep to it: no inline
scripts, no <style> blocks, no style="" attributes (docs/operations.md, "HTTPS")."""

import re

import pytest
from allauth.account.models import EmailAddress

from tests.games.pages.conftest import table_make

pytestmark = pytest.mark.django_db

ANONYMOUS_PAGES = [
    "/",
    "/accounts/login/",
    "/accounts/signup/",
    "/accounts/password/reset/",
    "/leaderboard/",
]
MEMBER_PAGES = [
    "/",
    "/accounts/profile/",
    "/accounts/profile/tokens/",
    "/accounts/email/",
    "/games/new/",
    "/games/history/",
    "/players/alice/",
]


def _table(host, *guests):
    host.is_staff = True  # table_make fixes the deck, which only staff may do
    host.save(update_fields=["is_staff"])
    return table_make(host, list(guests))


def _policy(response) -> dict[str, list[str]]:
    header = response.headers["Content-Security-Policy"]
    directives = {}
    for part in header.split(";"):
        name, *values = part.split()
        directives[name] = values
    return directives


def assert_no_inline_code(html: str) -> None:
    scripts = re.findall(r"<script\b[^>]*>", html, flags=re.IGNORECASE)
    assert all(re.search(r"\ssrc=", tag) for tag in scripts), scripts
    assert not re.search(r"<style\b", html, flags=re.IGNORECASE)
    assert not re.search(r"""\sstyle\s*=\s*["']""", html, flags=re.IGNORECASE)
    assert not re.search(r"""\son[a-z]+\s*=\s*["']""", html, flags=re.IGNORECASE)
    assert "javascript:" not in html.lower()


def assert_strict_policy(response) -> None:
    policy = _policy(response)
    assert policy["default-src"] == ["'self'"]
    assert policy["script-src"] == ["'self'"]
    assert policy["style-src"] == ["'self'"]
    assert policy["img-src"] == ["'self'", "data:"]
    assert policy["object-src"] == ["'none'"]
    assert policy["base-uri"] == ["'self'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["form-action"] == ["'self'"]


@pytest.mark.parametrize("url", ANONYMOUS_PAGES)
def test_anonymous_pages_have_the_policy_and_no_inline_code(client, url):
    response = client.get(url)
    assert response.status_code == 200
    assert_strict_policy(response)
    assert_no_inline_code(response.content.decode())


@pytest.mark.parametrize("url", MEMBER_PAGES)
def test_member_pages_have_the_policy_and_no_inline_code(client, alice, url):
    # A pending change of address shows allauth's hidden re-send form on /accounts/email/.
    EmailAddress.objects.create(user=alice, email="alice.new@example.com", verified=False)
    client.force_login(alice)
    response = client.get(url)
    assert response.status_code == 200
    assert_strict_policy(response)
    assert_no_inline_code(response.content.decode())


def test_board_and_its_fragments_have_no_inline_code(client, alice, bob, carol):
    game = _table(alice, bob, carol)
    client.force_login(alice)
    for url in (f"/games/{game.pk}/", f"/games/{game.pk}/board/"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert_strict_policy(response)
        assert_no_inline_code(response.content.decode())
    # An htmx poll and a bid preview, as the browser sends them.
    response = client.get(f"/games/{game.pk}/board/", headers={"HX-Request": "true"})
    assert response.status_code in (200, 204)
    assert_no_inline_code(response.content.decode())


def test_other_players_board_has_no_inline_code(client, alice, bob, carol):
    game = _table(alice, bob, carol)
    client.force_login(bob)
    response = client.get(f"/games/{game.pk}/")
    assert response.status_code == 200
    assert_no_inline_code(response.content.decode())


def test_api_docs_keep_to_the_policy(client, alice):
    client.force_login(alice)
    response = client.get("/api/docs/")
    assert response.status_code == 200
    assert_strict_policy(response)
    html = response.content.decode()
    assert_no_inline_code(html)
    assert "/static/css/swagger.css" in html
    script = client.get("/api/docs/?script=")
    assert script.status_code == 200
    assert script.headers["Content-Type"].startswith("application/javascript")


def test_the_api_answers_carry_the_policy_too(client):
    response = client.get("/api/v1/games/")
    assert "Content-Security-Policy" in response.headers
