"""A whole private stack on loopback that the fault tests may break: a PostgreSQL cluster
and a Redis server of its own (never the machine's shared ones), the app under gunicorn
and Celery workers, all pointed at them.  ``tests/faults/conftest.py`` makes fixtures of
it and ``bench/faults.py`` runs a longer scenario with it.

PostgreSQL refuses to run as root: as root, its commands run as the ``postgres`` user
(``runuser``) in a folder that user owns.  Every process started here runs in its own
session (killed as a group) and is told by the kernel to stop if this process dies
without cleaning up (Linux ``PR_SET_PDEATHSIG``); the cluster, which ``pg_ctl`` detaches,
is stopped by ``close()`` and by an ``atexit`` hook.
"""

from __future__ import annotations

import atexit
import ctypes
import json
import os
import pwd
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
import requests

from tests.moves import choose
from tests.ports import free_port

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
SETTINGS = "tests.faults.app_settings"
ASGI_WORKER = "highsociety_site.asgi_worker.StreamingUvicornWorker"  # as deployed
SECRET_KEY = "faults-only-not-a-secret-" + "x" * 40
PASSWORD = "fault-tests-password-1"


def pg_bin() -> Path | None:
    """The newest installed PostgreSQL's bin folder (``HS_FAULTS_PG_BIN`` overrides)."""
    if os.environ.get("HS_FAULTS_PG_BIN"):
        return Path(os.environ["HS_FAULTS_PG_BIN"])
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"),
        key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0,
    )
    if found:
        return found[-1].parent
    pg_ctl = shutil.which("pg_ctl")
    return Path(pg_ctl).parent if pg_ctl else None


def missing_binaries() -> str | None:
    """Why the private stack cannot run here, or None."""
    folder = pg_bin()
    if folder is None or not (folder / "initdb").exists() or not (folder / "pg_ctl").exists():
        return "PostgreSQL's initdb and pg_ctl are not installed (HS_FAULTS_PG_BIN)"
    if shutil.which("redis-server") is None:
        return "redis-server is not installed"
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        return "running as root needs runuser to start PostgreSQL as its own user"
    return None


def wait_for(condition: Callable[[], Any], timeout: float, what: str, step: float = 0.1) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(step)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")


def _die_with_parent() -> None:
    ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def _spawn(args: list[str], *, env: dict[str, str], log: Path) -> subprocess.Popen:
    return subprocess.Popen(
        args,
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=log.open("a"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
        preexec_fn=_die_with_parent,
    )


def _kill(proc: subprocess.Popen, sig: int = signal.SIGKILL, wait: float = 15) -> None:
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(wait)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)


# --------------------------------------------------------------------------- services


class PrivatePostgres:
    """A throw-away cluster in ``folder``: ``start()``, ``stop(mode)``, ``url``."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.data = folder / "data"
        self.port = free_port()
        self.bin = pg_bin()
        self.as_root = os.geteuid() == 0
        folder.mkdir(parents=True, exist_ok=True)
        if self.as_root:
            account = pwd.getpwnam("postgres")
            os.chown(folder, account.pw_uid, account.pw_gid)
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-N",
                  "-E", "UTF8", "--no-instructions")  # fmt: skip

    def _run(self, program: str, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        command = [str(self.bin / program), *args]
        if self.as_root:
            command = ["runuser", "-u", "postgres", "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120)
        if check and done.returncode != 0:
            raise RuntimeError(f"{program} failed: {done.stdout[-1500:]}{done.stderr[-1500:]}")
        return done

    def url(self, name: str = "highsociety") -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{name}"

    def start(self) -> None:
        # fsync off: a test cluster, and crash recovery after ``immediate`` still works.
        options = (f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 "
                   "-c fsync=off -c full_page_writes=off -c max_connections=50")  # fmt: skip
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l",
                  str(self.folder / "postgres.log"), "-w", "-t", "60", "start")  # fmt: skip

    def stop(self, mode: str = "fast") -> None:
        """``fast``: clients are disconnected, a clean shutdown; ``immediate``: a crash."""
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "60", "stop")

    def running(self) -> bool:
        return self._run("pg_ctl", "-D", str(self.data), "status", check=False).returncode == 0

    def database_create(self, name: str = "highsociety") -> None:
        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')

    def close(self) -> None:
        if self.data.exists() and self.running():
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop", check=False)


class PrivateRedis:
    """A Redis server that keeps nothing on disk: a restart comes back empty, as a
    crashed cache and broker without persistence would."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.port = free_port()
        self.proc: subprocess.Popen | None = None

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> None:
        self.proc = _spawn(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.folder), "--daemonize", "no"],
            env=dict(os.environ),
            log=self.folder / "redis.log",
        )  # fmt: skip
        wait_for(self._pong, 20, "the private Redis")

    def _pong(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as conn:
                conn.sendall(b"PING\r\n")
                return conn.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        """Killed (SIGKILL): what it held in memory, queued tasks included, is gone."""
        if self.proc is not None:
            _kill(self.proc)
            self.proc = None

    def freeze(self) -> None:
        """Stalled (SIGSTOP): its connections stay open and nothing answers on them, as
        with a server swapping or a network that drops packets without a reset."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGSTOP)

    def thaw(self) -> None:
        if self.proc is not None:
            os.kill(self.proc.pid, signal.SIGCONT)

    def close(self) -> None:
        self.stop()


# --------------------------------------------------------------------------- the app


class Stack:
    """The private services plus the app (``server_start``) and workers (``worker_start``)."""

    def __init__(self, *, server_workers: int = 2):
        self.folder = Path(tempfile.mkdtemp(prefix="hs-faults-"))
        os.chmod(self.folder, 0o755)  # the postgres user must reach its own folder
        self.server_workers = server_workers
        self.procs: dict[str, subprocess.Popen] = {}
        self.marker = self.folder / "bot-starts"
        self.marker.touch()
        self.pg = self.redis = None
        self.tokens: dict[str, str] = {}
        atexit.register(self.close)
        self.pg = PrivatePostgres(self.folder / "pg")
        self.pg.start()
        self.pg.database_create()
        self.redis = PrivateRedis(self.folder)
        self.redis.start()
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"

    # ---------------------------------------------------------------- processes

    def env(self, **extra: str) -> dict[str, str]:
        return {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": SETTINGS,
            "DATABASE_URL": self.pg.url(),
            "REDIS_URL": self.redis.url(),
            "CELERY_BROKER_URL": self.redis.url(),
            "CELERY_TASK_ALWAYS_EAGER": "0",
            "CACHE_KEY_PREFIX": "faults",
            "DEBUG": "0",
            "SECRET_KEY": SECRET_KEY,
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SITE_URL": self.base,
            "SECURE_SSL_REDIRECT": "0",
            "SESSION_COOKIE_SECURE": "0",  # plain http on loopback: cookies must travel
            "CSRF_COOKIE_SECURE": "0",
            "CONN_MAX_AGE": "600",
            "LOG_LEVEL": "WARNING",
            "EMAIL_URL": f"file://{self.folder / 'mail'}",
            "API_THROTTLE_USER": "100000/min",
            "API_THROTTLE_IP": "100000/min",
            "HS_FAULTS_VISIBILITY_TIMEOUT": "4",
            "HS_FAULTS_BOT_MARKER": str(self.marker),
            "PYTHONPATH": str(ROOT),
            "PYTHONWARNINGS": "ignore",
            **extra,
        }

    def django(self, code: str, timeout: float = 120) -> Any:
        """Run ``code`` in a fresh Django process on the private services; it sets
        ``out``, which comes back through JSON."""
        program = (
            "import django, json, sys\ndjango.setup()\nout = None\n"
            + code
            + "\nsys.stdout.write('\\n@@' + json.dumps(out, default=str))\n"
        )
        done = subprocess.run(
            [sys.executable, "-c", program],
            cwd=ROOT,
            env=self.env(),
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if done.returncode != 0:
            raise RuntimeError(f"Django script failed:\n{done.stdout[-2000:]}{done.stderr[-3000:]}")
        return json.loads(done.stdout.rsplit("\n@@", 1)[1])

    def migrate(self) -> None:
        self.django("from django.core.management import call_command\n"
                    "call_command('migrate', '--noinput', verbosity=0)", timeout=300)  # fmt: skip

    def users_create(self, names: list[str]) -> dict[str, str]:
        """Accounts with verified e-mail addresses; their API tokens by username (also
        kept in ``tokens``)."""
        self.tokens |= self.django(
            f"names = {names!r}\n"
            "from allauth.account.models import EmailAddress\n"
            "from accounts.models import User\n"
            "from accounts.tokens.services import token_create\n"
            "out = {}\n"
            "for name in names:\n"
            f"    user = User.objects.create_user(username=name, email=name + '@example.com', password={PASSWORD!r})\n"
            "    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)\n"
            "    out[name] = token_create(user=user, name='faults', days=1)[1]\n"
        )  # fmt: skip
        return self.tokens

    def table_create(self, seats: list[dict], people: list[str]) -> tuple[int, dict[int, Api]]:
        """A started game made by ``people[0]`` with ``seats`` for the others
        (``{"ai": "easy"}``, or ``{"open": true}``, which the next of ``people`` joins).
        Returns its id and an API client per seat of a person."""
        creator = Api(self.base, self.tokens[people[0]])
        response = creator.post("/api/v1/games/", {"players": len(seats) + 1, "seats": seats})
        assert response.status_code == 201, response.text
        game_id = response.json()["id"]
        joining = iter(people[1:])
        for seat in seats:
            if seat.get("open"):
                joined = Api(self.base, self.tokens[next(joining)]).post(
                    f"/api/v1/games/{game_id}/join/", {}
                )
                assert joined.status_code in (200, 201), joined.text
        apis = {}
        for name in people:
            api = Api(self.base, self.tokens[name])
            view = api.game(game_id).json()
            if view.get("your_seat") is not None:
                apis[view["your_seat"]] = api
        assert any_api(apis).game(game_id).json()["status"] == "active"
        return game_id, apis

    def browser_login(self, username: str) -> requests.Session:
        """A browser-like session logged in through allauth's log-in form."""
        browser = requests.Session()
        form = browser.get(f"{self.base}/accounts/login/", timeout=30)
        assert form.status_code == 200, form.status_code
        done = browser.post(
            f"{self.base}/accounts/login/",
            data={
                "login": username,
                "password": PASSWORD,
                "csrfmiddlewaretoken": browser.cookies["csrftoken"],
            },
            headers={"Referer": f"{self.base}/accounts/login/"},
            allow_redirects=False,
            timeout=30,
        )
        assert done.status_code == 302 and "sessionid" in browser.cookies, done.status_code
        return browser

    def stalled_sweep(self, minutes_ahead: float = 3) -> int:
        """The beat sweep that re-queues waiting bots, on a clock ``minutes_ahead`` on
        (its wait is 2 minutes; the tests do not sleep that long)."""
        return self.django(
            "from datetime import timedelta\nfrom django.utils import timezone\n"
            "from games.deadlines import stalled_sweep\n"
            f"out = stalled_sweep(now=timezone.now() + timedelta(minutes={minutes_ahead}))\n"
        )

    def server_start(self, *, asgi: bool = False) -> None:
        """gunicorn on the stack: WSGI workers, or (``asgi``) the ASGI workers the
        deployment runs, which serve the boards' streams."""
        log = self.folder / "gunicorn.log"
        app = ["highsociety_site.asgi:application", "--worker-class", ASGI_WORKER] if asgi else [
            "highsociety_site.wsgi:application"]
        self.procs["server"] = _spawn(
            [str(BIN / "gunicorn"), *app,
             "--workers", str(self.server_workers), "--bind", f"127.0.0.1:{self.port}",
             "--timeout", "60", "--log-level", "warning"],
            env=self.env(),
            log=log,
        )  # fmt: skip
        server = self.procs["server"]

        def up() -> bool:
            assert server.poll() is None, f"gunicorn exited:\n{log.read_text()[-3000:]}"
            try:
                return requests.get(f"{self.base}/health/", timeout=5).status_code == 200
            except requests.RequestException:
                return False

        wait_for(up, 60, "gunicorn", step=0.2)

    def worker_start(self, name: str, *, bot_delay: float = 0) -> subprocess.Popen:
        log = self.folder / f"{name}.log"
        log.write_text("")
        proc = _spawn(
            [sys.executable, "-m", "celery", "-A", "highsociety_site", "worker", "--pool=solo",
             "--without-heartbeat", "--without-mingle", "--without-gossip", "-n", f"{name}@%h"],
            # INFO: its "ready." line, and the bots' moves for the tests' messages
            env=self.env(HS_FAULTS_BOT_DELAY=str(bot_delay), LOG_LEVEL="INFO"),
            log=log,
        )  # fmt: skip
        self.procs[name] = proc
        wait_for(
            lambda: " ready." in log.read_text() or proc.poll() is not None, 60, f"worker {name}"
        )
        assert proc.poll() is None, f"worker {name} exited:\n{log.read_text()[-3000:]}"
        return proc

    def worker_kill(self, name: str) -> None:
        _kill(self.procs.pop(name))

    def logs(self, *names: str) -> str:
        files = [self.folder / f"{n}.log" for n in names] or sorted(self.folder.glob("*.log"))
        return "\n".join(f"--- {f.name}\n{f.read_text()[-2500:]}" for f in files if f.exists())

    def close(self) -> None:
        for name in list(self.procs):
            _kill(self.procs.pop(name), signal.SIGTERM, wait=10)
        if self.redis is not None:
            self.redis.close()
        if self.pg is not None:
            self.pg.close()
        shutil.rmtree(self.folder, ignore_errors=True)
        atexit.unregister(self.close)


# --------------------------------------------------------------------------- clients


class Api:
    """One player's API client (token auth)."""

    def __init__(self, base: str, token: str):
        self.base = base
        self.http = requests.Session()
        self.http.headers["Authorization"] = f"Token {token}"

    def get(self, path: str) -> requests.Response:
        return self.http.get(f"{self.base}{path}", timeout=30)

    def post(self, path: str, body: dict) -> requests.Response:
        return self.http.post(f"{self.base}{path}", json=body, timeout=30)

    def game(self, game_id: int) -> requests.Response:
        return self.get(f"/api/v1/games/{game_id}/")

    def move(self, game_id: int, action: dict, version: int) -> requests.Response:
        return self.post(f"/api/v1/games/{game_id}/moves/", {**action, "version": version})


@dataclass
class Ledger:
    """What the clients saw: each accepted move (201) and each refusal by status."""

    accepted: list[tuple[int, dict]] = field(default_factory=list)  # (game version, action)
    statuses: dict[int, int] = field(default_factory=dict)

    def count(self, status: int) -> None:
        self.statuses[status] = self.statuses.get(status, 0) + 1


def game_check(database_url: str, game_id: int, accepted: list[tuple[int, dict]]) -> dict:
    """No move lost or doubled: the moves are numbered 0 … version-1 without a gap or a
    repeat, replaying them from the set-up gives the stored state exactly, and the
    players' moves are exactly the accepted POSTs, each once, at the version it was
    sent for.  Reads the database directly (psycopg) and replays with the pure engine."""
    from games.engine import State, apply_action, new_game

    with psycopg.connect(database_url) as conn:
        state, version, status = conn.execute(
            "SELECT state, version, status FROM games_game WHERE id = %s", [game_id]
        ).fetchone()
        moves = conn.execute(
            "SELECT number, seat, action, actor FROM games_move WHERE game_id = %s ORDER BY number",
            [game_id],
        ).fetchall()
    numbers = [m[0] for m in moves]
    assert numbers == list(range(version)), f"game {game_id}: move numbers {numbers}"
    stored = State.from_json(state)
    replay = new_game(
        players=stored.players,
        deck=list(stored.setup_deck),
        first_player=stored.first_player,
        advanced=stored.advanced,
    )
    for _, _, action, _ in moves:
        replay = apply_action(replay, action)
    assert replay.to_json() == state, f"game {game_id}: the stored state is not the replay"
    by_players = [(n, a) for n, _, a, actor in moves if actor == "player"]
    assert len(by_players) == len(accepted), (
        f"game {game_id}: {len(accepted)} moves accepted, {len(by_players)} stored"
    )
    for (number, action), (version_sent, sent) in zip(by_players, accepted, strict=True):
        assert number == version_sent, f"game {game_id}: move {number} was sent at {version_sent}"
        assert action["type"] == sent["type"] and action.get("cards") == sent.get("cards"), (
            f"game {game_id}: move {number} is not the move sent"
        )
    actors: dict[str, int] = {}
    for *_, actor in moves:
        actors[actor] = actors.get(actor, 0) + 1
    return {"moves": len(moves), "status": status, "actors": actors}


def any_api(apis: dict[int, Api]) -> Api:
    return apis[min(apis)]


def play(
    game_id: int,
    apis: dict[int, Api],
    ledger: Ledger,
    rng: random.Random,
    *,
    until: Callable[[dict], bool] | None = None,
    timeout: float = 60,
    logs: Callable[[], str] = lambda: "",
) -> dict:
    """People (``apis``: a client per seat) move through the API whenever one of them
    is to act; bots are left to the worker.  Returns the view once ``until(view)`` holds
    or the game is over; fails after ``timeout`` seconds without that."""
    viewer = any_api(apis)
    deadline = time.monotonic() + timeout
    while True:
        assert time.monotonic() < deadline, f"game {game_id} stalled\n{logs()}"
        response = viewer.game(game_id)
        assert response.status_code == 200, response.text
        view = response.json()
        if view["status"] != "active" or (until is not None and until(view)):
            return view
        people = [seat for seat in view["to_act"] if seat in apis]
        if not people:  # a bot's turn: the worker plays it
            time.sleep(0.05)
            continue
        mover = apis[people[0]]
        mine = mover.game(game_id).json()
        if not mine["legal_actions"]:
            continue
        action = choose(mine["legal_actions"], rng, pass_chance=0.65)
        answer = mover.move(game_id, action, mine["version"])
        ledger.count(answer.status_code)
        if answer.status_code == 201:
            ledger.accepted.append((mine["version"], action))
        else:
            assert answer.status_code == 409, answer.text  # a bot moved in between
