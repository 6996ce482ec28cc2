"""Tokens: log-in for a token, using it, expiry, revocation, the tokens page, and
session authentication with CSRF."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.tokens.models import ApiToken, token_digest
from accounts.tokens.services import (
    MAX_ACTIVE_TOKENS,
    FormAlreadySent,
    TokenLimitReached,
    token_create,
)
from tests.factories import PASSWORD, UserFactory
from tests.races import at_once

TOKEN_URL = "/api/v1/auth/token/"
GAMES_URL = "/api/v1/games/"


def _error(response, status: int, code: str | None = None) -> dict:
    assert response.status_code == status, (response.status_code, response.content)
    body = response.json()
    assert isinstance(body["detail"], str) and body["detail"]
    if code is not None:
        assert body["code"] == code, body
    return body


# --------------------------------------------------------------------------- log-in


def test_token_for_username_and_password(anon, alice):
    response = anon.post(TOKEN_URL, {"username": "alice", "password": PASSWORD}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"token", "expiry", "token_id", "username"}
    assert body["username"] == "alice" and body["token"].startswith("hs_")
    stored = ApiToken.objects.get(pk=body["token_id"])
    # Only a digest is stored, never the secret.
    assert stored.digest == token_digest(body["token"])
    assert body["token"] not in str(ApiToken.objects.filter(pk=stored.pk).values().get())
    assert timedelta(days=29) < stored.expires_at - timezone.now() <= timedelta(days=30)

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    assert client.get(GAMES_URL).status_code == 200


def test_an_account_with_a_second_factor_needs_its_code_for_a_token(anon, alice):
    """The password alone used to be enough: a way round the second factor for
    everything the API allows (a staff member's scenario tables too)."""
    from tests.second_factor import second_factor_set_up

    _, recovery = second_factor_set_up(Client(), alice)
    login = {"username": "alice", "password": PASSWORD}
    _error(anon.post(TOKEN_URL, login, format="json"), 400, "code_required")
    wrong = login | {"code": "000000" if recovery[0] != "000000" else "111111"}
    _error(anon.post(TOKEN_URL, wrong, format="json"), 400, "invalid_code")
    _error(anon.post(TOKEN_URL, {**login, "password": "wrong"}, format="json"), 400)
    assert not ApiToken.objects.filter(user=alice).exists()
    answer = anon.post(TOKEN_URL, login | {"code": recovery[0]}, format="json")
    assert answer.status_code == 200 and answer.json()["username"] == "alice"
    # A recovery code is used up so.
    _error(anon.post(TOKEN_URL, login | {"code": recovery[0]}, format="json"), 400, "invalid_code")


def test_token_by_email_too(anon, alice):
    response = anon.post(TOKEN_URL, {"username": alice.email, "password": PASSWORD}, format="json")
    assert response.status_code == 200


@pytest.mark.parametrize(
    "body",
    [
        {"username": "alice", "password": "wrong password"},
        {"username": "nobody", "password": PASSWORD},
    ],
)
def test_wrong_credentials_are_refused_alike(anon, alice, body):
    _error(anon.post(TOKEN_URL, body, format="json"), 400, "invalid_credentials")
    assert not ApiToken.objects.exists()


def test_a_suspended_account_is_told_so_for_its_right_password_only(anon, db, settings):
    """It was told "The username or password is not correct": a program's owner, sure
    of the password, tried again and again.  The site's log-in says it is suspended;
    so does the API, once the password is right (a wrong one learns nothing)."""
    settings.CONTACT_EMAIL = "staff@highsociety.example"
    UserFactory(username="gone", is_active=False)
    told = _error(
        anon.post(TOKEN_URL, {"username": "gone", "password": PASSWORD}, format="json"),
        403,
        "permission_denied",
    )
    assert told["detail"].startswith("This account is suspended: it cannot log in")
    assert "write to the staff: staff@highsociety.example" in told["detail"]
    wrong = {"username": "gone", "password": "not the password"}
    _error(anon.post(TOKEN_URL, wrong, format="json"), 400, "invalid_credentials")
    # Nor does the next request, for another account, hear of this one.
    _error(anon.post(TOKEN_URL, wrong | {"username": "nobody"}, format="json"), 400)
    assert not ApiToken.objects.exists()


def test_unverified_email_gets_no_token(anon, db):
    UserFactory(username="newbie", verified_email=False)
    body = _error(
        anon.post(TOKEN_URL, {"username": "newbie", "password": PASSWORD}, format="json"),
        403,
        "permission_denied",
    )
    assert "e-mail" in body["detail"]


@pytest.mark.parametrize(
    "body, field",
    [
        ({"username": "alice"}, "password"),
        ({"password": PASSWORD}, "username"),
        ({"username": "alice", "password": PASSWORD, "admin": True}, "admin"),
        ({"username": ["alice"], "password": PASSWORD}, "username"),
        ({"username": "alice", "password": "x" * 5000}, "password"),
    ],
)
def test_token_input_is_validated(anon, alice, body, field):
    error = _error(anon.post(TOKEN_URL, body, format="json"), 400, "invalid")
    assert field in error["errors"]


def test_token_login_ignores_a_bad_authorization_header(alice):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    response = client.post(TOKEN_URL, {"username": "alice", "password": PASSWORD}, format="json")
    assert response.status_code == 200


# --------------------------------------------------------------------------- using tokens


def test_no_credentials_is_401_with_a_token_challenge(anon, db):
    response = anon.get(GAMES_URL)
    _error(response, 401, "not_authenticated")
    assert response["WWW-Authenticate"].startswith("Token")


@pytest.mark.parametrize(
    "header",
    ["Token hs_unknown", "Token", "Token a b", "Token \u00e9t\u00e9", "token " + "x" * 10_000],
)
def test_bad_tokens_are_401(db, header):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=header)
    _error(client.get(GAMES_URL), 401, "authentication_failed")


def test_other_schemes_are_not_tokens(db):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Basic abc")
    _error(client.get(GAMES_URL), 401, "not_authenticated")


def test_a_bearer_token_is_told_which_scheme_to_use(alice):
    """An "Authorization: Bearer …" header, what many APIs take: the answer says to send it as
    "Token …" rather than that no credentials came."""
    _token, secret = token_create(user=alice, name="bot", days=1)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    error = _error(client.get(GAMES_URL), 401, "authentication_failed")
    assert "'Authorization: Token <token>', not 'Bearer'" in error["detail"]
    assert secret not in error["detail"]


def test_a_token_sent_alone_is_told_to_put_token_before_it(alice):
    """What the API docs page sends when the token alone is pasted in its box: the answer
    said no credentials came."""
    _token, secret = token_create(user=alice, name="docs", days=1)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=secret)
    error = _error(client.get(GAMES_URL), 401, "authentication_failed")
    assert "Put the word Token before the token" in error["detail"]
    assert secret not in error["detail"]


def test_expired_token_is_401(alice):
    token, secret = token_create(user=alice, name="old", days=1)
    ApiToken.objects.filter(pk=token.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {secret}")
    body = _error(client.get(GAMES_URL), 401, "authentication_failed")
    assert "expired" in body["detail"]


def test_token_of_a_disabled_account_is_401(alice):
    _, secret = token_create(user=alice, name="t")
    alice.is_active = False
    alice.save()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {secret}")
    _error(client.get(GAMES_URL), 401)


def test_last_used_is_recorded_about_once_a_minute(alice):
    token, secret = token_create(user=alice, name="t")
    assert token.last_used_at is None
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {secret}")
    client.get(GAMES_URL)
    first = ApiToken.objects.get(pk=token.pk).last_used_at
    assert first is not None
    client.get(GAMES_URL)
    assert ApiToken.objects.get(pk=token.pk).last_used_at == first
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=first - timedelta(minutes=2))
    client.get(GAMES_URL)
    assert ApiToken.objects.get(pk=token.pk).last_used_at > first


def test_delete_revokes_the_token_used(alice):
    token, secret = token_create(user=alice, name="t")
    other, other_secret = token_create(user=alice, name="other")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {secret}")
    assert client.delete(TOKEN_URL).status_code == 204
    assert not ApiToken.objects.filter(pk=token.pk).exists()
    assert ApiToken.objects.filter(pk=other.pk).exists()
    body = _error(client.get(GAMES_URL), 401)
    # It said only "Invalid token.", where an expired one says how to get a new one.
    assert body["detail"].startswith("Invalid token: it is unknown here (revoked"), body
    assert "POST /api/v1/auth/token/" in body["detail"]
    _error(client.delete(TOKEN_URL), 401)


def test_delete_needs_a_token_not_a_session(alice):
    client = APIClient()
    client.force_login(alice)
    _error(client.delete(TOKEN_URL), 400, "not_a_token")
    _error(APIClient().delete(TOKEN_URL), 401)


# --------------------------------------------------------------------------- sessions


def test_session_auth_works_and_needs_csrf_for_unsafe_methods(alice):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(alice)
    assert browser.get(GAMES_URL).status_code == 200
    body = {"players": 3, "seats": [{"ai": "random"}, {"ai": "random"}]}
    refused = browser.post(GAMES_URL, body, content_type="application/json")
    assert _error(refused, 403, "permission_denied")["detail"].startswith("CSRF Failed")
    browser.get("/accounts/profile/")  # sets the CSRF cookie, as a page would
    csrf = browser.cookies["csrftoken"].value
    accepted = browser.post(
        GAMES_URL, body, content_type="application/json", headers={"X-CSRFToken": csrf}
    )
    assert accepted.status_code == 201


# --------------------------------------------------------------------------- tokens page


@pytest.fixture
def alice_browser(alice):
    browser = Client()
    browser.force_login(alice)
    return browser


def test_profile_links_to_the_tokens_page(alice_browser):
    page = alice_browser.get("/accounts/profile/").content.decode()
    assert 'href="/accounts/profile/tokens/"' in page


def test_tokens_page_lists_tokens_with_created_expiry_and_last_use(alice, bob, alice_browser):
    token_create(user=alice, name="my bot")
    token_create(user=bob, name="bob's script")
    response = alice_browser.get("/accounts/profile/tokens/")
    page = response.content.decode()
    assert response.status_code == 200
    assert "my bot" in page and "bob&#x27;s script" not in page and "bob's script" not in page
    assert "Last used" in page and "never" in page and "Expires" in page
    assert "no-store" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]


def test_create_shows_the_secret_once(alice, alice_browser):
    response = alice_browser.post("/accounts/profile/tokens/new/", {"name": "robot", "days": 7})
    assert response.status_code == 200
    token = ApiToken.objects.get(user=alice)
    page = response.content.decode()
    secret = page.split('id="new-token" type="text" readonly value="')[1].split('"')[0]
    assert token_digest(secret) == token.digest
    assert timedelta(days=6) < token.expires_at - timezone.now() <= timedelta(days=7)
    assert "no-store" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]
    # The secret works, and is never shown again.
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {secret}")
    assert client.get(GAMES_URL).status_code == 200
    assert secret not in alice_browser.get("/accounts/profile/tokens/").content.decode()


def _token_form(browser) -> dict:
    """The tokens page's form as the page fills it, with its one-time value."""
    page = browser.get("/accounts/profile/tokens/").content.decode()
    once = page.split('name="once" value="')[1].split('"')[0]
    return {"name": "my bot", "days": 7, "once": once}


def test_the_same_form_sent_twice_makes_one_token(alice, alice_browser):
    """Reloading the page that shows the new secret sends its form again: one token,
    and a page that says what happened instead of a second "my bot"."""
    form = _token_form(alice_browser)
    once = form["once"]
    assert alice_browser.post("/accounts/profile/tokens/new/", form).status_code == 200
    again = alice_browser.post("/accounts/profile/tokens/new/", form, follow=True)
    assert "That form was sent already" in again.content.decode()
    assert ApiToken.objects.filter(user=alice).count() == 1
    fresh = alice_browser.get("/accounts/profile/tokens/").content.decode()
    assert once not in fresh  # a new form, a new value: a second token is one click away


def test_the_same_form_from_two_sessions_makes_one_token(alice):
    """Two log-ins of one account (two tabs of which one was logged in again, or two
    posts of one form in flight together): the form's one-time value is kept with the
    token, not in a session, so the second request makes no second token."""
    first, second = Client(), Client()
    first.force_login(alice)
    second.force_login(alice)
    form = _token_form(first)
    assert first.post("/accounts/profile/tokens/new/", form).status_code == 200
    again = second.post("/accounts/profile/tokens/new/", form, follow=True)
    assert "That form was sent already" in again.content.decode()
    assert ApiToken.objects.filter(user=alice).count() == 1


@pytest.mark.django_db(transaction=True)
def test_tokens_asked_for_at_once_keep_to_the_limit_and_to_one_per_form(alice):
    for n in range(MAX_ACTIVE_TOKENS - 4):
        token_create(user=alice, name=f"bot {n}")
    outcomes = at_once(
        [lambda n=n: token_create(user=alice, name="more", once=f"form-{n}") for n in range(8)]
    )
    assert sum(isinstance(o, TokenLimitReached) for o in outcomes) == 4, outcomes
    assert ApiToken.objects.filter(user=alice).count() == MAX_ACTIVE_TOKENS
    ApiToken.objects.filter(user=alice, name="more").delete()
    outcomes = at_once([lambda: token_create(user=alice, name="twice", once="same")] * 4)
    assert sum(isinstance(o, FormAlreadySent) for o in outcomes) == 3, outcomes
    assert ApiToken.objects.filter(user=alice, name="twice").count() == 1


@pytest.mark.parametrize(
    "data",
    [
        {"name": "", "days": 7},
        {"name": "x", "days": 1000},
        {"name": "\u202ebot", "days": 7},  # turns the token list around it backwards
        {"name": "my\u200bbot", "days": 7},
    ],
)
def test_create_validates(alice, alice_browser, data):
    response = alice_browser.post("/accounts/profile/tokens/new/", data)
    assert response.status_code == 400
    assert not ApiToken.objects.exists()


def test_revoke_from_the_page(alice, bob, alice_browser):
    mine, secret = token_create(user=alice, name="mine")
    theirs, _ = token_create(user=bob, name="theirs")
    response = alice_browser.post(f"/accounts/profile/tokens/{theirs.pk}/revoke/")
    assert response.status_code == 302
    assert ApiToken.objects.filter(pk=theirs.pk).exists()  # not hers to revoke
    alice_browser.post(f"/accounts/profile/tokens/{mine.pk}/revoke/")
    assert not ApiToken.objects.filter(pk=mine.pk).exists()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {secret}")
    _error(client.get(GAMES_URL), 401)


def test_tokens_page_needs_log_in(db):
    response = Client().get("/accounts/profile/tokens/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert (
        Client().post("/accounts/profile/tokens/new/", {"name": "x", "days": 7}).status_code == 302
    )
