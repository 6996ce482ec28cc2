"""Fixtures of the tests that run a bench script against the test's PostgreSQL server."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from django.db import connection

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.stack import database_drop  # noqa: E402


@pytest.fixture
def bench_database():
    """``url(suffix)``: the URL of the database a bench script run by the test creates on
    the test's PostgreSQL server, ``<this run's test database>_<suffix>`` (so two runs
    never share it); dropped when the test ends, whatever the script left behind."""
    db = connection.settings_dict
    auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    server = f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
    urls: list[str] = []

    def url(suffix: str) -> str:
        urls.append(f"{server}/{db['NAME']}_{suffix}")
        return urls[-1]

    yield url
    for each in urls:
        database_drop(each)
