"""Suspending an account from the admin (accounts.suspension): the action takes the
player out of every table, so no game waits for a move that cannot come, and erases
nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.tokens.services import token_create
from games.chat import chat_post
from games.models import ChatMessage, Game, Seat
from games.services import game_create
from tests.games.api.conftest import token_client
from tests.games.factories import people_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def abuser_tables(alice, bob, carol):
    """Carol plays a running game with Alice and Bob (and is rude in its chat), and
    hosts a table waiting for players."""
    running = people_game(alice, bob, carol)
    chat_post(game=running, user=carol, text="you are all idiots")
    hosted = game_create(creator=carol, players=3, seats=[{"open": True}, {"ai": "easy"}])
    return running, hosted


def _suspended(carol, running, hosted):
    carol.refresh_from_db()
    assert not carol.is_active and carol.username == "carol"  # nothing erased
    seat = Seat.objects.get(game=running, user=carol)
    assert seat.resigned and seat.ai_level  # a bot plays her seat: the game goes on
    assert Game.objects.get(pk=running.pk).status == Game.Status.ACTIVE
    assert Game.objects.get(pk=hosted.pk).status == Game.Status.ABANDONED
    assert ChatMessage.objects.filter(user=carol).count() == 1  # the evidence stays


def test_the_suspend_action_takes_the_player_out_of_every_table(
    admin_client, admin_user, abuser_tables, carol
):
    running, hosted = abuser_tables
    token = token_client(carol)
    answer = admin_client.post(
        reverse("admin:accounts_user_changelist"),
        {
            "action": "suspend_accounts",
            "_selected_action": [carol.pk, admin_user.pk],
            "post": "yes",  # confirmed (tests/accounts/test_staff_admin.py: it asks first)
        },
        follow=True,
    )
    html = answer.content.decode()
    assert "Suspended carol: left 0 tables, closed 1 of its own, resigned 1 running game" in html
    assert "Passed over (your own account" in html
    _suspended(carol, running, hosted)
    admin_user.refresh_from_db()
    assert admin_user.is_active
    assert token.get("/api/v1/games/").status_code == 401


def test_a_suspended_player_cannot_be_invited(abuser_tables, carol, alice):
    from accounts.suspension import account_suspend
    from games.errors import GameError

    account_suspend(user=carol)
    with pytest.raises(GameError, match="no player called “carol”"):
        game_create(creator=alice, players=3, seats=[{"user": "carol"}, {"ai": "easy"}])
    token_create(user=carol, name="after")  # the account is kept; it just cannot sign in


def test_a_suspended_player_is_told_so_not_that_the_account_is_missing(client, carol):
    """Their log-in said only "This account is inactive."; a password reset wrote "no
    account has this address" and a sign-up "you already have an account, choose a new
    password": two e-mails that contradicted each other, neither true."""
    from allauth.account.models import EmailAddress
    from django.core import mail

    from accounts.suspension import account_suspend
    from tests.factories import PASSWORD

    EmailAddress.objects.update_or_create(
        user=carol, email=carol.email, defaults={"verified": True, "primary": True}
    )
    account_suspend(user=carol)
    page = client.post(reverse("account_login"), {"login": "carol", "password": PASSWORD})
    page = client.get(page["Location"]) if page.status_code == 302 else page
    assert "This account is suspended" in page.content.decode()
    mail.outbox.clear()
    client.post(reverse("account_reset_password"), {"email": carol.email})
    client.post(
        reverse("account_signup"),
        {
            "username": "carol2",
            "email": carol.email,
            "password1": "a long new secret 42",
            "password2": "a long new secret 42",
        },
    )
    assert [m.subject for m in mail.outbox] == ["[High Society] Your account is suspended"] * 2
    for message in mail.outbox:
        assert "the High Society account carol, which the site's staff suspended" in message.body
        assert "no account has this address" not in message.body
        assert "/password/reset/" not in message.body


@pytest.mark.django_db(transaction=True)  # each commit's callbacks run as it commits
def test_a_suspended_player_gets_no_email_of_the_games_bots_finish(carol):
    """Suspending hands the seats to bots, which may end a game at once: its game-over
    e-mail used to reach the account just suspended."""
    from allauth.account.models import EmailAddress
    from django.core import mail

    from accounts.suspension import account_suspend
    from tests.games.factories import GameFactory

    EmailAddress.objects.update_or_create(
        user=carol, email=carol.email, defaults={"verified": True, "primary": True}
    )
    game = GameFactory(creator=carol, seats=[{"ai": "easy"}] * 2)
    mail.outbox.clear()
    account_suspend(user=carol)
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED  # the bots ended it
    assert [m for m in mail.outbox if carol.email in m.to] == []


@pytest.mark.parametrize("suspended", [True, False])
def test_the_address_owner_reads_these_emails_in_their_language(client, carol, suspended):
    """A reset or a sign-up asked for from a German page wrote to a French account in
    German ("Dein Konto ist gesperrt", "Du hast schon ein Konto")."""
    from django.core import mail

    from accounts.suspension import account_suspend

    carol.language = "fr"
    carol.save(update_fields=["language"])
    if suspended:
        account_suspend(user=carol)
    mail.outbox.clear()
    german = {"HTTP_ACCEPT_LANGUAGE": "de"}
    if suspended:
        client.post(reverse("account_reset_password"), {"email": carol.email}, **german)
    secret = "a long new secret 42"
    client.post(
        reverse("account_signup"),
        {"username": "carol2", "email": carol.email, "password1": secret, "password2": secret},
        **german,
    )
    expected = ["Votre compte est suspendu"] * 2 if suspended else ["Vous avez déjà un compte"]
    assert [m.subject.removeprefix("[High Society] ") for m in mail.outbox] == expected
