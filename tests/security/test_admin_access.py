"""The admin is for staff only (Django's default, kept): everyone else is sent to the
admin's log-in page, which refuses accounts that are not staff.  Staff also need a
second factor (tests/security/test_admin_second_factor.py)."""

import pytest

from tests.factories import PASSWORD, UserFactory
from tests.second_factor import staff_admin_session

pytestmark = pytest.mark.django_db

ADMIN_PAGES = ["/admin/", "/admin/accounts/user/", "/admin/games/game/"]


def _to_admin_login(response, url):
    return response.status_code == 302 and response.url.startswith(f"/admin/login/?next={url}")


@pytest.mark.parametrize("url", ADMIN_PAGES)
def test_anonymous_is_sent_to_the_admin_login(client, url):
    response = client.get(url)
    assert _to_admin_login(response, url), (response.status_code, response.get("Location"))


@pytest.mark.parametrize("url", ADMIN_PAGES)
def test_a_member_who_is_not_staff_is_sent_to_the_admin_login(client, alice, url):
    client.force_login(alice)
    response = client.get(url)
    assert _to_admin_login(response, url), (response.status_code, response.get("Location"))


def test_the_admin_refuses_a_member_who_is_not_staff(client, alice):
    """Signed in through the site (the admin has no log-in form of its own any more),
    a member who is not staff still does not get in."""
    client.post("/accounts/login/", {"login": "alice", "password": PASSWORD})
    assert client.get("/admin/").status_code == 302


def test_staff_get_in_with_both_factors(client, alice):
    alice.is_staff = True
    alice.save(update_fields=["is_staff"])
    client.force_login(alice)
    assert client.get("/admin/").status_code == 302  # a password-only session: not yet
    client.logout()
    staff_admin_session(client, alice)
    assert client.get("/admin/").status_code == 200


@pytest.fixture
def staff_viewer(alice):
    """Staff who may view games and moves in the admin, and who also plays."""
    from django.contrib.auth.models import Permission

    alice.is_staff = True
    alice.save(update_fields=["is_staff"])
    alice.user_permissions.add(
        *Permission.objects.filter(codename__in=["view_game", "view_move", "view_seat"])
    )
    return alice


@pytest.mark.parametrize(
    "url",
    [
        "/admin/games/game/?id={id}&state__setup_deck__0=lux10",
        "/admin/games/game/?state__hands__0__gt=0",
        "/admin/games/game/?scenario_deck__0=lux10",
        "/admin/games/game/?result__isnull=True",
        "/admin/games/move/?action__card__startswith=25",
        "/admin/games/move/?action__type=sealed_bid",
    ],
)
def test_the_admin_refuses_lookups_on_hidden_information(client, staff_viewer, bob, url):
    """A changelist filter on the state, the scenario deck, the result or a move's
    action would answer "1 game" or "0 games" about a running game's secrets: such
    lookups are refused (400), whatever the value."""
    from tests.games.factories import people_game, scenario_deck

    game = people_game(staff_viewer, bob, UserFactory(), deck=scenario_deck("lux10"))
    staff_admin_session(client, staff_viewer)
    answer = client.get(url.format(id=game.pk))
    assert answer.status_code == 400
    assert b"1 game" not in answer.content and b"0 games" not in answer.content
    assert client.get("/admin/games/game/?status=active").status_code == 200  # plain filters work


def test_the_admin_log_in_is_the_sites_log_in_with_its_lockout(client, alice):
    """/admin/login/ sends people to the site's log-in (its rate limits and lockout),
    and never checks a password itself."""
    alice.is_staff = True
    alice.save(update_fields=["is_staff"])
    answer = client.get("/admin/login/?next=/admin/")
    assert answer.status_code == 302 and answer.url.startswith("/accounts/login/?next=/admin/")
    posted = client.post("/admin/login/?next=/admin/", {"username": "alice", "password": PASSWORD})
    assert posted.status_code == 302 and posted.url.startswith("/accounts/login/")
    assert client.get("/admin/").status_code == 302  # not logged in by the admin's form
    for _ in range(5):
        client.post("/accounts/login/", {"login": "alice", "password": "wrong"})
    locked = client.post("/accounts/login/?next=/admin/", {"login": "alice", "password": PASSWORD})
    assert "Too many failed login attempts" in locked.content.decode()
    assert client.get("/admin/").status_code == 302


@pytest.mark.parametrize(
    "url",
    [
        "/admin/games/game/?advanced__contains=yacht",
        "/admin/games/game/?advanced__contained_by=yacht",
        "/admin/games/game/?advanced__has_keys=",
        "/admin/games/game/?advanced__0__contains=yacht",
        "/admin/games/game/?advanced__has_key=yacht",
        "/admin/games/game/?advanced__regex=(",
        "/admin/games/game/?status__regex=(",
        "/admin/games/game/?status__iregex=(",
        "/admin/games/chatmessage/?text__regex=(",
        "/admin/accounts/user/?emails_off__contains=turn",
        "/admin/mfa/authenticator/?data__contains=secret",
    ],
)
def test_a_list_filter_the_database_cannot_answer_is_refused_not_a_500(
    admin_client, alice, bob, carol, url
):
    """A lookup inside a JSON field (``contains`` is not supported on SQLite, an empty
    ``has_keys`` is a syntax error there) or a broken regular expression (an error on
    both databases) failed as the query ran: a 500.  Every admin list refuses them,
    400, the same on SQLite and PostgreSQL."""
    from tests.games.factories import people_game

    people_game(alice, bob, carol, advanced=["yacht"])
    admin_client.raise_request_exception = False
    assert admin_client.get(url).status_code == 400


@pytest.mark.parametrize(
    "url",
    [
        "/admin/tokens/apitoken/?digest__startswith={digest}",
        "/admin/tokens/apitoken/?digest={digest}",
        "/admin/accounts/pushsubscription/?endpoint__contains=SECRET-PATH",
        "/admin/accounts/pushsubscription/?auth__startswith=AUTH",
        "/admin/accounts/pushsubscription/?p256dh__startswith=BPUB",
        "/admin/accounts/user/?password__startswith={password}",
        "/admin/mfa/authenticator/?data__isnull=False",
    ],
)
def test_the_admin_refuses_lookups_on_secrets_it_never_shows(admin_client, alice, url):
    """A token's digest, a device's push address and keys, a password's hash: the
    admin shows none of them, and no list filter answers "1" or "0" about them, a
    character at a time (400 whatever the value)."""
    from accounts.models import PushSubscription
    from accounts.tokens.models import ApiToken
    from accounts.tokens.services import token_create

    token, _secret = token_create(user=alice, name="bot")
    PushSubscription.objects.create(
        user=alice,
        endpoint="https://push.example/send/SECRET-PATH",
        p256dh="BPUBkey",
        auth="AUTHsecret",
    )
    digest = ApiToken.objects.get(pk=token.pk).digest
    password = alice.password[:6]
    answer = admin_client.get(url.format(digest=digest[:2], password=password))
    assert answer.status_code == 400
    assert b"1 api token" not in answer.content and b"1 push subscription" not in answer.content
    assert b"1 user" not in answer.content


@pytest.mark.parametrize(
    "url",
    [
        "/admin/games/game/?status=active",
        "/admin/games/game/?players=3&memory_aid__exact=0",
        "/admin/games/game/?q=alice",
        "/admin/games/move/?actor=player",
        "/admin/games/chatmessage/?text__icontains=luck",
        "/admin/accounts/user/?is_staff__exact=1",
    ],
)
def test_the_admin_lists_plain_filters_still_work(admin_client, alice, bob, carol, url):
    from tests.games.factories import people_game

    people_game(alice, bob, carol, advanced=["yacht"])
    assert admin_client.get(url).status_code == 200
