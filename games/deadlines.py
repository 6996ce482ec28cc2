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
  At a table without move deadlines, the one time that counts is when its host may
  hand a waiting player's seat to a bot (``SEAT_TO_BOT_AFTER_IDLE_DAYS`` without a
  move): a player other than the host gets one reminder a day earlier (less when the
  idle days are few: ``clock.idle_reminder_lead``), once per turn and moment.
- ``stalled_sweep``: games a lost task left waiting (the broker was down when a move
  was made): bots to act get their task again; turns never e-mailed get their e-mails.

Vacations (``services.vacation_start`` / ``vacation_end``) move deadlines; the sweeps
honour them through ``games.clock``.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import DateTimeField, Exists, ExpressionWrapper, F, OuterRef, Q, Value
from django.db.models.functions import Coalesce, Greatest

from games import events, notifications
from games.bots import bot_action, fallback_action
from games.clock import deadline_compute, idle_reminder_lead
from games.errors import IllegalMove, NotAllowed, NotYourSeat, VersionConflict
from games.models import DEADLINE_HOURS, Game, Move, Seat
from games.selectors import bot_is_to_act, seat_is_to_act
from games.services import (
    game_deadline_refresh,
    game_submit_action,
    people_to_act,
    waiting_table_expire,
)
from ops.logcontext import game_logged

logger = logging.getLogger(__name__)

DEADLINE_BOT_LEVEL = "medium"
REMINDER_AT = 0.8  # share of the move time gone when the reminder goes out
STALLED_AFTER = timedelta(minutes=2)  # a bot's turn or a turn's e-mails this late: lost
SWEEP_BATCH = 100


# --------------------------------------------------------------------------- deadlines


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
        people = people_to_act(game, seats)
        if not people:
            return made
        later = deadline_compute(game=game, user_ids=[seat.user_id for seat in people])
        if later > now:  # a vacation began after the deadline was set
            game_deadline_refresh(game_id=game_id)
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
    """One reminder per person, turn and deadline once 80% of the move time has gone
    before the deadline (the move time only: a vacation moved the deadline and the
    reminder with it, and a reminder already sent for the old one does not stand for
    the new)."""
    due = Q()
    for hours in DEADLINE_HOURS:
        left = timedelta(hours=hours) * (1 - REMINDER_AT)
        due |= Q(move_deadline_hours=hours, deadline_at__lte=now + left)
    reminded = notifications.Notification.objects.filter(
        Q(deadline_at=OuterRef("deadline_at")) | Q(deadline_at__isnull=True),
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
    return made + _idle_reminders(now=now)


def _idle_reminders(*, now: datetime) -> int:
    """The reminders of tables without move deadlines, person by person: the seats of
    people other than the host (whose own seat is never handed over; a host who can
    no longer act hands nothing over), to act, whose moment (``games.clock``: the idle
    days from the turn's start, or from a vacation's end if later) falls within the
    lead (``clock.idle_reminder_lead``) and who were not reminded of that moment yet.
    Only those are read, so the sweep's work is what is due: a vacation that moved a
    moment makes it due again later; a moment passed is left alone."""
    idle = timedelta(days=settings.SEAT_TO_BOT_AFTER_IDLE_DAYS)
    start = F("game__turn_started_at")
    moment = ExpressionWrapper(
        Greatest(start, Coalesce(F("user__vacation_until"), start)) + Value(idle),
        output_field=DateTimeField(),
    )
    reminded = notifications.Notification.objects.filter(
        user_id=OuterRef("user_id"),
        game_id=OuterRef("game_id"),
        kind=notifications.Kind.REMINDER,
        turn_started_at=OuterRef("game__turn_started_at"),
        deadline_at__gte=OuterRef("moment"),
    )
    due = (
        Seat.objects.filter(
            Q(game__move_deadline_hours__isnull=True) | Q(game__move_deadline_hours=0),
            seat_is_to_act(),
            game__status=Game.Status.ACTIVE,
            game__turn_started_at__isnull=False,
            game__created_by__is_active=True,
            ai_level="",
            user__isnull=False,
            accepted=True,
        )
        .exclude(user_id=F("game__created_by_id"))
        .annotate(moment=moment)
        .filter(moment__gt=now, moment__lte=now + idle_reminder_lead())
        .exclude(Exists(reminded))
        .order_by("moment")
        .values_list("game_id", flat=True)[:SWEEP_BATCH]
    )
    made = 0
    for game in Game.objects.filter(pk__in=set(due)).order_by("pk"):
        made += len(notifications.idle_reminder_notices_create(game=game, now=now))
    return made


# --------------------------------------------------------------------------- stalled games


def stalled_sweep(*, now: datetime) -> int:
    """Catch up on work a lost task left undone: queue the bots' turns of games that
    have waited for a bot for ``STALLED_AFTER``, and make the turn e-mails of turns that
    never had theirs; and close the tables that have waited for players, unchanged,
    ``WAITING_TABLE_DAYS`` days.  Returns the number of bot tasks and e-mails queued
    and of tables closed."""
    stuck = list(
        Game.objects.filter(bot_is_to_act(), status=Game.Status.ACTIVE)
        .filter(updated_at__lte=now - STALLED_AFTER)
        .values_list("pk", "version")[:SWEEP_BATCH]
    )
    for game_id, version in stuck:
        logger.warning("game %s: a bot has waited since version %s; asking again", game_id, version)
        events.announce_now(
            events.bots_to_act, game_id=game_id, version=version, by_bot=False, stalled=True
        )
    made = notifications.missed_turns_sweep(now=now, stalled_after=STALLED_AFTER)
    quiet_since = now - timedelta(days=settings.WAITING_TABLE_DAYS)
    waiting = Game.objects.filter(status=Game.Status.OPEN, updated_at__lte=quiet_since)
    closed = sum(
        waiting_table_expire(game_id=game_id, now=now)
        for game_id in waiting.values_list("pk", flat=True)[:SWEEP_BATCH]
    )
    return len(stuck) + made + closed
