"""Async play on the board: the poll marks the player as online, vacations and missed
deadlines are shown, and the creator's control hands a seat to a bot."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.errors import NotYourSeat
from games.models import Seat
from games.notifications import seat_online
from games.services import game_invitation_respond, vacation_start
from tests.games.factories import GameFactory, scenario_deck

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def game(dora, bob, run_commits):
    with run_commits():
        game = GameFactory(
            creator=dora,
            seats=[{"user": "bob"}, {"ai": "easy"}],
            deck=scenario_deck("lux5"),
            first_player=1,
            move_deadline_hours=24,
        )
        game_invitation_respond(game=game, user=bob, accept=True)
    game.refresh_from_db()
    return game


def test_the_poll_marks_the_player_online(client, game, bob):
    assert not seat_online(game_id=game.pk, user_id=bob.pk, now=timezone.now())
    client.force_login(bob)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(f"/games/{game.pk}/board/?version={game.version}", **HX)
    assert response.status_code == 204
    assert len(queries) <= 2  # the session (the user row is not loaded), the version
    assert seat_online(game_id=game.pk, user_id=bob.pk, now=timezone.now())


def test_the_board_shows_vacations_and_missed_deadlines(client, game, dora, bob):
    vacation_start(user=bob, days=2)
    Seat.objects.filter(game=game, user=bob).update(timeouts=1)
    client.force_login(dora)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert "On vacation until" in html and "Missed 1 deadline<" in html
    assert "Hand this seat to a bot" not in html  # one timeout is not enough
    # For the players at the table, not for any visitor (it showed his dates to anyone).
    client.logout()
    assert "On vacation until" not in client.get(f"/games/{game.pk}/").content.decode()


def test_a_player_moving_while_on_vacation_is_told_the_table_waits(client, game, dora, bob):
    """Eve played from her board during her vacation: nothing said that her vacation
    still made the whole table's deadlines wait (and kept her turn e-mails), nor where
    to end it.  Her own board says so, with the way to end it; the others' do not."""
    vacation_start(user=bob, days=2)
    client.force_login(bob)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert 'id="vacation-note"' in html
    assert (
        "this table's deadlines wait for you, and no turn e-mail comes until you are back" in html
    )
    assert 'href="/accounts/profile/#vacation"' in html
    client.force_login(dora)
    assert 'id="vacation-note"' not in client.get(f"/games/{game.pk}/").content.decode()


def test_a_vacation_is_shown_only_while_it_keeps_the_table_waiting(client, game, dora, bob):
    """Once bob resigned (a bot plays his seat), or once the game is over, his vacation
    explains nothing: the board no longer shows it."""
    from games.models import Game
    from games.services import game_resign

    vacation_start(user=bob, days=2)
    client.force_login(dora)
    assert "On vacation until" in client.get(f"/games/{game.pk}/").content.decode()
    game_resign(game=game, user=bob)
    assert "On vacation until" not in client.get(f"/games/{game.pk}/").content.decode()
    Seat.objects.filter(game=game, user=bob).update(resigned=False, ai_level="")
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    assert "On vacation until" not in client.get(f"/games/{game.pk}/").content.decode()


def test_the_creator_hands_a_seat_to_a_bot_from_the_board(client, game, dora, bob, run_commits):
    Seat.objects.filter(game=game, user=bob).update(timeouts=2)
    client.force_login(bob)
    assert "Hand this seat to a bot" not in client.get(f"/games/{game.pk}/").content.decode()
    refused = client.post(f"/games/{game.pk}/seat-to-bot/", {"position": "1"}, follow=True)
    assert "Only the table&#x27;s creator can hand a seat to a bot." in refused.content.decode()
    assert not Seat.objects.get(game=game, user=bob).is_bot
    client.force_login(dora)
    html = client.get(f"/games/{game.pk}/").content.decode()
    # Behind a second step: it cannot be undone, and one tap was enough.
    assert html.count("<summary>Hand this seat to a bot for good…</summary>") == 1
    assert "This cannot be undone: Bob cannot take the seat back." in html
    with run_commits():  # the bot then moves in his seat (his turn)
        done = client.post(f"/games/{game.pk}/seat-to-bot/", {"position": "1"}, follow=True)
    assert "A bot plays that seat from now on." in done.content.decode()
    seat = Seat.objects.get(game=game, user=bob)
    assert seat.is_bot and seat.resigned and seat.handed_over
    # Bob did not resign, and nothing he reads says he did (it said "You resigned").
    client.force_login(bob)
    board = client.get(f"/games/{game.pk}/").content.decode()
    assert "the host handed your seat to a bot" in board and "You resigned" not in board
    assert "Bob (replaced by a bot)" in board and "(resigned)" not in board
    # The bot moved in his seat: the log names the seat once, not "Bot (…) for Bob
    # (replaced by a bot)", which said "bot" twice.
    assert "Bob (replaced by a bot) passes." in board
    assert "for Bob (replaced by a bot)" not in board
    lobby = client.get("/").content.decode()
    assert "A bot plays your seat" in lobby and "You resigned" not in lobby
    from games.services import game_submit_action

    with pytest.raises(NotYourSeat, match="The host handed your seat to a bot"):
        game_submit_action(game=game, user=bob, action={"type": "pass"}, expected_version=0)


def test_the_chat_changes_no_visitors_stamp_nor_poll(client, game, dora, bob, outsider):
    """The chat is the players': its messages refresh their boards, but a visitor's
    board carries a stamp without them, and their poll stays unchanged (the stamp gave
    away, to the millisecond, when the players chatted)."""
    import re
    from datetime import timedelta

    from games.chat import chat_post
    from games.models import Game

    def stamp(html: str) -> str:
        return re.search(r"/board/\?version=\d+&amp;t=(\d+)", html).group(1)

    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - timedelta(minutes=5))
    pages = {}
    for who in (bob, outsider, None):
        client.logout()
        if who is not None:
            client.force_login(who)
        pages[who] = stamp(client.get(f"/games/{game.pk}/").content.decode())
    chat_post(game=game, user=dora, text="hello")
    game.refresh_from_db()
    for who, seen in pages.items():
        client.logout()
        if who is not None:
            client.force_login(who)
        polled = client.get(f"/games/{game.pk}/board/?version={game.version}&t={seen}", **HX)
        now = stamp(client.get(f"/games/{game.pk}/").content.decode())
        if who is bob:  # a player: the message refreshes his board
            assert polled.status_code == 200 and now != seen
        else:
            assert polled.status_code == 204 and now == seen, who
