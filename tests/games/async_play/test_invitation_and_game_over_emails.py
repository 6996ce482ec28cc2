"""The e-mails a player expects beyond their turns (issue #14): an invitation that says
who invites and links to the table, and the result of a game once it ends, to everyone
who played there and did not watch the end at the board."""

from __future__ import annotations

import random
from urllib.parse import urlencode

import pytest
from django.conf import settings
from django.core import mail

from games.models import Game, Notification
from games.notifications import notification_send, seat_seen
from games.selectors import reader_token
from games.services import game_create, game_invitation_respond, game_resign
from tests.games.factories import people_game, people_play, play_out

pytestmark = pytest.mark.django_db


def _to(user):
    return [m for m in mail.outbox if m.to == [user.email]]


def test_an_invitation_says_who_invites_and_links_to_the_table(alice, bob, carol, run_commits):
    with run_commits():
        game = game_create(
            creator=alice,
            players=3,
            seats=[{"user": "bob"}, {"ai": "hard"}],
            move_deadline_hours=48,
            advanced=["yacht"],
        )
    (message,) = _to(bob)
    assert message.subject == f"[High Society] Alice invites you to table {game.pk}"
    url = f"{settings.SITE_URL}/games/{game.pk}/?" + urlencode(
        {"for": reader_token(game.pk, bob.pk)}
    )  # names its reader
    assert url in message.body and "3 players, 2 days per move" in message.body
    assert "Bot (hard)" in message.body
    html = message.alternatives[0][0]
    assert f'href="{url}"' in html and "Accept or decline" in html
    assert "List-Unsubscribe" in message.extra_headers
    assert _to(alice) == [] and _to(carol) == []
    # Its footer gives the reason it came: invitations are on, not "every turn".
    assert "because “Invitations to a table” is ticked in your e-mail settings" in message.body
    assert "your setting for game e-mails is" not in message.body


def test_a_rematch_invitation_says_so_and_who_is_only_invited(alice, bob, carol, run_commits):
    """Alice asks for a rematch of a finished game with Bob and Carol: each invitation
    says it is a rematch of that table, and names the other invited player as such
    ("Bob (invited)"), not as seated: they may yet decline."""
    from games.services import game_rematch

    finished = play_out(people_game(alice, bob, carol), random.Random(4), run_commits)
    assert finished.status == Game.Status.FINISHED
    mail.outbox.clear()
    with run_commits():
        rematch, _opened = game_rematch(game=finished, user=alice)
    (message,) = [m for m in _to(carol) if "invites you" in m.subject]
    assert f"It is a rematch of table {finished.pk}." in message.body
    assert "At the table: Alice, Bob (invited)." in message.body
    assert f"It is a rematch of table {finished.pk}." in message.alternatives[0][0]
    assert rematch.rematch_of_id == finished.pk


def test_an_answered_invitation_is_not_mailed_late(alice, bob, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as later:
        game = game_create(creator=alice, players=3, seats=[{"user": "bob"}, {"ai": "easy"}])
    game_invitation_respond(game=game, user=bob, accept=False)
    for callback in later:
        callback()  # the listener runs only now: the invitation was declined meanwhile
    notice = Notification.objects.get(kind=Notification.Kind.INVITATION, user=bob)
    assert notice.status == Notification.Status.SKIPPED and _to(bob) == []


def test_everyone_who_played_hears_the_result(dora, alice, bob, run_commits):
    from accounts.models import PlayerResult

    with run_commits():
        game = people_game(dora, alice, bob)
    mail.outbox.clear()
    game = play_out(game, random.Random(3), run_commits)
    assert game.status == Game.Status.FINISHED
    for user in (dora, alice, bob):
        (message,) = [m for m in _to(user) if "is over" in m.subject]
        assert message.subject == f"[High Society] The game at table {game.pk} is over"
        # The subject names the table; the body says once that the game is over.
        assert message.body.split("\n")[2].startswith("The game is over:")
        assert message.body.count("is over") == 1
        result = PlayerResult.objects.get(game=game, user=user)
        if result.cast_out:
            assert "You were cast out: you ended with the least money." in message.body
            assert "Your place" not in message.body
        else:
            assert f"Your place: {result.rank} of 3." in message.body
        # The rating itself, then the change, whole as the rating: "Your rating: 1,041 (+41)."
        from accounts.models import rating_whole
        from games.templatetags.game_cards import rating_change

        delta, rating = result.rating_change_shown, rating_whole(result.rating_after)
        change = rating_change(delta)  # a minus sign, as on the pages
        assert "." not in change
        assert f"Your rating: {rating:,} ({change})." in message.body
        assert "changes no rating" not in message.body
        assert f"{settings.SITE_URL}/games/{game.pk}/replay/?move=0" in message.body
        # The final scores, one line per seat in the order of the places.
        scores = message.body.split("Final scores:\n")[1].split("\n\n")[0].splitlines()
        assert len(scores) == 3 and scores[0].strip().startswith("1. ")
        assert all(": status " in line for line in scores)
        assert "Final scores:" in message.alternatives[0][0]
        # The way back to the table is a button a thumb finds, as in the other e-mails
        # (it was a small inline link, beside the replay's).
        html = message.alternatives[0][0]
        url = f"{settings.SITE_URL}/games/{game.pk}/?" + urlencode(
            {"for": reader_token(game.pk, user.pk)}
        )
        table = html.split(f'href="{url}"', 1)[1].split(">", 1)[0]
        assert "display:inline-block;padding:8px 16px" in table


def test_no_result_mail_for_who_watched_the_end_and_one_for_who_resigned(
    dora, alice, bob, run_commits
):
    with run_commits():
        game = people_game(dora, alice, bob)
        game = game_resign(game=game, user=bob)
    mail.outbox.clear()
    rng = random.Random(8)
    while game.status == Game.Status.ACTIVE:
        seat_seen(game_id=game.pk, user=dora)  # Dora has the board open throughout
        with run_commits():
            game = people_play(game, rng)
        game.refresh_from_db()
    over = [m for m in mail.outbox if "is over" in m.subject]
    assert sorted(m.to[0] for m in over) == sorted([alice.email, bob.email])
    (to_bob,) = [m for m in over if m.to == [bob.email]]
    # Said to him, with where his seat ended: "… to the end (place 2 of 3)."
    place = next(
        line.split(".")[0].strip()
        for line in to_bob.body.split("Final scores:\n")[1].splitlines()
        if "Bob (resigned)" in line
    )
    assert (
        f"You had resigned: a bot played your seat to the end (place {place} of 3)." in to_bob.body
    )
    # Nobody's rating changed, and the e-mails say why (they said nothing of ratings).
    (to_alice,) = [m for m in over if m.to == [alice.email]]
    why = "This game changes no rating. A player resigned."
    assert why in to_alice.body and why in to_alice.alternatives[0][0]
    assert "Your rating" not in to_alice.body
    # To Bob, who resigned, "a player" is he, as his e-mail's first line says already.
    assert "This game changes no rating." in to_bob.body
    assert "A player resigned." not in to_bob.body and "You resigned." not in to_bob.body
    notice = Notification.objects.get(kind=Notification.Kind.GAME_OVER, user=dora)
    assert notice.status == Notification.Status.PENDING  # she may be watching: wait
    seat_seen(game_id=game.pk, user=dora)  # her board refreshed into the end
    assert notification_send(notification_id=notice.pk, now=notice.due_at) == "skipped"
    notice.refresh_from_db()
    assert notice.note == "The player saw the end at the board."
    assert notification_send(notification_id=notice.pk) == "busy"  # done with


def test_a_closed_boards_last_heartbeat_is_not_seeing_the_end(dora, alice, bob, run_commits):
    """Dora closed the board a few seconds before the end; its stream learns she left
    only at its next write, just after marking her at the table (its heartbeat). That
    mark says she may still be there, never that her board showed the end: she hears
    the result once the grace is over."""
    from games.notifications import seat_seen_id

    with run_commits():
        game = people_game(dora, alice, bob)
    mail.outbox.clear()
    rng = random.Random(8)
    while game.status == Game.Status.ACTIVE:
        seat_seen(game_id=game.pk, user=dora)
        with run_commits():
            game = people_play(game, rng)
        game.refresh_from_db()
    notice = Notification.objects.get(kind=Notification.Kind.GAME_OVER, user=dora)
    seat_seen_id(game_id=game.pk, user_id=dora.pk)  # the stream's heartbeat, after the end
    assert notification_send(notification_id=notice.pk, now=notice.due_at) == "sent"
    assert [m.subject for m in _to(dora)] == [f"[High Society] The game at table {game.pk} is over"]


def test_a_player_who_left_just_before_the_end_hears_the_result(dora, alice, bob, run_commits):
    """Her last move made, Dora closed the board; the others ended the game a moment
    later.  She did not see the end: the result comes once the grace is over."""
    with run_commits():
        game = people_game(dora, alice, bob)
    mail.outbox.clear()
    rng = random.Random(8)
    while game.status == Game.Status.ACTIVE:
        seat_seen(game_id=game.pk, user=dora)  # at the board until the last move
        with run_commits():
            game = people_play(game, rng)
        game.refresh_from_db()
    notice = Notification.objects.get(kind=Notification.Kind.GAME_OVER, user=dora)
    assert notice.status == Notification.Status.PENDING and _to(dora) == []
    assert notification_send(notification_id=notice.pk, now=notice.due_at) == "sent"
    assert [m.subject for m in _to(dora)] == [f"[High Society] The game at table {game.pk} is over"]


def test_an_invitation_names_an_open_seat_as_a_sentence_does(alice, bob, run_commits):
    """ "At the table: Bob, Open seat." read as a name; French too ("Place libre")."""
    bob.language = "fr"
    bob.save(update_fields=["language"])
    with run_commits():
        game_create(creator=alice, players=3, seats=[{"user": "bob"}, {"open": True}])
    (message,) = _to(bob)
    assert "À la table\u00a0: Alice, une place libre." in message.body, message.body
