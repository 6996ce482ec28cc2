"""Taking back an e-mail address that somebody else changed.

When an account's address changes, the old address is told (allauth's "email_changed"
notice).  Its "choose a new password" led nowhere: a reset goes to the account's
address, which is now the new one, so the owner of a taken-over account could not get
it back.  The notice carries instead a signed link, for ``UNDO_DAYS`` days, that puts
the old address back (confirmed, as it was), removes the new one, signs out every
device and revokes the API tokens; its page then leads to the password reset, which
now reaches the owner.  The link changes nothing once the address has changed again
(or was taken back already), and never hands an address another account has taken
since.
"""

from __future__ import annotations

import logging
from typing import Any, NamedTuple

from allauth.account.models import EmailAddress
from django.core import signing
from django.db import transaction
from django.db.models import F

from accounts.models import User
from accounts.tokens.services import tokens_revoke_all

logger = logging.getLogger(__name__)

UNDO_SALT = "accounts.email_undo"
UNDO_DAYS = 7


class Undo(NamedTuple):
    user_id: int
    old: str  # the address to take back
    new: str  # the address it was changed to


def undo_token(user: Any, old: str, new: str) -> str:
    return signing.dumps({"u": user.pk, "o": old, "n": new}, salt=UNDO_SALT, compress=True)


def undo_read(token: str) -> Undo:
    """The change ``token`` undoes; ``signing.BadSignature`` (or its ``SignatureExpired``)
    for a link tampered with, cut short or older than ``UNDO_DAYS``."""
    data = signing.loads(token, salt=UNDO_SALT, max_age=UNDO_DAYS * 24 * 3600)
    try:
        return Undo(int(data["u"]), str(data["o"]), str(data["n"]))
    except (KeyError, TypeError, ValueError):
        raise signing.BadSignature("not an undo link") from None


def email_change_undo(*, undo: Undo) -> str:
    """Put ``undo.old`` back as the account's one address, if the account still has
    ``undo.new`` as its address.  Returns "done", "gone" (the account is deleted or
    suspended), "already" (its address is not ``undo.new`` any more: taken back
    already, or changed again since) or "taken" (another account has the old address
    now)."""
    with transaction.atomic():
        user = User.objects.select_for_update().filter(pk=undo.user_id).first()
        if user is None or not user.is_active or user.deleted_at is not None:
            return "gone"
        primary = EmailAddress.objects.filter(user=user, primary=True).first()
        if primary is None or primary.email.casefold() != undo.new.casefold():
            return "already"
        if EmailAddress.objects.filter(email__iexact=undo.old).exclude(user=user).exists():
            return "taken"
        EmailAddress.objects.filter(user=user).delete()
        EmailAddress.objects.create(user=user, email=undo.old, verified=True, primary=True)
        user.email = undo.old
        user.session_generation = F("session_generation") + 1  # every session ends
        user.save(update_fields=["email", "session_generation"])
        tokens_revoke_all(user=user)
    logger.info("account %s: e-mail address change undone from the old address", user.pk)
    return "done"
