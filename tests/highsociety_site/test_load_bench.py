"""bench/load.py keeps working (a small run of the whole stack), and the race it found
stays fixed.

The small run starts gunicorn and a Celery worker against a database of its own on the
test's PostgreSQL server (``<this run's test database>_loadbench``, dropped and created
by the script, dropped again when the test ends) and a Redis database of its own
(``LOAD_BENCH_REDIS_DB``, 9 unless set) on the test's Redis server, plays three tables
of people and bots to the end through the API and checks every stored game; it exits
non-zero on any error or inconsistency.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.conf import settings
from django.db import connection, transaction

from games.models import Game
from games.services import game_create, game_join

ROOT = Path(__file__).resolve().parents[2]


def _redis_url() -> str:
    parts = urlsplit(settings.REDIS_URL)
    return urlunsplit(parts._replace(path=f"/{os.environ.get('LOAD_BENCH_REDIS_DB', '9')}"))


@pytest.mark.slow
def test_three_tables_of_people_and_bots_play_to_the_end_consistently(tmp_path, bench_database):
    if connection.vendor != "postgresql" or not getattr(settings, "REDIS_URL", None):
        pytest.skip("needs PostgreSQL and Redis (DATABASE_URL, REDIS_URL): `make test` sets both")
    command = [
        sys.executable,
        str(ROOT / "bench" / "load.py"),
        "--tables",
        "3",
        "--seed",
        "7",
        "--gunicorn-workers",
        "2",
        "--celery-concurrency",
        "1",
        "--poll",
        "0.05",
        "--poll-max",
        "0.3",
        "--timeout",
        "50",
        "--database-url",
        bench_database("loadbench"),
        "--redis-url",
        _redis_url(),
        "--logs",
        str(tmp_path),
    ]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PYTEST_"))}
    started = time.monotonic()
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=110)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "\nPASS: 0 errors, 0 inconsistencies" in output, output
    assert "3 tables" in output and "moves stored:" in output, output
    assert time.monotonic() - started < 100


@pytest.mark.django_db(transaction=True)
def test_the_last_two_seats_filled_at_once_start_the_game(alice, bob, carol):
    """Found by bench/load.py: two invited players accepting at the same moment left
    every seat filled and the game open for ever.  The second join waited for the game
    row's lock; a lock taken in a join re-reads only the locked row after the wait, so
    it saw the first join's seat as still empty, unless the seats are locked too."""
    game = game_create(
        creator=carol, players=3, seats=[{"user": alice.username}, {"user": bob.username}]
    )
    holding = threading.Event()
    errors: list[Exception] = []

    def first() -> None:
        try:
            with transaction.atomic():
                game_join(game=Game.objects.get(pk=game.pk), user=alice)
                holding.set()
                time.sleep(0.5)  # the second join is now waiting for the lock
        except Exception as error:  # recorded for the assertion
            errors.append(error)
        finally:
            holding.set()
            connection.close()

    def second() -> None:
        try:
            holding.wait(10)
            game_join(game=Game.objects.get(pk=game.pk), user=bob)
        except Exception as error:
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert not errors, errors
    game.refresh_from_db()
    assert list(game.seats.values_list("accepted", flat=True)) == [True, True, True]
    assert game.status == Game.Status.ACTIVE
    assert game.version >= 0 and game.state is not None
