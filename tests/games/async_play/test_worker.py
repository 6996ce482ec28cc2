"""End to end through real Celery worker processes, the real Redis broker and the real
PostgreSQL test database: bots play in the worker, the turn e-mail lands in a file-based
mail folder, and a worker killed in the middle of a bot's move is replaced by another
that makes that move exactly once.

The worker runs ``tests.games.async_play.worker_settings`` (non-eager, a queue of this test
process's own); this process stops running tasks eagerly for the test's duration.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
import redis
from django.conf import settings
from django.db import connection

from games.engine import seats_to_act
from games.models import Game, Move, Notification
from games.replay import replayed_state
from games.services import game_submit_action
from highsociety_site import celery_app
from tests.faults.stack import wait_for
from tests.games.factories import GameFactory, scenario_deck

ROOT = Path(__file__).resolve().parents[3]
QUEUE = f"hs-e2e-{os.getpid()}-{uuid.uuid4().hex[:6]}"

pytestmark = pytest.mark.django_db(transaction=True)


def _wait(condition, timeout: float, what: str, step: float = 0.2):
    return wait_for(condition, timeout, what, step)


def _database_url() -> str:
    db = connection.settings_dict
    auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture
def broker():
    """This process sends tasks to the real broker (on this run's queue) for the test."""
    if connection.vendor != "postgresql" or not settings.CELERY_BROKER_URL.startswith("redis"):
        pytest.skip("needs PostgreSQL and Redis (DATABASE_URL, REDIS_URL): `make test` sets both")
    client = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    client.ping()
    conf = celery_app.conf
    saved = conf.task_always_eager, conf.task_default_queue
    conf.task_default_queue = QUEUE
    celery_app.__dict__.pop("amqp", None)  # routes are cached: rebuild them for QUEUE
    conf.task_always_eager = False
    try:
        yield client
    finally:
        conf.task_always_eager, conf.task_default_queue = saved
        celery_app.__dict__.pop("amqp", None)
        # The queue and kombu's records of it: nothing of this run stays in Redis.
        client.delete(QUEUE, f"_kombu.binding.{QUEUE}", f"_kombu.binding_permanent.{QUEUE}")
        client.close()


@pytest.fixture
def workers(broker, tmp_path):
    """``workers.start(**env)`` starts a worker process and waits until it is ready;
    every worker still running is stopped at the end (before the database is
    flushed).  E-mails go to ``workers.maildir``."""

    class Workers:
        maildir = tmp_path / "mail"
        procs: list[subprocess.Popen] = []

        def start(self, name: str, *, loglevel: str | None = "INFO", **extra: str):
            log = tmp_path / f"{name}.log"
            env = {
                **os.environ,
                "DJANGO_SETTINGS_MODULE": "tests.games.async_play.worker_settings",
                "DATABASE_URL": _database_url(),
                "CELERY_TASK_ALWAYS_EAGER": "0",
                "EMAIL_URL": f"file://{self.maildir}",
                "HS_TEST_QUEUE": QUEUE,
                "HS_TEST_VISIBILITY_TIMEOUT": "4",
                **extra,
            }
            proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "highsociety_site",
                    "worker",
                    "--pool=solo",
                    *([f"--loglevel={loglevel}"] if loglevel else []),
                    "--without-heartbeat",
                    "--without-mingle",
                    "--without-gossip",
                    "-n",
                    f"{name}-{QUEUE}@%h",
                ],
                cwd=ROOT,
                env=env,
                stdout=log.open("w"),
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: killed as a whole
            )
            self.procs.append(proc)
            try:
                _wait(
                    lambda: " ready." in log.read_text() or proc.poll() is not None, 40, f"{name}"
                )
            except AssertionError:
                self.stop(proc)
                raise AssertionError(f"{name} did not start:\n{log.read_text()[-3000:]}") from None
            assert proc.poll() is None, f"{name} exited:\n{log.read_text()[-3000:]}"
            return proc

        def kill(self, proc: subprocess.Popen) -> None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)

        def stop(self, proc: subprocess.Popen) -> None:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)  # warm shutdown
                try:
                    proc.wait(15)
                except subprocess.TimeoutExpired:
                    self.kill(proc)

        def logs(self) -> str:
            return "\n".join(p.read_text()[-2000:] for p in sorted(tmp_path.glob("*.log")))

        def log_of(self, name: str) -> str:
            return (tmp_path / f"{name}.log").read_text()

    pool = Workers()
    pool.procs = []
    yield pool
    for proc in pool.procs:
        pool.stop(proc)


def _persons_turn(game_id: int, after: int) -> Game | None:
    """The game once it is Dora's (seat 0) turn again after move ``after``."""
    game = Game.objects.get(pk=game_id)
    if game.version > after and 0 in seats_to_act(game.engine_state()):
        return game
    return None


def test_bots_play_in_a_worker_and_the_turn_email_arrives(dora, workers):
    game = GameFactory(
        creator=dora,
        seats=[{"ai": "easy"}, {"ai": "medium"}],
        deck=scenario_deck("lux5 lux3 lux8"),
        first_player=0,
    )
    workers.start("worker", loglevel=None)  # the log level is LOG_LEVEL's, not Celery's
    started = time.monotonic()
    game = game_submit_action(
        game=game, user=dora, action={"type": "bid", "cards": [1000]}, expected_version=0
    )
    assert game.version == 1  # answered at once: the bots play in the worker
    back = _wait(lambda: _persons_turn(game.pk, 1), 40, f"Dora's turn\n{workers.logs()}")
    actors = set(Move.objects.filter(game=game, number__gte=1).values_list("actor", flat=True))
    assert Move.Actor.BOT in actors and actors <= {Move.Actor.BOT, Move.Actor.FORCED}
    notice = _wait(
        lambda: Notification.objects.filter(
            game=game, kind="turn", turn_started_at=back.turn_started_at, status="sent"
        ).first(),
        30,
        f"the turn e-mail\n{workers.logs()}",
    )
    files = _wait(lambda: list(workers.maildir.glob("*.log")), 10, "the mail file")
    text = "".join(path.read_text() for path in files)
    assert f"Subject: [High Society] Your turn at table {game.pk}" in text
    assert "To: dora@example.com" in text
    assert f"{settings.SITE_URL}/games/{game.pk}/" in text
    assert "Dora bids 1,000 (total 1,000)." in text
    assert "List-Unsubscribe-Post: List-Unsubscribe=One-Click" in text
    assert notice.sent_at is not None
    assert time.monotonic() - started < 60
    game.refresh_from_db()
    assert replayed_state(game).to_json() == game.state
    logged = [json.loads(line) for line in workers.log_of("worker").splitlines() if line[:1] == "{"]
    assert any(
        line["level"] == "INFO" and line["message"].startswith("bot moved") for line in logged
    ), workers.logs()


def test_a_worker_killed_mid_move_is_replaced_and_the_move_is_made_once(dora, workers, tmp_path):
    game = GameFactory(
        creator=dora,
        seats=[{"ai": "easy"}, {"ai": "easy"}],
        deck=scenario_deck("lux5 lux3 lux8"),
        first_player=0,
    )
    marker = tmp_path / "bot-starts"
    marker.touch()
    slow = {"HS_TEST_BOT_DELAY": "6", "HS_TEST_BOT_MARKER": str(marker)}
    first = workers.start("doomed", **slow)
    game = game_submit_action(
        game=game, user=dora, action={"type": "bid", "cards": [1000]}, expected_version=0
    )
    _wait(lambda: marker.read_text().count("\n") >= 1, 30, f"the bot to start\n{workers.logs()}")
    workers.kill(first)  # SIGKILL in the middle of the bot's thinking: no ack was sent
    assert Game.objects.get(pk=game.pk).version == 1  # the move was not made
    time.sleep(1)
    assert Game.objects.get(pk=game.pk).version == 1

    workers.start("heir", HS_TEST_BOT_DELAY="0.1", HS_TEST_BOT_MARKER=str(marker))
    _wait(lambda: _persons_turn(game.pk, 1), 45, f"the redelivered move\n{workers.logs()}")
    starts = marker.read_text().split()
    assert starts[0] == str(first.pid) and starts.count(str(first.pid)) == 1
    assert len(starts) >= 2  # the heir thought again about the same move
    moves = list(Move.objects.filter(game=game).order_by("number"))
    assert [m.number for m in moves] == list(range(len(moves)))  # no gap, no duplicate
    assert moves[1].seat == 1 and moves[1].actor == Move.Actor.BOT
    assert Move.objects.filter(game=game, number=1).count() == 1
    game.refresh_from_db()
    assert replayed_state(game).to_json() == game.state
