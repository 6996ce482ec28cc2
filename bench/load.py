#!/usr/bin/env python3
"""Load test: many tables of people and bots played to the end at once, then checked.

Starts the whole stack on loopback: a fresh PostgreSQL database of its own (default
``highsociety_load``, dropped and created again, then migrated), the app under gunicorn
(``DEBUG=0``, persistent connections, request limits out of the way,
``LOG_LEVEL=WARNING``) and ONE Celery worker on a Redis broker database and a queue of
its own, so the bots move in the worker as in production.  E-mails go through the real
pipeline (turn notices are queued, claimed and sent by the worker) to Django's dummy
backend.

Set-up (not measured): one account and API token per human seat, made with the ORM.
Then, measured, one asyncio process (aiohttp) plays every table through the documented
REST API only: each table's first person opens it (``POST /api/v1/games/``, all seats
listed, people placed at random among the bots), the invited people accept
(``POST /join/``), and every human seat is one coroutine that reads its view, picks an
action from the summarised ``legal_actions``, posts it with the version it saw, re-reads
on 409, and polls with a growing pause (``--poll`` up to ``--poll-max``) while others or
the bots are to act.  A share of the moves (``--doubled``, 5%) is sent twice at once, as
a double click would: one must be stored, and the other answered as made (200) or, had
another move come between, 409.  At most
``--concurrency`` requests are in flight at once.

The mix (``--seed``): 3 to 5 seats per table, drawn evenly; 1 to all of them people
(drawn evenly), the rest bots of the levels random, easy and medium (drawn evenly;
``hard`` is left out since it searches a quarter of a second per move by design).  No deadlines,
no advanced cards.

Afterwards, against the database: every game finished; its stored state equals the
replay of its stored moves (``games.replay.replayed_state``); its moves are numbered
0 … version-1 with no gap and no duplicate; the people's moves stored are exactly the
moves the clients saw accepted (201), same number, seat and action, none lost or
doubled; moves by people only on people's seats, by bots only on bots' seats; the result
every client saw at the end is the stored one.  Server logs with an ERROR or a traceback
count as errors.  Exit status 0 only when there are no errors and no inconsistencies.

    .venv/bin/python bench/load.py [--tables 200] [--gunicorn-workers 4] [--concurrency 64]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import re
import shutil
import signal
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.stack import (  # noqa: E402  (the repository root is on the path from here)
    database_create,
    django_setup,
    free_port,
    process_stop,
    queues_delete,
    server_start,
    server_wait,
    stack_env,
    worker_start,
    worker_wait,
)

BOT_LEVELS = ("random", "easy", "medium")
WANTED = ("lux", "prestige", "gambling", "excursions")
# The settings of every process of the stack: the real ones, with the tasks on a queue
# of this run's own (Celery reads its configuration from the Django settings only).
SETTINGS_MODULE = """
import os
from highsociety_site.settings import *  # noqa: F403
CELERY_TASK_DEFAULT_QUEUE = os.environ["HS_LOAD_QUEUE"]
TASK_QUEUES = {}  # every task on the bench's one queue
"""
LOG_PROBLEM = re.compile(r"\b(ERROR|CRITICAL)\b|Traceback")


# --------------------------------------------------------------------------- the plan


@dataclass
class HumanSeat:
    position: int
    username: str
    token: str = ""
    style: tuple[float, float, int] = (0.7, 0.2, 30_000)  # bid wanted, bid other, reserve
    accepted: list[tuple[int, dict[str, Any]]] = field(default_factory=list)  # (number, action)
    final: dict[str, Any] | None = None
    gave_up: str = ""


@dataclass
class TablePlan:
    index: int
    players: int
    seats: list[dict[str, str]]  # the API's seat list, all seats
    humans: list[HumanSeat]
    game_id: int | None = None
    problem: str = ""


def plan_tables(count: int, rng: random.Random, run: str) -> list[TablePlan]:
    tables = []
    for index in range(count):
        players = rng.randint(3, 5)
        people = rng.randint(1, players)
        positions = sorted(rng.sample(range(players), people))
        humans, seats = [], []
        for position in range(players):
            if position in positions:
                seat = HumanSeat(position, f"ld{run}-{index}-{position}")
                seat.style = (
                    rng.uniform(0.5, 0.9),
                    rng.uniform(0.0, 0.3),
                    rng.randint(20, 45) * 1000,
                )
                humans.append(seat)
                seats.append({"user": seat.username})
            else:
                seats.append({"ai": rng.choice(BOT_LEVELS)})
        tables.append(TablePlan(index, players, seats, humans))
    return tables


def accounts_create(tables: list[TablePlan]) -> None:
    """One account (unusable password, an e-mail address for the turn notices) and one
    API token per human seat, straight through the ORM: set-up, not measured."""
    from accounts.models import User
    from accounts.tokens.services import token_create

    for table in tables:
        for seat in table.humans:
            user = User.objects.create_user(
                username=seat.username, email=f"{seat.username}@load.invalid", password=None
            )
            seat.token = token_create(user=user, name="load", days=1)[1]


# --------------------------------------------------------------------------- figures


@dataclass
class Figures:
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))
    transport: Counter = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)

    def problem(self, text: str) -> None:
        if len(self.problems) < 200:
            self.problems.append(text)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)] * 1000


# --------------------------------------------------------------------------- clients


class Api:
    """The REST API over one aiohttp session, at most ``concurrency`` requests at once."""

    def __init__(self, base: str, concurrency: int, figures: Figures):
        self.base = base + "/api/v1"
        self.gate = asyncio.Semaphore(concurrency)
        self.figures = figures
        self.session = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=concurrency),
            timeout=aiohttp.ClientTimeout(total=60),
        )

    async def call(
        self, kind: str, method: str, path: str, token: str, body: dict | None = None
    ) -> tuple[int | None, Any]:
        """(status, JSON body) or (None, None) after a transport error."""
        headers = {"Authorization": f"Token {token}"}
        async with self.gate:
            start = time.perf_counter()
            try:
                async with self.session.request(
                    method, self.base + path, json=body, headers=headers
                ) as response:
                    status = response.status
                    text = await response.text()
            except (TimeoutError, aiohttp.ClientError) as error:
                self.figures.transport[kind] += 1
                self.figures.problem(f"{kind} {method} {path}: {type(error).__name__} {error}")
                return None, None
            self.figures.latencies[kind].append(time.perf_counter() - start)
        self.figures.statuses[kind][status] += 1
        try:
            data = json.loads(text) if text else None
        except ValueError:
            data = None
        if status >= 300 and status != 409:
            self.figures.problem(f"{kind} {method} {path}: {status} {text[:200]}")
        return status, data


def decide(view: dict[str, Any], seat: HumanSeat, rng: random.Random) -> dict[str, Any]:
    """One action from the summarised legal actions (examples/api_bot.py's idea, with
    some randomness so that tables differ)."""
    legal = view["legal_actions"]
    types = legal["types"]
    if "discard" in types:
        return {"type": "discard", "card": rng.choice(legal["discard_choices"])}
    if "sealed_bid" in types:
        return {"type": "sealed_bid", "card": rng.choice(legal["sealed_choices"])}
    bid_wanted, bid_other, reserve = seat.style
    wanted = view.get("auction") == "normal" and str(view.get("card") or "").startswith(WANTED)
    if "bid" in types and rng.random() < (bid_wanted if wanted else bid_other):
        cards = cheap_bid(legal["hand"], legal["to_beat"] - legal["current_bid"])
        if cards and sum(legal["hand"]) - sum(cards) >= reserve:
            return {"type": "bid", "cards": cards}
    if "pass" in types:
        return {"type": "pass"}
    return {
        "type": "bid",
        "cards": cheap_bid(legal["hand"], legal["to_beat"] - legal["current_bid"]),
    }


def cheap_bid(hand: list[int], need: int) -> list[int]:
    """A cheap set of cards adding up to more than ``need``: the smallest single card
    that does, else the smallest cards from the bottom up."""
    single = [card for card in hand if card > need]
    if single:
        return [min(single)]
    cards: list[int] = []
    for card in sorted(hand):
        cards.append(card)
        if sum(cards) > need:
            return cards
    return []


async def seat_play(api: Api, table: TablePlan, seat: HumanSeat, args, rng: random.Random) -> None:
    """One person: play the seat until the game is over."""
    path = f"/games/{table.game_id}/"
    pause = args.poll
    failures = 0

    async def look() -> dict[str, Any] | None:
        status, data = await api.call("view", "GET", path, seat.token)
        return data if status == 200 else None

    async def moved_since(version: int) -> bool:
        """The cheap poll: has anybody moved since ``version``?  (Any failure: look.)"""
        status, data = await api.call(
            "poll", "GET", f"{path}moves/?since={version}&limit=1", seat.token
        )
        return status != 200 or bool(data["moves"]) or data["version"] != version

    async def wait() -> None:
        nonlocal pause
        await asyncio.sleep(pause * rng.uniform(0.8, 1.2))
        pause = min(pause * 1.5, args.poll_max)

    view = await look()
    while True:
        if view is None:
            failures += 1
            if failures > 20:
                seat.gave_up = "too many failed requests"
                return
            await asyncio.sleep(1)
            view = await look()
            continue
        if view["status"] in ("finished", "abandoned"):
            seat.final = view
            return
        if view["status"] != "active" or view["legal_actions"] is None:
            await wait()
            if view["status"] == "active" and args.poll_with == "moves":
                # Every change of a running game is a move: read the log's tail until
                # one comes, then the whole view (a table not started yet has no move).
                while not await moved_since(view["version"]):
                    await wait()
            view = await look()
            continue
        action = decide(view, seat, rng)
        version = view["version"]
        body = {**action, "version": version}
        sends = [api.call("move", "POST", path + "moves/", seat.token, body)]
        if rng.random() < args.doubled:
            # The same move twice at once (a double click, a hasty retry): at most one
            # may be accepted, and the check afterwards finds any that was stored twice.
            sends.append(api.call("doubled", "POST", path + "moves/", seat.token, body))
        answers = await asyncio.gather(*sends)
        for status, _ in answers:
            if status == 201:
                seat.accepted.append((version, action))
        status, data = next((a for a in answers if a[0] == 201), answers[0])
        if status == 201:
            view, pause = data, args.poll
        elif status == 409:
            view = await look()  # somebody moved meanwhile: look again
        else:
            failures += 1
            if failures > 20:
                seat.gave_up = "too many refused moves"
                return
            await asyncio.sleep(0.5)
            view = await look()


async def table_play(api: Api, table: TablePlan, args, rng: random.Random) -> None:
    creator, *invited = table.humans
    status, data = await api.call(
        "create",
        "POST",
        "/games/",
        creator.token,
        {"players": table.players, "seats": table.seats, "advanced": []},
    )
    if status != 201 or not isinstance(data, dict):
        table.problem = f"could not open the table ({status})"
        return
    table.game_id = data["id"]
    joins = await asyncio.gather(
        *(api.call("join", "POST", f"/games/{table.game_id}/join/", s.token) for s in invited)
    )
    if any(status != 200 for status, _ in joins):
        table.problem = "a join was refused: " + ", ".join(str(s) for s, _ in joins)
        return
    await asyncio.gather(
        *(seat_play(api, table, seat, args, random.Random(rng.random())) for seat in table.humans)
    )


async def tables_play(base: str, tables: list[TablePlan], args, figures: Figures) -> float:
    """Play every table at once; returns the wall time (s), or raises TimeoutError."""
    api = Api(base, args.concurrency, figures)
    rng = random.Random(args.seed + 1)
    start = time.perf_counter()
    try:
        await asyncio.wait_for(
            asyncio.gather(
                *(table_play(api, table, args, random.Random(rng.random())) for table in tables)
            ),
            timeout=args.timeout,
        )
    finally:
        await api.session.close()
    return time.perf_counter() - start


# --------------------------------------------------------------------------- checks


def action_same(sent: dict[str, Any], stored: dict[str, Any]) -> bool:
    def key(action: dict[str, Any]) -> tuple:
        return action.get("type"), sorted(action.get("cards") or []), action.get("card")

    return key(sent) == key(stored)


def games_check(tables: list[TablePlan]) -> tuple[list[str], Counter]:
    """Inconsistencies (readable sentences) between what the clients saw and what is
    stored, and the stored moves counted by actor."""
    from games.engine import State
    from games.models import Game, Move
    from games.replay import replayed_state

    wrong: list[str] = []
    actors: Counter = Counter()
    ids = [table.game_id for table in tables if table.game_id is not None]
    games = {game.pk: game for game in Game.objects.filter(pk__in=ids).prefetch_related("seats")}
    moves_by_game: dict[int, list[Move]] = defaultdict(list)
    for move in Move.objects.filter(game_id__in=ids).order_by("game_id", "number"):
        moves_by_game[move.game_id].append(move)
    for table in tables:
        name = f"table {table.index} (game {table.game_id})"
        if table.problem:
            wrong.append(f"{name}: {table.problem}")
        game = games.get(table.game_id)
        if game is None:
            wrong.append(f"{name}: not stored")
            continue
        moves = moves_by_game[game.pk]
        actors.update(move.actor for move in moves)
        if game.status != Game.Status.FINISHED:
            wrong.append(f"{name}: {game.status} at move {game.version}, not finished")
        numbers = [move.number for move in moves]
        if numbers != list(range(game.version)):
            wrong.append(f"{name}: moves numbered {numbers[:5]}… for version {game.version}")
        try:
            if replayed_state(game) != State.from_json(game.state):
                wrong.append(f"{name}: its moves do not replay to the stored state")
        except Exception as error:  # a corrupt log: say which game, go on with the others
            wrong.append(f"{name}: replay failed ({type(error).__name__}: {error})")
        seats = {seat.position: seat for seat in game.seats.all()}
        for move in moves:
            seat = seats.get(move.seat)
            if move.actor == Move.Actor.PLAYER and (seat is None or seat.is_bot):
                wrong.append(f"{name}: a person's move {move.number} on a bot's seat")
            elif move.actor == Move.Actor.PLAYER and move.user_id != seat.user_id:
                wrong.append(f"{name}: move {move.number} stored for another user")
            if move.actor == Move.Actor.BOT and (seat is None or not seat.is_bot):
                wrong.append(f"{name}: a bot's move {move.number} on a person's seat")
        stored = {m.number: m for m in moves if m.actor == Move.Actor.PLAYER}
        seen: dict[int, tuple[int, dict]] = {}
        for seat in table.humans:
            if seat.gave_up:
                wrong.append(f"{name}: seat {seat.position} gave up: {seat.gave_up}")
            for number, action in seat.accepted:
                if number in seen:
                    wrong.append(f"{name}: move {number} accepted twice")
                seen[number] = (seat.position, action)
            if seat.final is not None and seat.final.get("result") != game.result:
                wrong.append(f"{name}: seat {seat.position} saw another result than stored")
        for number in sorted(seen.keys() - stored.keys()):
            wrong.append(f"{name}: move {number} was accepted (201) but is not stored (lost)")
        for number in sorted(stored.keys() - seen.keys()):
            wrong.append(f"{name}: person's move {number} is stored but was never accepted")
        for number in sorted(seen.keys() & stored.keys()):
            position, action = seen[number]
            if stored[number].seat != position or not action_same(action, stored[number].action):
                wrong.append(f"{name}: move {number} is stored differently from what was sent")
    return wrong, actors


def log_problems(path: Path) -> list[str]:
    if not path.exists():
        return []
    return [
        line.rstrip()[:300]
        for line in path.read_text(errors="replace").splitlines()
        if LOG_PROBLEM.search(line)
    ]


def queue_length(redis_url: str, queue: str) -> int:
    import redis

    return int(redis.Redis.from_url(redis_url).llen(queue))


def cpu_seconds(roots: dict[str, int], database: str) -> dict[str, float]:
    """CPU time (user + system, s) used so far by each named process and its descendants,
    by this process (the clients), and by the PostgreSQL backends serving ``database``
    (Linux /proc; empty elsewhere)."""
    tick = os.sysconf("SC_CLK_TCK")
    stats: dict[int, tuple[int, float]] = {}  # pid: (parent pid, cpu seconds)
    backends = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue  # gone meanwhile
        cpu = (int(fields[11]) + int(fields[12])) / tick
        stats[int(entry.name)] = (int(fields[1]), cpu)
        if command.startswith("postgres:") and f" {database} " in command:
            backends += cpu
    totals = {name: 0.0 for name in roots}
    for pid, (_, cpu) in stats.items():
        ancestor = pid
        while ancestor in stats:
            name = next((n for n, root in roots.items() if root == ancestor), None)
            if name is not None:
                totals[name] += cpu
                break
            ancestor = stats[ancestor][0]
    totals["clients (this process)"] = stats.get(os.getpid(), (0, 0.0))[1]
    totals["PostgreSQL backends"] = backends
    return totals


# --------------------------------------------------------------------------- report


def report(
    tables: list[TablePlan],
    figures: Figures,
    wall: float,
    actors: Counter,
    args,
) -> None:
    humans = sum(len(t.humans) for t in tables)
    seats = sum(t.players for t in tables)
    accepted = sum(len(s.accepted) for t in tables for s in t.humans)
    total = sum(actors.values())
    print(
        f"\n{len(tables)} tables, {seats} seats: {humans} people, {seats - humans} bots "
        f"(levels {', '.join(BOT_LEVELS)}); gunicorn {args.gunicorn_workers} "
        f"{args.worker_class} workers, 1 Celery worker x{args.celery_concurrency}, "
        f"{args.concurrency} requests in flight at most, polling the {args.poll_with}, "
        f"{os.cpu_count()} cores"
    )
    print(
        f"moves stored: {total} ({actors['player']} by people, {actors['bot']} by bots, "
        f"{actors['forced']} forced passes); people's moves accepted (201): {accepted}"
    )
    print(
        f"wall time {wall:.1f} s: {accepted / wall:.1f} people's moves/s, "
        f"{total / wall:.1f} moves/s in all"
    )
    print(f"\n{'request':<26} {'count':>7} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}")
    names = {
        "move": "POST /games/{id}/moves/",
        "doubled": "  the same, sent twice",
        "view": "GET /games/{id}/",
        "poll": "GET /games/{id}/moves/",
        "create": "POST /games/",
        "join": "POST /games/{id}/join/",
    }
    names = {kind: name for kind, name in names.items() if figures.statuses.get(kind)}
    for kind, name in names.items():
        values = figures.latencies.get(kind, [])
        print(
            f"{name:<26} {len(values):>7} {percentile(values, 0.50):>8.1f} "
            f"{percentile(values, 0.95):>8.1f} {percentile(values, 0.99):>8.1f}"
        )
    print("\nstatus counts:")
    for kind, name in names.items():
        counts = figures.statuses.get(kind, Counter())
        shown = ", ".join(f"{code}: {n}" for code, n in sorted(counts.items()))
        transport = figures.transport.get(kind, 0)
        print(
            f"  {name:<26} {shown or '-'}"
            + (f", transport errors: {transport}" if transport else "")
        )
    conflicts = sum(c[409] for c in figures.statuses.values())
    print(f"409 conflicts (expected under races, not errors): {conflicts}")


def errors_count(figures: Figures) -> int:
    bad = sum(
        n
        for counts in figures.statuses.values()
        for code, n in counts.items()
        if code >= 300 and code != 409
    )
    return bad + sum(figures.transport.values())


# --------------------------------------------------------------------------- main


def parser_make(description: str) -> argparse.ArgumentParser:
    """The options of the play itself (``bench/cluster.py`` shares them)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--tables", type=int, default=200, help="tables played at once")
    parser.add_argument(
        "--seed", type=int, default=1, help="the mix of tables and the clients' choices"
    )
    parser.add_argument(
        "--gunicorn-workers", type=int, default=4, help="gunicorn workers (4 for 2 cores)"
    )
    parser.add_argument("--worker-class", choices=("sync", "gthread"), default="sync")
    parser.add_argument("--threads", type=int, default=4, help="threads per gthread worker")
    parser.add_argument("--celery-concurrency", type=int, default=2, help="Celery worker processes")
    parser.add_argument("--concurrency", type=int, default=64, help="requests in flight at most")
    parser.add_argument("--poll", type=float, default=0.25, help="first pause (s) while others act")
    parser.add_argument(
        "--poll-max", type=float, default=2.0, help="longest pause (s) between looks"
    )
    parser.add_argument(
        "--doubled",
        type=float,
        default=0.05,
        help="share of people's moves sent twice at once (one stored, the other answered as made)",
    )
    parser.add_argument(
        "--poll-with",
        choices=("moves", "view"),
        default="view",
        help="while others act, poll the whole view (default) or the move log (moves/?since=)",
    )
    parser.add_argument("--timeout", type=float, default=1200, help="give up after (s)")
    parser.add_argument("--logs", type=Path, help="keep the server and worker logs in this folder")
    return parser


def arguments_check(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    limits = {
        "tables": (1, 2000),
        "gunicorn_workers": (1, 32),
        "threads": (1, 64),
        "celery_concurrency": (1, 32),
        "concurrency": (1, 1000),
    }
    for name, (low, high) in limits.items():
        if not low <= getattr(args, name) <= high:
            parser.error(f"--{name.replace('_', '-')} must be between {low} and {high}")
    if not 0 <= args.doubled <= 1:
        parser.error("--doubled is a share between 0 and 1")
    if not (0 < args.poll <= args.poll_max <= 60) or not 1 <= args.timeout <= 7200:
        parser.error("need 0 < --poll <= --poll-max <= 60 and 1 <= --timeout <= 7200")


def arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = parser_make(__doc__.split("\n\n")[0])
    parser.add_argument(
        "--database-url", default="postgres://postgres@127.0.0.1:5432/highsociety_load"
    )
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/6")
    args = parser.parse_args(argv)
    arguments_check(parser, args)
    return args


def main(argv: list[str] | None = None) -> int:
    args = arguments(argv)
    run = f"{int(time.time()) % 10**6}-{os.getpid()}"
    queue = f"hs-load-{run}"
    logs = args.logs or Path(tempfile.mkdtemp(prefix="hs-load-"))
    logs.mkdir(parents=True, exist_ok=True)
    settings_dir = Path(tempfile.mkdtemp(prefix="hs-load-settings-"))
    (settings_dir / "hs_load_settings.py").write_text(SETTINGS_MODULE)
    sys.path.insert(0, str(settings_dir))
    env = stack_env(
        args.database_url,
        args.redis_url,
        CACHE_KEY_PREFIX=f"load-{run}",
        LOG_LEVEL="WARNING",
        EMAIL_URL="dummy:",
        SITE_URL="http://127.0.0.1",
        HS_LOAD_QUEUE=queue,
        DJANGO_SETTINGS_MODULE="hs_load_settings",
        PYTHONPATH=f"{settings_dir}{os.pathsep}{ROOT}",
    )

    database = args.database_url.rsplit("/", 1)[1]
    print(f"Database {database}: dropped, created and migrated …", flush=True)
    database_create(args.database_url, fresh=True)
    django_setup(env, eager=False)
    tables = plan_tables(args.tables, random.Random(args.seed), run)
    started = time.perf_counter()
    accounts_create(tables)
    print(
        f"{sum(len(t.humans) for t in tables)} accounts and tokens made in "
        f"{time.perf_counter() - started:.1f} s",
        flush=True,
    )

    from highsociety_site.celery import app as celery_app

    def worker_ping() -> bool:
        replies = celery_app.control.ping(timeout=0.5)
        return any(name.startswith(queue + "@") for reply in replies for name in reply)

    port = free_port()
    server = worker = None
    figures = Figures()
    timed_out = False
    wall = 0.0
    # However this process ends (an error, Ctrl-C, SIGTERM), the stack goes with it.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    signal.signal(signal.SIGINT, signal.default_int_handler)  # even if started ignoring it
    server_log = (logs / "gunicorn.log").open("w")
    worker_log = (logs / "worker.log").open("w")
    try:
        server = server_start(
            env,
            port,
            args.gunicorn_workers,
            worker_class=args.worker_class,
            threads=args.threads,
            log=server_log,
        )
        worker = worker_start(env, queue, args.celery_concurrency, log=worker_log)
        server_wait(server, port)
        worker_wait(worker, worker_ping)
        print(f"gunicorn on 127.0.0.1:{port} and the worker are up; playing …", flush=True)
        roots = {"gunicorn": server.pid, "Celery worker": worker.pid}
        cpu_before = cpu_seconds(roots, database)
        start = time.perf_counter()
        try:
            wall = asyncio.run(tables_play(f"http://127.0.0.1:{port}", tables, args, figures))
        except TimeoutError:
            timed_out = True
            wall = time.perf_counter() - start
        backlog = queue_length(args.redis_url, queue)
        cpu_after = cpu_seconds(roots, database)
        cpu = {name: cpu_after[name] - cpu_before[name] for name in cpu_after}
    finally:
        process_stop(server)
        process_stop(worker)
        server_log.close()
        worker_log.close()
        shutil.rmtree(settings_dir, ignore_errors=True)  # imported by now wherever needed
        queues_delete(args.redis_url, [queue])

    from django.db import close_old_connections

    close_old_connections()
    wrong, actors = games_check(tables)
    report(tables, figures, wall, actors, args)
    print(f"tasks left in the worker's queue at the end: {backlog}")
    print(
        "CPU seconds while playing: "
        + ", ".join(f"{name} {seconds:.0f}" for name, seconds in cpu.items())
        + f" (wall {wall:.0f} s x {os.cpu_count()} cores; the rest went to other processes)"
    )
    errors = errors_count(figures)
    for problem in figures.problems[:10]:
        print(f"  error: {problem}")
    log_lines = log_problems(logs / "gunicorn.log") + log_problems(logs / "worker.log")
    for line in log_lines[:10]:
        print(f"  server log: {line}")
    for line in wrong[:20]:
        print(f"  inconsistent: {line}")
    if len(wrong) > 20:
        print(f"  … and {len(wrong) - 20} more")
    print(f"logs: {logs}")
    passed = not (errors or wrong or log_lines or timed_out)
    print(
        f"\n{'PASS' if passed else 'FAIL'}: {errors} errors, {len(wrong)} inconsistencies, "
        f"{len(log_lines)} error lines in the server logs"
        + (f", timed out after {args.timeout:g} s" if timed_out else "")
    )
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
