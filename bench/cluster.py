#!/usr/bin/env python3
"""Several nodes on loopback: 200 tables played through HAProxy, then checked.

The topology of docs/operations.md ("Several nodes"), every piece on this machine:

- PgBouncer in transaction pooling mode in front of the local PostgreSQL
  (``--postgres``, a database of this bench's own, dropped and created again);
- two web nodes (gunicorn, ``--gunicorn-workers`` sync workers each) that reach the
  database through PgBouncer only, with ``DATABASE_POOLER=transaction``;
- HAProxy in front of them: round robin, each node checked on ``/health/``;
- two Celery workers on separate queues (the bots'; the e-mails' and the sweeps'),
  queue names of this run's own;
- Redis (``--redis-url``, a database number of its own and a key prefix of this run's
  own) as the cache, the sessions' neighbour and the broker.

Then, measured: ``bench/load.py``'s people play every table through HAProxy with the
REST API, the bots move in the workers, and the database is checked as ``load.py``
checks it (every game finished, replay equal to the stored state, moves numbered with no
gap, no accepted move lost or doubled, server logs free of errors).

Before the play, the cross-node checks: a move made through node A (its own port,
bypassing HAProxy) must be on the board fetched from node B right after, with node B's
session of the same player (sessions live in the database, the "at the table" marks in
Redis: nothing is kept per node), and it must reach a board's stream open on the ASGI
node beside node B; first, a page of node B must know the session node A made.
``CROSS_NODE_CHECKS`` is the list to extend.

HAProxy and PgBouncer are Debian packages: ``make bench-cluster`` installs them with
apt-get when missing (as root); otherwise this script says what to install.  Every
process started here stops when the bench ends, however it ends.

    .venv/bin/python bench/cluster.py [--tables 200] [--gunicorn-workers 2] [--concurrency 64]
"""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import load  # noqa: E402  (the repository root is on the path from here)
from bench.stack import (  # noqa: E402
    database_create,
    django_setup,
    process_stop,
    queues_delete,
    server_start,
    server_wait,
    spawn,
    stack_env,
    worker_start,
    worker_wait,
)

PORTS = {"haproxy": 8310, "node-a": 8311, "node-b": 8312, "node-b-asgi": 8313, "pgbouncer": 6431}


# --------------------------------------------------------------------------- the pieces


def program(name: str) -> str:
    """The path of a Debian package's program (``/usr/sbin`` is not on every PATH)."""
    found = shutil.which(name) or shutil.which(name, path="/usr/sbin:/usr/bin:/sbin")
    if found is None:
        raise SystemExit(
            f"{name} is missing: `apt-get install haproxy pgbouncer` (or `make bench-cluster` "
            "as root, which installs both)"
        )
    return found


def port_wait(port: int, process: subprocess.Popen, what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"{what} stopped at start (exit {process.returncode}): see its log")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"{what} did not listen on port {port} within {timeout:.0f} s")


def port_free_or_exit(port: int) -> None:
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the servers do
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            raise SystemExit(f"port {port} is taken: is another cluster bench running?") from None


def pgbouncer_config(folder: Path, *, port: int, database: str, postgres: str, pool: int) -> Path:
    """PgBouncer's files: one database of this bench's, transaction pooling, trust auth
    on loopback (as the local PostgreSQL itself)."""
    host, _, pg_port = postgres.partition(":")
    (folder / "users.txt").write_text('"postgres" ""\n')
    config = folder / "pgbouncer.ini"
    config.write_text(
        f"""[databases]
{database} = host={host} port={pg_port or 5432} dbname={database} user=postgres

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = {port}
unix_socket_dir =
auth_type = trust
auth_file = {folder / "users.txt"}
admin_users = postgres
pool_mode = transaction
default_pool_size = {pool}
max_client_conn = 500
server_reset_query =
ignore_startup_parameters = extra_float_digits
logfile =
pidfile =
"""
    )
    return config


def haproxy_config(folder: Path, *, port: int, nodes: list[int], workers: int) -> Path:
    """Round robin over the nodes, each checked on /health/ (with a Host header the
    app accepts), the client's address passed on in X-Forwarded-For.

    Each node gets at most ``workers`` requests at once (its sync workers): the rest wait
    in HAProxy's queue, not in gunicorn's listen backlog, where a health check would
    queue behind every waiting request, time out, and take a busy node out (both, under
    load: then every request is a 503)."""
    servers = "\n".join(
        f"    server node-{chr(ord('a') + n)} 127.0.0.1:{node} maxconn {workers} "
        "check inter 2s fall 3 rise 1"
        for n, node in enumerate(nodes)
    )
    config = folder / "haproxy.cfg"
    config.write_text(
        f"""global
    maxconn 2000

defaults
    mode http
    timeout connect 5s
    timeout client 60s
    timeout server 60s
    timeout queue 60s
    timeout check 5s
    option forwardfor
    option http-keep-alive

frontend site
    bind 127.0.0.1:{port}
    default_backend web

backend web
    balance roundrobin
    option httpchk
    http-check send meth GET uri /health/ ver HTTP/1.1 hdr Host localhost
    http-check expect status 200
{servers}
"""
    )
    return config


def as_postgres_if_root() -> list[str]:
    """PgBouncer refuses to run as root: it switches to the ``postgres`` user."""
    return ["-u", "postgres"] if os.geteuid() == 0 else []


# --------------------------------------------------------------------------- cross-node


@dataclass
class CrossNode:
    """What a cross-node check gets: the nodes' own addresses, and a started table of
    three people with an API token and a signed-in session cookie for each."""

    node_a: str
    node_b: str
    game_id: int
    tokens: list[str]
    sessions: list[str]
    node_b_asgi: str = ""  # an ASGI node beside B, as compose runs them (the streams)


def cross_node_table(run: str) -> tuple[int, list[str], list[str]]:
    """A started table of three people, made in this process (set-up): each has an API
    token and a session (Django's session engine, as a log-in makes one)."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    from accounts.models import User
    from accounts.tokens.services import token_create
    from games.services import game_create, game_invitation_respond

    store = import_module(settings.SESSION_ENGINE).SessionStore
    users = [User.objects.create_user(username=f"cn{run}-{n}", password=None) for n in range(3)]
    game = game_create(
        creator=users[0],
        players=3,
        seats=[{"user": users[1].username}, {"user": users[2].username}],
    )
    for user in users[1:]:
        game = game_invitation_respond(game=game, user=user, accept=True)
    tokens, sessions = [], []
    for user in users:
        tokens.append(token_create(user=user, name="cluster", days=1)[1])
        session = store()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        sessions.append(session.session_key)
    return game.pk, tokens, sessions


def move_on_a_shows_on_b_board(check: CrossNode) -> str | None:
    """A move through node A's API is on the board that node B serves next: the
    polled fragment (``board/?version=``) answers 200 with the new version, not 204."""
    api = f"/api/v1/games/{check.game_id}/"
    view = requests.get(
        check.node_a + api, headers={"Authorization": f"Token {check.tokens[0]}"}, timeout=10
    ).json()
    seat = view["turn"]
    before = view["version"]
    watcher = (seat + 1) % 3
    cookies = {"sessionid": check.sessions[watcher]}
    board = f"{check.node_b}/games/{check.game_id}/board/?version={before}"
    unchanged = requests.get(board, cookies=cookies, headers={"HX-Request": "true"}, timeout=10)
    if unchanged.status_code != 204:
        return f"node B's board before the move: {unchanged.status_code}, expected 204"
    moved = requests.post(
        check.node_a + api + "moves/",
        json={"type": "pass", "version": before},
        headers={"Authorization": f"Token {check.tokens[seat]}"},
        timeout=10,
    )
    if moved.status_code != 201:
        return f"the pass through node A: {moved.status_code} {moved.text[:200]}"
    after = requests.get(board, cookies=cookies, headers={"HX-Request": "true"}, timeout=10)
    if after.status_code != 200 or f"version={moved.json()['version']}" not in after.text:
        return f"node B's board after the move: {after.status_code}, without the new version"
    return None


def page_on_b_is_signed_in(check: CrossNode) -> str | None:
    """The session made once is known to both nodes: the full board through B and the
    lobby through A are both signed in (no log-in page)."""
    for base, path in ((check.node_b, f"/games/{check.game_id}/"), (check.node_a, "/")):
        answer = requests.get(
            base + path, cookies={"sessionid": check.sessions[0]}, timeout=10, allow_redirects=False
        )
        if answer.status_code != 200 or "Log out" not in answer.text:
            return f"{base}{path}: {answer.status_code}, not a signed-in page"
    return None


def move_on_a_reaches_a_stream_on_b(check: CrossNode) -> str | None:
    """A move through node A reaches a board streaming from another node (an ASGI node,
    as docker-compose.yml runs the web service): node A publishes on Redis after the
    commit, the other node's stream sends ``changed`` with the new version."""
    import queue
    import threading

    api = f"/api/v1/games/{check.game_id}/"
    view = requests.get(
        check.node_a + api, headers={"Authorization": f"Token {check.tokens[0]}"}, timeout=10
    ).json()
    seat, before = view["turn"], view["version"]
    watcher = (seat + 1) % 3
    heard: queue.Queue = queue.Queue()

    def listen() -> None:
        url = f"{check.node_b_asgi}/games/{check.game_id}/stream/?version={before}"
        try:
            with requests.get(
                url, cookies={"sessionid": check.sessions[watcher]}, stream=True, timeout=(5, 15)
            ) as answer:
                if answer.status_code != 200:
                    heard.put(("status", answer.status_code))
                    return
                event = ""
                for line in answer.iter_lines(decode_unicode=True):
                    if line.startswith("event: "):
                        event = line[len("event: ") :]
                    elif line.startswith("data: ") and event == "hello":
                        heard.put(("hello", None))
                    elif line.startswith("data: ") and event == "changed":
                        version = int(line[len("data: ") :])
                        if version > before:
                            heard.put(("changed", (version, time.monotonic())))
                            return
        except requests.RequestException as error:
            heard.put(("error", str(error)[:200]))

    threading.Thread(target=listen, daemon=True).start()
    try:
        kind, value = heard.get(timeout=10)
    except queue.Empty:
        return "the stream on the other node did not open within 10 s"
    if kind != "hello":
        return f"the stream on the other node: {kind} {value}"
    sent = time.monotonic()
    moved = requests.post(
        check.node_a + api + "moves/",
        json={"type": "pass", "version": before},
        headers={"Authorization": f"Token {check.tokens[seat]}"},
        timeout=10,
    )
    if moved.status_code != 201:
        return f"the pass through node A: {moved.status_code} {moved.text[:200]}"
    try:
        kind, value = heard.get(timeout=5)
    except queue.Empty:
        return "no 'changed' event on the other node's stream within 5 s of the move"
    if kind != "changed" or value[0] != moved.json()["version"]:
        return f"the other node's stream said {kind} {value}"
    print(f"  (the move reached the other node's stream {value[1] - sent:.3f} s after it was sent)")
    return None


CROSS_NODE_CHECKS: list[Callable[[CrossNode], str | None]] = [
    page_on_b_is_signed_in,
    move_on_a_shows_on_b_board,
    move_on_a_reaches_a_stream_on_b,
]


# --------------------------------------------------------------------------- pools


def pgbouncer_pools(port: int, database: str) -> str:
    """PgBouncer's own figures for the bench's pool (SHOW POOLS through psql)."""
    psql = shutil.which("psql")
    if psql is None:
        return "(psql missing)"
    answer = subprocess.run(
        [
            psql,
            "-h",
            "127.0.0.1",
            "-p",
            str(port),
            "-U",
            "postgres",
            "-d",
            "pgbouncer",
            "-AF",
            " ",
            "-c",
            "SHOW POOLS",
        ],
        capture_output=True,
        text=True,
        timeout=10,
        check=False,
    )
    lines = answer.stdout.splitlines()
    mine = [line for line in lines if line.startswith(database + " ")]
    return f"{lines[0]}\n  {mine[0]}" if mine else answer.stderr.strip()[:200]


# --------------------------------------------------------------------------- main


def arguments(argv: list[str] | None):
    parser = load.parser_make(__doc__.split("\n\n")[0])
    parser.set_defaults(gunicorn_workers=2)
    parser.add_argument("--postgres", default="127.0.0.1:5432", help="host:port, user postgres")
    parser.add_argument("--database", default="highsociety_cluster")
    parser.add_argument("--pool", type=int, default=10, help="PgBouncer's server connections")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/12")
    args = parser.parse_args(argv)
    load.arguments_check(parser, args)
    if not 1 <= args.pool <= 100:
        parser.error("--pool must be between 1 and 100")
    return args


def main(argv: list[str] | None = None) -> int:  # noqa: PLR0915 (one script, in order)
    args = arguments(argv)
    binaries = {name: program(name) for name in ("haproxy", "pgbouncer")}
    for port in PORTS.values():
        port_free_or_exit(port)
    run = f"{int(time.time()) % 10**6}-{os.getpid()}"
    folder = Path(tempfile.mkdtemp(prefix="hs-cluster-"))
    folder.chmod(0o755)  # PgBouncer reads its files as the postgres user
    logs = args.logs or folder
    logs.mkdir(parents=True, exist_ok=True)
    direct = f"postgres://postgres@{args.postgres}/{args.database}"
    pooled = f"postgres://postgres@127.0.0.1:{PORTS['pgbouncer']}/{args.database}"
    queues = {kind: f"hs-cluster-{run}-{kind}" for kind in ("bots", "email", "sweeps")}
    env = stack_env(
        pooled,
        args.redis_url,
        DATABASE_POOLER="transaction",
        CACHE_KEY_PREFIX=f"cluster-{run}",
        CELERY_QUEUE_BOTS=queues["bots"],
        CELERY_QUEUE_EMAIL=queues["email"],
        CELERY_QUEUE_SWEEPS=queues["sweeps"],
        LOG_LEVEL="WARNING",
        EMAIL_URL="dummy:",
        SITE_URL=f"http://127.0.0.1:{PORTS['haproxy']}",
        TRUSTED_PROXY_COUNT="1",
    )

    print(f"Database {args.database}: dropped, created and migrated …", flush=True)
    database_create(direct, fresh=True)
    # This process (set-up, checks) talks to PostgreSQL directly; the nodes and the
    # workers only through PgBouncer.
    django_setup({**env, "DATABASE_URL": direct, "DATABASE_POOLER": ""}, eager=False, pages=True)
    tables = load.plan_tables(args.tables, random.Random(args.seed), run)
    load.accounts_create(tables)
    game_id, tokens, sessions = cross_node_table(run)

    from highsociety_site.celery import app as celery_app

    def pinged(name: str) -> Callable[[], bool]:
        def ping() -> bool:
            replies = celery_app.control.ping(timeout=0.5)
            return any(host.startswith(name + "@") for reply in replies for host in reply)

        return ping

    processes: dict[str, subprocess.Popen] = {}
    log_files = {}
    figures = load.Figures()
    failures: list[str] = []
    timed_out = False
    wall = 0.0
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    signal.signal(signal.SIGINT, signal.default_int_handler)

    def log(name: str):
        log_files[name] = (logs / f"{name}.log").open("w")
        return log_files[name]

    try:
        config = pgbouncer_config(
            folder,
            port=PORTS["pgbouncer"],
            database=args.database,
            postgres=args.postgres,
            pool=args.pool,
        )
        processes["pgbouncer"] = spawn(
            [binaries["pgbouncer"], *as_postgres_if_root(), str(config)], env, log("pgbouncer")
        )
        port_wait(PORTS["pgbouncer"], processes["pgbouncer"], "PgBouncer")
        for node in ("node-a", "node-b"):
            processes[node] = server_start(env, PORTS[node], args.gunicorn_workers, log=log(node))
        # Beside node B, an ASGI node as compose runs them, for the streams' check.
        processes["node-b-asgi"] = server_start(
            {**env, "DATABASE_POOL_SIZE": "4"},
            PORTS["node-b-asgi"],
            1,
            log=log("node-b-asgi"),
            asgi=True,
        )
        for node in ("node-a", "node-b", "node-b-asgi"):
            server_wait(processes[node], PORTS[node])
        haproxy = haproxy_config(
            folder,
            port=PORTS["haproxy"],
            nodes=[PORTS["node-a"], PORTS["node-b"]],
            workers=args.gunicorn_workers,
        )
        processes["haproxy"] = spawn(
            [binaries["haproxy"], "-db", "-f", str(haproxy)], env, log("haproxy")
        )
        server_wait(processes["haproxy"], PORTS["haproxy"])
        processes["worker-bots"] = worker_start(
            env, queues["bots"], args.celery_concurrency, log=log("worker-bots"), name="bots"
        )
        processes["worker-rest"] = worker_start(
            env,
            f"{queues['email']},{queues['sweeps']},celery",
            1,
            log=log("worker-rest"),
            name="rest",
        )
        worker_wait(processes["worker-bots"], pinged("bots"))
        worker_wait(processes["worker-rest"], pinged("rest"))
        print(
            f"PgBouncer :{PORTS['pgbouncer']} (transaction pooling, {args.pool} server "
            f"connections), nodes :{PORTS['node-a']} and :{PORTS['node-b']} "
            f"({args.gunicorn_workers} workers each), HAProxy :{PORTS['haproxy']}, "
            "workers for the bots and for the e-mails and sweeps: up",
            flush=True,
        )

        check = CrossNode(
            f"http://127.0.0.1:{PORTS['node-a']}",
            f"http://127.0.0.1:{PORTS['node-b']}",
            game_id,
            tokens,
            sessions,
            node_b_asgi=f"http://127.0.0.1:{PORTS['node-b-asgi']}",
        )
        for cross in CROSS_NODE_CHECKS:
            problem = cross(check)
            print(f"cross-node: {cross.__name__}: {problem or 'ok'}", flush=True)
            if problem:
                failures.append(f"{cross.__name__}: {problem}")

        print(f"Playing {args.tables} tables through HAProxy …", flush=True)
        roots = {name: p.pid for name, p in processes.items()}
        cpu_before = load.cpu_seconds(roots, args.database)
        start = time.perf_counter()
        try:
            wall = asyncio.run(
                load.tables_play(f"http://127.0.0.1:{PORTS['haproxy']}", tables, args, figures)
            )
        except TimeoutError:
            timed_out = True
            wall = time.perf_counter() - start
        cpu_after = load.cpu_seconds(roots, args.database)
        cpu = {name: cpu_after[name] - cpu_before[name] for name in cpu_after}
        backlog = sum(load.queue_length(args.redis_url, q) for q in queues.values())
        pools = pgbouncer_pools(PORTS["pgbouncer"], args.database)
    finally:
        for name in (
            "haproxy",
            "node-a",
            "node-b",
            "node-b-asgi",
            "worker-bots",
            "worker-rest",
            "pgbouncer",
        ):
            process_stop(processes.get(name))
        for handle in log_files.values():
            handle.close()
        queues_delete(args.redis_url, queues.values())

    from django.db import close_old_connections

    close_old_connections()
    wrong, actors = load.games_check(tables)
    load.report(tables, figures, wall, actors, args)
    print(
        "(the cluster: 2 web nodes behind HAProxy, "
        f"{args.gunicorn_workers} gunicorn workers each; the bots' worker "
        f"x{args.celery_concurrency}, the e-mails' and sweeps' worker x1; PgBouncer)"
    )
    print(f"tasks left in the queues at the end: {backlog}")
    print(f"PgBouncer's pool at the end (SHOW POOLS):\n  {pools}")
    print(
        "CPU seconds while playing: "
        + ", ".join(f"{name} {seconds:.0f}" for name, seconds in cpu.items())
        + f" (wall {wall:.0f} s x {os.cpu_count()} cores)"
    )
    errors = load.errors_count(figures)
    for problem in figures.problems[:10]:
        print(f"  error: {problem}")
    log_lines = [
        line
        for name in ("node-a", "node-b", "node-b-asgi", "worker-bots", "worker-rest")
        for line in load.log_problems(logs / f"{name}.log")
    ]
    for line in log_lines[:10]:
        print(f"  server log: {line}")
    for line in failures + wrong[:20]:
        print(f"  inconsistent: {line}")
    print(f"logs: {logs}")
    passed = not (errors or wrong or log_lines or timed_out or failures)
    print(
        f"\n{'PASS' if passed else 'FAIL'}: {errors} errors, {len(wrong)} inconsistencies, "
        f"{len(failures)} failed cross-node checks, {len(log_lines)} error lines in the logs"
        + (f", timed out after {args.timeout:g} s" if timed_out else "")
    )
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
