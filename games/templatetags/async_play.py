"""Filters for the async-play parts of the board (``games/_seat_async.html``)."""

from __future__ import annotations

from datetime import timedelta

from django import template
from django.utils import timezone

from games.clock import may_hand_over
from games.read_model import TableSeat, TableView

register = template.Library()


@register.filter
def may_hand_to_bot(info: TableSeat, view: TableView) -> bool:
    """May the table's creator hand this person's seat to a bot now?  The rule
    ``games.services.game_seat_to_bot`` checks (``games.clock.may_hand_over``)."""
    if info.is_bot or info.user_id is None:
        return False
    return may_hand_over(
        deadlines=bool(view.options.move_deadline_hours),
        timeouts=info.timeouts,
        idle=info.idle_since,
        now=timezone.now(),
    )


@register.filter
def idle_days(info: TableSeat) -> int:
    """Whole days this person to act has kept a table without deadlines waiting (0 when
    it does not wait for them)."""
    if info.idle_since is None:
        return 0
    return max(0, (timezone.now() - info.idle_since) // timedelta(days=1))
