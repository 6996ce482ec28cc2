"""Making and revoking API tokens (keyword-only, like every service)."""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.tokens.models import SHOWN_PREFIX_LENGTH, TOKEN_PREFIX, ApiToken, token_digest

# The lifetimes a person may choose on the tokens page, in days.
TOKEN_DAYS_CHOICES = (1, 7, 30, 90, 365)
DEFAULT_TOKEN_DAYS = 30
MAX_ACTIVE_TOKENS = 100
# Expired tokens stay listed this long (their owner sees that they ran out), then go.
EXPIRED_KEPT = timedelta(days=30)


class TokenLimitReached(Exception):
    """The user holds too many live tokens already."""


class FormAlreadySent(Exception):
    """The tokens page's form with this one-time value made its token already."""


def token_create(
    *, user, name: str, days: int = DEFAULT_TOKEN_DAYS, once: str = ""
) -> tuple[ApiToken, str]:
    """A new token for ``user``; returns the row and the secret, which is never stored
    and cannot be shown again.  ``once``: the one-time value of the form that asks for
    it; a second request with the same value makes none (``FormAlreadySent``).  The
    user's row is locked first, so two requests at once are counted one after the
    other, against the limit and against ``once``."""
    from accounts.models import User

    if not 1 <= days <= max(TOKEN_DAYS_CHOICES):
        raise ValueError(f"A token lives 1 to {max(TOKEN_DAYS_CHOICES)} days.")
    now = timezone.now()
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()
        if once and ApiToken.objects.filter(user=user, form_once=once).exists():
            raise FormAlreadySent(once)
        ApiToken.objects.filter(user=user, expires_at__lt=now - EXPIRED_KEPT).delete()
        if ApiToken.objects.filter(user=user, expires_at__gt=now).count() >= MAX_ACTIVE_TOKENS:
            raise TokenLimitReached(
                gettext(
                    "You already have %(count)s live API tokens: revoke some on your "
                    "profile's tokens page first."
                )
                % {"count": MAX_ACTIVE_TOKENS}
            )
        secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
        token = ApiToken.objects.create(
            user=user,
            name=name.strip()[:60] or "API token",
            prefix=secret[:SHOWN_PREFIX_LENGTH],
            digest=token_digest(secret),
            expires_at=now + timedelta(days=days),
            form_once=once,
        )
    return token, secret


def token_revoke(*, user, token_id: int) -> bool:
    """Delete one of ``user``'s tokens; False when they have no such token."""
    deleted, _ = ApiToken.objects.filter(user=user, pk=token_id).delete()
    return bool(deleted)


def tokens_for_user(*, user):
    return ApiToken.objects.filter(user=user).order_by("-created_at", "-id")


def tokens_revoke_all(*, user) -> int:
    """Revoke every API token of ``user`` (a new password: whoever knew the old one
    must not keep a way in).  Returns how many were revoked."""
    deleted, _ = ApiToken.objects.filter(user=user).delete()
    return deleted


def tokens_revoke_on_new_password(sender, user=None, **kwargs) -> None:
    """allauth's password_changed, password_reset and password_set signals."""
    if user is not None:
        tokens_revoke_all(user=user)
