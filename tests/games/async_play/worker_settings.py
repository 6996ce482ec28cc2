"""Settings of the Celery worker processes that tests/games/async_play/test_worker.py starts:
the test settings (same cache prefix, same fast hashing), but tasks go through the real
broker, on a queue of the test's own.

Set by the test, in the worker's environment: DATABASE_URL (the test database),
EMAIL_URL (a file:// folder), HS_TEST_QUEUE, HS_TEST_VISIBILITY_TIMEOUT (seconds: low,
so that a killed worker's task is handed out again soon), and for the kill test
HS_TEST_BOT_DELAY (seconds every bot thinks) with HS_TEST_BOT_MARKER (a file that gets
one line each time a bot starts thinking).
"""

import os

from tests.settings import *  # noqa: F403
from tests.worker_hooks import bots_slow_down, broker_transport_options

CELERY_TASK_ALWAYS_EAGER = False
CELERY_TASK_EAGER_PROPAGATES = False
CELERY_TASK_DEFAULT_QUEUE = os.environ["HS_TEST_QUEUE"]
CELERY_BROKER_TRANSPORT_OPTIONS = {
    **CELERY_BROKER_TRANSPORT_OPTIONS,  # noqa: F405 (the socket timeouts)
    **broker_transport_options(int(os.environ.get("HS_TEST_VISIBILITY_TIMEOUT", "900"))),
}
bots_slow_down(float(os.environ.get("HS_TEST_BOT_DELAY") or 0), "HS_TEST_BOT_MARKER")
