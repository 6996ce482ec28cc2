"""Filters for the async-play parts of the board (``games/_seat_async.html``)."""

from __future__ import annotations

from typing import Any

from django import template
from django.conf import settings
from django.utils.dateparse import parse_datetime

register = template.Library()


@register.filter
def iso_datetime(value: str | None) -> Any:
    """An ISO 8601 string from the view dict (``seats_info.vacation_until``) as a
    datetime, for the ``date`` filter."""
    return parse_datetime(value) if value else None


@register.filter
def may_hand_to_bot(info: dict[str, Any]) -> bool:
    """Has this person's seat missed enough deadlines to be handed to a bot?"""
    return (
        not info.get("is_bot")
        and info.get("user_id") is not None
        and int(info.get("timeouts") or 0) >= settings.SEAT_TO_BOT_AFTER_TIMEOUTS
    )
