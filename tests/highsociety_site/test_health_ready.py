"""/health/ready/: database, broker and a worker heartbeat of each queue, each reported
by name."""

from __future__ import annotations

import time

import pytest
from django.core.cache import cache
from django.urls import reverse

from games.tasks import worker_heartbeat, worker_heartbeat_key
from highsociety_site.celery import app as celery_app

pytestmark = pytest.mark.django_db


@pytest.fixture
def real_broker(settings):
    """Celery as in production: not eager, the machine's Redis as broker, a queue of
    each kind.  (Celery's settings object cannot be monkeypatched: its values are put
    back by hand.)"""
    settings.TASK_QUEUES = {queue: queue for queue in QUEUES}
    saved = {key: celery_app.conf[key] for key in ("task_always_eager", "broker_url")}
    celery_app.conf.update(task_always_eager=False, broker_url="redis://127.0.0.1:6379/15")
    cache.delete_many([worker_heartbeat_key(queue) for queue in QUEUES])
    try:
        yield
    finally:
        celery_app.conf.update(saved)
        cache.delete_many([worker_heartbeat_key(queue) for queue in QUEUES])


QUEUES = ("bots", "email", "sweeps")


def _all_beat():
    for queue in QUEUES:
        worker_heartbeat(queue)


def test_in_process_tasks_are_ready_without_a_broker(client):
    answer = client.get(reverse("health_ready"))
    assert answer.status_code == 200
    assert answer.json() == {
        "status": "ok",
        "database": "ok",
        "moves": "ok",
        "broker": "in-process",
        "worker": "in-process",
    }


def test_no_worker_heartbeat_is_not_ready(client, real_broker):
    answer = client.get(reverse("health_ready"))
    assert answer.status_code == 503
    assert answer.json() == {
        "status": "error",
        "database": "ok",
        "moves": "ok",
        "broker": "ok",
        "worker": "no heartbeat",
        "queues": dict.fromkeys(QUEUES, "no heartbeat"),
    }


def test_a_fresh_heartbeat_is_ready_and_an_old_one_is_stale(client, real_broker, settings):
    _all_beat()
    answer = client.get(reverse("health_ready"))
    assert answer.status_code == 200
    assert answer.json()["worker"] == "ok" and answer.json()["queues"] == dict.fromkeys(
        QUEUES, "ok"
    )
    cache.set(worker_heartbeat_key("sweeps"), time.time() - settings.HEALTH_WORKER_MAX_AGE - 5)
    answer = client.get(reverse("health_ready"))
    assert answer.status_code == 503 and answer.json()["worker"] == "stale"
    assert answer.json()["queues"]["sweeps"] == "stale"


def test_a_queue_without_its_worker_is_not_ready(client, real_broker):
    """The e-mail and sweeps worker answers, the bots worker is gone: not ready, and the
    answer names the queue nobody serves."""
    worker_heartbeat("email")
    worker_heartbeat("sweeps")
    answer = client.get(reverse("health_ready"))
    assert answer.status_code == 503 and answer.json()["worker"] == "no heartbeat"
    assert answer.json()["queues"] == {"bots": "no heartbeat", "email": "ok", "sweeps": "ok"}


def test_an_unreachable_broker_is_reported_quickly(client, real_broker):
    celery_app.conf.broker_url = "redis://127.0.0.1:1/0"
    _all_beat()
    started = time.monotonic()
    answer = client.get(reverse("health_ready"))
    assert answer.status_code == 503
    assert answer.json()["broker"] == "unavailable"
    assert time.monotonic() - started < 10


def test_the_beat_schedule_sends_a_heartbeat_to_each_queue(settings):
    from games.tasks import route_task

    for queue in QUEUES:
        entry = settings.CELERY_BEAT_SCHEDULE[f"worker_heartbeat_{queue}"]
        assert entry["task"] == "games.tasks.worker_heartbeat" and entry["args"] == (queue,)
        assert entry["schedule"] < settings.HEALTH_WORKER_MAX_AGE
        assert route_task(entry["task"], entry["args"], {}, {}) == {"queue": queue}


def test_the_health_checks_answer_other_methods_with_405_not_a_csrf_refusal():
    """A POST (a misconfigured probe, a scanner) is told the method is not taken,
    as the docs say, rather than refused for want of a CSRF token (403)."""
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    for path in ("/health/", "/health/ready/"):
        answer = strict.post(path)
        assert answer.status_code == 405 and answer["Allow"] == "GET, HEAD"
