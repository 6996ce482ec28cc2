"""Filters for the async-play parts of the board (``games/_seat_async.html``)."""

from __future__ import annotations

from datetime import timedelta

from django import template
from django.conf import settings
from django.utils import timezone

from games.read_model import TableSeat, TableView

register = template.Library()


@register.filter
def may_hand_to_bot(info: TableSeat, view: TableView) -> bool:
    """May the table's creator hand this person's seat to a bot now?  After missed
    deadlines, or at a table without move deadlines after days without its move
    (the rules ``games.services.game_seat_to_bot`` checks)."""
    if info.is_bot or info.user_id is None:
        return False
    if view.options.move_deadline_hours:
        return info.timeouts >= settings.SEAT_TO_BOT_AFTER_TIMEOUTS
    return idle_days(info) >= settings.SEAT_TO_BOT_AFTER_IDLE_DAYS


@register.filter
def idle_days(info: TableSeat) -> int:
    """Whole days this person to act has kept a table without deadlines waiting (0 when
    it does not wait for them)."""
    if info.idle_since is None:
        return 0
    return max(0, (timezone.now() - info.idle_since) // timedelta(days=1))
