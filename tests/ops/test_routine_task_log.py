"""Beat's heartbeats and idle sweeps write no INFO lines (some twenty a minute buried
the game's own); what a routine task did, its failures, and every other task's lines
stay.  Records are made as Celery makes them and passed to the site's log handler."""

from __future__ import annotations

import logging

from celery.app.trace import LOG_RECEIVED, LOG_RETRY, LOG_SUCCESS

HEARTBEAT = "games.tasks.worker_heartbeat"
SWEEP = "games.tasks.deadlines_sweep"
BOT = "games.tasks.bot_move"


def _handler() -> logging.Handler:
    (handler,) = [h for h in logging.getLogger().handlers if h.get_name() == "stdout"]
    return handler


def _written(logger: str, level: int, msg: str, args, data=None) -> bool:
    record = logging.getLogger(logger).makeRecord(
        logger, level, __file__, 1, msg, args, None, extra={"data": data} if data else None
    )
    return bool(_handler().filter(record))


def _context(name: str, **more) -> dict:
    return {"id": "6f1c", "name": name, "args": "()", "kwargs": "{}", **more}


def test_heartbeats_and_idle_sweeps_write_nothing_at_info():
    for name in (HEARTBEAT, SWEEP):
        context = _context(name)
        assert not _written(
            "celery.worker.strategy", logging.INFO, LOG_RECEIVED, (context,), context
        )
    for name in (HEARTBEAT, SWEEP):
        context = _context(name, return_value="0", runtime=0.01)
        if name == HEARTBEAT:
            context["return_value"] = "None"
        assert not _written("celery.app.trace", logging.INFO, LOG_SUCCESS, (context,), context)
    beat = ("worker_heartbeat_bots", HEARTBEAT)
    assert not _written("celery.beat", logging.INFO, "Scheduler: Sending due task %s (%s)", beat)


def test_a_sweep_that_did_something_a_failure_and_other_tasks_are_written():
    context = _context(SWEEP, return_value="2", runtime=0.05)
    assert _written("celery.app.trace", logging.INFO, LOG_SUCCESS, (context,), context)
    context = _context(SWEEP, exc="OperationalError()")
    assert _written("celery.app.trace", logging.INFO, LOG_RETRY, (context,), context)
    assert _written("celery.app.trace", logging.ERROR, "Task %(name)s raised", (context,), context)
    for message in (LOG_RECEIVED, LOG_SUCCESS):
        context = _context(BOT, return_value="None", runtime=0.3)
        assert _written("celery.app.trace", logging.INFO, message, (context,), context)
    assert _written("celery.beat", logging.INFO, "beat: Starting...", ())
    assert _written("games.services", logging.INFO, "move %s stored", (12,))
    odd = {"name": ["not", "a", "name"]}  # whatever a record carries, it is written
    assert _written("celery.app.trace", logging.INFO, LOG_SUCCESS, (odd,), odd)
