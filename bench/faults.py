#!/usr/bin/env python3
"""Fault bench: PostgreSQL, Redis and the Celery worker restarted again and again
while several tables play, on a private stack (``tests/faults/stack.py``: a PostgreSQL
cluster and a Redis server of this run's own, the app under gunicorn, one worker).  The
machine's shared PostgreSQL and Redis are never touched.

Each client plays tables of two people and one ``easy`` bot through the REST API, one
after another, and counts every answer.  Meanwhile the main thread, every ``--every``
seconds, in turn: stops PostgreSQL (``fast``, then ``immediate`` the next time) for
``--down`` seconds; kills Redis (which comes back empty) for as long; SIGKILLs the worker
and starts a new one.  After each restart it runs the stalled-bots sweep as beat would
(on a clock 3 minutes ahead, since the sweep waits 2 minutes for a bot), and measures:

- ``app``: seconds from the service's start until the API answers 200 again;
- ``bots``: seconds from the start until every table whose bot was waiting has moved.

At the end every game is checked (``stack.game_check``: moves numbered without a gap,
the stored state equal to the replay, each accepted POST stored exactly once) and the
run prints PASS or FAIL (any 500, any inconsistency, a table that never finished).

    .venv/bin/python bench/faults.py [--clients 4] [--rounds 2] [--every 6] [--down 3]
"""

from __future__ import annotations

import argparse
import random
import signal
import statistics
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.faults.stack import (  # noqa: E402
    Api,
    Ledger,
    Stack,
    game_check,
    missing_binaries,
)
from tests.moves import choose  # noqa: E402


class Client(threading.Thread):
    """Two people (``creator``, ``joiner``) playing tables against an easy bot, one
    after another, until told to stop; then the current table is played to its end."""

    def __init__(self, stack: Stack, creator: str, joiner: str, seed: int, stop: threading.Event):
        super().__init__(daemon=True)
        self.stack, self.stop = stack, stop
        self.creator = Api(stack.base, stack.tokens[creator])
        self.joiner = Api(stack.base, stack.tokens[joiner])
        self.rng = random.Random(seed)
        self.games: dict[int, Ledger] = {}
        self.statuses: Counter[int] = Counter()
        self.refused = 0  # connection errors (none expected: gunicorn stays up)
        self.problems: list[str] = []

    def call(self, send):
        """One request; None when the answer is a 503 (counted) or no answer."""
        try:
            response = send()
        except requests.RequestException:
            self.refused += 1
            time.sleep(0.2)
            return None
        self.statuses[response.status_code] += 1
        if response.status_code == 503:
            time.sleep(0.2)
            return None
        if response.status_code >= 500:
            self.problems.append(f"{response.status_code}: {response.text[:200]}")
        return response

    def table(self) -> tuple[int, dict[int, Api]]:
        while True:
            made = self.call(lambda: self.creator.post("/api/v1/games/", {
                "players": 3, "seats": [{"open": True}, {"ai": "easy"}]}))  # fmt: skip
            if made is not None and made.status_code == 201:
                game_id = made.json()["id"]
                break
        while True:
            joined = self.call(lambda: self.joiner.post(f"/api/v1/games/{game_id}/join/", {}))
            if joined is not None and joined.status_code in (200, 201):
                break
        seats = {}
        for api in (self.creator, self.joiner):
            while (view := self.call(lambda a=api: a.game(game_id))) is None:
                pass
            seats[view.json()["your_seat"]] = api
        self.games[game_id] = Ledger()
        return game_id, seats

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                self.play(*self.table())
        except Exception as error:  # report, never hang the bench
            self.problems.append(repr(error))

    def play(self, game_id: int, seats: dict[int, Api]) -> None:
        ledger = self.games[game_id]
        while True:
            response = self.call(lambda: self.creator.game(game_id))
            if response is None:
                continue
            view = response.json()
            if view["status"] != "active":
                return
            people = [s for s in view["to_act"] if s in seats]
            if not people:
                time.sleep(0.05)  # the bot's turn
                continue
            mover = seats[people[0]]
            mine = self.call(lambda m=mover: m.game(game_id))
            if mine is None or not mine.json()["legal_actions"]:
                continue
            mine = mine.json()
            action = choose(mine["legal_actions"], self.rng, pass_chance=0.65)
            version = mine["version"]
            answer = self.call(lambda m=mover, a=action, v=version: m.move(game_id, a, v))
            if answer is not None and answer.status_code == 201:
                ledger.accepted.append((mine["version"], action))
            elif answer is not None and answer.status_code != 409:
                self.problems.append(f"move refused: {answer.status_code} {answer.text[:200]}")


def waiting_bots(stack: Stack, clients: list[Client]) -> dict[int, int]:
    """The active games whose bot is to act, with their version."""
    import psycopg

    ids = [game_id for client in clients for game_id in client.games]
    with psycopg.connect(stack.pg.url()) as conn:
        rows = conn.execute(
            "SELECT g.id, g.version, g.state FROM games_game g WHERE g.id = ANY(%s) "
            "AND g.status = 'active'",
            [ids],
        ).fetchall()
    waiting = {}
    for game_id, version, state in rows:
        from games.engine import State, seats_to_act

        if 2 in seats_to_act(State.from_json(state)):  # the bot sits at seat 2
            waiting[game_id] = version
    return waiting


def bots_moved(stack: Stack, waiting: dict[int, int], timeout: float = 60) -> float | None:
    import psycopg

    started = time.monotonic()
    while time.monotonic() - started < timeout:
        with psycopg.connect(stack.pg.url()) as conn:
            rows = dict(
                conn.execute(
                    "SELECT id, version FROM games_game WHERE id = ANY(%s)", [list(waiting)]
                ).fetchall()
            )
        if all(rows[g] > v for g, v in waiting.items()):
            return time.monotonic() - started
        time.sleep(0.1)
    return None


def app_answers(stack: Stack, probe: Api, game_id: int, timeout: float = 60) -> float | None:
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        try:
            if probe.game(game_id).status_code == 200:
                return time.monotonic() - started
        except requests.RequestException:
            pass
        time.sleep(0.05)
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=4, help="tables played at once")
    parser.add_argument("--rounds", type=int, default=2, help="restarts of each service")
    parser.add_argument("--every", type=float, default=6, help="seconds of play between faults")
    parser.add_argument("--down", type=float, default=3, help="seconds each service stays down")
    args = parser.parse_args()
    if not 1 <= args.clients <= 16 or not 1 <= args.rounds <= 20:
        raise SystemExit("clients 1-16, rounds 1-20")
    reason = missing_binaries()
    if reason:
        raise SystemExit(f"cannot run: {reason}")

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    stack = Stack()
    try:
        print(f"private stack in {stack.folder}: PostgreSQL :{stack.pg.port}, "
              f"Redis :{stack.redis.port}")  # fmt: skip
        stack.migrate()
        names = [f"p{n}" for n in range(2 * args.clients)]
        stack.users_create(names)
        stack.server_start()
        worker_number = 0
        stack.worker_start(f"worker{worker_number}")
        stop = threading.Event()
        clients = [
            Client(stack, names[2 * n], names[2 * n + 1], n, stop) for n in range(args.clients)
        ]
        for client in clients:
            client.start()
        probe = Api(stack.base, stack.tokens[names[0]])
        figures: dict[str, list[tuple[float | None, float | None]]] = {
            "postgres": [], "redis": [], "worker": []}  # fmt: skip
        started = time.monotonic()
        for number in range(args.rounds):
            for service in ("postgres", "redis", "worker"):
                time.sleep(args.every)
                probe_game = next(g for c in clients for g in c.games)
                if service == "postgres":
                    stack.pg.stop("fast" if number % 2 == 0 else "immediate")
                    time.sleep(args.down)
                    waiting = {}
                    stack.pg.start()
                    begun = time.monotonic()
                    app = app_answers(stack, probe, probe_game)
                elif service == "redis":
                    stack.redis.stop()
                    time.sleep(args.down)
                    waiting = waiting_bots(stack, clients)
                    stack.redis.start()
                    begun = time.monotonic()
                    app = app_answers(stack, probe, probe_game)
                else:
                    stack.worker_kill(f"worker{worker_number}")
                    time.sleep(args.down)
                    waiting = waiting_bots(stack, clients)
                    worker_number += 1
                    begun = time.monotonic()
                    stack.worker_start(f"worker{worker_number}")
                    app = None
                if service == "postgres":
                    waiting = waiting_bots(stack, clients)
                stack.stalled_sweep()  # what beat does every minute
                left = bots_moved(stack, waiting) if waiting else 0.0
                bots = None if left is None else time.monotonic() - begun
                figures[service].append((app, bots))
                print(f"  round {number + 1}: {service:<8} restarted; app answers after "
                      f"{'-' if app is None else f'{app:.2f} s'}, bots moving again after "
                      f"{'never' if bots is None else f'{bots:.2f} s'} "
                      f"({len(waiting)} waiting)")  # fmt: skip
        stop.set()
        for client in clients:
            client.join(180)
        elapsed = time.monotonic() - started

        failures: list[str] = []
        statuses: Counter[int] = Counter()
        accepted = games = moves = 0
        actors: Counter[str] = Counter()
        for client in clients:
            statuses.update(client.statuses)
            failures += client.problems
            if client.is_alive():
                failures.append("a client never finished its table")
            for game_id, ledger in client.games.items():
                try:
                    check = game_check(stack.pg.url(), game_id, ledger.accepted)
                except AssertionError as error:
                    failures.append(str(error))
                    continue
                games += 1
                moves += check["moves"]
                accepted += len(ledger.accepted)
                actors.update(check["actors"])
                if check["status"] != "finished":
                    failures.append(f"game {game_id} did not finish ({check['status']})")
        if statuses.get(500):
            failures.append(f"{statuses[500]} answers were 500")
    finally:
        stack.close()

    print(f"\n{args.clients} tables at a time, {args.rounds} restarts of each service, "
          f"{args.down:g} s down each, {elapsed:.0f} s in all\n")  # fmt: skip
    print(f"games finished and checked: {games}")
    print(f"moves stored: {moves} ({', '.join(f'{k} {v}' for k, v in sorted(actors.items()))})")
    print(f"moves accepted by the API (201): {accepted}")
    print(f"answers: {', '.join(f'{k}: {v}' for k, v in sorted(statuses.items()))}")
    print(f"503 answers seen: {statuses.get(503, 0)}")
    print(f"\n{'service':<10} {'app back after (s)':>22} {'bots back after (s)':>22}")
    for service, rows in figures.items():
        apps = [a for a, _ in rows if a is not None]
        bots = [b for _, b in rows if b is not None]
        app_text = f"{statistics.median(apps):.2f} (max {max(apps):.2f})" if apps else "-"
        bot_text = f"{statistics.median(bots):.2f} (max {max(bots):.2f})" if bots else "never"
        print(f"{service:<10} {app_text:>22} {bot_text:>22}")
        if len(bots) < len(rows):
            failures.append(f"bots did not resume after a {service} restart")
    print()
    for failure in failures[:10]:
        print("  " + failure)
    print("consistency: " + ("PASS" if not failures else f"FAIL ({len(failures)} problems)"))
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
