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
import time

from highsociety_site.settings import *  # noqa: F403

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True

_visibility = int(os.environ.get("HS_FAULTS_VISIBILITY_TIMEOUT", "900"))
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": _visibility,
    "unacked_restore_interval": 1,
    "unacked_restore_throttle": 1,
    "unacked_mutex_expire": _visibility,
}

_BOT_DELAY = float(os.environ.get("HS_FAULTS_BOT_DELAY") or 0)
if _BOT_DELAY:
    import games.ai  # pure Python: no Django needed yet

    _choose_action = games.ai.choose_action

    def _slow_choose_action(*args, **kwargs):
        marker = os.environ.get("HS_FAULTS_BOT_MARKER")
        if marker:
            with open(marker, "a") as out:
                out.write(f"{os.getpid()}\n")
        time.sleep(_BOT_DELAY)
        return _choose_action(*args, **kwargs)

    games.ai.choose_action = _slow_choose_action
