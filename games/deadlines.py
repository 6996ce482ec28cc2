"""Move deadlines, reminders, vacations and the sweeps that keep games moving
(docs/architecture.md, "Async play").

A table may give each move a deadline (1, 2, 3 or 7 days).  ``Game.deadline_at`` is
set by the services whenever a person is to act (``games.clock``: the turn's start
plus the move time, where a player on vacation gets the whole move time after the
vacation ends: their clock is paused meanwhile).

Beat runs the sweeps every minute (games/tasks.py).  Each takes ``now`` (tests pass any
clock) and claims what it does once:

- ``deadlines_sweep``: at a deadline, a bot ("medium") makes that one move for each
  absent player through ``game_submit_action`` (actor DEADLINE); the version check
  there is the claim, so two sweeps never move twice.  The seat's ``timeouts`` grows by
  one and the player is told by e-mail.
- ``reminders_sweep``: when 80% of the move time has gone, one reminder per player and
  turn (the Notification row's unique key is the claim).
- ``stalled_sweep``: games a lost task left waiting (the broker was down when a move
  was made): bots to act get their task again; turns never e-mailed get their e-mails.

Vacations: ``vacation_start`` / ``vacation_end``, bounded by ``VACATION_DAYS_PER_YEAR``.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, F, OuterRef, Q
from django.utils import timezone

from games import events, notifications
from games.bots import bot_action, fallback_action
from games.clock import deadline_compute
from games.engine import AUCTION, SEALED, THEFT_CHOICE, seats_to_act
from games.engine.state import WAITING
from games.errors import GameError, IllegalMove, NotAllowed, NotYourSeat, VersionConflict
from games.models import DEADLINE_HOURS, MAX_PLAYERS, Game, Move, Seat
from games.services import game_submit_action
from ops.logcontext import game_logged

logger = logging.getLogger(__name__)

DEADLINE_BOT_LEVEL = "medium"
REMINDER_AT = 0.8  # share of the move time gone when the reminder goes out
STALLED_AFTER = timedelta(minutes=2)  # a bot's turn or a turn's e-mails this late: lost
SWEEP_BATCH = 100


# --------------------------------------------------------------------------- deadlines


def _people_to_act(game: Game, seats: list[Seat]) -> list[Seat]:
    by_position = {seat.position: seat for seat in seats}
    return [
        by_position[p]
        for p in seats_to_act(game.engine_state())
        if not by_position[p].is_bot and by_position[p].user_id is not None
    ]


def _deadline_refresh(
    game_id: int, *, since: datetime | None = None, user_id: int | None = None
) -> Game | None:
    """Recompute a running game's deadline after a vacation began or ended (of
    ``user_id``: only when that player is to act).  The row is locked, and its
    ``updated_at`` moves on either way, so every board shows the change."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None or game.status != Game.Status.ACTIVE:
            return None
        fields = ["updated_at"]
        if game.move_deadline_hours and game.deadline_at is not None:
            people = _people_to_act(game, list(game.seats.all()))
            if people and (user_id is None or any(s.user_id == user_id for s in people)):
                game.deadline_at = deadline_compute(
                    game=game, user_ids=[seat.user_id for seat in people], since=since
                )
                fields.append("deadline_at")
        game.save(update_fields=fields)
        return game


def deadlines_sweep(*, now: datetime) -> int:
    """Make the moves of every player whose deadline has passed; returns how many."""
    due = list(
        Game.objects.filter(status=Game.Status.ACTIVE, deadline_at__lte=now)
        .order_by("deadline_at")
        .values_list("pk", flat=True)[:SWEEP_BATCH]
    )
    moves = 0
    for game_id in due:
        try:
            moves += game_deadline_pass(game_id=game_id, now=now)
        except Exception:  # one broken game must not stop the others' deadlines
            logger.exception("game %s: the deadline move failed", game_id)
    return moves


@game_logged
def game_deadline_pass(*, game_id: int, now: datetime) -> int:
    """The deadline of ``game_id`` has passed: a bot moves once for each person still
    to act in that turn.  Returns the number of moves made (0 when the game moved on,
    or the deadline moved because a player is on vacation)."""
    made = 0
    passed: datetime | None = None  # the deadline being handled: that turn's only
    while True:
        game = Game.objects.filter(pk=game_id).first()
        if (
            game is None
            or game.status != Game.Status.ACTIVE
            or game.deadline_at is None
            or game.deadline_at > now
            or (passed is not None and game.deadline_at != passed)
        ):
            return made
        passed = game.deadline_at
        seats = list(game.seats.select_related("user").order_by("position"))
        people = _people_to_act(game, seats)
        if not people:
            return made
        later = deadline_compute(game=game, user_ids=[seat.user_id for seat in people])
        if later > now:  # a vacation began after the deadline was set
            _deadline_refresh(game_id)
            return made
        seat = people[0]
        state = game.engine_state()
        version = game.version
        action = bot_action(state, seat.position, DEADLINE_BOT_LEVEL)
        try:
            with transaction.atomic():
                locked = Game.objects.select_for_update().get(pk=game_id)
                if locked.version != version or locked.deadline_at != game.deadline_at:
                    return made  # somebody moved, or the deadline changed, meanwhile
                try:
                    game_submit_action(
                        game=locked,
                        user=None,
                        action=action,
                        expected_version=version,
                        actor=Move.Actor.DEADLINE,
                    )
                except IllegalMove as error:
                    logger.error(
                        "game %s: the deadline bot's move was illegal (%s); playing a random one",
                        game_id,
                        error,
                    )
                    game_submit_action(
                        game=locked,
                        user=None,
                        action=fallback_action(state, seat.position),
                        expected_version=version,
                        actor=Move.Actor.DEADLINE,
                    )
                Seat.objects.filter(pk=seat.pk).update(timeouts=F("timeouts") + 1)
                notifications.deadline_notice_create(
                    game=locked, seat=seat, move_number=version, now=now
                )
        except (VersionConflict, NotYourSeat, NotAllowed):
            return made
        made += 1
        logger.info(
            "game %s: deadline passed; a bot moved for seat %s",
            game_id,
            seat.position,
            extra={"seat": seat.position, "move_number": version},
        )


# --------------------------------------------------------------------------- reminders


def reminders_sweep(*, now: datetime) -> int:
    """One reminder per person and turn once 80% of the move time has gone (the move
    time only: a vacation moved the deadline and the reminder with it)."""
    due = Q()
    for hours in DEADLINE_HOURS:
        left = timedelta(hours=hours) * (1 - REMINDER_AT)
        due |= Q(move_deadline_hours=hours, deadline_at__lte=now + left)
    reminded = notifications.Notification.objects.filter(
        game=OuterRef("pk"),
        kind=notifications.Kind.REMINDER,
        turn_started_at=OuterRef("turn_started_at"),
    )
    games = (
        Game.objects.filter(due, status=Game.Status.ACTIVE, deadline_at__gt=now)
        .exclude(Exists(reminded))
        .order_by("deadline_at")[:SWEEP_BATCH]
    )
    made = 0
    for game in games:
        made += len(notifications.reminder_notices_create(game=game, now=now))
    return made


# --------------------------------------------------------------------------- stalled games


def _bot_to_act() -> Q:
    """In SQL: a bot seat is to act (its turn in an auction or Theft, or its Yacht Club
    choice still missing)."""
    condition = Q()
    for position in range(MAX_PLAYERS):
        bot = Exists(
            Seat.objects.filter(game=OuterRef("pk"), position=position).exclude(ai_level="")
        )
        condition |= Q(bot, state__phase__in=[AUCTION, THEFT_CHOICE], state__turn=position)
        condition |= Q(bot, **{"state__phase": SEALED, f"state__sealed__{position}": WAITING})
    return condition


def stalled_sweep(*, now: datetime) -> int:
    """Catch up on work a lost task left undone: queue the bots' turns of games that
    have waited for a bot for ``STALLED_AFTER``, and make the turn e-mails of turns that
    never had theirs.  Returns the number of bot tasks and e-mails queued."""
    stuck = list(
        Game.objects.filter(_bot_to_act(), status=Game.Status.ACTIVE)
        .filter(updated_at__lte=now - STALLED_AFTER)
        .values_list("pk", "version")[:SWEEP_BATCH]
    )
    for game_id, version in stuck:
        logger.warning("game %s: a bot has waited since version %s; queueing it", game_id, version)
        events.announce_now(events.bots_to_act, game_id=game_id, version=version, by_bot=False)
    made = notifications.missed_turns_sweep(now=now, stalled_after=STALLED_AFTER)
    return len(stuck) + made


# --------------------------------------------------------------------------- vacations


def vacation_days_left(user: Any, now: datetime) -> int:
    return max(0, settings.VACATION_DAYS_PER_YEAR - user.vacation_days_taken(now.year))


def _active_game_ids(user: Any) -> list[int]:
    return list(
        Game.objects.filter(
            status=Game.Status.ACTIVE,
            seats__user=user,
            seats__accepted=True,
            seats__resigned=False,
        ).values_list("pk", flat=True)
    )


def vacation_start(*, user: Any, days: Any, now: datetime | None = None) -> Any:
    """Pause the player's deadlines for ``days`` whole days from now (or from the end
    of the vacation they are on: it grows).  At most ``VACATION_DAYS_PER_YEAR`` days per
    calendar year, counted in the year the days are taken."""
    from accounts.models import User

    now = now or timezone.now()
    if isinstance(days, str) and days.strip().isdecimal():
        days = int(days.strip())
    if isinstance(days, bool) or not isinstance(days, int) or days < 1:
        raise GameError("Choose a number of whole days, at least one.")
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        left = vacation_days_left(locked, now)
        if days > left:
            raise NotAllowed(
                f"You have {left} vacation day{'s' if left != 1 else ''} left this year; "
                f"you asked for {days}."
            )
        used = locked.vacation_days_taken(now.year)
        start = locked.vacation_until if locked.on_vacation(now) else now
        locked.vacation_until = start + timedelta(days=days)
        locked.vacation_year, locked.vacation_days_used = now.year, used + days
        locked.save(update_fields=["vacation_until", "vacation_year", "vacation_days_used"])
    for game_id in _active_game_ids(locked):
        _deadline_refresh(game_id, user_id=locked.pk)
    user.vacation_until = locked.vacation_until
    user.vacation_year, user.vacation_days_used = locked.vacation_year, locked.vacation_days_used
    return user


def vacation_end(*, user: Any, now: datetime | None = None) -> Any:
    """Come back early: the whole days not begun are given back, and the deadlines of
    the player's turns are a full move time from now."""
    from accounts.models import User

    now = now or timezone.now()
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        if not locked.on_vacation(now):
            raise NotAllowed("You are not on vacation.")
        unused = (locked.vacation_until - now) // timedelta(days=1)
        if locked.vacation_year == now.year:
            locked.vacation_days_used = max(0, locked.vacation_days_used - unused)
        locked.vacation_until = None
        locked.save(update_fields=["vacation_until", "vacation_days_used"])
    for game_id in _active_game_ids(locked):
        _deadline_refresh(game_id, since=now, user_id=locked.pk)
    user.vacation_until, user.vacation_days_used = None, locked.vacation_days_used
    return user
