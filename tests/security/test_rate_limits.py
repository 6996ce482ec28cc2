"""Rate limits (issue #7): log-in, sign-up and password reset (allauth's
ACCOUNT_RATE_LIMITS) and the API's writes (games.api.throttling) refuse past their
limit with a clear answer and no side effect: no session, no user, no e-mail, no move.

Already covered elsewhere, not repeated here: five failed log-ins lock one username
(tests/accounts/test_login.py), the 21st sign-up from an address is a 429 with no user
(tests/accounts/test_signup.py), and the API's per-user, per-address and token log-in
limits answer 429 with Retry-After on reads (tests/games/api/test_users_and_errors.py).
"""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import Client

from accounts.models import User
from accounts.tokens.services import token_create
from games.models import Game, Move
from tests.factories import PASSWORD, UserFactory
from tests.games.pages.conftest import table_make

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("limits_clock")]

TOO_MANY = "You have tried this too often in a short time."
STRONG = "Plum-Orchard-Seven-41"


def _limits(settings, **rates):
    settings.ACCOUNT_RATE_LIMITS = {**settings.ACCOUNT_RATE_LIMITS, **rates}


def _logged_in(client) -> bool:
    return client.session.get("_auth_user_id") is not None


def test_log_in_failures_from_one_address_lock_every_username(client, settings, alice):
    """ "10/m/ip": ten failures with ten usernames, then even Alice's right password is
    refused with the reason, and no session is opened."""
    assert settings.ACCOUNT_RATE_LIMITS["login_failed"].startswith("10/m/ip")
    for n in range(10):
        response = client.post("/accounts/login/", {"login": f"guess{n}", "password": "x"})
        assert response.status_code == 200 and "do not match" in response.content.decode()
    response = client.post("/accounts/login/", {"login": "alice", "password": PASSWORD})
    assert "Too many failed login attempts" in response.content.decode()
    assert not _logged_in(client)
    # A forged X-Forwarded-For is not a new address.
    response = client.post(
        "/accounts/login/",
        {"login": "alice", "password": PASSWORD},
        HTTP_X_FORWARDED_FOR="203.0.113.9",
    )
    assert not _logged_in(client)
    # Another address is not held up.
    other = Client(REMOTE_ADDR="198.51.100.7")
    assert (
        other.post("/accounts/login/", {"login": "alice", "password": PASSWORD}).status_code == 302
    )


def test_log_ins_per_address_are_limited_even_when_they_succeed(settings, alice):
    """ "login": at most so many log-in attempts a minute from one address (30 in
    production; 3 here to keep the test short), the right password included."""
    _limits(settings, login="3/m/ip")
    client = Client()
    for _ in range(3):
        assert (
            client.post("/accounts/login/", {"login": "alice", "password": PASSWORD}).status_code
            == 302
        )
        client.logout()
    response = client.post("/accounts/login/", {"login": "alice", "password": PASSWORD})
    assert response.status_code == 429 and TOO_MANY in response.content.decode()
    assert response["Retry-After"] == "60"  # the site's own page (templates/429.html)
    assert "<title>Too many attempts · High Society</title>" in response.content.decode()
    assert not _logged_in(client)


def test_a_refused_sign_up_sends_nothing_and_a_forged_address_does_not_dodge_it(settings):
    _limits(settings, signup="3/m/ip")
    client = Client()
    for n in range(3):
        body = {
            "email": f"new{n}@example.com",
            "username": f"newbie{n}",
            "password1": STRONG,
            "password2": STRONG,
        }
        assert client.post("/accounts/signup/", body).status_code == 302
        client.logout()
    sent = len(mail.outbox)
    assert sent == 3  # one verification e-mail each
    body = {
        "email": "late@example.com",
        "username": "late",
        "password1": STRONG,
        "password2": STRONG,
    }
    response = client.post("/accounts/signup/", body, HTTP_X_FORWARDED_FOR="203.0.113.50")
    assert response.status_code == 429 and TOO_MANY in response.content.decode()
    assert not User.objects.filter(username="late").exists()
    assert len(mail.outbox) == sent


def test_password_resets_for_one_address_stop_after_three_an_hour(client, settings, alice):
    """ "3/h/key": the fourth reset of alice@example.com within an hour is refused and
    sends no fourth e-mail (no mail bombing of one inbox; it was five a minute)."""
    assert settings.ACCOUNT_RATE_LIMITS["reset_password"].endswith("3/h/key")
    for _ in range(3):
        response = client.post("/accounts/password/reset/", {"email": "alice@example.com"})
        assert response.status_code == 302
    assert len(mail.outbox) == 3
    response = client.post("/accounts/password/reset/", {"email": "ALICE@example.com"})
    assert response.status_code == 429 and "limited to three an hour" in response.content.decode()
    assert response["Retry-After"] == "3600"
    assert len(mail.outbox) == 3
    # Another address is counted apart (the per-address limit is 20 a minute).
    assert client.post("/accounts/password/reset/", {"email": "bob@example.com"}).status_code == 302


def test_password_resets_from_one_address_stop_after_twenty(client, alice):
    for n in range(20):
        response = client.post("/accounts/password/reset/", {"email": f"who{n}@example.com"})
        assert response.status_code == 302
    sent = len(mail.outbox)
    response = client.post("/accounts/password/reset/", {"email": "alice@example.com"})
    assert response.status_code == 429 and TOO_MANY in response.content.decode()
    assert response["Retry-After"] == "60"  # this place's limit: a minute, not the hour
    assert len(mail.outbox) == sent


# --------------------------------------------------------------------------- API writes


def _api(user) -> Client:
    _, secret = token_create(user=user, name="limits")
    return Client(HTTP_AUTHORIZATION=f"Token {secret}")


def _rates(settings, **rates):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], **rates},
    }


def test_a_throttled_move_is_not_made(settings, alice, bob, carol):
    alice.is_staff = True
    alice.save(update_fields=["is_staff"])
    game = table_make(alice, [bob, carol])  # Alice to bid first
    client = _api(alice)
    _rates(settings, user="1/min")
    assert client.get(f"/api/v1/games/{game.pk}/").status_code == 200  # the one allowed
    response = client.post(
        f"/api/v1/games/{game.pk}/moves/",
        {"type": "bid", "cards": [1000], "version": 0},
        content_type="application/json",
    )
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
    body = response.json()
    assert body["code"] == "throttled" and "Expected available in" in body["detail"]
    assert not Move.objects.filter(game=game).exists()
    assert Game.objects.get(pk=game.pk).version == 0


def test_a_throttled_table_is_not_created(settings, alice):
    client = _api(alice)
    _rates(settings, ip="1/min")
    body = {"players": 3, "seats": [{"ai": "easy"}, {"ai": "easy"}]}
    assert client.get("/api/v1/games/").status_code == 200
    response = client.post("/api/v1/games/", body, content_type="application/json")
    assert response.status_code == 429 and response.json()["code"] == "throttled"
    assert "Retry-After" in response
    assert not Game.objects.exists()


def test_throttled_token_log_ins_issue_no_token(settings, alice):
    _rates(settings, auth="1/min")
    client = Client()
    body = {"username": "alice", "password": PASSWORD}
    assert (
        client.post("/api/v1/auth/token/", body, content_type="application/json").status_code == 200
    )
    tokens = alice.api_tokens.count()
    response = client.post("/api/v1/auth/token/", body, content_type="application/json")
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
    assert alice.api_tokens.count() == tokens


def test_a_locked_accounts_429_says_none_left_in_its_rate_limit_headers(alice):
    """The lockout's 429 (five wrong passwords) said "RateLimit-Remaining: 4" beside
    "Retry-After: 300": a client reading the headers would try again at once."""
    client = Client()
    wrong = {"username": "alice", "password": "not-it-at-all"}
    for _ in range(5):
        response = client.post("/api/v1/auth/token/", wrong, content_type="application/json")
        assert response.status_code == 400
    right = {"username": "alice", "password": PASSWORD}
    response = client.post("/api/v1/auth/token/", right, content_type="application/json")
    assert response.status_code == 429 and response["Retry-After"] == "300"
    assert response["RateLimit-Remaining"] == "0" and response["RateLimit-Reset"] == "300"
    assert response["RateLimit-Limit"] == "5"


def test_someone_elses_throttle_is_not_yours(settings, alice):
    """The limits count per user and per address: Bob, from another address, is not
    refused because Alice used up hers."""
    bob = UserFactory(username="bob")
    _rates(settings, user="1/min")
    first = _api(alice)
    assert first.get("/api/v1/games/").status_code == 200
    assert first.get("/api/v1/games/").status_code == 429
    assert _api(bob).get("/api/v1/games/", REMOTE_ADDR="198.51.100.8").status_code == 200


def test_the_token_endpoint_shares_the_accounts_lockout(settings, alice):
    """Five wrong passwords for one account lock it for five minutes, wherever they are
    tried: the token endpoint refuses a locked account even with the right password
    (429), and its own failures lock the site's log-in too.  From other addresses, so
    that only the per-account limit is at work."""
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"user": "1000/min", "ip": "1000/min", "auth": "1000/min"},
    }
    assert settings.ACCOUNT_RATE_LIMITS["login_failed"].endswith("5/300s/key")

    def token(password: str, address: str):
        return Client(REMOTE_ADDR=address).post(
            "/api/v1/auth/token/",
            {"username": "alice", "password": password},
            content_type="application/json",
        )

    for n in range(5):
        assert token("wrong", f"198.51.100.{n + 1}").status_code == 400
    locked = token(PASSWORD, "198.51.100.50")
    assert locked.status_code == 429 and locked["Retry-After"]
    assert locked.json()["code"] == "throttled" and "password" in locked.json()["detail"]
    assert not alice.api_tokens.exists()
    site = Client(REMOTE_ADDR="198.51.100.51")
    answer = site.post("/accounts/login/", {"login": "alice", "password": PASSWORD})
    assert "Too many failed login attempts" in answer.content.decode()
    assert not _logged_in(site)


def test_an_address_locked_by_failures_is_told_so(settings, alice):
    """Ten wrong passwords from one address, for names that are nobody's, lock log-ins
    from there: alice's right password gets a 429 that names the address as a possible
    cause, not only her account, and no token."""
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"user": "1000/min", "ip": "1000/min", "auth": "1000/min"},
    }
    client = Client(REMOTE_ADDR="198.51.100.90")
    for n in range(10):
        client.post(
            "/api/v1/auth/token/",
            {"username": f"nobody{n}", "password": "wrong"},
            content_type="application/json",
        )
    answer = client.post(
        "/api/v1/auth/token/",
        {"username": "alice", "password": PASSWORD},
        content_type="application/json",
    )
    assert answer.status_code == 429 and answer["Retry-After"] == "300"
    assert "from your address" in answer.json()["detail"]
    assert not alice.api_tokens.exists()


def test_site_log_in_failures_lock_the_token_endpoint(client, alice):
    for n in range(5):
        Client(REMOTE_ADDR=f"198.51.100.{n + 1}").post(
            "/accounts/login/", {"login": "alice", "password": "wrong"}
        )
    answer = Client(REMOTE_ADDR="198.51.100.60").post(
        "/api/v1/auth/token/",
        {"username": "alice", "password": PASSWORD},
        content_type="application/json",
    )
    assert answer.status_code == 429
    assert not alice.api_tokens.exists()


def test_behind_a_proxy_one_visitors_failures_do_not_lock_out_the_others(settings, alice, bob):
    """With TRUSTED_PROXY_COUNT=1 every request comes from the proxy's address, and the
    visitor's own is the last X-Forwarded-For entry: ten failures from one visitor lock
    that visitor's log-ins (and API requests count per visitor), not everyone's."""
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    proxy = {"REMOTE_ADDR": "10.0.0.2"}
    attacker = Client(HTTP_X_FORWARDED_FOR="203.0.113.66", **proxy)
    for n in range(10):
        attacker.post("/accounts/login/", {"login": f"guess{n}", "password": "x"})
    refused = attacker.post("/accounts/login/", {"login": "alice", "password": PASSWORD})
    assert "Too many failed login attempts" in refused.content.decode()
    visitor = Client(HTTP_X_FORWARDED_FOR="198.51.100.23", **proxy)
    assert (
        visitor.post("/accounts/login/", {"login": "bob", "password": PASSWORD}).status_code == 302
    )
    assert _logged_in(visitor)
