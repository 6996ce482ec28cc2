"""Fixtures of the fault tests: one private stack per module (``tests/faults/stack.py``):
a PostgreSQL cluster and a Redis server of its own, which the tests stop and start
again, the app under gunicorn and Celery workers on them.  The machine's shared
PostgreSQL and Redis are never touched.  Skipped, with the reason, only where the
PostgreSQL or Redis server binaries are not installed."""

from __future__ import annotations

import pytest

from tests.faults.stack import Stack, missing_binaries

PEOPLE = ["alice", "bob", "carol"]  # alice creates the tables; bob and carol join


@pytest.fixture(scope="module")
def stack():
    reason = missing_binaries()
    if reason:
        pytest.skip(f"fault tests need a private PostgreSQL and Redis: {reason}")
    stack = Stack()
    try:
        stack.migrate()
        stack.users_create(PEOPLE)
        stack.server_start()
        yield stack
    finally:
        stack.close()
