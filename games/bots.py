"""Bots at the table: the bots' turns, played through the one door for moves.

``bots_play(game_id, version)`` is the bot task's work (``games.tasks.bot_move``): while
a bot is to act it reads the game, lets every bot to act choose from its own seat's
view (``games.ai``), outside any lock, and submits each action through
``services.game_submit_action`` with the version it read, so a bot never acts on a game
that moved on.  It plays on by itself after its own moves (those announce nothing for
the bots, ``games.events``), so one task plays a whole run of bot turns, the same with
a worker or in-process without a broker.

One bot task per game at a time: whoever queues one claims the game first
(``bot_turn_claim``, a cache key), and the task hands the claim back when it is done
and then looks once more, so that a move made meanwhile is not left waiting.  A
player's solo tables share one task between them (``owner_slot_claim``): see
``OWNER_SLOT_SECONDS``.

``bot_action`` is the bots' choice with a safety net: a random legal action if a bot
fails or answers nonsense, so the game always goes on.  The deadline sweep uses it too.
"""

from __future__ import annotations

import logging
import random
import time
from typing import Any

from django.core.cache import cache

from games import selectors, services
from games.engine import State, legal_actions, seats_to_act
from games.errors import IllegalMove, NotAllowed, NotYourSeat, VersionConflict
from games.models import Game, Move
from ops.logcontext import game_logged

logger = logging.getLogger(__name__)

# How a move is named in the logs: its kind only (a sealed choice is secret).
MOVE_KINDS = services.MOVE_KINDS


CLAIM_SECONDS = 15 * 60  # longer than a whole game of bots; a lost claim expires


def _claim_key(game_id: int) -> str:
    return f"games:bot-task:{game_id}"


def bot_turn_claim(game_id: int) -> bool:
    """Claim the game for one bot task; False when a task holds it already."""
    return bool(cache.add(_claim_key(game_id), 1, CLAIM_SECONDS))


def bot_turn_release(game_id: int) -> None:
    cache.delete(_claim_key(game_id))


# A creator's solo tables (``selectors.solo_owner``) share ONE bot task at a time: it
# plays a few rounds of one of them, then moves on to the creator's next such table
# waiting for its bots (by id, round the circle).  However many tables of bots one
# account runs, they hold one place in the bots' queue, beside everybody else's.  The
# slot outlives a lost task by at most this long.  It holds the time its task last
# renewed it: a slot not renewed for OWNER_SLOT_IDLE_SECONDS while one of its tables has
# stalled was left by a lost task (a worker killed), and the stalled sweep takes it over.
OWNER_SLOT_SECONDS = 5 * 60
OWNER_SLOT_IDLE_SECONDS = 2 * 60


def _owner_key(owner_id: int) -> str:
    return f"games:bot-owner:{owner_id}"


def owner_slot_claim(owner_id: int) -> bool:
    """Claim the one bot task of ``owner_id``'s solo tables; False when a task has it."""
    return bool(cache.add(_owner_key(owner_id), time.time(), OWNER_SLOT_SECONDS))


def owner_slot_take_if_idle(owner_id: int) -> bool:
    """For a stalled table: claim the slot, or take it over when its task has not
    renewed it for ``OWNER_SLOT_IDLE_SECONDS`` (it was lost); False when a task that is
    alive holds it (it comes round to the table: one slot per account stays fair)."""
    if owner_slot_claim(owner_id):
        return True
    renewed = cache.get(_owner_key(owner_id))
    if isinstance(renewed, int | float) and time.time() - renewed < OWNER_SLOT_IDLE_SECONDS:
        return False
    owner_slot_keep(owner_id)
    return True


def owner_slot_keep(owner_id: int) -> None:
    """The task holding the slot goes on: renewed, its expiry starts again."""
    cache.set(_owner_key(owner_id), time.time(), OWNER_SLOT_SECONDS)


def owner_slot_release(owner_id: int) -> None:
    cache.delete(_owner_key(owner_id))


def owner_next_game(owner_id: int, *, after: int) -> tuple[int, int] | None:
    """(id, version) of ``owner_id``'s next solo table waiting for its bots after table
    ``after`` (round the circle, ``after`` itself last), or None when none waits."""
    waiting = selectors.solo_games_waiting_for_bots(owner_id).values_list("pk", "version")
    return waiting.filter(pk__gt=after).first() or waiting.first()


def bot_version_to_act(game_id: int) -> int | None:
    """The game's version when it is running and a bot is to act, else None."""
    game = Game.objects.filter(pk=game_id, status=Game.Status.ACTIVE).first()
    if game is None:
        return None
    bots = {seat.position for seat in game.seats.all() if seat.is_bot}
    return game.version if bots & set(seats_to_act(game.engine_state())) else None


MIN_SHARE = 0.4  # a searching bot never thinks less than this share of its budget
BACKLOG_STEP = 4  # bot tasks waiting that cut a searching bot's time to a half, a third …


def bot_time_budget(level: str, backlog: int) -> float:
    """A searching bot's (hard, expert) seconds per move while ``backlog`` bot tasks
    wait for a worker: its full budget with none waiting, less the longer the queue,
    never below ``MIN_SHARE`` of it.  Everybody's bots answer sooner when many games
    want them."""
    from games.ai import BUDGETS

    full = BUDGETS[level]
    return max(full * MIN_SHARE, full / (1 + max(backlog, 0) / BACKLOG_STEP))


def bots_backlog() -> int:
    """How many bot tasks wait in the bots' queue: 0 without a broker, or when the
    broker cannot be asked (the bots then think as long as usual)."""
    from celery import current_app
    from django.conf import settings

    if current_app.conf.task_always_eager:
        return 0
    queue = settings.TASK_QUEUES.get("bots") or current_app.conf.task_default_queue
    try:
        with current_app.connection_for_read() as connection:
            try:
                channel = connection.default_channel
                return channel.queue_declare(queue=queue, passive=True).message_count
            except connection.channel_errors:
                return 0  # no such queue: nothing waits (Redis drops an empty queue)
    except Exception:  # the broker is down
        logger.warning("the length of the bots' queue could not be read")
        return 0


def bot_action(
    state: State, seat: int, level: str, *, time_budget: float | None = None
) -> dict[str, Any]:
    """The bot's choice; a random legal move if the bot fails (the game must go on).
    ``time_budget``: a searching bot's seconds for this move (its default otherwise)."""
    try:
        from games.ai import SEARCH_LEVELS, choose_action

        extra = (
            {"time_budget": time_budget}
            if time_budget is not None and level in SEARCH_LEVELS
            else {}
        )
        action = choose_action(state, seat, level, **extra)
    except Exception:
        logger.exception("the %s bot failed on seat %s; playing a random legal move", level, seat)
        return fallback_action(state, seat)
    if not isinstance(action, dict):
        logger.error(
            "the %s bot returned a %s, not an action; playing a random legal move",
            level,
            type(action).__name__,
        )
        return fallback_action(state, seat)
    return {**action, "seat": seat}


def fallback_action(state: State, seat: int) -> dict[str, Any]:
    return random.choice([a for a in legal_actions(state) if a["seat"] == seat])


@game_logged
def bots_play(*, game_id: int, expected_version: int, limit: int | None = None) -> bool:
    """Play the bots' turns of game ``game_id`` from ``expected_version`` on, for as long
    as bots are to act, or until ``limit`` rounds of bot decisions were made (the task
    then goes to the back of the bots' queue, so other games' bots get their turn).
    Returns whether any bot moved: False when the game is gone, over, has moved on, or
    no bot is to act.  A conflict (somebody moved meanwhile) ends the run quietly."""
    version, moved, rounds = expected_version, False, 0
    while limit is None or rounds < limit:
        rounds += 1
        game = Game.objects.filter(pk=game_id).first()
        if game is None or game.status != Game.Status.ACTIVE or game.version != version:
            return moved
        state = game.engine_state()
        seats = {seat.position: seat for seat in game.seats.all()}
        to_play = [p for p in seats_to_act(state) if seats[p].is_bot]
        planned = _decide(state, {p: seats[p].ai_level for p in to_play})
        if not planned:
            return moved
        for position, action in planned:
            try:
                game = _submit(game, state, position, action, version, seats[position].ai_level)
            except (VersionConflict, NotYourSeat, NotAllowed):
                return moved  # the game moved on (or ended) meanwhile: nothing left here
            moved, version = True, game.version
            logger.info(
                "bot moved: seat %s (%s), %s",
                position,
                seats[position].ai_level,
                MOVE_KINDS.get(str(action.get("type")), "other"),
                extra={"seat": position, "bot_level": seats[position].ai_level},
            )
    return moved


def _decide(state: State, levels: dict[int, str]) -> list[tuple[int, dict[str, Any]]]:
    """Each bot's action; the searching ones think for a budget cut by the queue."""
    from games.ai import SEARCH_LEVELS

    searching = [p for p, level in levels.items() if level in SEARCH_LEVELS]
    backlog = bots_backlog() if searching else 0
    return [
        (
            p,
            bot_action(
                state,
                p,
                level,
                time_budget=bot_time_budget(level, backlog) if p in searching else None,
            ),
        )
        for p, level in levels.items()
    ]


def _submit(game: Game, state: State, position: int, action: dict, version: int, level: str):
    try:
        return services.game_submit_action(
            game=game, user=None, action=action, expected_version=version, actor=Move.Actor.BOT
        )
    except IllegalMove as error:
        # The action itself is not logged: a Yacht Club choice is secret.
        logger.error(
            "game %s: the %s bot's %s action was illegal (%s); playing a random one",
            game.pk,
            level,
            str(action.get("type"))[:20],
            error,
        )
        return services.game_submit_action(
            game=game,
            user=None,
            action=fallback_action(state, position),
            expected_version=version,
            actor=Move.Actor.BOT,
        )
