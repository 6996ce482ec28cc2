"""Suspending an account: staff stop a player (abuse, a compromised account) without
erasing anything.

The player leaves every waiting table (a table of their own is closed) and resigns every
running game, where a bot plays their seat to the end, so nobody's game waits for an
account that can no longer move; then the account is deactivated and every session of it
ends.  Unlike a deletion, nothing is erased: the name, the e-mail addresses, the chat
lines (the evidence staff judge by) and the records stay.  Its API tokens are revoked
(a compromised account's thief may hold one, and reinstating must not bring it back);
e-mails stop; nobody can invite it.  Staff may reinstate it later
(``account_reinstate``): it comes back with its history, out of the games it resigned.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.db.models import F

from accounts.models import User
from accounts.tokens.services import tokens_revoke_all
from games.services import Withdrawal, player_tables_leave

logger = logging.getLogger(__name__)


def account_suspend(*, user: Any) -> Withdrawal:
    """Suspend ``user`` (see the module); it must be active.  Returns what leaving their
    tables did."""
    # Inactive first: the games it resigns may end at once (a bot plays its seat), and
    # no e-mail of theirs goes to an account that can no longer log in.
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        locked.is_active = False
        locked.session_generation = F("session_generation") + 1  # every session ends
        locked.save(update_fields=["is_active", "session_generation"])
        tokens_revoke_all(user=locked)
    withdrawal = player_tables_leave(user=user, why="suspended")
    logger.info(
        "account %s suspended: left %s tables, closed %s, resigned %s games",
        user.pk,
        withdrawal.left,
        withdrawal.closed,
        withdrawal.resigned,
    )
    return withdrawal


def account_reinstate(*, user: Any) -> bool:
    """Let a suspended account log in again; False when it was active already, or is a
    deleted account's emptied row (which nothing brings back)."""
    reinstated = User.objects.filter(pk=user.pk, is_active=False, deleted_at__isnull=True).update(
        is_active=True
    )
    if reinstated:
        logger.info("account %s reinstated", user.pk)
    return bool(reinstated)
