"""Suspending an account: staff stop a player (abuse, a compromised account) without
erasing anything.

The player leaves every waiting table (a table of their own is closed) and resigns every
running game, where a bot plays their seat to the end, so nobody's game waits for an
account that can no longer move; then the account is deactivated and every session of it
ends.  Unlike a deletion, nothing is erased: the name, the e-mail addresses, the chat
lines (the evidence staff judge by) and the records stay.  Its API tokens stop working
while it is inactive; e-mails stop; nobody can invite it.  Staff may make it active
again later: it comes back with its history, out of the games it resigned.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.db.models import F

from accounts.models import User
from games.services import Withdrawal, player_tables_leave

logger = logging.getLogger(__name__)


def account_suspend(*, user: Any) -> Withdrawal:
    """Suspend ``user`` (see the module); it must be active.  Returns what leaving their
    tables did."""
    withdrawal = player_tables_leave(user=user)
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        locked.is_active = False
        locked.session_generation = F("session_generation") + 1  # every session ends
        locked.save(update_fields=["is_active", "session_generation"])
    logger.info(
        "account %s suspended: left %s tables, closed %s, resigned %s games",
        user.pk,
        withdrawal.left,
        withdrawal.closed,
        withdrawal.resigned,
    )
    return withdrawal
