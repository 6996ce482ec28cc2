"""How many open boards one machine holds: streams (push) against polling every 3 s.

.venv/bin/python bench/push_capacity.py [--streams 5000] [--per-game 10] [--moves 40]
    [--idle 70] [--pollers 300] [--poll-seconds 30] [--workers 2] [--wsgi-workers 4]
    [--database-url postgres://postgres@127.0.0.1:5432/highsociety_push]
    [--redis-url redis://127.0.0.1:6379/12]

It drops, creates and migrates its own PostgreSQL database, makes tables of three
people (``--per-game`` open boards each, spread over the seated players' sessions), and
starts the site as production does (gunicorn with ``--workers`` uvicorn workers, DEBUG
off, a pool of 10 database connections per worker) on a loopback port in 8200-8299,
with Redis as the cache and the boards' channel.  Then, from this one process (aiohttp):

1. **push**: opens ``--streams`` streams (each waits for its ``hello``), measures the
   server's memory before and after (RSS of its processes: per open stream), its CPU
   over ``--idle`` seconds with every stream open and nothing happening (heartbeats
   only; 70 s by default, a whole cycle of the streams' presence marks, every 45 s or
   more), then makes ``--moves`` moves through the move service, one table at a time,
   and takes the delay from each move's commit to its ``changed`` on every open stream
   of that table (p50/p99 over all deliveries);
2. **poll**: closes the streams and runs ``--pollers`` boards polling every 3 s as the
   board does without a stream (staggered; 204 while unchanged), for ``--poll-seconds``
   seconds, with moves meanwhile: CPU, requests per second, latency of the polls, and
   the delay from a move's commit to the first poll that brings it.  Twice: against the
   same ASGI server, then against gunicorn with ``--wsgi-workers`` sync workers (WSGI,
   persistent connections), the site as it was served before the stream.

It prints both, then how many boards each way would use the same CPU.  Loopback only;
it raises its own open-file limit (one descriptor per stream on each side) to the hard
limit and refuses more streams than that allows.  Every process it starts stops with it.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import stack  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


# --------------------------------------------------------------------------- the server


def server_start(env: dict[str, str], port: int, workers: int, log) -> object:
    return stack.spawn(
        [
            str(stack.BIN / "gunicorn"),
            "highsociety_site.asgi:application",
            "--worker-class",
            "highsociety_site.asgi_worker.StreamingUvicornWorker",
            "--workers",
            str(workers),
            "--bind",
            f"127.0.0.1:{port}",
            "--log-level",
            "warning",
            "--backlog",
            "4096",
        ],
        env,
        log,
    )


def processes(root: int) -> list[int]:
    """``root`` and its children (gunicorn's master and workers)."""
    found = [root]
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == root:
                found.append(int(entry.name))
    return found


def cpu_seconds(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / TICKS


def rss_bytes(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
        except OSError:
            continue
    return total


def threads(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("Threads:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


# --------------------------------------------------------------------------- the tables


def tables_make(games: int) -> list[dict]:
    """``games`` running tables of three people; each with its players' session keys."""
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.contrib.sessions.backends.db import SessionStore

    from games import services

    User = get_user_model()
    stamp = int(time.time())
    users = [User(username=f"push{stamp}_{i}", display_name=f"P{i}") for i in range(games * 3)]
    for user in users:
        user.set_unusable_password()
    User.objects.bulk_create(users)
    users = list(User.objects.filter(username__startswith=f"push{stamp}_").order_by("pk"))
    sessions = {}
    for user in users:
        store = SessionStore()
        store[SESSION_KEY] = str(user.pk)
        store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        store[HASH_SESSION_KEY] = user.get_session_auth_hash()
        store.save()
        sessions[user.pk] = store.session_key
    tables = []
    for g in range(games):
        host, a, b = users[3 * g : 3 * g + 3]
        game = services.game_create(
            creator=host, players=3, seats=[{"user": a.username}, {"user": b.username}]
        )
        for guest in (a, b):
            services.game_invitation_respond(game=game, user=guest, accept=True)
        tables.append(
            {
                "id": game.pk,
                "users": [host, a, b],
                "sessions": [sessions[u.pk] for u in (host, a, b)],
            }
        )
    return tables


def move(table: dict) -> tuple[int, int, float]:
    """One legal move (mostly a pass) by a seat to act; returns (game, version, the
    moment of its commit, taken before the commit's other callbacks: the publish)."""
    from django.db import transaction

    from games import services
    from games.engine import random_action
    from games.models import Game

    game = Game.objects.get(pk=table["id"])
    action = random_action(game.engine_state(), random.Random(game.version), pass_chance=0.9)
    committed: list[float] = []
    with transaction.atomic():
        transaction.on_commit(lambda: committed.append(time.time()))
        game = services.game_submit_action(
            game=game,
            user=table["users"][action["seat"]],
            action=action,
            expected_version=game.version,
        )
    return table["id"], game.version, committed[0]


# --------------------------------------------------------------------------- push


async def push_phase(args, base: str, tables: list[dict], pids: list[int]) -> dict:
    import aiohttp

    boards = [(t, i % 3) for t in tables for i in range(args.per_game)][: args.streams]
    received: dict[tuple[int, int], list[float]] = {}
    opened = 0
    open_event = asyncio.Event()
    failures = 0
    connector = aiohttp.TCPConnector(limit=0, force_close=False)
    timeout = aiohttp.ClientTimeout(total=None, sock_read=None, sock_connect=30)
    session = aiohttp.ClientSession(connector=connector, timeout=timeout)
    gate = asyncio.Semaphore(100)

    async def board(table: dict, seat: int) -> None:
        nonlocal opened, failures
        url = f"{base}/games/{table['id']}/stream/?version=0&t=0"
        cookies = {"sessionid": table["sessions"][seat]}
        try:
            async with gate:
                response = await session.get(url, cookies=cookies)
            if response.status != 200:
                failures += 1
                return
            async for line in response.content:
                text = line.decode().strip()
                if text == "event: hello":
                    opened += 1
                    if opened + failures >= len(boards):
                        open_event.set()
                if text.startswith("data: ") and last_event.get(id(response)) == "changed":
                    received.setdefault((table["id"], int(text[6:])), []).append(time.time())
                if text.startswith("event: "):
                    last_event[id(response)] = text[7:]
        except (TimeoutError, aiohttp.ClientError):
            failures += 1
            if opened + failures >= len(boards):
                open_event.set()

    last_event: dict[int, str] = {}
    rss_before, threads_before = rss_bytes(pids), threads(pids)
    started = time.monotonic()
    tasks = [asyncio.ensure_future(board(t, s)) for t, s in boards]
    try:
        await asyncio.wait_for(open_event.wait(), timeout=args.open_timeout)
    except TimeoutError:
        pass
    open_seconds = time.monotonic() - started
    await asyncio.sleep(2)  # the "changed" each board gets at once (it claimed version 0)
    received.clear()
    rss_after, threads_after = rss_bytes(pids), threads(pids)
    print(f"push: {opened} streams open ({failures} failed) in {open_seconds:.1f} s", flush=True)

    cpu0, wall0 = cpu_seconds(pids), time.monotonic()
    await asyncio.sleep(args.idle)
    idle_cpu = (cpu_seconds(pids) - cpu0) / (time.monotonic() - wall0)

    commits: dict[tuple[int, int], float] = {}
    loop = asyncio.get_running_loop()
    chosen = random.Random(7).sample(tables, min(args.moves, len(tables)))
    cpu0, wall0 = cpu_seconds(pids), time.monotonic()
    for table in chosen:
        game_id, version, at = await loop.run_in_executor(None, move, table)
        commits[(game_id, version)] = at
        await asyncio.sleep(args.move_every)
    await asyncio.sleep(3)
    moving_cpu = (cpu_seconds(pids) - cpu0) / (time.monotonic() - wall0)
    delays = []
    expected = 0
    for key, at in commits.items():
        boards_of_game = sum(1 for t, _ in boards if t["id"] == key[0])
        expected += boards_of_game
        delays += [moment - at for moment in received.get(key, [])]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await session.close()
    return {
        "streams": opened,
        "failed": failures,
        "open_seconds": open_seconds,
        "rss_per_stream": (rss_after - rss_before) / max(opened, 1),
        "rss_after": rss_after,
        "threads": threads_after - threads_before,
        "idle_cpu": idle_cpu,
        "moving_cpu": moving_cpu,
        "deliveries": len(delays),
        "expected": expected,
        "p50": percentile(delays, 0.5),
        "p99": percentile(delays, 0.99),
        "max": max(delays) if delays else float("nan"),
    }


# --------------------------------------------------------------------------- poll


async def poll_phase(args, base: str, tables: list[dict], pids: list[int]) -> dict:
    import aiohttp

    boards = [(t, i % 3) for t in tables for i in range(args.per_game)][: args.pollers]
    connector = aiohttp.TCPConnector(limit=0)
    session = aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=30))
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    seen: dict[tuple[int, int], list[float]] = {}
    stop = time.monotonic() + args.poll_seconds

    async def board(table: dict, seat: int) -> None:
        version, t = "0", "0"
        cookies = {"sessionid": table["sessions"][seat]}
        await asyncio.sleep(random.random() * 3)
        while time.monotonic() < stop:
            began = time.monotonic()
            url = f"{base}/games/{table['id']}/board/?version={version}&t={t}"
            try:
                async with session.get(url, cookies=cookies, headers={"HX-Request": "true"}) as r:
                    body = await r.text()
                    statuses[r.status] = statuses.get(r.status, 0) + 1
                    if r.status == 200:
                        got = body.split(f"/games/{table['id']}/board/?version=", 1)[1]
                        version, t = (
                            got.split("&amp;t=", 1)[0],
                            got.split("&amp;t=", 1)[1].split('"', 1)[0],
                        )
                        seen.setdefault((table["id"], int(version)), []).append(time.time())
            except (TimeoutError, aiohttp.ClientError, IndexError):
                statuses[0] = statuses.get(0, 0) + 1
            latencies.append(time.monotonic() - began)
            await asyncio.sleep(max(0.0, 3.0 - (time.monotonic() - began)))

    tasks = [asyncio.ensure_future(board(t, s)) for t, s in boards]
    await asyncio.sleep(min(6.0, args.poll_seconds / 2))  # every board has its version
    latencies.clear()
    seen.clear()
    cpu0, wall0 = cpu_seconds(pids), time.monotonic()
    commits: dict[tuple[int, int], float] = {}
    loop = asyncio.get_running_loop()
    polled = {t["id"] for t, _ in boards}
    chosen = [t for t in random.Random(8).sample(tables, len(tables)) if t["id"] in polled]
    chosen = chosen[: args.moves]
    for table in chosen:
        if time.monotonic() > stop - 4:
            break
        game_id, version, at = await loop.run_in_executor(None, move, table)
        commits[(game_id, version)] = at
        await asyncio.sleep(args.move_every)
    await asyncio.gather(*tasks, return_exceptions=True)
    wall = time.monotonic() - wall0
    cpu = (cpu_seconds(pids) - cpu0) / wall
    await session.close()
    delays = [m - at for key, at in commits.items() for m in seen.get(key, [])]
    return {
        "pollers": len(boards),
        "offered": len(boards) / 3.0,
        "cpu": cpu,
        "rps": len(latencies) / wall,
        "poll_p50": percentile(latencies, 0.5),
        "poll_p99": percentile(latencies, 0.99),
        "statuses": statuses,
        "deliveries": len(delays),
        "p50": percentile(delays, 0.5),
        "p99": percentile(delays, 0.99),
    }


# --------------------------------------------------------------------------- main


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", type=int, default=5000)
    parser.add_argument("--per-game", type=int, default=10)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--move-every", type=float, default=0.25)
    parser.add_argument("--idle", type=float, default=70)
    parser.add_argument("--pollers", type=int, default=300)
    parser.add_argument("--poll-seconds", type=float, default=30)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--wsgi-workers", type=int, default=4)
    parser.add_argument("--open-timeout", type=float, default=180)
    parser.add_argument(
        "--database-url", default="postgres://postgres@127.0.0.1:5432/highsociety_push"
    )
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/12")
    args = parser.parse_args()

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if 2 * args.streams + 500 > hard:
        raise SystemExit(
            f"{args.streams} streams need {2 * args.streams + 500} open files; the limit is {hard}"
        )
    if not 1 <= args.streams <= 20000 or not 1 <= args.pollers <= 5000:
        raise SystemExit("--streams is 1 to 20,000, --pollers 1 to 5,000")

    port = next(p for p in range(8200, 8300) if _free(p))
    env = stack.stack_env(
        args.database_url,
        args.redis_url,
        DATABASE_POOL_SIZE="10",
        EMAIL_URL="dummy:",
        CACHE_KEY_PREFIX="pushbench",
        SESSION_COOKIE_SECURE="0",
        CSRF_COOKIE_SECURE="0",
        SECURE_HSTS_SECONDS="0",
    )
    stack.database_create(args.database_url, fresh=True)
    stack.django_setup(env, eager=True)
    from django.core.management import call_command

    call_command("collectstatic", "--noinput", verbosity=0)  # error pages render, as in production
    games = -(-max(args.streams, args.pollers) // args.per_game)
    began = time.monotonic()
    tables = tables_make(games)
    print(f"{games} tables of three people made in {time.monotonic() - began:.0f} s", flush=True)

    from django.db import connections

    connections.close_all()
    load = os.getloadavg()
    print(f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}", flush=True)
    log = open(Path("/tmp") / f"push-capacity-{port}.log", "w")
    server = server_start(env, port, args.workers, log)
    try:
        stack.server_wait(server, port)
        time.sleep(1)
        pids = processes(server.pid)
        base = f"http://127.0.0.1:{port}"
        push = asyncio.run(push_phase(args, base, tables, pids))
        time.sleep(2)
        polls = {"asgi": asyncio.run(poll_phase(args, base, tables, pids))}
        stack.process_stop(server, group=True)
        # The same boards polling the site as it was served before the stream: gunicorn
        # with sync workers (WSGI), persistent database connections.
        wsgi_env = {**env, "CONN_MAX_AGE": "600", "DATABASE_POOL_SIZE": "0"}
        server = stack.server_start(wsgi_env, port, args.wsgi_workers, log=log)
        stack.server_wait(server, port)
        time.sleep(1)
        polls["wsgi"] = asyncio.run(poll_phase(args, base, tables, processes(server.pid)))
    finally:
        stack.process_stop(server, group=True)
        log.close()
    load = os.getloadavg()

    print()
    print(f"push, {args.workers} uvicorn workers, heartbeat {env.get('LIVE_HEARTBEAT_SECONDS', '20')} s")
    print(
        f"  open streams                 {push['streams']:,} ({push['failed']} failed), opened in {push['open_seconds']:.1f} s"
    )
    print(
        f"  server memory per stream     {push['rss_per_stream'] / 1024:.1f} KiB (RSS {push['rss_after'] / 2**20:.0f} MiB in all; +{push['threads']} threads)"
    )
    print(f"  server CPU at idle           {push['idle_cpu'] * 100:.1f}% of a core")
    print(
        f"  server CPU while moving      {push['moving_cpu'] * 100:.1f}% of a core ({len(range(args.moves))} moves, one every {args.move_every} s)"
    )
    print(f"  deliveries                   {push['deliveries']:,} of {push['expected']:,} expected")
    print(
        f"  commit -> stream p50 / p99   {push['p50'] * 1000:.0f} / {push['p99'] * 1000:.0f} ms (max {push['max'] * 1000:.0f} ms)"
    )
    per_stream = push["idle_cpu"] / max(push["streams"], 1)
    for name, poll in polls.items():
        server_name = (
            f"{args.workers} uvicorn workers (ASGI), as now"
            if name == "asgi"
            else f"{args.wsgi_workers} sync workers (WSGI), as before the stream"
        )
        print(
            f"poll every 3 s, {poll['pollers']:,} boards ({poll['offered']:.0f} requests/s asked), {server_name}"
        )
        print(
            f"  server CPU                   {poll['cpu'] * 100:.1f}% of a core, {poll['rps']:.0f} requests/s served"
        )
        print(
            f"  poll latency p50 / p99       {poll['poll_p50'] * 1000:.0f} / {poll['poll_p99'] * 1000:.0f} ms; statuses {poll['statuses']}"
        )
        print(
            f"  commit -> board p50 / p99    {poll['p50'] * 1000:.0f} / {poll['p99'] * 1000:.0f} ms ({poll['deliveries']} deliveries)"
        )
        # A board polls every 3 s: its cost is a third of a request's CPU per second
        # (from the requests actually served, so that a saturated server is not flattered).
        per_poller = poll["cpu"] / max(poll["rps"], 1e-9) / 3.0
        print(
            f"  CPU per open board           {per_poller * 1e6:.0f} µ-cores (push: {per_stream * 1e6:.0f}, {per_poller / per_stream if per_stream else float('inf'):.0f}x less)"
        )
        print(
            f"  boards at push's idle CPU    {push['idle_cpu'] / per_poller:,.0f} polling, against {push['streams']:,} streams"
        )
    print(f"load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    failed = push["failed"] > 0 or push["streams"] < args.streams
    sys.exit(1 if failed else 0)


def _free(port: int) -> bool:
    import socket

    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) != 0


if __name__ == "__main__":
    main()
