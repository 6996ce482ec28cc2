"""The pieces of a real stack on loopback, shared by the HTTP benchmarks.

``bench/http_bench.py`` and ``bench/load.py`` start the app under gunicorn against a
PostgreSQL database of their own (created, or dropped and created again, and migrated
here), with Redis as the cache; ``bench/load.py`` adds one Celery worker.  Every process
started here runs in its own session (so a Ctrl-C in the terminal reaches only the
bench, which then stops them in order) and is told by the kernel to stop if the bench
dies without cleaning up (Linux ``PR_SET_PDEATHSIG``).
"""

from __future__ import annotations

import ctypes
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent

SECRET_KEY = "bench-only-not-a-secret-" + "x" * 40
# Measure the app, not its request limits.
HIGH_THROTTLE = "100000000/min"


def stack_env(database_url: str, redis_url: str, **overrides: str) -> dict[str, str]:
    """The environment of every process of a bench stack: production-like settings
    (DEBUG off) on plain loopback HTTP, persistent database connections, no limits."""
    return {
        **os.environ,
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "CACHE_KEY_PREFIX": "bench",
        "DEBUG": "0",
        "SECRET_KEY": SECRET_KEY,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "LOG_LEVEL": "ERROR",
        # Plain HTTP on loopback: no redirect to HTTPS (production sits behind TLS).
        "SECURE_SSL_REDIRECT": "0",
        "CONN_MAX_AGE": "600",
        "API_THROTTLE_USER": HIGH_THROTTLE,
        "API_THROTTLE_IP": HIGH_THROTTLE,
        "PYTHONPATH": str(ROOT),
        "PYTHONWARNINGS": "ignore::UserWarning",  # WhiteNoise: no collectstatic here
        "DJANGO_SETTINGS_MODULE": "highsociety_site.settings",
        **overrides,
    }


# --------------------------------------------------------------------------- database


def _database_split(url: str) -> tuple[str, str]:
    """(database name, URL of the ``postgres`` maintenance database on the same server)."""
    name = url.rsplit("/", 1)[1].split("?")[0]
    if not name:
        raise SystemExit(f"{url!r}: the database URL must name a database")
    return name, url.rsplit("/", 1)[0] + "/postgres"


def database_create(url: str, *, fresh: bool = False) -> None:
    """Create the database named in ``url`` if it does not exist; ``fresh``: drop it
    first (closing its connections), so that every run starts from nothing."""
    import psycopg
    from psycopg import sql

    if fresh:
        database_drop(url)
    name, admin = _database_split(url)
    with psycopg.connect(admin, autocommit=True) as connection:
        exists = connection.execute(
            "SELECT 1 FROM pg_database WHERE datname = %s", [name]
        ).fetchone()
        if not exists:
            connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def database_drop(url: str) -> None:
    """Drop the database named in ``url`` if it exists, closing its connections."""
    import psycopg
    from psycopg import sql

    name, admin = _database_split(url)
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )


def django_setup(env: dict[str, str], *, eager: bool, pages: bool = False) -> None:
    """Configure Django in this process from ``env`` and migrate the database.

    ``eager``: tasks run in this process (a bench that queues none, or does not want a
    worker to see them); otherwise they go to the broker of ``env``.  ``pages``: the
    bench serves HTML pages, so collect the static files they name (``DEBUG`` is off:
    hashed names from the manifest, in ``staticfiles/``, which git ignores)."""
    os.environ.update(env)
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "1" if eager else "0"
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", "--noinput", verbosity=0)
    if pages:
        call_command("collectstatic", "--noinput", verbosity=0)


# --------------------------------------------------------------------------- processes


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _die_with_parent() -> None:
    """In the child before exec: SIGTERM when the bench process dies (Linux only)."""
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except OSError:
        pass  # not Linux: the bench's own clean-up still stops it


def spawn(command: list[str], env: dict[str, str], log: IO | None) -> subprocess.Popen:
    return subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        start_new_session=True,
        preexec_fn=_die_with_parent,
        stdin=subprocess.DEVNULL,
        stdout=log if log is not None else subprocess.DEVNULL,
        stderr=log if log is not None else None,
    )


def server_start(
    env: dict[str, str],
    port: int,
    workers: int,
    *,
    worker_class: str = "sync",
    threads: int = 1,
    log: IO | None = None,
    asgi: bool = False,
) -> subprocess.Popen:
    """gunicorn serving the app on 127.0.0.1:``port``; ``log`` takes its output.
    ``asgi``: the ASGI application with uvicorn workers, as docker-compose.yml runs it
    (the boards' streams need it)."""
    if asgi:
        worker_class = "highsociety_site.asgi_worker.StreamingUvicornWorker"
    command = [
        str(BIN / "gunicorn"),
        "highsociety_site.asgi:application" if asgi else "highsociety_site.wsgi:application",
        "--workers",
        str(workers),
        "--worker-class",
        worker_class,
        "--bind",
        f"127.0.0.1:{port}",
        "--log-level",
        "warning",
        "--timeout",
        "60",
        # A full listen queue would refuse connections under load instead of queueing.
        "--backlog",
        "2048",
        # Two servers at once would race for the one default control socket.
        "--no-control-socket",
    ]
    if worker_class == "gthread":
        command += ["--threads", str(threads)]
    return spawn(command, env, log)


def server_wait(server: subprocess.Popen, port: int, timeout: float = 60) -> None:
    """Until ``/health/`` answers 200."""
    import requests

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if requests.get(f"http://127.0.0.1:{port}/health/", timeout=5).status_code == 200:
                return
        except requests.RequestException:
            pass  # not listening yet, or a worker still starting
        if server.poll() is not None:
            raise SystemExit("gunicorn did not start")
        time.sleep(0.3)
    raise SystemExit(f"gunicorn did not answer within {timeout:.0f} s")


def worker_start(
    env: dict[str, str],
    queue: str,
    concurrency: int,
    *,
    log: IO | None = None,
    name: str | None = None,
) -> subprocess.Popen:
    """One Celery worker (prefork pool) consuming ``queue`` only (comma-separated
    names: those queues), named ``name@host`` (``queue@host`` by default)."""
    return spawn(
        [
            str(BIN / "celery"),
            "-A",
            "highsociety_site",
            "worker",
            "--queues",
            queue,
            "--concurrency",
            str(concurrency),
            "--pool",
            "prefork",
            "--loglevel",
            env.get("LOG_LEVEL", "WARNING"),
            "--without-gossip",
            "--without-mingle",
            "--hostname",
            f"{name or queue}@%h",
        ],
        env,
        log,
    )


def worker_wait(worker: subprocess.Popen, ping: Callable[[], bool], timeout: float = 60) -> None:
    """Until ``ping()`` (a Celery control ping from the caller's app) gets an answer."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if worker.poll() is not None:
            raise SystemExit("the Celery worker did not start")
        if ping():
            return
    raise SystemExit(f"the Celery worker did not answer within {timeout:.0f} s")


def queues_delete(redis_url: str, names) -> None:
    """This run's queues, with what is left in them and the broker's bindings of them,
    are removed from Redis: a run leaves no key behind."""
    import redis

    client = redis.Redis.from_url(redis_url)
    for name in names:
        client.delete(name, f"_kombu.binding.{name}", f"_kombu.binding_permanent.{name}")
    client.close()


def process_stop(process: subprocess.Popen | None, *, group: bool = False) -> None:
    """SIGTERM (its whole process group with ``group``), then SIGKILL to the group
    after 20 s.  Safe to call twice and on a process that has ended."""
    if process is None or process.poll() is not None:
        return
    try:
        if group:
            os.killpg(process.pid, signal.SIGTERM)
        else:
            process.terminate()
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    except ProcessLookupError:
        pass
    # Stragglers of the group (a pool child whose parent has gone): end them too.
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
