"""Taking back an e-mail address that somebody else changed.

When an account's address changes, the old address is told (allauth's "email_changed"
notice).  Its "choose a new password" led nowhere: a reset goes to the account's
address, which is now the new one, so the owner of a taken-over account could not get
it back.  The notice carries instead a signed link, for ``UNDO_DAYS`` days, that puts
the old address back (confirmed, as it was), removes the others, signs out every
device, revokes the API tokens, removes the password (the intruder knew it) and any
second factor added since the change (the intruder's would keep the owner out); its
page then leads to the password reset, which now reaches the owner.

An intruder may change the address twice (old → a → b): the owner's link still works
while the address is not ``old``.  Once a change is taken back, the links of every
later change stop working (the intruder's link from a's notice cannot take a back),
while those of earlier ones still do.  The link never hands an address another account
has taken since.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any, NamedTuple

from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from django.core import signing
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from accounts.models import User
from accounts.tokens.services import tokens_revoke_all

logger = logging.getLogger(__name__)

UNDO_SALT = "accounts.email_undo"
UNDO_DAYS = 7


class Undo(NamedTuple):
    user_id: int
    old: str  # the address to take back
    new: str  # the address it was changed to
    made_at: datetime  # when the change was made (its notice sent)


def undo_token(user: Any, old: str, new: str) -> str:
    made = timezone.now().timestamp()
    return signing.dumps(
        {"u": user.pk, "o": old, "n": new, "t": made}, salt=UNDO_SALT, compress=True
    )


def undo_read(token: str) -> Undo:
    """The change ``token`` undoes; ``signing.BadSignature`` (or its ``SignatureExpired``)
    for a link tampered with, cut short or older than ``UNDO_DAYS``."""
    data = signing.loads(token, salt=UNDO_SALT, max_age=UNDO_DAYS * 24 * 3600)
    try:
        made = datetime.fromtimestamp(float(data["t"]), tz=UTC)
        return Undo(int(data["u"]), str(data["o"]), str(data["n"]), made)
    except (KeyError, TypeError, ValueError, OverflowError):
        raise signing.BadSignature("not an undo link") from None


def email_change_undo(*, undo: Undo) -> str:
    """Put ``undo.old`` back as the account's one address (see the module).  Returns
    "done", "gone" (the account is deleted or suspended), "already" (its address is
    ``undo.old`` already, or an earlier change has been taken back since this one was
    made) or "taken" (another account has the old address now)."""
    with transaction.atomic():
        user = User.objects.select_for_update().filter(pk=undo.user_id).first()
        if user is None or not user.is_active or user.deleted_at is not None:
            return "gone"
        if user.email_undone_back_to is not None and undo.made_at >= user.email_undone_back_to:
            return "already"
        primary = EmailAddress.objects.filter(user=user, primary=True).first()
        if primary is not None and primary.email.casefold() == undo.old.casefold():
            return "already"
        if EmailAddress.objects.filter(email__iexact=undo.old).exclude(user=user).exists():
            return "taken"
        EmailAddress.objects.filter(user=user).delete()
        EmailAddress.objects.create(user=user, email=undo.old, verified=True, primary=True)
        # The intruder's second factor would keep the owner out after the reset.
        Authenticator.objects.filter(user=user, created_at__gte=undo.made_at).delete()
        user.email = undo.old
        user.email_undone_back_to = undo.made_at
        user.set_unusable_password()  # the intruder knew it: the reset sets a new one
        user.session_generation = F("session_generation") + 1  # every session ends
        user.save(update_fields=["email", "email_undone_back_to", "password", "session_generation"])
        tokens_revoke_all(user=user)
    logger.info("account %s: e-mail address change undone from the old address", user.pk)
    return "done"
