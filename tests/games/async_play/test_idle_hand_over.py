"""A table without move deadlines does not wait for ever: once a person to act has
kept it waiting ``SEAT_TO_BOT_AFTER_IDLE_DAYS`` days (a vacation not counted), its
creator may hand the seat to a bot, as after missed deadlines elsewhere; the board, the
e-mails and the replay say why in these words, not "missed deadlines"."""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.utils import timezone

from games.errors import NotAllowed
from games.models import Game, Move, Seat
from games.services import game_invitation_respond, game_seat_to_bot, vacation_start
from tests.games.factories import GameFactory, scenario_deck

pytestmark = pytest.mark.django_db


@pytest.fixture
def open_ended(bobs_table_with):
    """Dora's table without a move deadline: Bob (seat 1) to act first, an easy bot."""
    game = bobs_table_with(deadline=None)
    game.refresh_from_db()
    assert game.deadline_at is None and game.move_deadline_hours is None
    return game


def _waiting_since(game, days):
    Game.objects.filter(pk=game.pk).update(turn_started_at=timezone.now() - timedelta(days=days))
    game.refresh_from_db()
    return game


def test_the_creator_may_hand_over_a_seat_that_kept_the_table_waiting_a_week(
    dora, bob, open_ended, run_commits
):
    game = _waiting_since(open_ended, 6)
    with pytest.raises(NotAllowed, match="after 7 days without its move: this one from "):
        game_seat_to_bot(game=game, user=dora, position=1)
    assert not Seat.objects.get(game=game, position=1).is_bot
    game = _waiting_since(game, 8)
    with pytest.raises(NotAllowed, match="Only the table's creator"):
        game_seat_to_bot(game=game, user=bob, position=1)
    version = game.version
    with run_commits():  # his turn: the bot plays it at once
        game_seat_to_bot(game=game, user=dora, position=1)
    seat = Seat.objects.get(game=game, position=1)
    assert seat.is_bot and seat.handed_over and seat.user == bob
    assert Move.objects.get(game=game, number=version).actor == Move.Actor.BOT


def test_only_a_seat_the_table_waits_for(dora, bob, carol, run_commits):
    with run_commits():
        game = GameFactory(
            creator=dora,
            seats=[{"user": "bob"}, {"user": "carol"}],
            deck=scenario_deck("lux5 lux4 lux3 lux2 lux1"),
            first_player=1,
        )
        for user in (bob, carol):
            game_invitation_respond(game=game, user=user, accept=True)
    game = _waiting_since(game, 30)
    with pytest.raises(NotAllowed, match="The game is not waiting for this seat"):
        game_seat_to_bot(game=game, user=dora, position=2)  # Carol is not to act
    assert not Seat.objects.get(game=game, position=2).is_bot


def test_a_vacation_is_not_counted(dora, bob, open_ended):
    game = _waiting_since(open_ended, 8)
    vacation_start(user=bob, days=2)
    with pytest.raises(NotAllowed, match="after 7 days without its move"):
        game_seat_to_bot(game=game, user=dora, position=1)
    assert not Seat.objects.get(game=game, position=1).is_bot


def test_the_wait_counts_from_a_vacation_ended_early(dora, bob, open_ended):
    """Back early, the days away did not become days without a move: the wait counts
    from the return (it counted from the turn's start, so the host could hand the seat
    over the moment Bob came back)."""
    from games.services import vacation_end

    game = _waiting_since(open_ended, 8)
    vacation_start(user=bob, days=5)
    vacation_end(user=bob)
    with pytest.raises(NotAllowed, match="after 7 days without its move"):
        game_seat_to_bot(game=game, user=dora, position=1)
    assert not Seat.objects.get(game=game, position=1).is_bot


def test_the_host_is_not_warned_about_their_own_seat(client, dora, bobs_table_with):
    """Dora keeps her own table waiting: nobody can hand her seat over (the service
    refuses one's own seat), so her board says nothing of it."""
    game = _waiting_since(bobs_table_with(deadline=None, first=0), 9)
    client.force_login(dora)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert "hand-over-risk" not in html and "No move for 9 days" in html


def test_a_table_with_deadlines_still_counts_missed_deadlines(dora, bobs_table):
    game = _waiting_since(bobs_table, 30)  # no sweep ran: no deadline counted as missed
    with pytest.raises(NotAllowed, match="missed 0 deadlines"):
        game_seat_to_bot(game=game, user=dora, position=1)


def test_the_board_says_how_long_and_offers_the_hand_over(
    client, dora, bob, outsider, open_ended, run_commits
):
    game = _waiting_since(open_ended, 3)
    client.force_login(dora)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert "No move for 3 days" in html and "Hand this seat to a bot" not in html
    client.force_login(outsider)  # a visitor: whether a player is away is the table's
    assert "No move for" not in client.get(f"/games/{game.pk}/").content.decode()
    client.force_login(bob)  # not yet a week: no warning for him
    assert (
        "its host may now hand your seat" not in client.get(f"/games/{game.pk}/").content.decode()
    )
    game = _waiting_since(game, 9)
    assert (
        "The table has waited 9 days for your move: its host may now hand your seat to a bot "
        "for good." in client.get(f"/games/{game.pk}/").content.decode()
    )
    client.force_login(dora)
    assert (
        "its host may now hand your seat" not in client.get(f"/games/{game.pk}/").content.decode()
    )
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert "No move for 9 days" in html
    assert html.count("<summary>Hand this seat to a bot for good…</summary>") == 1
    with run_commits():
        client.post(f"/games/{game.pk}/seat-to-bot/", {"position": "1"})
    board = client.get(f"/games/{game.pk}/").content.decode()
    assert "Away for days — played by a bot" in board and "Missed deadlines" not in board
    client.force_login(bob)
    mine = client.get(f"/games/{game.pk}/").content.decode()
    assert "The table waited days for your move, and the host handed your seat" in mine
    assert "missed your deadlines" not in mine


def test_the_player_is_told_why_without_deadlines(dora, bob, open_ended, run_commits):
    game = _waiting_since(open_ended, 8)
    mail.outbox.clear()
    with run_commits():
        game_seat_to_bot(game=game, user=dora, position=1)
    (message,) = [m for m in mail.outbox if m.to == [bob.email]]
    assert (
        f"You kept table {game.pk} waiting at least 7 days without a move, so Dora, the "
        "table's host, handed your seat to a bot" in message.body
    )
    assert "deadline" not in message.body.split("Hello")[1].split("This cannot")[0]


def test_a_turn_e_mail_at_a_table_without_deadlines_speaks_of_none(bobs_table_with, bob):
    """Its footer offered "a vacation from your deadlines" to a player who has none
    there: a vacation is offered for what it does everywhere, the tables wait."""
    bobs_table_with(deadline=None)
    (turn,) = [m for m in mail.outbox if m.to == [bob.email]]
    assert "deadline" not in turn.body.lower()
    assert "deadline" not in turn.alternatives[0][0].lower()
    assert "Change it, or take a vacation (your tables wait for you):" in turn.body


@pytest.mark.embedded  # the sweep's query reckons the moment in SQL: on SQLite too
def test_the_waiting_player_is_reminded_a_day_before_the_host_may_hand_over(
    dora, bob, open_ended, run_commits
):
    """Bob has kept Dora's table without deadlines waiting nearly a week: the reminders'
    sweep tells him, once, the day before Dora may hand his seat to a bot; by e-mail
    in his own zone and words, and not before that day, nor once the moment has come."""
    from games.deadlines import reminders_sweep
    from games.models import Notification

    bob.time_zone = "Europe/Berlin"
    bob.save(update_fields=["time_zone"])
    game = _waiting_since(open_ended, 5)
    now = timezone.now()
    assert reminders_sweep(now=now) == 0  # two days left
    mail.outbox.clear()
    with run_commits():
        assert reminders_sweep(now=now + timedelta(days=1, minutes=1)) == 1
        assert reminders_sweep(now=now + timedelta(days=1, minutes=2)) == 0
    [message] = [m for m in mail.outbox if m.to == [bob.email]]
    assert message.subject == f"[High Society] Reminder: table {game.pk} is waiting for your move"
    moment = game.turn_started_at + timedelta(days=7)
    assert "has been waiting for your move since " in message.body
    local = timezone.localtime(moment, timezone=ZoneInfo("Europe/Berlin"))
    assert f"{local:%H:%M}" in message.body and "its host, Dora, may hand your seat" in message.body
    notice = Notification.objects.get(kind=Notification.Kind.REMINDER)
    assert notice.user == bob and notice.deadline_at == moment
    assert [m for m in mail.outbox if m.to == [dora.email]] == []


def test_no_idle_reminder_for_the_host_a_late_sweep_or_one_on_vacation(
    dora, bob, bobs_table_with, open_ended
):
    from games.deadlines import reminders_sweep
    from games.models import Notification

    now = timezone.now()
    hosts = _waiting_since(bobs_table_with(deadline=None, first=0), 6.5)  # Dora to act
    assert reminders_sweep(now=now) == 0
    _waiting_since(open_ended, 7.5)  # the moment has come: nothing left to remind of
    assert reminders_sweep(now=now) == 0
    game = _waiting_since(open_ended, 6.5)
    vacation_start(user=bob, days=2, now=now)  # the wait counts from its end
    assert reminders_sweep(now=now) == 0
    assert not Notification.objects.filter(kind=Notification.Kind.REMINDER).exists()
    # Back from it (its end moved the moment) he is reminded the day before the new one.
    bob.refresh_from_db()
    later = bob.vacation_until + timedelta(days=6, hours=1)
    assert reminders_sweep(now=later) == 1
    assert Notification.objects.get(kind=Notification.Kind.REMINDER).deadline_at == (
        bob.vacation_until + timedelta(days=7)
    )
    assert hosts.pk != game.pk


def test_an_idle_reminder_not_sent_yet_is_dropped_once_its_moment_moved(dora, bob, open_ended):
    """Bob had the table open when the sweep ran (the reminder waits), then went on
    vacation: the moment it named is no longer his, so it is not sent."""
    from games.deadlines import reminders_sweep
    from games.models import Notification
    from games.notifications import notification_send, seat_seen

    game = _waiting_since(open_ended, 6.5)
    now = timezone.now()
    seat_seen(game_id=game.pk, user=bob, now=now)
    mail.outbox.clear()
    assert reminders_sweep(now=now) == 1
    notice = Notification.objects.get(kind=Notification.Kind.REMINDER)
    assert notice.status == Notification.Status.PENDING and mail.outbox == []
    vacation_start(user=bob, days=1, now=now)
    assert notification_send(notification_id=notice.pk, now=now + timedelta(minutes=5)) == "skipped"
    notice.refresh_from_db()
    assert "vacation" in notice.note and mail.outbox == []


@pytest.mark.embedded
def test_a_moment_moved_by_a_vacation_gets_its_own_reminder(dora, bob, open_ended):
    """Reminded the day before, Bob goes on vacation: the moment moves to a week after
    it ends, and he is reminded again the day before that one, once."""
    from games.deadlines import reminders_sweep
    from games.models import Notification

    _waiting_since(open_ended, 6.5)
    now = timezone.now()
    assert reminders_sweep(now=now) == 1
    vacation_start(user=bob, days=2, now=now)
    bob.refresh_from_db()
    moment = bob.vacation_until + timedelta(days=7)
    assert reminders_sweep(now=moment - timedelta(days=1, hours=1)) == 0  # not yet
    later = moment - timedelta(hours=23)
    assert reminders_sweep(now=later) == 1
    assert reminders_sweep(now=later) == 0
    rows = Notification.objects.filter(kind=Notification.Kind.REMINDER).order_by("id")
    assert [row.deadline_at for row in rows][1] == moment


def test_tables_long_past_their_moment_do_not_hold_up_the_ones_due(
    dora, bob, bobs_table_with, open_ended, monkeypatch
):
    """The sweep reads only seats whose moment is near: a table past it (an old one,
    from before the reminders) never fills the batch that the due one needs."""
    from games import deadlines
    from games.models import Notification

    monkeypatch.setattr(deadlines, "SWEEP_BATCH", 1)
    for _ in range(2):
        _waiting_since(bobs_table_with(deadline=None), 9)
    due = _waiting_since(open_ended, 6.5)
    assert deadlines.reminders_sweep(now=timezone.now()) == 1
    assert Notification.objects.get(kind=Notification.Kind.REMINDER).game_id == due.pk


def test_with_one_idle_day_the_reminder_comes_hours_before_not_with_the_turn(
    dora, bob, open_ended, settings
):
    from games.deadlines import reminders_sweep

    settings.SEAT_TO_BOT_AFTER_IDLE_DAYS = 1
    game = _waiting_since(open_ended, 0)
    assert reminders_sweep(now=game.turn_started_at + timedelta(hours=19)) == 0
    assert reminders_sweep(now=game.turn_started_at + timedelta(hours=19, minutes=30)) == 1


def test_no_idle_reminder_when_the_host_can_no_longer_act(dora, bob, open_ended):
    from games.deadlines import reminders_sweep

    _waiting_since(open_ended, 6.5)
    type(dora).objects.filter(pk=dora.pk).update(is_active=False)
    assert reminders_sweep(now=timezone.now()) == 0
