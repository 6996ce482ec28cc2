"""What every page's header shows about the player's games."""

from __future__ import annotations

from typing import Any

from django.utils.functional import SimpleLazyObject

from games.selectors import chat_reports_open_count, turns_waiting_count
from ops.outages import DATABASE_ERRORS


def turns_waiting(request) -> dict[str, Any]:
    """``turns_waiting``: the number of games waiting for the signed-in player's move,
    counted only if the page shows it (one query), 0 when the database cannot say;
    ``turns_poll``: the header asks for it again every minute (the lobby, which redraws
    it with its own lists, sets it off)."""

    def count() -> int:
        try:
            return turns_waiting_count(getattr(request, "user", None))
        except DATABASE_ERRORS:
            return 0

    return {"turns_waiting": SimpleLazyObject(count), "turns_poll": True}


def chat_reports_open(request) -> dict[str, Any]:
    """``chat_reports_open``: for staff who answer chat reports, how many wait (the
    header links to the queue), counted only if the page shows it (one query); 0 for
    everybody else, or when the database cannot say."""

    def count() -> int:
        try:
            return chat_reports_open_count(getattr(request, "user", None))
        except DATABASE_ERRORS:
            return 0

    return {"chat_reports_open": SimpleLazyObject(count)}
