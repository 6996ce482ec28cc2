"""bench/cluster.py keeps working: a small run of the several-nodes topology on loopback
(PgBouncer in transaction mode, two web nodes behind HAProxy, a worker per queue), its
cross-node checks, three tables of people and bots played through HAProxy, and the
consistency checks of bench/load.py.

It runs against a database of its own on the test's PostgreSQL server (``<this run's
test database>_cluster``, dropped and created by the script, dropped again when the test
ends) and a Redis database of its own (``CLUSTER_BENCH_REDIS_DB``, 10 unless set).
Skipped when HAProxy or PgBouncer is not installed (``make bench-cluster`` installs
them) or the bench's ports are taken."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench.cluster import PORTS  # noqa: E402


def _missing() -> str | None:
    for program in ("haproxy", "pgbouncer"):
        if not (shutil.which(program) or shutil.which(program, path="/usr/sbin")):
            return f"{program} is not installed (make bench-cluster installs it)"
    for port in PORTS.values():
        with socket.socket() as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                return f"port {port} is taken (another cluster bench?)"
    return None


@pytest.mark.slow
def test_three_tables_through_two_nodes_behind_haproxy_and_pgbouncer(tmp_path, bench_database):
    if connection.vendor != "postgresql" or not getattr(settings, "REDIS_URL", None):
        pytest.skip("needs PostgreSQL and Redis (DATABASE_URL, REDIS_URL): `make test` sets both")
    if reason := _missing():
        pytest.skip(reason)
    db = connection.settings_dict
    redis = urlsplit(settings.REDIS_URL)
    command = [
        sys.executable,
        str(ROOT / "bench" / "cluster.py"),
        "--tables", "3",
        "--seed", "7",
        "--gunicorn-workers", "1",
        "--celery-concurrency", "1",
        "--poll", "0.05",
        "--poll-max", "0.3",
        "--timeout", "60",
        "--postgres", f"{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}",
        "--database", bench_database("cluster").rsplit("/", 1)[1],
        "--redis-url", urlunsplit(redis._replace(path=f"/{os.environ.get('CLUSTER_BENCH_REDIS_DB', '10')}")),
        "--logs", str(tmp_path),
    ]  # fmt: skip
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PYTEST_"))}
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=150)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "cross-node: move_on_a_shows_on_b_board: ok" in output, output
    assert "\nPASS: 0 errors, 0 inconsistencies, 0 failed cross-node checks" in output, output
