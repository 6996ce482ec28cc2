#!/usr/bin/env python3
"""Fair bot capacity: one account flooding tables of bots beside 50 normal tables.

The question: when one player keeps many tables of hard bots running (each started and
resigned at once, so four hard bots play it to the end with nobody waiting), do the
other players' bots still answer them promptly?

The stack, on loopback: a fresh PostgreSQL database of its own (default
``highsociety_abuse``, dropped, created and migrated), Redis as broker and cache, and
ONE Celery worker on the bots' queue only (``--concurrency 2``, the cores of this
machine), as docker-compose's ``worker-bots`` runs it.  The queues are this run's own.

Two phases of ``--duration`` seconds each, every one with ``--tables`` new normal
tables: one person and 2 to 4 bots (levels drawn evenly from ``--levels``).  The
people are played by this process through the move service (``game_submit_action``,
the one door every move goes through), each answering its turn after a think time
drawn from ``--think``; their moves queue the bots' turns on the broker exactly as a
move in the browser does, and the worker plays them.

- ``alone``: the normal tables only;
- ``flooded``: the same, plus ONE account that opened ``--flood`` tables of four hard
  bots each and resigned from every one (the account's limit of tables of bots,
  ``LIMIT_BOT_ONLY_GAMES``, 3 by default, is lifted to ``--flood`` here: the bench
  measures the scheduling, not the quota).

Measured from the stored moves (``Move.created_at``): a **bot reply** is the time from
the move before a bot's move (or the game's start) to the bot's move, on the normal
tables; the **person's wait** is the time from a person's move to their next turn.
Printed per phase: p50, p95 and p99 of both, the number of moves, and the flood's bot
moves (the work the flooder still gets).  Target: the normal tables' bot reply p95
under 3 s while flooded.  Exit status 1 when it misses.

    .venv/bin/python bench/abuse.py [--tables 50] [--flood 12] [--duration 90]
"""

from __future__ import annotations

import argparse
import math
import os
import random
import signal
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.stack import (  # noqa: E402  (the repository root is on the path from here)
    database_create,
    django_setup,
    process_stop,
    queues_delete,
    stack_env,
    worker_start,
    worker_wait,
)

TARGET_P95 = 3.0  # seconds: the normal tables' bot reply while one account floods


def arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50, help="normal tables per phase")
    parser.add_argument("--flood", type=int, default=12, help="the flooder's tables of bots")
    parser.add_argument("--duration", type=float, default=90, help="seconds per phase")
    parser.add_argument(
        "--think", default="4,20", help="a person's think time, seconds: min,max (uniform)"
    )
    parser.add_argument("--levels", default="easy,medium,hard", help="the normal tables' bots")
    parser.add_argument("--concurrency", type=int, default=2, help="the bot worker's processes")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--database-url", default="postgres://postgres@127.0.0.1:5432/highsociety_abuse"
    )
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/13")
    parser.add_argument("--logs", type=Path, default=None)
    return parser.parse_args(argv)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


# --------------------------------------------------------------------------- tables


@dataclass
class Table:
    game_id: int
    user: object
    position: int
    seen_version: int = -1
    due: float | None = None  # when the person answers (monotonic clock)


@dataclass
class Phase:
    name: str
    tables: list[Table] = field(default_factory=list)
    flood: list[int] = field(default_factory=list)
    start: datetime | None = None
    end: datetime | None = None
    moves_made: int = 0
    conflicts: int = 0


def normal_tables_open(phase: Phase, count: int, levels: list[str], rng: random.Random) -> None:
    """``count`` tables of one new person and 2 to 4 bots each, started at once."""
    from accounts.models import User
    from games.services import game_create

    for index in range(count):
        user = User.objects.create_user(
            username=f"ab-{phase.name}-{index}", email="", password=None
        )
        bots = rng.randint(2, 4)
        game = game_create(
            creator=user, players=bots + 1, seats=[{"ai": rng.choice(levels)} for _ in range(bots)]
        )
        phase.tables.append(Table(game.pk, user, 0))


def flood_open(phase: Phase, count: int) -> None:
    """One account's ``count`` tables of four hard bots, each resigned at once."""
    from accounts.models import User
    from games.services import game_create, game_resign

    flooder = User.objects.create_user(username=f"ab-flooder-{phase.name}", password=None)
    for _ in range(count):
        game = game_create(creator=flooder, players=5, seats=[{"ai": "hard"}] * 4)
        game_resign(game=game, user=flooder)
        phase.flood.append(game.pk)


def people_play(phase: Phase, duration: float, think: tuple[float, float], rng) -> None:
    """The people of the phase's tables answer their turns until ``duration`` is up."""
    from games.ai import choose_action
    from games.engine import seats_to_act
    from games.errors import GameError
    from games.models import Game
    from games.services import game_submit_action

    by_id = {table.game_id: table for table in phase.tables}
    stop = time.monotonic() + duration
    while time.monotonic() < stop:
        now = time.monotonic()
        rows = Game.objects.filter(pk__in=by_id, status=Game.Status.ACTIVE).values_list(
            "pk", "version"
        )
        for game_id, version in rows:
            table = by_id[game_id]
            if version != table.seen_version:
                table.seen_version, table.due = version, None
                game = Game.objects.get(pk=game_id)
                if table.position in seats_to_act(game.engine_state()):
                    table.due = now + rng.uniform(*think)
            if table.due is None or table.due > now:
                continue
            game = Game.objects.get(pk=game_id)
            action = choose_action(game.engine_state(), table.position, "easy", rng)
            try:
                game_submit_action(
                    game=game, user=table.user, action=action, expected_version=version
                )
                phase.moves_made += 1
            except GameError:
                phase.conflicts += 1  # a bot's sealed choice came first: look again
            table.seen_version, table.due = -1, None
        time.sleep(0.1)


# --------------------------------------------------------------------------- figures


def replies(game_ids: list[int], start: datetime, end: datetime):
    """(bot replies, people's waits) in seconds, from the stored moves of ``game_ids``
    made between ``start`` and ``end``."""
    from games.models import Game, Move

    bot, wait = [], []
    started = dict(Game.objects.filter(pk__in=game_ids).values_list("pk", "started_at"))
    moves = Move.objects.filter(game_id__in=game_ids).order_by("game_id", "number")
    previous: dict[int, datetime] = {}
    person_moved: dict[int, datetime] = {}
    for move in moves.values("game_id", "number", "actor", "seat", "created_at"):
        game_id, at = move["game_id"], move["created_at"]
        before = previous.get(game_id, started[game_id])
        previous[game_id] = at
        if not start <= at <= end:
            continue
        if move["actor"] == "bot":
            bot.append((at - before).total_seconds())
        elif move["actor"] == "player":
            if game_id in person_moved:
                wait.append((before - person_moved[game_id]).total_seconds())
            person_moved[game_id] = at
    return bot, wait


def phase_report(phase: Phase) -> float:
    """Print the phase's figures; returns the normal tables' bot reply p95."""
    bot, wait = replies([t.game_id for t in phase.tables], phase.start, phase.end)
    print(
        f"\n{phase.name}: {len(phase.tables)} normal tables"
        + (f" + {len(phase.flood)} tables of hard bots of one account" if phase.flood else "")
    )
    print(f"  people's moves: {phase.moves_made} ({phase.conflicts} answered 'moved on')")
    print(
        f"  bot reply on normal tables ({len(bot)} bot moves): "
        f"p50 {percentile(bot, 0.5):.2f} s, p95 {percentile(bot, 0.95):.2f} s, "
        f"p99 {percentile(bot, 0.99):.2f} s, max {max(bot, default=float('nan')):.2f} s"
    )
    print(
        f"  a person's wait for their next turn ({len(wait)} waits): "
        f"p50 {percentile(wait, 0.5):.2f} s, p95 {percentile(wait, 0.95):.2f} s"
    )
    if phase.flood:
        flood, _ = replies(phase.flood, phase.start, phase.end)
        print(
            f"  the flood's bot moves meanwhile: {len(flood)} "
            f"({len(flood) / (phase.end - phase.start).total_seconds():.1f}/s)"
        )
    return percentile(bot, 0.95)


# --------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    args = arguments(argv)
    rng = random.Random(args.seed)
    think = tuple(float(x) for x in args.think.split(","))
    levels = args.levels.split(",")
    run = f"{int(time.time()) % 10**6}-{os.getpid()}"
    queues = {kind: f"hs-abuse-{run}-{kind}" for kind in ("bots", "email", "sweeps")}
    env = stack_env(
        args.database_url,
        args.redis_url,
        CACHE_KEY_PREFIX=f"abuse-{run}",
        LOG_LEVEL="WARNING",
        EMAIL_URL="dummy:",
        CELERY_QUEUE_BOTS=queues["bots"],
        CELERY_QUEUE_EMAIL=queues["email"],
        CELERY_QUEUE_SWEEPS=queues["sweeps"],
        LIMIT_BOT_ONLY_GAMES=str(max(args.flood, 1)),
        LIMIT_RUNNING_GAMES="1000",
    )
    print(f"Database {args.database_url.rsplit('/', 1)[1]}: dropped, created and migrated …")
    database_create(args.database_url, fresh=True)
    django_setup(env, eager=False)

    from django.utils import timezone

    from highsociety_site.celery import app as celery_app

    def worker_ping() -> bool:
        replies = celery_app.control.ping(timeout=0.5)
        return any(name.startswith(queues["bots"] + "@") for reply in replies for name in reply)

    logs = args.logs or Path(tempfile.mkdtemp(prefix="hs-abuse-"))
    logs.mkdir(parents=True, exist_ok=True)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    worker_log = (logs / "worker.log").open("w")
    worker = None
    phases = [Phase("alone"), Phase("flooded")]
    try:
        worker = worker_start(env, queues["bots"], args.concurrency, log=worker_log)
        worker_wait(worker, worker_ping)
        print(
            f"one bot worker ({args.concurrency} processes) is up; "
            f"{args.duration:g} s per phase, think time {think[0]:g}-{think[1]:g} s, "
            f"bots {'/'.join(levels)}"
        )
        for phase in phases:
            phase.start = timezone.now()
            if phase.name == "flooded":
                flood_open(phase, args.flood)
            normal_tables_open(phase, args.tables, levels, rng)
            people_play(phase, args.duration, think, rng)
            phase.end = timezone.now()
    finally:
        process_stop(worker, group=True)
        worker_log.close()
        queues_delete(args.redis_url, queues.values())

    figures = {phase.name: phase_report(phase) for phase in phases}
    passed = figures["flooded"] < TARGET_P95
    print(
        f"\n{'PASS' if passed else 'FAIL'}: bot reply p95 on normal tables while flooded "
        f"{figures['flooded']:.2f} s (target < {TARGET_P95:g} s); worker log: {logs}"
    )
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
