"""Beat's routine tasks without a log line each, unless they did something.

Beat sends a heartbeat to each queue every 30 seconds and five sweeps every minute
(``CELERY_BEAT_SCHEDULE``).  At ``LOG_LEVEL=INFO`` Celery writes, for each, beat's
"Sending due task", the worker's "Received task" and its "succeeded" line: some twenty
lines a minute that bury the game's own.  ``RoutineTaskLogFilter`` drops those INFO
lines, and keeps a sweep's "succeeded" line when it handled something (a return value
other than 0), every warning and error (a retry, a failure), and every line of the other
tasks (a bot's move, an e-mail).  Celery passes the task's name with its lines as the
record's ``data`` (for custom log formatters); beat's line names it among its arguments.
"""

from __future__ import annotations

import logging

from celery.app.trace import LOG_RECEIVED, LOG_SUCCESS
from django.conf import settings

NOTHING_DONE = frozenset({"0", "None"})


def _routine() -> set[str]:
    return {entry["task"] for entry in getattr(settings, "CELERY_BEAT_SCHEDULE", {}).values()}


class RoutineTaskLogFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno > logging.INFO or not record.name.startswith("celery."):
            return True
        if record.name == "celery.beat":
            return not str(record.msg).startswith("Scheduler: Sending due task")
        data = getattr(record, "data", None)
        name = data.get("name") if isinstance(data, dict) else None
        if not isinstance(name, str) or name not in _routine():
            return True
        if record.msg == LOG_RECEIVED:
            return False
        if record.msg == LOG_SUCCESS:  # kept when the sweep did something
            return str(data.get("return_value")) not in NOTHING_DONE
        return True  # a retry, an expected error, an ignored task
