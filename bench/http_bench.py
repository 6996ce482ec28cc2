#!/usr/bin/env python3
"""HTTP benchmark of the REST API under gunicorn on PostgreSQL.

Starts the app under gunicorn (sync workers) on 127.0.0.1 against its own PostgreSQL
database (created and migrated here; default ``highsociety_bench``), sets up tables of
three people who play with the memory aid on (so a client can compute a legal move
from any answer), then measures with concurrent clients, one phase at a time (the
phases take turns in ``--rounds`` slices of ``--seconds / --rounds`` each, so that
whatever else the machine does meanwhile weighs on each phase alike):

- ``floor``: a minimal Django view in the same server doing one read and one write of a
  game row (served only with BENCH_FLOOR_VIEW=1): the cost of Django + PostgreSQL alone;
- ``view``:  ``GET /api/v1/games/{id}/`` as a seated player;
- ``move``:  ``POST /api/v1/games/{id}/moves/`` with a legal move (201 expected).

It prints p50/p99 latency and throughput per phase and the ratios to the floor (guards:
view p50 within 2x of the floor, move p50 within 3x).  Everything is loopback only,
bounded in time (``--seconds`` per phase) and stops by itself.

    .venv/bin/python bench/http_bench.py [--workers 4] [--clients 6] [--seconds 10] [--rounds 5]
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import statistics
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import requests

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
)

LUXURIES = {f"lux{n}" for n in range(1, 11)} | {"excursions", "yacht"}


def bench_env(args, queues: dict[str, str]) -> dict[str, str]:
    """The server's environment: its tasks (a move's turn e-mails) go to queues of this
    run's own, removed with what is in them at the end (no worker runs here)."""
    return stack_env(
        args.database_url,
        args.redis_url,
        BENCH_FLOOR_VIEW="1",
        EMAIL_URL="dummy:",
        **{f"CELERY_QUEUE_{kind.upper()}": name for kind, name in queues.items()},
    )


# --------------------------------------------------------------------------- set-up


@dataclass
class Table:
    game_id: int
    tokens: list[str]  # one per seat


def tables_create(count: int, run: str) -> list[Table]:
    """``count`` started tables of three bench users each, memory aid on."""
    from accounts.models import User
    from accounts.tokens.services import token_create
    from games.services import game_create, game_invitation_respond

    tables = []
    for number in range(count):
        users = [
            User.objects.create_user(username=f"b{run}-{number}-{seat}", password=None)
            for seat in range(3)
        ]
        tokens = [token_create(user=user, name="bench", days=1)[1] for user in users]
        game = game_create(
            creator=users[0],
            players=3,
            seats=[{"user": users[1].username}, {"user": users[2].username}],
            memory_aid=True,
        )
        for user in users[1:]:
            game = game_invitation_respond(game=game, user=user, accept=True)
        tables.append(Table(game.pk, tokens))
    return tables


def session_key_for(user) -> str:
    """A signed-in session of ``user`` in Django's session store, as a log-in makes it."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    session = import_module(settings.SESSION_ENGINE).SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return session.session_key


def page_tables_create(count: int, moves: int, run: str) -> list[Table]:
    """For ``--pages``: one player at ``count`` tables of three people, each played
    ``moves`` moves on (passing when it may, so the boards have long logs; some end),
    plus a table this player has not joined yet with an open seat.  ``tokens`` holds
    the player's session key in every table."""
    from accounts.models import User
    from games.engine import legal_actions, seats_to_act
    from games.models import Game
    from games.services import game_create, game_invitation_respond, game_submit_action

    player = User.objects.create_user(username=f"p{run}", password=None)
    session = session_key_for(player)
    tables = []
    for number in range(count):
        others = [
            User.objects.create_user(username=f"p{run}-{number}-{seat}", password=None)
            for seat in (1, 2)
        ]
        users = [player, *others]
        game = game_create(creator=player, players=3, seats=[{"user": u.username} for u in others])
        for user in others:
            game = game_invitation_respond(game=game, user=user, accept=True)
        for _ in range(moves):
            game = Game.objects.get(pk=game.pk)
            if game.status != Game.Status.ACTIVE:
                break
            state = game.engine_state()
            seat = seats_to_act(state)[0]
            mine = [a for a in legal_actions(state) if a["seat"] == seat]
            action = next((a for a in mine if a["type"] == "pass"), mine[0])
            game_submit_action(
                game=game,
                user=users[seat],
                action={k: v for k, v in action.items() if k != "seat"},
                expected_version=game.version,
            )
        tables.append(Table(game.pk, [session]))
    host = User.objects.create_user(username=f"p{run}-host", password=None)
    game_create(creator=host, players=3, seats=[{"open": True}, {"open": True}])
    return tables


# --------------------------------------------------------------------------- clients


@dataclass
class Figures:
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, seconds: float, ok: bool) -> None:
        with self.lock:
            self.latencies.append(seconds)
            self.errors += not ok


def legal_move(view: dict, rng: random.Random) -> tuple[int, dict]:
    """A legal (seat, action) from any seat's view of a memory-aid game."""
    seats = view["seats"]
    if view["phase"] == "theft":
        seat = view["turn"]
        luxuries = [card for card in seats[seat]["cards"] if card in LUXURIES]
        return seat, {"type": "discard", "card": luxuries[0]}
    if view["phase"] == "sealed":
        seat = view["to_act"][0]
        return seat, {"type": "sealed_bid", "card": min(seats[seat]["hand"])}
    seat = view["turn"]
    if rng.random() < 0.55:
        mine = seats[seat]
        need = max(s["bid_total"] for s in seats if s["seat"] != seat) - mine["bid_total"]
        cards: list[int] = []
        for value in sorted(mine["hand"]):
            if sum(cards) > need:
                break
            cards.append(value)
        if cards and sum(cards) > need and sum(mine["hand"]) - sum(cards) >= 20_000:
            return seat, {"type": "bid", "cards": cards}
    return seat, {"type": "pass"}


class Player(threading.Thread):
    """One client: plays its tables' moves, or reads views, or hits the floor view."""

    def __init__(self, phase, base, tables, figures, stop_at, rng, reporter):
        super().__init__(daemon=True)
        self.phase, self.base, self.tables = phase, base, tables
        self.figures, self.stop_at, self.rng = figures, stop_at, rng
        self.http = requests.Session()
        self.reporter = reporter
        self.current = 0

    def timed(self, method: str, url: str, token: str | None, body=None):
        headers = {"Authorization": f"Token {token}"} if token else {}
        start = time.perf_counter()
        response = self.http.request(method, url, json=body, headers=headers, timeout=30)
        elapsed = time.perf_counter() - start
        return response, elapsed

    def run(self) -> None:
        try:
            getattr(self, f"run_{self.phase}")()
        except Exception as error:  # report, never hang the bench
            self.reporter.append(repr(error))

    def page(self, path: str, session: str | None) -> None:
        cookies = {"sessionid": session} if session else None
        start = time.perf_counter()
        response = self.http.get(self.base + path, cookies=cookies, timeout=30)
        self.figures.add(time.perf_counter() - start, response.status_code == 200)

    def run_health(self) -> None:
        while time.monotonic() < self.stop_at:
            self.page("/health/", None)

    def run_lobby(self) -> None:
        while time.monotonic() < self.stop_at:
            self.page("/", self.tables[0].tokens[0])

    def run_board(self) -> None:
        index = 0
        while time.monotonic() < self.stop_at:
            table = self.tables[index % len(self.tables)]
            index += 1
            self.page(f"/games/{table.game_id}/", table.tokens[0])

    def run_floor(self) -> None:
        table = self.tables[0]
        while time.monotonic() < self.stop_at:
            response, elapsed = self.timed(
                "POST", f"{self.base}/api/v1/bench/floor/{table.game_id}/", None
            )
            self.figures.add(elapsed, response.status_code == 200)

    def run_view(self) -> None:
        index = 0
        while time.monotonic() < self.stop_at:
            table = self.tables[index % len(self.tables)]
            index += 1
            response, elapsed = self.timed(
                "GET", f"{self.base}/api/v1/games/{table.game_id}/", table.tokens[index % 3]
            )
            self.figures.add(elapsed, response.status_code == 200)

    def run_move(self) -> None:
        view = None
        while time.monotonic() < self.stop_at:
            if view is None or view["status"] != "active":
                if self.current >= len(self.tables):
                    self.reporter.append("a client ran out of tables: give it more")
                    return
                table = self.tables[self.current]
                self.current += 1
                view = self.http.get(
                    f"{self.base}/api/v1/games/{table.game_id}/",
                    headers={"Authorization": f"Token {table.tokens[0]}"},
                    timeout=30,
                ).json()
                continue
            seat, action = legal_move(view, self.rng)
            response, elapsed = self.timed(
                "POST",
                f"{self.base}/api/v1/games/{table.game_id}/moves/",
                table.tokens[seat],
                {**action, "version": view["version"]},
            )
            ok = response.status_code == 201
            self.figures.add(elapsed, ok)
            if ok:
                view = response.json()
            else:
                view = self.http.get(
                    f"{self.base}/api/v1/games/{table.game_id}/",
                    headers={"Authorization": f"Token {table.tokens[0]}"},
                    timeout=30,
                ).json()


def phase_run(
    phase: str, base: str, groups: list[list[Table]], seconds: float, done: list[int]
) -> dict:
    """One slice of a phase; ``done[n]``: how many of client n's tables it has used."""
    figures, problems = Figures(), []
    stop_at = time.monotonic() + seconds
    players = [
        Player(phase, base, tables, figures, stop_at, random.Random(n), problems)
        for n, tables in enumerate(groups)
    ]
    for n, player in enumerate(players):
        player.current = done[n]
    start = time.perf_counter()
    for player in players:
        player.start()
    for player in players:
        player.join(seconds + 60)
    elapsed = time.perf_counter() - start
    for n, player in enumerate(players):
        done[n] = max(player.current - 1, 0)  # the table in play goes on next time
    if problems:
        print(f"  {phase}: {problems[0]}")
    return {"latencies": figures.latencies, "errors": figures.errors, "elapsed": elapsed}


def phase_summary(phase: str, slices: list[dict]) -> dict:
    latencies = sorted(x for part in slices for x in part["latencies"])
    elapsed = sum(part["elapsed"] for part in slices)
    return {
        "phase": phase,
        "requests": len(latencies),
        "errors": sum(part["errors"] for part in slices),
        "rps": len(latencies) / elapsed,
        "p50": statistics.median(latencies) * 1000 if latencies else float("nan"),
        "p99": latencies[int(len(latencies) * 0.99) - 1] * 1000 if latencies else float("nan"),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=4, help="gunicorn sync workers")
    parser.add_argument("--clients", type=int, default=6, help="concurrent clients")
    parser.add_argument("--seconds", type=float, default=10, help="length of each phase")
    parser.add_argument(
        "--rounds", type=int, default=5, help="slices per phase, the phases taking turns"
    )
    parser.add_argument("--tables", type=int, default=40, help="tables per client")
    parser.add_argument(
        "--pages",
        action="store_true",
        help="measure the signed-in lobby and board pages against /health/ instead of the API",
    )
    parser.add_argument(
        "--moves", type=int, default=40, help="with --pages: moves played at each table"
    )
    parser.add_argument(
        "--database-url", default="postgres://postgres@127.0.0.1:5432/highsociety_bench"
    )
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/13")
    args = parser.parse_args()
    if not 1 <= args.clients <= 64 or not 1 <= args.workers <= 16 or not 1 <= args.seconds <= 120:
        raise SystemExit("clients 1-64, workers 1-16, seconds 1-120")
    if not 1 <= args.rounds <= 20:
        raise SystemExit("rounds 1-20")

    run = f"{int(time.time()) % 10**6}"
    queues = {kind: f"hs-http-{run}-{os.getpid()}-{kind}" for kind in ("bots", "email", "sweeps")}
    env = bench_env(args, queues)
    database_create(args.database_url, fresh=True)  # a run's figures on its own tables only
    django_setup(env, eager=True, pages=args.pages)  # tables of people only: no bot tasks
    print(
        f"Setting up {args.clients * args.tables} tables in {args.database_url.rsplit('/', 1)[1]} …"
    )
    if args.pages:
        groups = [
            page_tables_create(args.tables, args.moves, f"{run}-{n}") for n in range(args.clients)
        ]
    else:
        groups = [tables_create(args.tables, f"{run}-{n}") for n in range(args.clients)]
    # The planner's statistics as autovacuum keeps them on a running site: just after
    # creating hundreds of users it still believes the tables small, and joins the users
    # of a game's seats by scanning them all.
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = None
    # However this process ends (an error, Ctrl-C, SIGTERM), the server goes with it.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        server = server_start(env, port, args.workers)
        server_wait(server, port)
        # Warm up: every worker opens its database connection, imports, caches.
        phases = ("health", "lobby", "board") if args.pages else ("floor", "view", "move")
        for phase in phases[:2] if not args.pages else phases:
            phase_run(phase, base, [g[-1:] for g in groups], 1.5, [0] * len(groups))
        # The phases take turns in short slices, so that whatever else the machine does
        # meanwhile (autovacuum after the set-up, other processes) weighs on each alike.
        slices: dict[str, list[dict]] = {phase: [] for phase in phases}
        done = {phase: [0] * len(groups) for phase in phases}
        for _ in range(args.rounds):
            for phase in phases:
                slices[phase].append(
                    phase_run(phase, base, groups, args.seconds / args.rounds, done[phase])
                )
        results = [phase_summary(phase, slices[phase]) for phase in phases]
    finally:
        if server is not None:
            process_stop(server, group=True)
        queues_delete(args.redis_url, queues.values())

    print(
        f"\ngunicorn {args.workers} sync workers, {args.clients} concurrent clients, "
        f"{args.seconds:g} s per phase, PostgreSQL, loopback, {os.cpu_count()} cores\n"
    )
    print(f"{'endpoint':<34} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7}")
    names = {
        "health": "GET /health/",
        "lobby": "GET / (signed in)",
        "board": "GET /games/{id}/ (signed in)",
        "floor": "floor (1 read + 1 write)",
        "view": "GET /api/v1/games/{id}/",
        "move": "POST /api/v1/games/{id}/moves/",
    }
    for result in results:
        print(
            f"{names[result['phase']]:<34} {result['rps']:>8.0f} {result['p50']:>8.1f} "
            f"{result['p99']:>8.1f} {result['errors']:>7}"
        )
    floor = results[0]["p50"]
    first, second = results[1]["p50"] / floor, results[2]["p50"] / floor
    if args.pages:
        print(
            f"\np50 ratio to /health/: lobby {first:.2f}x (guard <= 5), "
            f"board {second:.2f}x (guard <= 5)"
        )
    else:
        print(
            f"\np50 ratio to the floor: view {first:.2f}x (guard <= 2), "
            f"move {second:.2f}x (guard <= 3)"
        )
    print(f"load average at the end (uptime): {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}")
    return 0 if not any(r["errors"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
