"""Each Celery task of async play, run in-process (eager), and the beat schedule."""

from __future__ import annotations

import io
import threading
import time
from datetime import timedelta
from smtplib import SMTPException

import pytest
from celery.app.task import Task
from django.conf import settings
from django.core import mail
from django.core.mail import EmailMultiAlternatives
from django.core.management import call_command
from django.utils import timezone
from kombu.exceptions import OperationalError

from accounts.models import User
from games import tasks
from games.deadlines import stalled_sweep
from games.models import Move, Notification
from games.notifications import digests_sweep, turn_key
from games.services import game_invitation_respond, game_submit_action
from games.sweeps import start_sweeper
from highsociety_site import celery_app
from tests.games.factories import GameFactory, scenario_deck

pytestmark = pytest.mark.django_db

ASYNC_TASKS = [
    tasks.bot_move,
    tasks.turn_emails,
    tasks.notification_send,
    tasks.deadlines_sweep,
    tasks.reminders_sweep,
    tasks.stalled_sweep,
    tasks.outbox_sweep,
    tasks.digests_sweep,
]


@pytest.mark.parametrize("task", ASYNC_TASKS, ids=lambda t: t.name)
def test_every_task_survives_a_lost_worker(task):
    assert task.acks_late is True and task.reject_on_worker_lost is True
    assert task.ignore_result is True  # no result store: nothing secret kept there


def test_time_limits_and_smtp_retries():
    assert celery_app.conf.task_time_limit == settings.CELERY_TASK_TIME_LIMIT
    assert celery_app.conf.task_soft_time_limit < celery_app.conf.task_time_limit
    send = tasks.notification_send
    assert SMTPException in send.autoretry_for and OSError in send.autoretry_for
    assert send.max_retries == 5 and send.retry_backoff == 30 and send.retry_backoff_max == 600
    # Retries wait at most 10 minutes: well inside the broker's visibility timeout.
    assert send.retry_backoff_max < settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]


def test_beat_sweeps_every_minute():
    schedule = settings.CELERY_BEAT_SCHEDULE
    sweeps = {
        f"games.tasks.{name}"
        for name in (
            "deadlines_sweep",
            "reminders_sweep",
            "stalled_sweep",
            "outbox_sweep",
            "digests_sweep",
        )
    }
    # The sweeps, plus the worker heartbeats of /health/ready/, one per queue (tests/site).
    assert {entry["task"] for entry in schedule.values()} == sweeps | {
        "games.tasks.worker_heartbeat"
    }
    for entry in schedule.values():
        if entry["task"] in sweeps:
            assert entry["schedule"] == 60.0
        # Every periodic task expires before beat sends the next one.
        assert entry["options"]["expires"] < entry["schedule"]
        assert entry["task"] in celery_app.tasks


def test_turn_emails_task(dora, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        game = GameFactory(
            creator=dora, seats=[{"ai": "easy"}] * 2, deck=scenario_deck("lux5"), first_player=0
        )
    turn = turn_key(game.turn_started_at)
    assert tasks.turn_emails.delay(game.pk, turn).get() == 1
    assert tasks.turn_emails.delay(game.pk, turn).get() == 0  # delivered twice: once
    assert tasks.turn_emails.delay(game.pk, turn + 1).get() == 0  # another turn: none
    assert len(mail.outbox) == 1


def test_notification_send_task_retries_a_failing_smtp_server(table, dora, monkeypatch):
    game = table(first=1)
    notice = Notification.objects.create(
        user=dora, game=game, kind="deadline", key="k", move_number=0, due_at=timezone.now()
    )
    real, calls = EmailMultiAlternatives.send, []

    def flaky(self, *args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise SMTPException("421 busy")
        return real(self, *args, **kwargs)

    monkeypatch.setattr(EmailMultiAlternatives, "send", flaky)
    # In-process, a retry runs at once (a worker waits 30 s, 60 s, ... with jitter).
    result = tasks.notification_send.apply(args=[notice.pk], throw=False)
    assert result.get() == "sent" and len(calls) == 2
    notice.refresh_from_db()
    assert notice.status == "sent" and notice.attempts == 2
    assert len(mail.outbox) == 1


def test_bot_move_task_retries_while_the_database_is_unreachable(
    dora, monkeypatch, django_capture_on_commit_callbacks
):
    """A database outage during a bot's turn: the task tries again (2 s, 4 s, ... in a
    worker; at once in-process) and the bot moves once the database answers."""
    from django.db import OperationalError as DatabaseDown

    with django_capture_on_commit_callbacks(execute=False):  # the bot has not moved yet
        game = GameFactory(creator=dora, deck=scenario_deck("lux5"), first_player=1)
    real, calls = tasks.bots_play, []

    def flaky(**kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise DatabaseDown("connection refused")
        return real(**kwargs)

    monkeypatch.setattr(tasks, "bots_play", flaky)
    result = tasks.bot_move.apply(args=[game.pk, game.version], throw=False)
    assert result.get() is True and len(calls) == 2
    assert Move.objects.filter(game=game, actor=Move.Actor.BOT).exists()


def test_sweep_tasks_run(table, age):
    game = age(table(), 30)
    assert tasks.deadlines_sweep.delay().get() == 1
    assert Move.objects.filter(game=game, actor=Move.Actor.DEADLINE).count() == 1
    for task in (
        tasks.reminders_sweep,
        tasks.stalled_sweep,
        tasks.outbox_sweep,
        tasks.digests_sweep,
    ):
        assert task.delay().get() >= 0


def test_the_sweep_command_runs_every_sweep_once(table, age):
    age(table(), 30)
    out = io.StringIO()
    call_command("sweep", stdout=out)
    assert out.getvalue().startswith("deadline moves: 1, reminders: 0")


@pytest.mark.django_db(transaction=True)  # the sweeper's thread reads what the test wrote
def test_the_web_process_sweeper_runs_the_sweeps_in_a_thread_until_stopped(table, age):
    """`make run`'s in-process sweeps (SWEEP_IN_PROCESS_SECONDS): a turn past its
    deadline gets its one deadline move from the sweeper's thread, however often it
    sweeps, and the thread ends when told to."""
    game = age(table(), 30)
    stop = start_sweeper(0.05)
    try:
        deadline = time.monotonic() + 20
        moves = Move.objects.filter(game=game, actor=Move.Actor.DEADLINE)
        while not moves.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.3)  # several more sweeps
        assert moves.count() == 1
    finally:
        stop.set()
    end = time.monotonic() + 5
    while any(t.name == "sweeper" for t in threading.enumerate()) and time.monotonic() < end:
        time.sleep(0.05)
    assert not any(t.name == "sweeper" for t in threading.enumerate())


def test_a_broker_outage_never_breaks_a_move(table, dora, monkeypatch, run_commits):
    """The move is stored and answered; the bots' turn and the e-mails wait for the
    stalled sweep once the broker is back."""
    game = table()

    def down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(Task, "apply_async", down)
    celery_app.conf.task_always_eager = False  # a broker is configured...
    try:
        with run_commits():
            game = game_submit_action(
                game=game, user=dora, action={"type": "bid", "cards": [2000]}, expected_version=0
            )
    finally:
        celery_app.conf.task_always_eager = True
    assert game.version == 1 and Move.objects.filter(game=game).count() == 1
    monkeypatch.undo()  # ...and back again
    with run_commits():
        assert stalled_sweep(now=timezone.now() + timedelta(minutes=3)) >= 1
    game.refresh_from_db()
    assert game.version > 1  # the bots played on


def test_the_daily_digest_lists_the_games_waiting(dora, run_commits):
    User.objects.filter(pk=dora.pk).update(turn_emails=User.TurnEmails.DIGEST)
    with run_commits():
        games = [
            GameFactory(
                creator=dora, seats=[{"ai": "easy"}] * 2, deck=scenario_deck("lux5"), first_player=0
            )
            for _ in range(2)
        ]
    assert mail.outbox == []  # no e-mail per turn for a digest reader
    today = timezone.now()
    assert digests_sweep(now=today.replace(hour=settings.DIGEST_HOUR - 1)) == 0
    at = today.replace(hour=settings.DIGEST_HOUR, minute=5)
    with run_commits():
        assert digests_sweep(now=at) == 1
        assert digests_sweep(now=at + timedelta(hours=3)) == 0  # once a day
    [message] = mail.outbox
    assert message.subject == "[High Society] 2 games waiting for your move"
    for game in games:
        assert f"== Table {game.pk} ==" in message.body
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def test_the_digest_comes_at_the_hour_of_each_players_own_time_zone(settings, db):
    """From DIGEST_HOUR o'clock where the player lives (their profile's time zone; UTC
    without one), once per local day: Tokyo's players read it at breakfast, not at 4 pm."""
    from datetime import UTC, datetime

    from tests.factories import UserFactory

    settings.DIGEST_HOUR = 7
    readers = {}
    for zone in ("Asia/Tokyo", "", "America/New_York"):
        user = UserFactory(time_zone=zone, turn_emails=User.TurnEmails.DIGEST)
        GameFactory(creator=user, seats=[{"ai": "easy"}] * 2)
        readers[zone] = user

    def digested(hour):
        at = datetime(2026, 11, 28, hour, 30, tzinfo=UTC)
        digests_sweep(now=at)
        rows = Notification.objects.filter(kind="digest").order_by("pk")
        return [(row.user.time_zone, row.key) for row in rows]

    # 03:30 UTC: 12:30 in Tokyo, 22:30 yesterday in New York; too early in UTC.
    assert digested(3) == [("America/New_York", "2026-11-27"), ("Asia/Tokyo", "2026-11-28")]
    assert len(digested(6)) == 2  # nobody's new hour yet
    assert digested(7)[2:] == [("", "2026-11-28")]  # 07:30 UTC
    assert digested(11)[3:] == []  # 06:30 in New York
    assert digested(12)[3:] == [("America/New_York", "2026-11-28")]  # 07:30 there
    assert len(digested(21)) == 4  # once a local day each (06:30 tomorrow in Tokyo)
    assert digested(22)[4:] == [("Asia/Tokyo", "2026-11-29")]  # 07:30 tomorrow there


def test_no_digest_without_a_game_waiting(dora, bob, run_commits):
    User.objects.filter(pk=bob.pk).update(turn_emails=User.TurnEmails.DIGEST)
    with run_commits():
        from games.services import game_invitation_respond

        game = GameFactory(
            creator=dora,
            seats=[{"user": "bob"}, {"ai": "easy"}],
            deck=scenario_deck("lux5"),
            first_player=0,
        )
        game_invitation_respond(game=game, user=bob, accept=True)
    mail.outbox.clear()
    at = timezone.now().replace(hour=settings.DIGEST_HOUR)
    with run_commits():
        assert digests_sweep(now=at) == 1
    assert mail.outbox == []
    notice = Notification.objects.get(user=bob, kind="digest")
    assert (notice.status, notice.note) == ("skipped", "No game is waiting for the player.")


def test_a_game_holds_one_bot_task_at_a_time(dora, monkeypatch, django_capture_on_commit_callbacks):
    """However often a bot's turn is announced, one task is queued while it is pending;
    when it ends it lets go, and the next announcement queues again.  The stalled sweep
    queues even so (the task holding the game was lost)."""
    from games import events

    with django_capture_on_commit_callbacks(execute=False):
        game = GameFactory(creator=dora, deck=scenario_deck("lux5"), first_player=1)
    queued = []
    monkeypatch.setattr(tasks.bot_move, "delay", lambda *args: queued.append(args))
    for _ in range(3):
        events.announce_now(events.bots_to_act, game_id=game.pk, version=game.version, by_bot=False)
    assert queued == [(game.pk, game.version)]
    events.announce_now(
        events.bots_to_act, game_id=game.pk, version=game.version, by_bot=False, stalled=True
    )
    assert len(queued) == 2
    assert tasks.bot_move.apply(args=[game.pk, game.version]).get() is True  # it ran
    events.announce_now(events.bots_to_act, game_id=game.pk, version=game.version, by_bot=False)
    assert len(queued) == 3  # let go: a new turn gets its task


def test_bots_e_mails_and_sweeps_go_to_queues_of_their_own(settings):
    """Bots thinking never hold up an e-mail or a sweep: each kind has its own queue
    (docker-compose runs one worker for the bots and one for the rest)."""
    settings.TASK_QUEUES = {"bots": "bots", "email": "email", "sweeps": "sweeps"}
    assert tasks.route_task("games.tasks.bot_move", (), {}, {}) == {"queue": "bots"}
    assert tasks.route_task("games.tasks.notification_send", (), {}, {}) == {"queue": "email"}
    assert tasks.route_task("games.tasks.turn_emails", (), {}, {}) == {"queue": "email"}
    for sweep in ("deadlines_sweep", "stalled_sweep", "outbox_sweep", "worker_heartbeat"):
        assert tasks.route_task(f"games.tasks.{sweep}", (), {}, {}) == {"queue": "sweeps"}
    assert tasks.route_task("something.else", (), {}, {}) is None  # the default queue
    settings.TASK_QUEUES = {}
    assert tasks.route_task("games.tasks.bot_move", (), {}, {}) is None


def test_bot_tasks_reach_the_bots_queue_and_its_length_is_read(settings, caplog):
    """Through the real broker: a bot task lands in the bots' queue, and the hard bot's
    budget reads that queue's length (0 with tasks in-process)."""
    import secrets

    import redis

    from games.bots import bots_backlog
    from highsociety_site.celery import app as celery_app

    if not (settings.REDIS_URL or "").startswith("redis"):
        pytest.skip("needs Redis (REDIS_URL): `make test` sets it")
    assert bots_backlog() == 0  # in-process: nothing waits
    queue = f"test-bots-{secrets.token_hex(4)}"
    settings.TASK_QUEUES = {"bots": queue}
    saved = {key: celery_app.conf[key] for key in ("task_always_eager", "broker_url")}
    celery_app.conf.update(task_always_eager=False, broker_url=settings.REDIS_URL)
    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        with caplog.at_level("WARNING", logger="games.bots"):
            assert bots_backlog() == 0  # an empty queue (Redis has no such key): 0, quietly
        assert not caplog.records
        for _ in range(3):
            tasks.bot_move.delay(0, 0)
        assert client.llen(queue) == 3
        assert bots_backlog() == 3
    finally:
        celery_app.conf.update(saved)
        client.delete(queue, f"_kombu.binding.{queue}")
        client.close()


def test_with_a_worker_a_bot_task_plays_a_few_rounds_then_queues_behind_the_others(
    dora, monkeypatch, django_capture_on_commit_callbacks
):
    """A game of bots only does not hold a worker until it ends: the task plays
    BOT_ROUNDS_PER_TASK rounds of bot decisions, then queues the game again at the back
    of the bots' queue (keeping the game's claim), so other games' bots get their turn."""
    from django.core.cache import cache

    from games.models import Game
    from games.services import game_resign
    from highsociety_site.celery import app as celery_app

    with django_capture_on_commit_callbacks(execute=False):
        game = GameFactory(
            creator=dora,
            seats=[{"ai": "easy"}, {"ai": "easy"}],
            deck=scenario_deck(" ".join(f"lux{n}" for n in range(1, 11))),
            first_player=0,
        )
        game = game_resign(game=game, user=dora)  # three bots now
    queued = []
    monkeypatch.setattr(tasks.bot_move, "delay", lambda *args: queued.append(args))
    assert cache.add(f"games:bot-task:{game.pk}", 1)  # claimed, as the queueing did
    celery_app.conf.task_always_eager = False  # as in a worker
    try:
        assert tasks.bot_move.run(game.pk, game.version) is True
    finally:
        celery_app.conf.task_always_eager = True
    game.refresh_from_db()
    bot_moves = Move.objects.filter(game=game, actor=Move.Actor.BOT).count()
    assert 1 <= bot_moves <= tasks.BOT_ROUNDS_PER_TASK * 3
    assert game.status == Game.Status.ACTIVE
    assert queued == [(game.pk, game.version)]  # queued again, at the new version
    assert cache.get(f"games:bot-task:{game.pk}") is not None  # still holding the game


@pytest.fixture
def as_in_a_worker():
    """Tasks queued to a broker, not run at once (``delay`` is replaced by the test)."""
    from highsociety_site.celery import app as celery_app

    celery_app.conf.task_always_eager = False
    yield
    celery_app.conf.task_always_eager = True


def _bots_only_table(creator, django_capture_on_commit_callbacks):
    """A started table of ``creator`` and two easy bots, resigned at once: bots only."""
    from games.services import game_resign

    with django_capture_on_commit_callbacks(execute=False):
        game = GameFactory(creator=creator, seats=[{"ai": "easy"}, {"ai": "easy"}])
        return game_resign(game=game, user=creator)


def test_one_accounts_tables_of_bots_share_one_place_in_the_bots_queue(
    dora, bob, monkeypatch, django_capture_on_commit_callbacks, as_in_a_worker
):
    """Bot work is shared fairly between players: however many solo tables one account
    runs, one task serves them, in turn.  It plays a few rounds of one table, then
    queues itself for the account's next table waiting for its bots (round the circle);
    a table where other people play, and another account's tables, queue on their own."""
    from django.core.cache import cache

    from games import events
    from games.models import Game

    first, second, third = (
        _bots_only_table(dora, django_capture_on_commit_callbacks) for _ in range(3)
    )
    others = _bots_only_table(bob, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=False):
        shared = people_game_with_bots(dora, bob)
    queued = []
    monkeypatch.setattr(tasks.bot_move, "delay", lambda *args: queued.append(args))
    for game in (first, second, third, others, shared):
        events.announce_now(events.bots_to_act, game_id=game.pk, version=game.version, by_bot=False)
    assert queued == [
        (first.pk, first.version, dora.pk),  # dora's slot: her first table only
        (others.pk, others.version, bob.pk),  # bob's tables have their own
        (shared.pk, shared.version),  # a table of two people: a task of its own
    ]
    # The stalled sweep does not add a second task while the slot is held.
    events.announce_now(
        events.bots_to_act, game_id=second.pk, version=second.version, by_bot=False, stalled=True
    )
    assert len(queued) == 3

    del queued[1:]  # dora's task only, from here on
    served = []
    for _ in range(4):  # each run: a few rounds, then the next table of dora's
        game_id, version, owner = queued.pop()
        assert tasks.bot_move.run(game_id, version, owner) is True
        served.append(game_id)
        assert len(queued) == 1 and queued[0][2] == dora.pk  # handed on, one task still
    assert served == [first.pk, second.pk, third.pk, first.pk]
    rounds = Move.objects.filter(game=first, actor=Move.Actor.BOT).count()
    assert rounds <= 2 * tasks.BOT_ROUNDS_PER_TASK * 3
    assert Game.objects.get(pk=first.pk).status == Game.Status.ACTIVE
    assert cache.get(f"games:bot-owner:{dora.pk}") is not None  # still the one slot


def test_the_slot_is_let_go_when_no_table_of_bots_waits(
    dora, monkeypatch, django_capture_on_commit_callbacks, as_in_a_worker
):
    """The last table done, the slot is free again and the next announcement queues."""
    from django.core.cache import cache

    from games import events
    from games.models import Game

    game = _bots_only_table(dora, django_capture_on_commit_callbacks)
    queued = []
    monkeypatch.setattr(tasks.bot_move, "delay", lambda *args: queued.append(args))
    events.announce_now(events.bots_to_act, game_id=game.pk, version=game.version, by_bot=False)
    while queued:
        assert tasks.bot_move.run(*queued.pop()) is True
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
    assert cache.get(f"games:bot-owner:{dora.pk}") is None
    again = _bots_only_table(dora, django_capture_on_commit_callbacks)
    events.announce_now(events.bots_to_act, game_id=again.pk, version=again.version, by_bot=False)
    assert queued == [(again.pk, again.version, dora.pk)]


def test_a_lost_slot_expires_and_the_stalled_sweep_takes_over(
    dora, monkeypatch, django_capture_on_commit_callbacks, as_in_a_worker
):
    """A slot whose task was lost lasts OWNER_SLOT_SECONDS at most; then the stalled
    sweep's announcement claims it again."""
    from django.core.cache import cache

    from games import events
    from games.bots import OWNER_SLOT_SECONDS

    assert 60 <= OWNER_SLOT_SECONDS < 10 * 60
    game = _bots_only_table(dora, django_capture_on_commit_callbacks)
    queued = []
    monkeypatch.setattr(tasks.bot_move, "delay", lambda *args: queued.append(args))
    events.announce_now(events.bots_to_act, game_id=game.pk, version=game.version, by_bot=False)
    queued.clear()  # that task is lost
    cache.delete(f"games:bot-owner:{dora.pk}")  # … and its slot has expired
    events.announce_now(
        events.bots_to_act, game_id=game.pk, version=game.version, by_bot=False, stalled=True
    )
    assert queued == [(game.pk, game.version, dora.pk)]


def test_the_stalled_sweep_takes_over_a_slot_its_task_stopped_renewing(
    dora, monkeypatch, django_capture_on_commit_callbacks, as_in_a_worker
):
    """A worker killed mid-task leaves the slot held: a table that stalled waits for it
    only while its task is alive (renewed within OWNER_SLOT_IDLE_SECONDS), not for the
    slot's whole OWNER_SLOT_SECONDS."""
    import time

    from django.core.cache import cache

    from games import events
    from games.bots import OWNER_SLOT_IDLE_SECONDS, OWNER_SLOT_SECONDS

    assert OWNER_SLOT_IDLE_SECONDS < OWNER_SLOT_SECONDS
    game = _bots_only_table(dora, django_capture_on_commit_callbacks)
    queued = []
    monkeypatch.setattr(tasks.bot_move, "delay", lambda *args: queued.append(args))
    events.announce_now(events.bots_to_act, game_id=game.pk, version=game.version, by_bot=False)
    queued.clear()  # that task's worker was killed; its slot stays

    def stalled():
        events.announce_now(
            events.bots_to_act, game_id=game.pk, version=game.version, by_bot=False, stalled=True
        )

    stalled()  # renewed a moment ago: a task that is alive has it, and comes round
    assert queued == []
    key = f"games:bot-owner:{dora.pk}"
    cache.set(key, time.time() - OWNER_SLOT_IDLE_SECONDS - 1, OWNER_SLOT_SECONDS)
    stalled()  # not renewed for too long: lost, taken over
    assert queued == [(game.pk, game.version, dora.pk)]
    assert time.time() - cache.get(key) < 5  # renewed by the takeover
    stalled()  # … and held again by a task that is alive
    assert len(queued) == 1


def people_game_with_bots(creator, other):
    """A started table of two people and a bot, the bot to act first."""
    game = GameFactory(
        creator=creator,
        players=3,
        seats=[{"ai": "easy"}, {"user": other.username}],
        deck=None,
    )
    return game_invitation_respond(game=game, user=other, accept=True)


def test_a_push_task_is_queued_with_its_text_kept_out_of_the_logs(
    monkeypatch, as_in_a_worker, caplog
):
    """A push notification's words ("Your turn at table 7: …") travel to the worker as
    the task's argument, but the worker's "received" line and ours show the device's id
    only (Celery's argsrepr), also when queuing fails."""
    from games import events

    sent = []
    monkeypatch.setattr(
        tasks.push_send, "apply_async", lambda args, **options: sent.append((args, options))
    )
    payload = {"title": "Your turn at table 7", "body": "Bid for Luxury 9, or pass."}
    events.announce_now(events.pushes_owed, ids=[41], payload=payload)
    assert sent == [((41, payload), {"argsrepr": "(41, <the notification>)"})]

    def refused(args, **options):
        raise OSError("broker down")

    monkeypatch.setattr(tasks.push_send, "apply_async", refused)
    with caplog.at_level("ERROR", logger="games.tasks"):
        events.announce_now(events.pushes_owed, ids=[42], payload=payload)
    logged = " ".join(record.getMessage() for record in caplog.records)
    assert "(42, <the notification>)" in logged and "Luxury 9" not in logged
