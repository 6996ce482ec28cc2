"""Celery adapters for the games app: load by id, call a service; and the listeners
that turn what the services announce (``games.events``) into tasks.

``bot_move`` is queued after the commit whenever a bot is to act, with the version it
was queued for; ``bots.bots_play`` does nothing when the game has moved on, so a task
delivered twice (or after a crashed worker's redelivery) does no harm, and it plays on
by itself while bots are to act.

Async play (games.notifications, games.deadlines): ``turn_emails`` is queued when a
move starts a person's turn and they are not at the table; ``notification_send`` sends
one owed e-mail (and owes its Web Push notifications: ``push_send``, one device each)
and retries a failing SMTP server with backoff; ``push_send`` retries a push service
that cannot be reached.  The ``*_sweep`` tasks
are beat's periodic jobs (settings.CELERY_BEAT_SCHEDULE); each claims what it does in
the database, so a repeated or overlapping run does no harm.

Without a broker (``make run``) Celery runs each task in the process that queues it,
at once; the listeners are the same.
"""

import logging
import random
from functools import partial
from smtplib import SMTPException

from celery import shared_task
from django.dispatch import receiver
from django.utils import timezone

from games import chat, deadlines, events, notifications, push
from games.bots import (
    bot_turn_claim,
    bot_turn_release,
    bot_version_to_act,
    bots_play,
    owner_next_game,
    owner_slot_claim,
    owner_slot_keep,
    owner_slot_release,
    owner_slot_take_if_idle,
)
from games.selectors import solo_owner
from ops.logcontext import log_context
from ops.outages import CACHE_ERRORS, DATABASE_ERRORS, database_unreachable

logger = logging.getLogger(__name__)

# Which queue each task goes to (settings.TASK_QUEUES names the queues).
TASK_KINDS = {
    "games.tasks.bot_move": "bots",
    "games.tasks.turn_emails": "email",
    "games.tasks.notification_send": "email",
    "games.tasks.push_send": "email",
    "games.tasks.chat_report_mail": "email",
    "games.tasks.deadlines_sweep": "sweeps",
    "games.tasks.reminders_sweep": "sweeps",
    "games.tasks.stalled_sweep": "sweeps",
    "games.tasks.outbox_sweep": "sweeps",
    "games.tasks.digests_sweep": "sweeps",
    "games.tasks.worker_heartbeat": "sweeps",
}


def route_task(name, args, kwargs, options, task=None, **extra):
    """Celery's router (settings.CELERY_TASK_ROUTES): the queue of the task's kind."""
    from django.conf import settings

    if name == "games.tasks.worker_heartbeat" and args:
        return {"queue": args[0]}  # the queue whose worker it proves alive
    queue = settings.TASK_QUEUES.get(TASK_KINDS.get(name, ""), "")
    return {"queue": queue} if queue else None


# Every task here: acknowledged when done, requeued if its worker dies meanwhile.
DURABLE = {"acks_late": True, "reject_on_worker_lost": True, "ignore_result": True}


BOT_MOVE_RETRIES = 6  # then the stalled sweep queues the bots again
# With a worker, a bot task plays this many rounds of one game's bot decisions, then
# goes to the back of the bots' queue: the games waiting for bots take turns, so one
# player's long game of bots cannot hold a worker for minutes while others wait.
BOT_ROUNDS_PER_TASK = 4


@shared_task(bind=True, **DURABLE, max_retries=BOT_MOVE_RETRIES)
def bot_move(self, game_id: int, version: int, owner: int | None = None) -> bool:
    """Play the bots' turn of game ``game_id`` if it is still at ``version``.

    ``owner``: the task holds the one bot slot of that creator's solo tables
    (``_bots_to_act``); after its rounds it goes on with the creator's next such table
    waiting for its bots, so one account's tables of bots take turns with each other.

    The database unreachable (restarting, failing over): try again soon, 2 s, 4 s, 8 s
    … (with jitter, at most a minute), rather than leave the bots to the stalled sweep.
    A retry of a move that was made after all finds the game at another version and
    does nothing.  Any other database error is a bug: it fails at once, logged."""
    with log_context(task="bot_move"):
        in_process = self.app.conf.task_always_eager
        limit = None if in_process else BOT_ROUNDS_PER_TASK
        moved = _bots_play_or_retry(self, game_id, version, limit, owner)
        while True:
            if owner is not None:
                later = _owner_next_safely(owner, game_id)
                if later is not None and queue_safely(bot_move, *later, owner):
                    _owner_keep_safely(owner)
                    return moved  # to the back of the queue with the next table
                _owner_release_safely(owner)
                later = _owner_next_safely(owner, game_id)
                if later is None or not _owner_claim_safely(owner):
                    return moved
                game_id = later[0]
                moved = _bots_play_or_retry(self, game_id, later[1], limit, owner) or moved
                continue
            if not in_process:
                later = bot_version_to_act(game_id)
                if later is not None and queue_safely(bot_move, game_id, later):
                    return moved  # to the back of the queue, still holding the game
            # Hand the game back, then look once more: a person who moved while the
            # claim was held was not given a task of their own.
            _release_safely(game_id)
            later = bot_version_to_act(game_id)
            if later is None or not _claim_safely(game_id):
                return moved
            moved = _bots_play_or_retry(self, game_id, later, limit, owner) or moved


def _bots_play_or_retry(task, game_id: int, version: int, limit, owner: int | None) -> bool:
    """``bots_play``; the database unreachable: retry the task (keeping its claim)."""
    try:
        return bots_play(game_id=game_id, expected_version=version, limit=limit)
    except DATABASE_ERRORS as error:
        if not database_unreachable(error):
            _claims_release(game_id, owner)
            raise
        delay = min(60, 2 ** (task.request.retries + 1))
        # The claim stays with this task: its retry comes back to it.
        raise task.retry(
            args=[game_id, version, owner], exc=error, countdown=random.uniform(delay / 2, delay)
        ) from None
    except Exception:
        _claims_release(game_id, owner)
        raise


def _claims_release(game_id: int, owner: int | None) -> None:
    if owner is None:
        _release_safely(game_id)
    else:
        _owner_release_safely(owner)


@shared_task(**DURABLE)
def turn_emails(game_id: int, turn: int) -> int:
    """Owe each person to act in the turn that started at ``turn`` an e-mail."""
    with log_context(task="turn_emails", game_id=game_id):
        return len(notifications.turn_notices_create(game_id=game_id, turn=turn))


@shared_task(
    **DURABLE,
    autoretry_for=(SMTPException, OSError),  # the mail server is down or refuses
    retry_backoff=30,  # 30 s, 60 s, 120 s ... (with jitter), never past retry_backoff_max
    retry_backoff_max=600,  # below the broker's visibility timeout (docs/architecture.md)
    retry_jitter=True,
    max_retries=5,  # then the outbox sweep tries again later (notifications.MAX_ATTEMPTS)
)
def notification_send(notification_id: int) -> str:
    """Send one owed e-mail, if still wanted."""
    with log_context(task="notification_send", notification_id=notification_id):
        return notifications.notification_send(notification_id=notification_id)


@shared_task(
    **DURABLE,
    autoretry_for=(SMTPException, OSError),  # the mail server is down or refuses
    retry_backoff=30,
    retry_backoff_max=600,
    retry_jitter=True,
    max_retries=5,  # then it is lost: the reports queue in the admin still holds it
)
def chat_report_mail(report_id: int) -> int:
    """Tell the moderators of a chat report by e-mail."""
    with log_context(task="chat_report_mail"):
        return chat.chat_report_mail(report_id=report_id)


@shared_task(
    **DURABLE,
    autoretry_for=(push.PushUnavailable,),  # the push service unreachable, busy or down
    retry_backoff=30,  # 30 s, 60 s, 120 s ... (with jitter), never past retry_backoff_max
    retry_backoff_max=600,  # below the broker's visibility timeout
    retry_jitter=True,
    max_retries=5,  # then the notice is lost for this device (the e-mail still goes)
)
def push_send(subscription_id: int, payload: dict) -> str:
    """Send one Web Push notification to one device."""
    with log_context(task="push_send"):
        return push.push_deliver(subscription_id=subscription_id, payload=payload)


@shared_task(**DURABLE)
def deadlines_sweep() -> int:
    with log_context(task="deadlines_sweep"):
        return deadlines.deadlines_sweep(now=timezone.now())


@shared_task(**DURABLE)
def reminders_sweep() -> int:
    with log_context(task="reminders_sweep"):
        return deadlines.reminders_sweep(now=timezone.now())


@shared_task(**DURABLE)
def stalled_sweep() -> int:
    with log_context(task="stalled_sweep"):
        return deadlines.stalled_sweep(now=timezone.now())


@shared_task(**DURABLE)
def outbox_sweep() -> int:
    with log_context(task="outbox_sweep"):
        return notifications.outbox_sweep(now=timezone.now())


@shared_task(**DURABLE)
def digests_sweep() -> int:
    with log_context(task="digests_sweep"):
        return notifications.digests_sweep(now=timezone.now())


WORKER_HEARTBEAT_KEY = "health:worker-heartbeat"


def worker_heartbeat_key(queue: str) -> str:
    return f"{WORKER_HEARTBEAT_KEY}:{queue}"


@shared_task(ignore_result=True)
def worker_heartbeat(queue: str) -> None:
    """Beat sends this to each queue every 30 s; the worker that runs it stamps the
    cache for that queue, so ``/health/ready/`` can tell that beat and a worker of each
    queue (bots, e-mail, sweeps) are alive."""
    from django.core.cache import cache

    cache.set(worker_heartbeat_key(queue), timezone.now().timestamp(), timeout=3600)


# --------------------------------------------------------------------------- listeners


def queue_safely(task, *args, shown: str | None = None) -> bool:
    """``task.delay(*args)``, logging instead of raising: a broker outage must never turn
    a stored move into an error.  What was not queued is found later by a sweep
    (``stalled_sweep``, ``outbox_sweep``).  Whether it was queued.

    ``shown``: how the arguments read in the logs (Celery's ``argsrepr``: the worker's
    "received" line, ours), for a task whose arguments carry words for a player (a push
    notification's text), which no log line may hold."""
    try:
        if shown is None:
            task.delay(*args)
        else:
            task.apply_async(args, argsrepr=shown)
    except Exception:
        if task.app.conf.task_always_eager and task.app.conf.task_eager_propagates:
            raise  # the tests' in-process tasks: let a failure show
        logger.exception(
            "could not queue %s%s; a sweep will catch up", task.name, shown or repr(args)
        )
        return False
    return True


def _claim_safely(game_id: int) -> bool:
    try:
        return bot_turn_claim(game_id)
    except CACHE_ERRORS:  # the cache down: rather a second task than a stuck game
        return True


def _release_safely(game_id: int) -> None:
    try:
        bot_turn_release(game_id)
    except CACHE_ERRORS:
        logger.warning("game %s: the bot task's claim was not released (cache down)", game_id)


def _owner_of_solo_table(game_id: int) -> int | None:
    """The creator whose solo table this is, with a broker only (in-process, a move's
    bots are played at once and no table waits for another)."""
    if bot_move.app.conf.task_always_eager:
        return None
    try:
        return solo_owner(game_id)
    except DATABASE_ERRORS:
        return None  # the game's own claim then serves it


def _owner_claim_safely(owner: int) -> bool:
    try:
        return owner_slot_claim(owner)
    except CACHE_ERRORS:
        return True


def _owner_take_safely(owner: int) -> bool:
    try:
        return owner_slot_take_if_idle(owner)
    except CACHE_ERRORS:
        return True  # as _claim_safely: without the cache, queue rather than let it wait


def _owner_keep_safely(owner: int) -> None:
    try:
        owner_slot_keep(owner)
    except CACHE_ERRORS:
        logger.warning("the bot slot of user %s was not renewed (cache down)", owner)


def _owner_release_safely(owner: int) -> None:
    try:
        owner_slot_release(owner)
    except CACHE_ERRORS:
        logger.warning("the bot slot of user %s was not released (cache down)", owner)


def _owner_next_safely(owner: int, after: int) -> tuple[int, int] | None:
    try:
        return owner_next_game(owner, after=after)
    except DATABASE_ERRORS:
        logger.warning("user %s: the next table of bots could not be read", owner)
        return None  # the stalled sweep finds what waits


@receiver(events.bots_to_act)
def _bots_to_act(*, game_id: int, version: int, by_bot: bool, stalled: bool = False, **_) -> None:
    """One bot task per game: queued only by whoever claims the game.  After a bot's own
    move its task plays on by itself; a game the stalled sweep found waiting is queued
    whatever its claim says (the task holding it was lost).

    A solo table (its creator the only person at it) is served by its creator's one
    bot slot instead: queued when the slot is free, else left to the task holding it,
    which comes round to every table of that creator waiting for its bots."""
    if by_bot:
        return
    owner = _owner_of_solo_table(game_id)
    if owner is not None:
        claimed = _owner_take_safely(owner) if stalled else _owner_claim_safely(owner)
        if claimed and not queue_safely(bot_move, game_id, version, owner):
            _owner_release_safely(owner)
        elif stalled and not claimed:
            logger.info("game %s: user %s's bot task is busy with another table", game_id, owner)
        return
    if not _claim_safely(game_id) and not stalled:
        return  # a task has the game: it looks again before it lets go
    if not queue_safely(bot_move, game_id, version):
        _release_safely(game_id)


@receiver(events.turn_started)
def _turn_started(*, game_id: int, turn: int, user_ids: list[int], **_) -> None:
    if notifications.turn_email_wanted(game_id=game_id, user_ids=user_ids, now=timezone.now()):
        queue_safely(turn_emails, game_id, turn)


@receiver(events.invited)
def _invited(*, game_id: int, user_ids: list[int], **_) -> None:
    """Inside the transaction that invites them: owe each invited person an invitation
    e-mail (stored with the invitation, so the invitation limits count it at once)."""
    notifications.invitation_notices_create(game_id=game_id, user_ids=user_ids, now=timezone.now())


@receiver(events.declined)
def _declined(*, game_id: int, host_id: int, by_user_id: int, **_) -> None:
    """Inside the decline's transaction: owe the host an e-mail saying who declined."""
    notifications.declined_notice_create(
        game_id=game_id, host_id=host_id, by_user_id=by_user_id, now=timezone.now()
    )


@receiver(events.table_closed)
def _table_closed(*, game_id: int, user_ids: list[int], why: str, **_) -> None:
    """Inside the closing transaction: owe each person seated or invited there the news."""
    notifications.closed_notices_create(
        game_id=game_id, user_ids=user_ids, why=why, now=timezone.now()
    )


@receiver(events.seat_handed_over)
def _seat_handed_over(*, game, seat, **_) -> None:
    """Inside the transaction that hands the seat over: owe its player the news."""
    notifications.handed_over_notice_create(game=game, seat=seat, now=timezone.now())


@receiver(events.game_finished)
def _game_over_emails(*, game, seats, **_) -> None:
    """Inside the transaction that ends the game: owe its people the result by e-mail."""
    notifications.game_over_notices_create(game=game, seats=list(seats), now=timezone.now())


def _queue_or_try_here(task, args: tuple, here, failed: str, shown: str | None = None) -> None:
    """Queue ``task`` with ``args``; in-process (no broker) call ``here()`` once, now,
    instead of through Celery's eager retries, which would hold up the request that
    caused it, and log a failure (``failed``, with the first argument)."""
    if not task.app.conf.task_always_eager:
        queue_safely(task, *args, shown=shown)
        return
    try:
        here()
    except Exception:
        logger.exception(failed, args[0])


@receiver(events.pushes_owed)
def _pushes_owed(*, ids: list[int], payload: dict, **_) -> None:
    """A push task per device.  In-process a push that fails is not tried again (the
    e-mail, if wanted, still goes)."""
    for pk in ids:
        _queue_or_try_here(
            push_send,
            (pk, payload),
            partial(push.push_deliver, subscription_id=pk, payload=payload),
            "push to subscription %s failed",
            shown=f"({pk}, <the notification>)",
        )


@receiver(events.chat_reported)
def _chat_reported(*, report_id: int, **_) -> None:
    """A task mails the moderators (in-process, a failure is logged: the report waits
    in the admin's queue all the same)."""
    _queue_or_try_here(
        chat_report_mail,
        (report_id,),
        partial(chat.chat_report_mail, report_id=report_id),
        "chat report %s: mailing the moderators failed",
    )


@receiver(events.notices_owed)
def _notices_owed(*, ids: list[int], **_) -> None:
    """A send task per row (in-process, a failed row waits for the outbox sweep:
    ``manage.py sweep``)."""
    for pk in ids:
        _queue_or_try_here(
            notification_send,
            (pk,),
            partial(notifications.notification_send, notification_id=pk),
            "notification %s: sending failed; the outbox sweep retries it",
        )
