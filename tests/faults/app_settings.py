"""Settings of every process the fault tests start (the app under gunicorn, Celery
workers, one-off Django scripts): the real settings, read from the environment that
``tests/faults/stack.py`` sets (DEBUG off, the private PostgreSQL and Redis), with
these differences only:

- static files are served from the source folders (no collectstatic for a test);
- the broker hands out a task whose worker died after ``HS_FAULTS_VISIBILITY_TIMEOUT``
  seconds instead of 15 minutes, and looks for such tasks every second, so a killed
  worker's bot move is redelivered within the test's patience;
- with ``HS_FAULTS_BOT_DELAY`` (seconds), each bot thinks that much longer and first
  writes a line with its process id to ``HS_FAULTS_BOT_MARKER``, so a test can kill a
  worker in the middle of a bot's move.
"""

import os

from highsociety_site.settings import *  # noqa: F403
from tests.worker_hooks import bots_slow_down, broker_transport_options

TASK_QUEUES: dict[str, str] = {}  # every task on this stack's one queue
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True

CELERY_BROKER_TRANSPORT_OPTIONS = {
    **CELERY_BROKER_TRANSPORT_OPTIONS,  # noqa: F405 (the socket timeouts)
    **broker_transport_options(int(os.environ.get("HS_FAULTS_VISIBILITY_TIMEOUT", "900"))),
}
bots_slow_down(float(os.environ.get("HS_FAULTS_BOT_DELAY") or 0), "HS_FAULTS_BOT_MARKER")
