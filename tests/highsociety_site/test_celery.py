"""The Celery app is configured from Django's settings."""

from django.conf import settings

from highsociety_site import celery_app


def test_celery_app_reads_django_settings():
    assert celery_app.main == "highsociety_site"
    assert celery_app.conf.task_acks_late is True
    assert celery_app.conf.task_reject_on_worker_lost is True
    assert celery_app.conf.worker_prefetch_multiplier == 1
    assert celery_app.conf.task_serializer == "json"
    assert celery_app.conf.broker_url == settings.CELERY_BROKER_URL


def test_tests_run_tasks_eagerly_and_propagate_errors():
    assert celery_app.conf.task_always_eager is True
    assert celery_app.conf.task_eager_propagates is True


def test_an_eager_task_runs_in_process():
    @celery_app.task(name="tests.highsociety_site.add")
    def add(a, b):
        return a + b

    assert add.delay(2, 3).get(timeout=1) == 5
