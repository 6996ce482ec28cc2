"""The move clock: when the people to act must have moved.

A table may give each move a deadline (1, 2, 3 or 7 days).  The services set
``Game.deadline_at`` whenever a person is to act; a player on vacation gets the whole
move time after the vacation ends (their clock is paused meanwhile).  The sweeps that
act on deadlines are in ``games.deadlines``.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

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


def idle_since(*, turn_started_at: datetime, vacation_until: datetime | None) -> datetime:
    """Since when a person to act at a table without a move deadline has kept it waiting:
    the turn's start, or the end of their vacation if later (the count starts again
    then, as a deadline does).
    After ``SEAT_TO_BOT_AFTER_IDLE_DAYS`` days of it, the table's creator may hand the
    seat to a bot (``games.services.game_seat_to_bot``)."""
    if vacation_until is not None and vacation_until > turn_started_at:
        return vacation_until
    return turn_started_at


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def turn_key(moment: datetime) -> int:
    """A turn's identity: when it started, in whole microseconds since 1970."""
    return (moment - _EPOCH) // timedelta(microseconds=1)
