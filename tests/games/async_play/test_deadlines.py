"""Move deadlines, reminders, vacations and handing a seat to a bot, on a test clock:
``age(game, hours)`` moves the current turn's start (and deadline) into the past, and
every sweep takes ``now``."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.core import mail
from django.db import connection
from django.utils import timezone

from accounts.models import User
from games.deadlines import (
    deadlines_sweep,
    game_deadline_pass,
    reminders_sweep,
    stalled_sweep,
)
from games.engine import seats_to_act
from games.errors import GameError, NotAllowed
from games.models import Game, Move, Notification, Seat
from games.selectors import table_view
from games.services import (
    game_invitation_respond,
    game_seat_to_bot,
    game_submit_action,
    vacation_end,
    vacation_start,
)
from tests.games.factories import GameFactory, people_game, scenario_deck

pytestmark = pytest.mark.django_db


def _moves(game, actor):
    return list(Move.objects.filter(game=game, actor=actor).order_by("number"))


def test_the_deadline_is_the_move_time_after_the_turn_starts(table):
    game = table(deadline=48)
    assert game.deadline_at == game.turn_started_at + timedelta(hours=48)
    assert table(deadline=None).deadline_at is None


def _a_day_per_move(dora, alice, bob, run_commits):
    """Dora, Alice and Bob at a table with a day per move; Dora (seat 0) to act."""
    with run_commits():
        return people_game(
            dora,
            alice,
            bob,
            deck=scenario_deck("lux5 lux3 prestige"),
            first_player=0,
            move_deadline_hours=24,
        )


def test_the_deadline_e_mail_says_whose_move_is_due_next(dora, alice, bob, age, run_commits):
    """After a bot moved for Dora, the move due next is Alice's: Dora's e-mail says
    "The next move is due …", not "Your move is due …", which she would take as hers."""
    game = _a_day_per_move(dora, alice, bob, run_commits)
    mail.outbox.clear()
    game = age(game, 25)
    with run_commits():
        assert deadlines_sweep(now=timezone.now()) == 1
    game.refresh_from_db()
    assert list(seats_to_act(game.engine_state())) == [1]
    (told,) = [m for m in mail.outbox if "A bot made your move" in m.subject]
    assert "\nThe next move is due in " in told.body
    assert "Your move is due" not in told.body
    html = told.alternatives[0][0]
    assert "The next move is due" in html and "Your move is due" not in html


@pytest.mark.django_db(transaction=True)  # each deadline move commits, as in the sweep
def test_a_deadline_already_passed_is_not_said_to_be_due_in_a_minute(
    dora, alice, bob, age, run_commits
):
    """Alice's and Bob's Yacht Club choices have the same deadline: when it passes, the
    sweep plays Alice's choice, then Bob's.  Alice's e-mail, written between the two,
    said "The next move is due in 1 minute" of a moment already past."""
    with run_commits():
        game = people_game(
            dora,
            alice,
            bob,
            deck=scenario_deck("yacht", ("yacht",)),
            first_player=0,
            advanced=("yacht",),
            move_deadline_hours=24,
        )
        game = game_submit_action(
            game=game,
            user=dora,
            action={"type": "sealed_bid", "card": 20000},
            expected_version=game.version,
        )
    mail.outbox.clear()
    game = age(game, 25)
    with run_commits():
        deadlines_sweep(now=timezone.now())
    told = [m for m in mail.outbox if "A bot made your move" in m.subject]
    assert len(told) == 2
    first = next(m for m in told if "Waiting for" in m.body)  # written between the two
    assert "The time for the next move ran out (" in first.body
    assert "due in 1 minute" not in first.body


def test_at_the_deadline_a_bot_moves_once_and_the_player_is_told(table, dora, age, run_commits):
    game = age(table(), 25)
    now = timezone.now()
    with run_commits():
        assert deadlines_sweep(now=now) == 1
    [move] = _moves(game, Move.Actor.DEADLINE)
    assert (move.number, move.seat, move.user) == (0, 0, None)
    assert Seat.objects.get(game=game, position=0).timeouts == 1
    game.refresh_from_db()
    assert game.version > 1 and game.deadline_at > now  # the bots replied; a new turn
    notice = Notification.objects.get(game=game, kind=Notification.Kind.DEADLINE)
    assert notice.status == Notification.Status.SENT and notice.move_number == 0
    told = [m for m in mail.outbox if "A bot made your move" in m.subject]
    assert len(told) == 1 and told[0].to == ["dora@example.com"]
    # One sentence on one line: a mail program wraps it where the reader's screen ends.
    assert "so a bot made that one move for you: it " in told[0].body
    # The same sweep again, or late: nothing more for that turn.
    with run_commits():
        assert deadlines_sweep(now=now) == 0
        assert game_deadline_pass(game_id=game.pk, now=now) == 0
    assert len(_moves(game, Move.Actor.DEADLINE)) == 1


def test_the_board_counts_the_time_left_as_the_e_mails_do(client, table, dora, age):
    """Days and hours, in each language's own grammar ("in 4 Tagen", not Django's
    "in 4 Tage"); once the deadline has passed, until the sweep moves, it says so
    rather than "due in 0 minutes"."""
    game = age(table(deadline=168), 25.5)  # 142.5 hours left
    client.force_login(dora)
    url = f"/games/{game.pk}/"
    assert "Move due in 5 days and 22 hours" in client.get(url).content.decode()
    german = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Zug fällig in 5 Tagen und 22 Stunden" in german
    game = age(game, 143)
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Time is up for this move: a bot plays it shortly." in page
    assert "Move due" not in page


def test_no_deadline_move_before_the_deadline(table, age):
    game = age(table(), 23.9)
    assert deadlines_sweep(now=timezone.now()) == 0
    assert _moves(game, Move.Actor.DEADLINE) == []


def test_a_deadline_move_for_each_person_in_a_yacht_club_turn(dora, bob, run_commits, age):
    with run_commits():
        game = GameFactory(
            creator=dora,
            seats=[{"user": "bob"}, {"ai": "medium"}],
            deck=scenario_deck("yacht lux5", ("yacht",)),
            advanced=("yacht",),
            first_player=0,
            move_deadline_hours=72,
        )
        game_invitation_respond(game=game, user=bob, accept=True)
    game = age(game, 73)
    with run_commits():
        assert deadlines_sweep(now=timezone.now()) == 2
    assert sorted(m.seat for m in _moves(game, Move.Actor.DEADLINE)) == [0, 1]
    assert [s.timeouts for s in Seat.objects.filter(game=game).order_by("position")] == [1, 1, 0]
    assert Game.objects.get(pk=game.pk).engine_state().phase != "sealed"


@pytest.mark.django_db(transaction=True)
def test_two_sweeps_at_once_move_once(dora, age):
    """Two beat processes by mistake, or a redelivered sweep: the version check in the
    one door lets exactly one deadline move through."""
    game = GameFactory(
        creator=dora,
        seats=[{"ai": "easy"}, {"ai": "easy"}],
        deck=scenario_deck("lux5"),
        first_player=0,
        move_deadline_hours=24,
    )
    game = age(game, 25)
    now = timezone.now()
    barrier = threading.Barrier(4)
    results, errors = [], []

    def sweep():
        try:
            barrier.wait()
            results.append(game_deadline_pass(game_id=game.pk, now=now))
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=sweep) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert errors == []
    assert sorted(results) == [0, 0, 0, 1]
    assert len(_moves(game, Move.Actor.DEADLINE)) == 1
    assert Seat.objects.get(game=game, position=0).timeouts == 1
    assert Notification.objects.filter(kind=Notification.Kind.DEADLINE).count() == 1


def test_a_reminder_at_80_percent_once_per_turn(table, age, run_commits):
    game = age(table(), 19)  # 79% of a day
    now = timezone.now()
    assert reminders_sweep(now=now) == 0
    game = age(game, 0.5)  # 81%
    with run_commits():
        assert reminders_sweep(now=now) == 1
        assert reminders_sweep(now=now) == 0
    [message] = mail.outbox
    assert (
        message.subject
        == f"[High Society] Reminder: your move at table {game.pk} is due in 4 hours"
    )
    assert "If you have not moved by then, a bot will make that one move for you" in message.body
    # Past the deadline there is nothing to remind of.
    assert reminders_sweep(now=now + timedelta(hours=5)) == 0


def test_a_deadline_moved_by_a_vacation_gets_its_own_reminder(table, dora, age, run_commits):
    """Reminded at 80% of her day, Dora goes on vacation: her deadline moves to a full
    day after it ends, and she is reminded again at 80% of that day, once (the reminder
    was kept per turn, so the moved deadline came with none)."""
    game = age(table(), 20)
    now = timezone.now()
    with run_commits():
        assert reminders_sweep(now=now) == 1
    vacation_start(user=dora, days=2, now=now)
    game.refresh_from_db()
    assert game.deadline_at == dora.vacation_until + timedelta(hours=24)
    assert reminders_sweep(now=game.deadline_at - timedelta(hours=5)) == 0  # 79%
    later = game.deadline_at - timedelta(hours=4)
    with run_commits():
        assert reminders_sweep(now=later) == 1
        assert reminders_sweep(now=later) == 0
    reminders = Notification.objects.filter(kind=Notification.Kind.REMINDER, user=dora)
    assert [n.deadline_at for n in reminders.order_by("id")][1] == game.deadline_at


def test_a_reminder_waits_while_the_player_has_the_game_open(table, dora, age, run_commits):
    from games.notifications import seat_seen

    game = age(table(), 20)
    seat_seen(game_id=game.pk, user=dora)
    with run_commits():
        assert reminders_sweep(now=timezone.now()) == 1
    assert mail.outbox == []
    notice = Notification.objects.get(kind=Notification.Kind.REMINDER)
    assert notice.status == Notification.Status.PENDING


# --------------------------------------------------------------------------- vacations


def test_a_vacation_pauses_the_deadline_and_is_shown(table, dora, bob):
    game = table()
    before = game.deadline_at
    dora = vacation_start(user=dora, days=3)
    game.refresh_from_db()
    assert dora.vacation_until > timezone.now() + timedelta(days=2, hours=23)
    assert game.deadline_at == dora.vacation_until + timedelta(hours=24)
    assert game.deadline_at > before + timedelta(days=3)
    info = table_view(game=game, user=dora).to_json()["seats_info"][0]
    assert info["vacation_until"] == dora.vacation_until
    # Shown to the players at the table only: bob sits elsewhere.
    assert table_view(game=game, user=bob).to_json()["seats_info"][0]["vacation_until"] is None
    assert dora.vacation_days_left(timezone.now()) == 11
    assert deadlines_sweep(now=before + timedelta(hours=1)) == 0  # no move: on vacation


def test_vacation_days_are_bounded_per_year(dora, settings):
    settings.VACATION_DAYS_PER_YEAR = 5
    now = timezone.now()
    vacation_start(user=dora, days=4, now=now)
    with pytest.raises(
        NotAllowed, match="You have 1 vacation day left this year; you asked for 2."
    ):
        vacation_start(user=dora, days=2, now=now)
    vacation_start(user=dora, days=1, now=now)  # a vacation can grow
    dora.refresh_from_db()
    assert dora.vacation_until == now + timedelta(days=5)
    with pytest.raises(GameError):
        vacation_start(user=dora, days=0, now=now)
    # A new year, a new allowance.
    next_year = now.replace(year=now.year + 1)
    assert User.objects.get(pk=dora.pk).vacation_days_left(next_year) == 5


def test_coming_back_early_gives_days_back_and_a_full_move_time(table, dora):
    game = table()
    now = timezone.now()
    vacation_start(user=dora, days=5, now=now)
    later = now + timedelta(days=1, hours=2)
    vacation_end(user=dora, now=later)
    dora.refresh_from_db()
    assert dora.vacation_until == later and not dora.on_vacation(later)  # ended then
    assert dora.vacation_days_used == 2  # 3 days unused
    game.refresh_from_db()
    assert game.deadline_at == later + timedelta(hours=24)
    with pytest.raises(NotAllowed):
        vacation_end(user=dora, now=later)


def test_a_vacation_begun_after_the_deadline_was_set_still_counts(table, dora, age):
    """The sweep looks again before it moves: the vacation moves the deadline."""
    game = age(table(), 25)
    until = timezone.now() + timedelta(days=2)
    User.objects.filter(pk=dora.pk).update(vacation_until=until)
    assert deadlines_sweep(now=timezone.now()) == 0
    game.refresh_from_db()
    assert game.deadline_at == until + timedelta(hours=24)


def test_another_players_vacation_does_not_move_my_deadline(dora, bob, run_commits):
    with run_commits():
        game = GameFactory(
            creator=dora,
            seats=[{"user": "bob"}, {"ai": "easy"}],
            deck=scenario_deck("lux5"),
            first_player=0,
            move_deadline_hours=24,
        )
        game_invitation_respond(game=game, user=bob, accept=True)
    game.refresh_from_db()
    before = game.deadline_at
    vacation_start(user=bob, days=2)
    game.refresh_from_db()
    assert game.deadline_at == before  # Dora is to act, not Bob


# --------------------------------------------------------------------------- seat to bot


def test_the_creator_hands_a_seat_that_keeps_timing_out_to_a_bot(
    dora, bob, bobs_table, run_commits, passes_until, misses_deadline
):
    game = misses_deadline(bobs_table, dora, 1)
    with pytest.raises(NotAllowed, match="missed 1 deadline; it can be handed to a bot after 2"):
        game_seat_to_bot(game=game, user=dora, position=1)
    game = misses_deadline(game, dora, 1)
    assert Seat.objects.get(game=game, position=1).timeouts == 2
    with pytest.raises(NotAllowed, match="Only the table's creator"):
        game_seat_to_bot(game=game, user=bob, position=1)
    with pytest.raises(NotAllowed, match="your own seat"):
        game_seat_to_bot(game=game, user=dora, position=0)
    with pytest.raises(NotAllowed, match="A bot already plays"):
        game_seat_to_bot(game=game, user=dora, position=2)
    with pytest.raises(GameError, match="no seat 8"):  # the pages count from 1
        game_seat_to_bot(game=game, user=dora, position=7)
    game = passes_until(game, dora, 1)
    version = game.version
    with run_commits():  # Bob's turn: his new bot plays it at once
        game_seat_to_bot(game=game, user=dora, position=1)
    seat = Seat.objects.get(game=game, position=1)
    assert seat.is_bot and seat.resigned and seat.ai_level == "medium" and seat.user == bob
    assert Move.objects.get(game=game, number=version).actor == Move.Actor.BOT
    moves = Move.objects.filter(game=game).count()
    game_seat_to_bot(game=game, user=dora, position=1)  # sent again: nothing changes
    assert Move.objects.filter(game=game).count() == moves


def test_the_player_hears_when_the_host_may_hand_the_seat_over(
    client, dora, bob, bobs_table, misses_deadline
):
    """The second missed deadline's e-mail and Bob's board say the host may now hand his
    seat to a bot for good (it said "still yours" as after the first, while the host's
    board offered the hand-over)."""
    game = misses_deadline(bobs_table, dora, 1)
    client.force_login(bob)
    (first,) = [m for m in mail.outbox if m.to == [bob.email] and "made your move" in m.subject]
    assert "Your seat is still yours: come back and play on." in first.body
    assert "hand-over-risk" not in client.get(f"/games/{game.pk}/").content.decode()
    mail.outbox.clear()
    game = misses_deadline(game, dora, 1)
    (second,) = [m for m in mail.outbox if m.to == [bob.email] and "made your move" in m.subject]
    assert (
        "Your seat is still yours, but it has missed 2 deadlines: the table's host may now "
        "hand it to a bot for good. Come back and play on." in second.body
    )
    assert "it has missed 2 deadlines" in second.alternatives[0][0]
    board = client.get(f"/games/{game.pk}/").content.decode()
    assert (
        "You have missed 2 deadlines at this table: its host may now hand your seat to a bot "
        "for good." in board
    )


def test_the_host_is_never_told_that_the_host_may_take_their_seat(table, dora, age, run_commits):
    """Dora's own table, two deadlines missed: her e-mail says her seat is hers, with
    no word of a host handing it over (nobody can: it is the host's own seat)."""
    game = table()
    for _ in range(2):
        game = age(game, 25)
        with run_commits():
            deadlines_sweep(now=timezone.now())
        game.refresh_from_db()
        assert seats_to_act(game.engine_state()) == [0]  # the bots replied: hers again
    assert Seat.objects.get(game=game, position=0).timeouts == 2
    told = [m for m in mail.outbox if "A bot made your move" in m.subject]
    assert len(told) == 2
    assert "may now hand it to a bot" not in told[1].body
    assert "Your seat is still yours: come back and play on." in told[1].body


# --------------------------------------------------------------------------- stalled games


def test_a_bot_turn_lost_with_the_broker_is_swept_up(
    dora, django_capture_on_commit_callbacks, run_commits
):
    with django_capture_on_commit_callbacks(execute=False):  # the bot task never ran
        game = GameFactory(
            creator=dora, seats=[{"ai": "easy"}] * 2, deck=scenario_deck("lux5"), first_player=1
        )
    assert game.version == 0
    now = timezone.now()
    assert stalled_sweep(now=now) == 0  # not late yet
    with run_commits():
        assert stalled_sweep(now=now + timedelta(minutes=3)) >= 1
    game.refresh_from_db()
    assert game.version >= 2 and _moves(game, Move.Actor.BOT)


def test_a_turn_email_lost_with_the_broker_is_swept_up(
    dora, django_capture_on_commit_callbacks, run_commits
):
    with django_capture_on_commit_callbacks(execute=False):  # turn_emails never queued
        game = GameFactory(
            creator=dora, seats=[{"ai": "easy"}] * 2, deck=scenario_deck("lux5"), first_player=0
        )
    assert not Notification.objects.exists()
    with run_commits():
        assert stalled_sweep(now=timezone.now() + timedelta(minutes=3)) == 1
        assert stalled_sweep(now=timezone.now() + timedelta(minutes=4)) == 0  # done once
    assert [m.to for m in mail.outbox] == [["dora@example.com"]]
    assert Notification.objects.get(game=game).status == Notification.Status.SENT


def test_a_yacht_club_choice_lost_with_the_broker_is_swept_up(
    dora, django_capture_on_commit_callbacks, run_commits
):
    with django_capture_on_commit_callbacks(execute=False):  # the bot's task never ran
        game = GameFactory(
            creator=dora,
            seats=[{"ai": "easy"}, {"ai": "easy"}],
            deck=scenario_deck("yacht lux5", ("yacht",)),
            advanced=("yacht",),
            first_player=0,
        )
    assert game.engine_state().phase == "sealed" and game.version == 0
    with run_commits():
        assert stalled_sweep(now=timezone.now() + timedelta(minutes=3)) >= 1
    bots = Move.objects.filter(game=game, actor=Move.Actor.BOT, number__lt=2)
    assert sorted(bots.values_list("seat", flat=True)) == [1, 2]


def test_a_bid_made_for_an_absent_player_is_told_with_its_whole_total(dora, alice, bob):
    """The e-mail says "A bot made your move: it bid 4,000 (total 5,000)": the total is
    the seat's whole bid, the 1,000 already out included, as the log says it."""
    from games import presenter
    from games.notifications import _bid_total

    game = people_game(dora, alice, bob, deck=scenario_deck("lux5 lux3"), first_player=0)
    for version, (user, cards) in enumerate(
        [(dora, [1000]), (alice, [2000]), (bob, [3000]), (dora, [4000])]
    ):
        game = game_submit_action(
            game=game, user=user, action={"type": "bid", "cards": cards}, expected_version=version
        )
    move = Move.objects.get(game=game, number=3)
    total = _bid_total(table_view(game=game, user=dora), move)
    assert presenter.action_text(move.action, total) == "bid 4,000 (total 5,000)"
    assert (
        _bid_total(table_view(game=game, user=dora), Move.objects.get(game=game, number=0)) == 1000
    )


def test_the_board_tells_a_player_a_bot_made_their_move_at_the_deadline(
    dora, alice, bob, age, run_commits, client
):
    """Dora comes back after her time ran out: under the headline her board says a bot
    made her last move (it showed only the log's line among the others' and a tag);
    nobody else's board says it, and it goes once she moves herself."""
    game = _a_day_per_move(dora, alice, bob, run_commits)
    game = age(game, 25)
    with run_commits():
        assert deadlines_sweep(now=timezone.now()) == 1
    said = "Your time ran out while you were away: a bot made your last move (move 1 in the log)."
    client.force_login(dora)
    assert said in client.get(f"/games/{game.pk}/").content.decode()
    client.force_login(alice)
    assert "Your time ran out" not in client.get(f"/games/{game.pk}/").content.decode()
    game.refresh_from_db()
    with run_commits():
        for user in (alice, bob):  # Dora's bot bid or passed; the others pass
            game = game_submit_action(
                game=game, user=user, action={"type": "pass"}, expected_version=game.version
            )
    game.refresh_from_db()
    assert list(seats_to_act(game.engine_state())) == [0]  # Dora, herself again
    game = game_submit_action(
        game=game,
        user=dora,
        action={"type": "bid", "cards": [25000]},
        expected_version=game.version,
    )
    client.force_login(dora)
    assert "Your time ran out" not in client.get(f"/games/{game.pk}/").content.decode()


def test_a_bot_made_the_last_move_the_e_mail_does_not_ask_to_play_on(dora, alice, bob, run_commits):
    """The deadline's e-mail for the move that ended the game said "Your seat is still
    yours: come back and play on." above "The game is over: dora wins.", to dora."""
    import random

    from games.notifications import notification_send
    from games.presenter import headline
    from tests.games.factories import play_out

    game = play_out(people_game(dora, alice, bob), random.Random(7), run_commits)
    assert game.status == Game.Status.FINISHED
    last = Move.objects.filter(game=game).order_by("-number").first()
    winner = next(
        (row.seat for row in table_view(game=game, user=dora).score if row.details["winner"]),
        None,
    )
    assert winner is not None  # this deal has one winner
    for user in (dora, alice, bob):
        view = table_view(game=game, user=user)
        seat = Seat.objects.get(game=game, user=user).position
        said = headline(view).text
        assert (said == "The game is over: you win.") == (seat == winner), said
        mail.outbox.clear()
        notice = Notification.objects.create(
            user=user,
            game=game,
            kind=Notification.Kind.DEADLINE,
            key=f"last:{user.pk}",
            move_number=last.number,
            due_at=timezone.now(),
        )
        assert notification_send(notification_id=notice.pk) == "sent"
        (message,) = mail.outbox
        assert "The game is over now." in message.body
        assert "play on" not in message.body and "play on" not in message.alternatives[0][0]


def test_a_table_that_waits_for_players_a_month_unchanged_is_closed(
    client, dora, alice, bob, settings
):
    """A waiting table stayed open for ever: in the lobby, keeping those seated there
    waiting, and counted against its host's waiting tables."""
    from games.services import game_create, game_join

    settings.WAITING_TABLE_DAYS = 30
    quiet = game_create(creator=dora, players=3, seats=[{"open": True}, {"open": True}])
    game_join(game=quiet, user=alice)
    busy = game_create(creator=dora, players=3, seats=[{"open": True}, {"open": True}])
    now = timezone.now()
    Game.objects.filter(pk=quiet.pk).update(updated_at=now - timedelta(days=31))
    Game.objects.filter(pk=busy.pk).update(updated_at=now - timedelta(days=29))
    assert stalled_sweep(now=now) == 1
    assert Game.objects.get(pk=quiet.pk).status == Game.Status.ABANDONED
    assert Game.objects.get(pk=busy.pk).status == Game.Status.OPEN
    assert Seat.objects.filter(game=quiet).count() == 3  # nothing erased: who sat there
    client.force_login(bob)
    assert f"Table {quiet.pk}" not in client.get("/").content.decode()
    lobby = client.get("/").content.decode()
    assert f"Table {busy.pk}" in lobby
    # Since when each table waits: a month-old table looked like a new one.
    since = timezone.localtime(busy.created_at)
    assert f"waiting since {since.day} {since:%b} {since.year}" in lobby
    client.force_login(alice)
    assert "This table was closed" in client.get(f"/games/{quiet.pk}/").content.decode()
    # A join meanwhile makes it new again; the sweep again finds nothing.
    game_join(game=busy, user=bob)
    assert stalled_sweep(now=now + timedelta(days=2)) == 0
