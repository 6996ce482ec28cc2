"""Hooks for the worker processes that tests start (tests/games/async_play/worker_settings.py,
tests/faults/app_settings.py): imported by their settings modules, before Django."""

from __future__ import annotations

import os
import time


def broker_transport_options(visibility: int) -> dict[str, int]:
    """A task whose worker died is handed out again after ``visibility`` seconds, and the
    broker looks for such tasks every second."""
    return {
        "visibility_timeout": visibility,
        "unacked_restore_interval": 1,  # look for abandoned tasks every second...
        "unacked_restore_throttle": 1,
        "unacked_mutex_expire": visibility,  # ...even if a killed worker held the lock
    }


def bots_slow_down(delay: float, marker_variable: str) -> None:
    """Each bot thinks ``delay`` seconds longer, first writing its process id as a line
    to the file named by the environment variable ``marker_variable`` (when set), so a
    test can kill a worker in the middle of a bot's move."""
    if not delay:
        return
    import games.ai  # pure Python: no Django needed yet

    choose_action = games.ai.choose_action

    def slow_choose_action(*args, **kwargs):
        marker = os.environ.get(marker_variable)
        if marker:
            with open(marker, "a") as out:
                out.write(f"{os.getpid()}\n")
        time.sleep(delay)
        return choose_action(*args, **kwargs)

    games.ai.choose_action = slow_choose_action
