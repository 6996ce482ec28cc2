"""/health/ready/: database, broker and a worker heartbeat, each reported by name."""

from __future__ import annotations

import time

import pytest
from django.core.cache import cache
from django.urls import reverse

from games.tasks import WORKER_HEARTBEAT_KEY, worker_heartbeat
from highsociety_site.celery import app as celery_app

pytestmark = pytest.mark.django_db


@pytest.fixture
def real_broker():
    """Celery as in production: not eager, the machine's Redis as broker.  (Celery's
    settings object cannot be monkeypatched: its values are put back by hand.)"""
    saved = {key: celery_app.conf[key] for key in ("task_always_eager", "broker_url")}
    celery_app.conf.update(task_always_eager=False, broker_url="redis://127.0.0.1:6379/15")
    cache.delete(WORKER_HEARTBEAT_KEY)
    try:
        yield
    finally:
        celery_app.conf.update(saved)
        cache.delete(WORKER_HEARTBEAT_KEY)


def test_in_process_tasks_are_ready_without_a_broker(client):
    answer = client.get(reverse("health_ready"))
    assert answer.status_code == 200
    assert answer.json() == {"status": "ok", "database": "ok", "moves": "ok", "broker": "in-process", "worker": "in-process"}


def test_no_worker_heartbeat_is_not_ready(client, real_broker):
    answer = client.get(reverse("health_ready"))
    assert answer.status_code == 503
    assert answer.json() == {"status": "error", "database": "ok", "moves": "ok", "broker": "ok", "worker": "no heartbeat"}


def test_a_fresh_heartbeat_is_ready_and_an_old_one_is_stale(client, real_broker, settings):
    worker_heartbeat()
    assert client.get(reverse("health_ready")).json()["worker"] == "ok"
    cache.set(WORKER_HEARTBEAT_KEY, time.time() - settings.HEALTH_WORKER_MAX_AGE - 5)
    answer = client.get(reverse("health_ready"))
    assert answer.status_code == 503 and answer.json()["worker"] == "stale"


def test_an_unreachable_broker_is_reported_quickly(client, real_broker):
    celery_app.conf.broker_url = "redis://127.0.0.1:1/0"
    worker_heartbeat()
    started = time.monotonic()
    answer = client.get(reverse("health_ready"))
    assert answer.status_code == 503
    assert answer.json()["broker"] == "unavailable"
    assert time.monotonic() - started < 10


def test_the_beat_schedule_sends_the_heartbeat(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["worker_heartbeat"]
    assert entry["task"] == "games.tasks.worker_heartbeat"
    assert entry["schedule"] < settings.HEALTH_WORKER_MAX_AGE
