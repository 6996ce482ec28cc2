"""The move clock: when the people to act must have moved.

A table may give each move a deadline (1, 2, 3 or 7 days).  The services set
``Game.deadline_at`` whenever a person is to act; a player on vacation gets the whole
move time after the vacation ends (their clock is paused meanwhile).  The sweeps that
act on deadlines are in ``games.deadlines``.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Max

from games.models import Game


def deadline_compute(*, game: Game, user_ids: list[int], since: datetime | None = None) -> datetime:
    """When the people ``user_ids`` must have moved: the turn's start (or ``since``,
    if later) plus the table's move time, but never counting a vacation: a player on
    vacation gets the whole move time after it ends."""
    start = game.turn_started_at
    if since is not None and since > start:
        start = since
    if user_ids:
        from accounts.models import User

        latest = User.objects.filter(pk__in=user_ids, vacation_until__gt=start).aggregate(
            latest=Max("vacation_until")
        )["latest"]
        if latest is not None:
            start = latest
    return start + timedelta(hours=game.move_deadline_hours)


def idle_since(game: Game, user: Any) -> datetime:
    """Since when ``user``, to act at ``game`` (a table without a move deadline), has
    kept it waiting: the turn's start, or the end of their vacation if later (the count
    starts again then, as a deadline does)."""
    since = game.turn_started_at or game.updated_at
    until = getattr(user, "vacation_until", None)
    return until if until is not None and until > since else since


# At a table without move deadlines, a waiting player (not its host) is reminded this
# long before its host may hand their seat to a bot (games.deadlines.reminders_sweep).
IDLE_REMINDER_BEFORE = timedelta(days=1)


def idle_reminder_lead() -> timedelta:
    """How long before that moment the reminder goes: ``IDLE_REMINDER_BEFORE``, or a
    fifth of the idle days when they are few (one idle day: 4.8 hours), so that it never
    comes with the turn's own e-mail."""
    return min(IDLE_REMINDER_BEFORE, timedelta(days=settings.SEAT_TO_BOT_AFTER_IDLE_DAYS) / 5)


def hand_over_from(since: datetime) -> datetime:
    """When a seat whose person has kept a table without deadlines waiting ``since``
    may be handed to a bot by the table's creator."""
    return since + timedelta(days=settings.SEAT_TO_BOT_AFTER_IDLE_DAYS)


def may_hand_over(*, deadlines: bool, timeouts: int, idle: datetime | None, now: datetime) -> bool:
    """The one rule for handing a person's seat to a bot (``game_seat_to_bot`` checks
    it, the board offers its form and the e-mails warn by it): at a table with move
    deadlines after ``SEAT_TO_BOT_AFTER_TIMEOUTS`` missed ones; without, once the seat
    has kept it waiting ``SEAT_TO_BOT_AFTER_IDLE_DAYS`` (``idle``: since when, None
    when it does not wait for them)."""
    if deadlines:
        return timeouts >= settings.SEAT_TO_BOT_AFTER_TIMEOUTS
    return idle is not None and now >= hand_over_from(idle)


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def turn_key(moment: datetime) -> int:
    """A turn's identity: when it started, in whole microseconds since 1970."""
    return (moment - _EPOCH) // timedelta(microseconds=1)
