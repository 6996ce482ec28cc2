"""Celery adapters for the games app (STYLE.md, practice 8): load by id, call a service.

``bot_move`` is queued on commit by the services whenever a bot is to act, with the
version it was queued for; ``game_bot_move`` does nothing when the game has moved on,
so a task delivered twice (or after a crashed worker's redelivery) does no harm.

Async play (games.notifications, games.deadlines): ``turn_emails`` is queued on commit
when a move starts a person's turn; ``notification_send`` sends one owed e-mail and
retries a failing SMTP server with backoff.  The ``*_sweep`` tasks are beat's periodic
jobs (settings.CELERY_BEAT_SCHEDULE); each claims what it does in the database, so a
repeated or overlapping run does no harm.
"""

from smtplib import SMTPException

from celery import shared_task
from django.utils import timezone

from games import deadlines, notifications
from games.services import game_bot_move

# Every task here: acknowledged when done, requeued if its worker dies meanwhile.
DURABLE = {"acks_late": True, "reject_on_worker_lost": True, "ignore_result": True}


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def bot_move(game_id: int, version: int) -> bool:
    """Play the bots' turn of game ``game_id`` if it is still at ``version``."""
    return game_bot_move(game_id=game_id, expected_version=version)


@shared_task(**DURABLE)
def turn_emails(game_id: int, turn: int) -> int:
    """Owe each person to act in the turn that started at ``turn`` an e-mail."""
    return len(notifications.turn_notices_create(game_id=game_id, turn=turn))


@shared_task(
    **DURABLE,
    autoretry_for=(SMTPException, OSError),  # the mail server is down or refuses
    retry_backoff=30,  # 30 s, 60 s, 120 s ... (with jitter), never past retry_backoff_max
    retry_backoff_max=600,  # below the broker's visibility timeout (PITFALLS.md)
    retry_jitter=True,
    max_retries=5,  # then the outbox sweep tries again later (notifications.MAX_ATTEMPTS)
)
def notification_send(notification_id: int) -> str:
    """Send one owed e-mail, if still wanted."""
    return notifications.notification_send(notification_id=notification_id)


@shared_task(**DURABLE)
def deadlines_sweep() -> int:
    return deadlines.deadlines_sweep(now=timezone.now())


@shared_task(**DURABLE)
def reminders_sweep() -> int:
    return deadlines.reminders_sweep(now=timezone.now())


@shared_task(**DURABLE)
def stalled_sweep() -> int:
    return deadlines.stalled_sweep(now=timezone.now())


@shared_task(**DURABLE)
def outbox_sweep() -> int:
    return notifications.outbox_sweep(now=timezone.now())


@shared_task(**DURABLE)
def digests_sweep() -> int:
    return notifications.digests_sweep(now=timezone.now())


WORKER_HEARTBEAT_KEY = "health:worker-heartbeat"


@shared_task(ignore_result=True)
def worker_heartbeat() -> None:
    """Beat sends this every 30 s; the worker that runs it stamps the cache, so
    ``/health/ready/`` can tell that beat and at least one worker are alive."""
    from django.core.cache import cache

    cache.set(WORKER_HEARTBEAT_KEY, timezone.now().timestamp(), timeout=3600)
