"""Filters for the async-play parts of the board (``games/_seat_async.html``)."""

from __future__ import annotations

from django import template
from django.conf import settings

from games.read_model import TableSeat

register = template.Library()


@register.filter
def may_hand_to_bot(info: TableSeat) -> bool:
    """Has this person's seat missed enough deadlines to be handed to a bot?"""
    return (
        not info.is_bot
        and info.user_id is not None
        and info.timeouts >= settings.SEAT_TO_BOT_AFTER_TIMEOUTS
    )
