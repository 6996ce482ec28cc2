"""Deleting an account (accounts.deletion): the page says what will happen, the
password is asked again, then the player leaves every table and the account is
emptied; the games stay whole and show a "Deleted player"."""

from __future__ import annotations

import random

import pytest
from allauth.account.models import EmailAddress
from django.urls import reverse

from accounts.models import PushSubscription, User
from accounts.tokens.services import token_create
from games.chat import chat_mute, chat_post
from games.models import ChatMessage, ChatMute, Game, InvitationBlock, Notification, Seat
from games.services import game_create, game_invitation_respond, game_join, game_rematch
from tests.factories import PASSWORD, UserFactory
from tests.games.factories import people_game, play_out

pytestmark = pytest.mark.django_db

DELETE = "/accounts/profile/delete/"


def signed_in(client, user):
    """``client`` signed in, and the password given again on allauth's reauthentication
    page, as the deletion asks: for the next five minutes it is not asked again."""
    client.force_login(user)
    response = client.post(reverse("account_reauthenticate"), {"password": PASSWORD})
    assert response.status_code == 302, response
    return client


@pytest.fixture
def busy_alice(alice, bob, carol, dave):
    """Alice plays a running game with Bob and Carol (and chats there), hosts a table
    waiting for players, sits at Bob's waiting table, and is invited to Carol's."""
    running = people_game(alice, bob, carol)
    chat_post(game=running, user=alice, text="Good luck, everyone")
    chat_post(game=running, user=bob, text="You too")
    hosted = game_create(creator=alice, players=3, seats=[{"open": True}, {"ai": "easy"}])
    bobs = game_create(
        creator=bob, players=4, seats=[{"open": True}, {"open": True}, {"ai": "easy"}]
    )
    game_join(game=bobs, user=alice)
    carols = game_create(creator=carol, players=3, seats=[{"user": "alice"}, {"open": True}])
    chat_mute(user=alice, username="bob")
    chat_mute(user=dave, username="alice")
    InvitationBlock.objects.create(user=alice, blocked=dave)
    token_create(user=alice, name="my bot")
    PushSubscription.objects.create(
        user=alice, endpoint="https://push.example/alice", p256dh="k", auth="a"
    )
    return {"running": running, "hosted": hosted, "bobs": bobs, "carols": carols}


def test_the_profile_links_to_the_deletion_page(client, alice):
    client.force_login(alice)
    html = client.get(reverse("profile")).content.decode()
    assert f'href="{DELETE}"' in html and "Delete your account…" in html


def test_the_page_says_what_will_happen_before_anything_does(client, busy_alice, alice):
    client.force_login(alice)
    response = client.get(DELETE)
    assert response.status_code == 200
    html = response.content.decode()
    assert "This cannot be undone." in html
    assert "You are playing 1 game: a bot takes your seat and finishes it" in html
    assert "Your table that waits for players is closed." in html
    assert "You leave 2 tables that wait for players (invitations are declined)." in html
    assert "Delete my account" in html and 'name="confirm"' in html
    alice.refresh_from_db()
    assert alice.is_active and alice.deleted_at is None


def test_a_session_alone_cannot_delete_the_account(client, alice):
    """A stolen session (or a forged form) meets allauth's password prompt first."""
    client.force_login(alice)
    response = client.post(DELETE, {"confirm": "on"})
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_reauthenticate"))
    alice.refresh_from_db()
    assert alice.is_active and alice.username == "alice" and alice.deleted_at is None


def test_the_password_prompt_resumes_the_deletion(client, alice):
    client.force_login(alice)
    prompt = client.post(DELETE, {"confirm": "on"})["Location"]
    wrong = client.post(prompt, {"password": "not the password"})
    assert wrong.status_code == 200 and not User.objects.get(pk=alice.pk).deleted_at
    response = client.post(prompt, {"password": PASSWORD}, follow=True)
    assert response.redirect_chain[-1] == ("/", 302)
    assert "Your account is deleted." in response.content.decode()
    assert User.objects.get(pk=alice.pk).deleted_at is not None


def test_without_the_tick_nothing_happens(client, busy_alice, alice):
    signed_in(client, alice)
    response = client.post(DELETE, {})
    assert response.status_code == 400
    assert (
        "Tick the box to confirm that you want to delete your account." in response.content.decode()
    )
    alice.refresh_from_db()
    assert alice.is_active and alice.deleted_at is None
    assert Game.objects.get(pk=busy_alice["hosted"].pk).status == Game.Status.OPEN
    assert ChatMessage.objects.filter(user=alice).exists()


def test_deleting_leaves_every_table_and_empties_the_account(
    client, busy_alice, alice, bob, carol, dave
):
    signed_in(client, alice)
    response = client.post(DELETE, {"confirm": "on"}, follow=True)
    assert response.redirect_chain == [("/", 302)]
    html = response.content.decode()
    assert "Your account is deleted. Thank you for playing High Society." in html
    assert "Log in" in html  # signed out

    alice.refresh_from_db()
    assert alice.username == f"~deleted-{alice.pk}" and alice.public_name == "Deleted player"
    assert (alice.email, alice.display_name, alice.is_active) == ("", "", False)
    assert not alice.has_usable_password()
    assert alice.turn_emails == User.TurnEmails.NONE
    assert not EmailAddress.objects.filter(user=alice).exists()
    assert not alice.api_tokens.exists()
    assert not PushSubscription.objects.filter(user=alice).exists()

    # The running game goes on, a bot in her seat; the others keep their seats.
    running = Game.objects.get(pk=busy_alice["running"].pk)
    assert running.status == Game.Status.ACTIVE
    seat = Seat.objects.get(game=running, user=alice)
    assert seat.resigned and seat.ai_level
    # Her waiting table is closed; she left Bob's; Carol's invitation is declined.
    assert Game.objects.get(pk=busy_alice["hosted"].pk).status == Game.Status.ABANDONED
    assert not Seat.objects.filter(game=busy_alice["bobs"], user=alice).exists()
    carols_seat = Seat.objects.get(game=busy_alice["carols"], position=1)
    assert carols_seat.user is None and carols_seat.declined_by == alice
    # Her words and her settings about others are gone; Bob's line stays.
    assert list(ChatMessage.objects.filter(game=running).values_list("text", flat=True)) == [
        "You too"
    ]
    assert not ChatMute.objects.filter(user=alice).exists()
    assert not ChatMute.objects.filter(muted=alice).exists()
    assert not InvitationBlock.objects.filter(user=alice).exists()
    assert not Notification.objects.filter(user=alice).exists()


def test_nobody_can_sign_in_to_it_and_the_address_is_free_again(client, alice):
    signed_in(client, alice)
    client.post(DELETE, {"confirm": "on"})
    assert client.get(reverse("profile")).status_code == 302  # this session ended
    response = client.post(reverse("account_login"), {"login": "alice", "password": PASSWORD})
    assert response.status_code == 200  # refused
    newcomer = UserFactory(username="alice2", email="alice@example.com")
    assert newcomer.pk != alice.pk


def test_a_deleted_accounts_names_wait_90_days(client, alice, bob):
    """The day after Marta deleted her account a stranger signed up as "marta", and her
    friends' bookmarks led to him.  Her username and display name (and names that read
    as them) are held back for 90 days, kept only as keyed digests."""
    from datetime import timedelta
    from unittest import mock

    from django.test import Client
    from django.utils import timezone

    from accounts.models import RetiredName

    User.objects.filter(pk=alice.pk).update(display_name="Alice Martin")
    signed_in(client, alice)
    client.post(DELETE, {"confirm": "on"})
    assert RetiredName.objects.count() == 2
    assert not any("alice" in row.digest.lower() for row in RetiredName.objects.all())

    stranger = Client()
    answer = stranger.post(
        reverse("account_signup"),
        {
            "username": "ALICE",
            "email": "x@example.org",
            "password1": "N3w-secret-pass!",
            "password2": "N3w-secret-pass!",
        },
    )
    assert "deleted in the last 90 days" in answer.content.decode()
    assert not User.objects.filter(username__iexact="alice").exists()
    stranger.force_login(bob)
    answer = stranger.post("/accounts/profile/", {"display_name": "Alice Martin"})
    assert answer.status_code == 400 and "deleted in the last 90 days" in answer.content.decode()

    later = timezone.now() + timedelta(days=91)
    with mock.patch("accounts.retired_names.timezone.now", return_value=later):
        assert (
            stranger.post("/accounts/profile/", {"display_name": "Alice Martin"}).status_code == 302
        )


def test_api_tokens_stop_working(client, alice):
    _token, secret = token_create(user=alice, name="my bot")
    api = {"HTTP_AUTHORIZATION": f"Token {secret}"}
    assert client.get("/api/v1/users/alice/", **api).status_code == 200
    signed_in(client, alice)
    client.post(DELETE, {"confirm": "on"})
    client.logout()
    assert client.get("/api/v1/users/alice/", **api).status_code == 401


def test_the_others_see_a_deleted_player(client, busy_alice, alice, bob):
    signed_in(client, alice)
    client.post(DELETE, {"confirm": "on"})
    alice.refresh_from_db()
    client.force_login(bob)
    board = client.get(reverse("games:detail", args=[busy_alice["running"].pk])).content.decode()
    assert "Deleted player" in board and "Alice" not in board
    assert "Good luck, everyone" not in board
    gone = client.get(reverse("player_profile", args=[alice.username]))
    assert gone.status_code == 410
    assert "This player deleted their account." in gone.content.decode()
    assert client.get(reverse("player_profile", args=["alice"])).status_code == 404
    assert client.get(f"/api/v1/users/{alice.username}/").status_code == 404


def test_nobody_can_invite_a_deleted_player(busy_alice, alice, bob, client):
    signed_in(client, alice)
    client.post(DELETE, {"confirm": "on"})
    alice.refresh_from_db()
    from games.errors import GameError

    for name in ("alice", alice.username):
        with pytest.raises(GameError, match="There is no player called"):
            game_create(creator=bob, players=3, seats=[{"user": name}, {"ai": "easy"}])


def test_a_rematch_opens_the_seat_of_a_deleted_player(client, alice, bob, carol, run_commits):
    with run_commits():
        game = game_create(creator=alice, players=3, seats=[{"user": "bob"}, {"ai": "easy"}])
        game = game_invitation_respond(game=game, user=bob, accept=True)
    game = play_out(game, random.Random(3), run_commits)
    assert game.status == Game.Status.FINISHED
    signed_in(client, bob)
    client.post(DELETE, {"confirm": "on"})
    rematch, _opened = game_rematch(game=game, user=alice)
    seats = list(Seat.objects.filter(game=rematch).order_by("position"))
    assert [(s.user_id, s.ai_level) for s in seats] == [(alice.pk, ""), (None, ""), (None, "easy")]
    # The finished game's record still has Bob's seat, as "Deleted player".
    replay = client.get(reverse("games:replay", args=[game.pk]))
    assert replay.status_code == 200 and "Deleted player" in replay.content.decode()


def test_staff_can_delete_an_account_from_the_admin(admin_client, admin_user, busy_alice, alice):
    """For a request that came by e-mail: the same deletion as the player's own."""
    changelist = reverse("admin:accounts_user_changelist")
    response = admin_client.post(
        changelist,
        {
            "action": "delete_accounts",
            "_selected_action": [alice.pk, admin_user.pk],
            "post": "yes",  # confirmed (it asks first: tests/accounts/test_staff_admin.py)
        },
        follow=True,
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "1 account deleted: " in html
    assert "Passed over (your own account" in html and admin_user.username in html
    alice.refresh_from_db()
    assert alice.deleted_at is not None and alice.username == f"~deleted-{alice.pk}"
    assert Game.objects.get(pk=busy_alice["hosted"].pk).status == Game.Status.ABANDONED
    admin_user.refresh_from_db()
    assert admin_user.deleted_at is None and admin_user.is_active


def test_the_admin_offers_no_plain_delete_that_would_fail(admin_client, alice):
    """A user's seats and tables protect the row: Django's own delete could only end
    in "protected objects"; the admin offers the account deletion instead."""
    html = admin_client.get(reverse("admin:accounts_user_changelist")).content.decode()
    assert 'value="delete_accounts"' in html and 'value="delete_selected"' not in html
    change = admin_client.get(reverse("admin:accounts_user_change", args=[alice.pk]))
    assert reverse("admin:accounts_user_delete", args=[alice.pk]) not in change.content.decode()
    assert (
        admin_client.get(reverse("admin:accounts_user_delete", args=[alice.pk])).status_code == 403
    )


@pytest.mark.parametrize(
    ("language", "subject", "opening"),
    [
        ("en", "Your account is deleted", "Your High Society account alice is deleted"),
        (
            "de",
            "Dein Konto ist gelöscht",
            "Dein High-Society-Konto alice ist auf deinen Wunsch gelöscht",
        ),
        ("fr", "Votre compte est supprimé", "Votre compte High Society alice est supprimé"),
    ],
)
def test_a_last_e_mail_says_so_to_the_address_it_had(client, alice, language, subject, opening):
    from django.core import mail

    signed_in(client, alice)
    client.cookies["hs_language"] = language
    mail.outbox.clear()
    client.post(DELETE, {"confirm": "on"})
    [message] = mail.outbox
    assert message.to == ["alice@example.com"]
    assert message.subject == f"[High Society] {subject}"
    assert opening in message.body
    assert "127.0.0.1" in message.body  # where it was asked from, if it was not them
    html = message.alternatives[0][0]
    assert opening in html


def test_no_last_e_mail_to_an_address_never_confirmed(client, db):
    """An unconfirmed address may be somebody else's typo: they hear nothing of it."""
    from django.core import mail

    stranger = UserFactory(username="typo", verified_email=False)
    signed_in(client, stranger)
    mail.outbox.clear()
    response = client.post(DELETE, {"confirm": "on"})
    assert response.status_code == 302
    assert User.objects.get(pk=stranger.pk).deleted_at is not None
    assert mail.outbox == []


def test_a_deleted_player_is_named_without_a_link(client, alice, bob, carol, run_commits):
    """Their profile is gone (410): the board, the replay, the history and the others'
    profiles name them without a link to it (it led to a dead end)."""
    game = play_out(people_game(alice, bob, carol), random.Random(3), run_commits)
    signed_in(client, alice)
    client.post(DELETE, {"confirm": "on"})
    alice.refresh_from_db()
    client.force_login(bob)
    for url in (
        reverse("games:detail", args=[game.pk]),
        f"/games/{game.pk}/replay/",
        "/games/history/",
        reverse("player_profile", args=["bob"]),
    ):
        html = client.get(url).content.decode()
        assert "Deleted player" in html, url
        assert "/players/~deleted" not in html and alice.username not in html, url
        assert 'href="/players/carol/"' in html, url  # the others keep theirs


def test_a_deleted_players_games_share_no_identifier(client, alice, bob, carol, run_commits):
    """The records and the API showed a deleted player's seat as "~deleted-7" with its
    user id, the same in every game: knowing them in one game, Bob found all the others.
    Their seat now carries no account at all, in the pages' JSON, the API and the record."""
    game = play_out(people_game(alice, bob, carol), random.Random(3), run_commits)
    signed_in(client, alice)
    client.post(DELETE, {"confirm": "on"})
    client.force_login(bob)
    token = client.post(
        "/api/v1/auth/token/",
        {"username": "bob", "password": PASSWORD},
        content_type="application/json",
    ).json()["token"]
    answers = {
        "record": client.get(f"/games/{game.pk}/record.json"),
        "api game": client.get(f"/api/v1/games/{game.pk}/", HTTP_AUTHORIZATION=f"Token {token}"),
        "api list": client.get(
            "/api/v1/games/?status=finished", HTTP_AUTHORIZATION=f"Token {token}"
        ),
        # Bob's profile: his head-to-head with everyone he played, Alice among them.
        "api profile": client.get("/api/v1/users/bob/", HTTP_AUTHORIZATION=f"Token {token}"),
    }
    for what, answer in answers.items():
        assert answer.status_code == 200, (what, answer.content[:300])
        text = answer.content.decode()
        assert "~deleted" not in text, what
        assert f'"user_id": {alice.pk},' not in text, what
    seat = next(
        s for s in answers["api game"].json()["seats_info"] if s["display_name"] == "Deleted player"
    )
    assert (seat["username"], seat.get("user_id"), seat.get("user")) == (None, None, None)


def test_deleting_sends_nothing_about_the_leaving_player_but_the_last_e_mail(
    client, alice, bob, carol, run_commits
):
    """Deleting resigns Alice's games (bots finish them at once) and declines her
    invitations: her address got "The game at table 9 is over … Hello Alice" beside "the
    last e-mail you get from us", and Bob, her host, "Alice declined your invitation …
    Alice may take it back", her real name, about an account that was being erased."""
    from django.core import mail

    with run_commits():
        running = game_create(creator=alice, players=3, seats=[{"ai": "easy"}, {"ai": "easy"}])
        waiting = game_create(creator=bob, players=3, seats=[{"user": "alice"}, {"open": True}])
    assert Game.objects.get(pk=running.pk).status == Game.Status.ACTIVE
    signed_in(client, alice)
    mail.outbox.clear()
    with run_commits():
        client.post(DELETE, {"confirm": "on"})
    assert Game.objects.get(pk=running.pk).status == Game.Status.FINISHED  # bots ended it
    assert Seat.objects.get(game=waiting, position=1).declined_by == alice
    sent = [(message.to, message.subject) for message in mail.outbox]
    assert sent == [(["alice@example.com"], "[High Society] Your account is deleted")], sent


@pytest.mark.parametrize(
    ("target", "said"),
    [
        (DELETE, "to delete your account"),
        ("/accounts/profile/data/", "to download your data"),
        ("/accounts/email/", "to change your e-mail address"),
    ],
)
def test_the_password_prompt_says_what_it_is_for(client, alice, target, said):
    """ "Confirm Access: Please reauthenticate to safeguard your account." did not say
    for what: deleting the account, downloading one's data, moving the address."""
    client.force_login(alice)
    answer = client.get(reverse("account_reauthenticate") + f"?next={target}")
    assert f"Give your password again {said}." in answer.content.decode()
    other = client.get(reverse("account_reauthenticate") + "?next=/accounts/profile/")
    assert "Give your password again" not in other.content.decode()


def test_a_deletion_that_fails_leaves_the_players_choices(client, alice, monkeypatch):
    """The e-mails are switched off before the tables are left (their results must not
    reach the leaving account); when leaving fails, the account stays, as it was."""
    import accounts.deletion

    User.objects.filter(pk=alice.pk).update(turn_emails=User.TurnEmails.DIGEST, push_off=["turn"])

    def broken(**kwargs):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(accounts.deletion, "player_withdraw", broken)
    with pytest.raises(RuntimeError):
        accounts.deletion.account_delete(user=alice)
    alice.refresh_from_db()
    assert alice.deleted_at is None and alice.turn_emails == User.TurnEmails.DIGEST
    assert alice.push_off == ["turn"]
