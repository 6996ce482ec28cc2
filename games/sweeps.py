"""Every periodic sweep at once, for a site without Celery beat.

``sweep_all()`` runs the five sweeps that beat runs on its own schedule (deadline moves,
deadline reminders, stalled games and missed turn e-mails, the e-mail outbox, digests)
once, here and now: ``manage.py sweep`` calls it (from cron, every minute), and
``start_sweeper`` calls it every so many seconds in a thread of the web process, which
is how ``make run`` serves turn e-mails and deadlines on the embedded defaults
(``SWEEP_IN_PROCESS_SECONDS``).  In the web process, a deadline move reaches the open
boards of that process at once through the in-process channel (games/live.py).

Each sweep claims what it does in the database, so running them beside beat, in two
processes, or twice at once does no harm.
"""

from __future__ import annotations

import logging
import threading
from datetime import datetime

from django.db import connections
from django.utils import timezone

from games import deadlines, notifications

logger = logging.getLogger(__name__)

__all__ = ["start_sweeper", "sweep_all"]


def sweep_all(*, now: datetime | None = None) -> dict[str, int]:
    """Run each sweep once; what each did, by name."""
    now = now or timezone.now()
    return {
        "deadline moves": deadlines.deadlines_sweep(now=now),
        "reminders": deadlines.reminders_sweep(now=now),
        "stalled games and missed turns": deadlines.stalled_sweep(now=now),
        "e-mails retried": notifications.outbox_sweep(now=now),
        "digests": notifications.digests_sweep(now=now),
    }


def _sweep_every(seconds: float, stop: threading.Event) -> None:
    while not stop.wait(seconds):
        try:
            done = sweep_all()
            if any(done.values()):
                logger.info("in-process sweeps: %s", done)
        except Exception:  # one failed pass must not end the sweeps; the next one retries
            logger.exception("in-process sweeps failed; trying again in %s s", seconds)
        finally:
            connections.close_all()  # this thread's own connections, between passes


def start_sweeper(seconds: float) -> threading.Event:
    """Run ``sweep_all`` every ``seconds`` in a daemon thread of this process, the first
    time ``seconds`` from now.  Setting the returned event stops it."""
    stop = threading.Event()
    threading.Thread(target=_sweep_every, args=(seconds, stop), name="sweeper", daemon=True).start()
    return stop
