"""Settings of the Celery worker processes that tests/async/test_worker.py starts:
the test settings (same cache prefix, same fast hashing), but tasks go through the real
broker, on a queue of the test's own.

Set by the test, in the worker's environment: DATABASE_URL (the test database),
EMAIL_URL (a file:// folder), HS_TEST_QUEUE, HS_TEST_VISIBILITY_TIMEOUT (seconds: low,
so that a killed worker's task is handed out again soon), and for the kill test
HS_TEST_BOT_DELAY (seconds every bot thinks) with HS_TEST_BOT_MARKER (a file that gets
one line each time a bot starts thinking).
"""

import os
import time

from tests.settings import *  # noqa: F403

CELERY_TASK_ALWAYS_EAGER = False
CELERY_TASK_EAGER_PROPAGATES = False
CELERY_TASK_DEFAULT_QUEUE = os.environ["HS_TEST_QUEUE"]
_visibility = int(os.environ.get("HS_TEST_VISIBILITY_TIMEOUT", "900"))
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": _visibility,
    "unacked_restore_interval": 1,  # look for abandoned tasks every second...
    "unacked_restore_throttle": 1,
    "unacked_mutex_expire": _visibility,  # ...even if a killed worker held the lock
}

_BOT_DELAY = float(os.environ.get("HS_TEST_BOT_DELAY", "0"))
if _BOT_DELAY:
    import games.ai  # pure Python: no Django needed yet

    _choose_action = games.ai.choose_action

    def _slow_choose_action(*args, **kwargs):
        marker = os.environ.get("HS_TEST_BOT_MARKER")
        if marker:
            with open(marker, "a") as out:
                out.write(f"{os.getpid()}\n")
        time.sleep(_BOT_DELAY)
        return _choose_action(*args, **kwargs)

    games.ai.choose_action = _slow_choose_action
