"""Deleting an account: the player leaves every table, then the account is emptied.

The row of the user stays, so that the games they played keep every seat and move and
the others' ratings and head-to-head records stay true; everything that says who they
were goes: the username becomes ``~deleted-<id>`` (no one can sign up with a ``~``),
the names, the e-mail addresses, the password, the second factors, the API tokens,
the push subscriptions, their chat lines, mutes and blocks, and their settings.  Every
page then shows them as "Deleted player"; their public profile says the account was
deleted (410).  Nobody can sign in to it again, nor invite it.
"""

from __future__ import annotations

import logging
from typing import Any

from allauth.account.adapter import get_adapter
from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from django.db import transaction
from django.db.models import F
from django.utils import timezone, translation

from accounts.models import PushSubscription, User
from accounts.retired_names import names_retire
from accounts.tokens.services import tokens_revoke_all
from games.services import Withdrawal, player_withdraw

logger = logging.getLogger(__name__)

DELETED_PREFIX = "~deleted-"


def deleted_username(user_id: int) -> str:
    return f"{DELETED_PREFIX}{user_id}"


def account_delete(*, user: Any) -> Withdrawal:
    """Delete ``user``'s account for good (see the module).  Returns what leaving their
    tables did.  Running games go on, each with a bot in their seat."""
    # Silent from here on: a game the deletion resigns may end at once (bots play every
    # seat), and its result must not reach the leaving account, whose last e-mail says
    # it is the last.  Put back as they were if leaving the tables fails (the account
    # then stays, with the player's own choices).
    before = User.objects.filter(pk=user.pk).values("turn_emails", "push_off").get()
    User.objects.filter(pk=user.pk).update(
        turn_emails=User.TurnEmails.NONE, push_off=list(User.PUSH_KINDS)
    )
    try:
        withdrawal = player_withdraw(user=user)
    except BaseException:
        User.objects.filter(pk=user.pk).update(**before)
        raise
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        names_retire(locked.username, locked.display_name)
        locked.username = deleted_username(locked.pk)
        locked.display_name = locked.first_name = locked.last_name = locked.email = ""
        locked.set_unusable_password()
        locked.is_active = locked.is_staff = locked.is_superuser = False
        locked.deleted_at = timezone.now()
        locked.turn_emails = User.TurnEmails.NONE
        locked.emails_off, locked.push_off = [], []
        locked.time_zone = locked.language = ""
        locked.vacation_until = None
        locked.session_generation = F("session_generation") + 1  # every session ends
        locked.save()
        locked.groups.clear()
        locked.user_permissions.clear()
        EmailAddress.objects.filter(user=locked).delete()
        Authenticator.objects.filter(user=locked).delete()
        PushSubscription.objects.filter(user=locked).delete()
        tokens_revoke_all(user=locked)
    logger.info(
        "account %s deleted: left %s tables, closed %s, resigned %s games",
        locked.pk,
        withdrawal.left,
        withdrawal.closed,
        withdrawal.resigned,
    )
    return withdrawal


def account_delete_and_tell(*, user: Any, request: Any, by_staff: bool = False) -> Withdrawal:
    """``account_delete``, then the last e-mail, to the address the account had: a
    confirmed one only (an unconfirmed address may be somebody else's typo), in the
    account's language.  ``by_staff``: staff deleted it on the owner's request, and the
    e-mail says so instead of giving the staff member's address and browser."""
    address = (
        EmailAddress.objects.filter(user=user, verified=True)
        .order_by("-primary", "pk")
        .values_list("email", flat=True)
        .first()
    )
    username, language = user.username, user.language or translation.get_language()
    withdrawal = account_delete(user=user)
    if address:
        with translation.override(language):
            get_adapter(request).send_notification_mail(
                "account/email/account_deleted",
                user,
                {"username": username, "by_staff": by_staff},
                email=address,
            )
    return withdrawal
