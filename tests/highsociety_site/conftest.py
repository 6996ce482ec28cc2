"""Fixtures of the tests that run a bench script against the test's PostgreSQL server."""

from __future__ import annotations

import psycopg
import pytest
from django.db import connection
from psycopg import sql


@pytest.fixture
def bench_database():
    """``name(suffix)``: the database a bench script run by the test creates on the test's
    PostgreSQL server, ``<this run's test database>_<suffix>`` (so two runs never share
    it); dropped when the test ends, whatever the script left behind."""
    db = connection.settings_dict
    names: list[str] = []

    def name(suffix: str) -> str:
        names.append(f"{db['NAME']}_{suffix}")
        return names[-1]

    yield name
    if not names:
        return
    with psycopg.connect(
        host=db["HOST"] or "127.0.0.1",
        port=db["PORT"] or 5432,
        user=db["USER"],
        password=db.get("PASSWORD") or None,
        dbname="postgres",
        autocommit=True,
    ) as admin:
        for each in names:
            admin.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(each))
            )
