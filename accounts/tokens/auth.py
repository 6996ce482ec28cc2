"""``Authorization: Token <token>`` for Django REST framework."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header

from accounts.tokens.models import TOKEN_PREFIX, ApiToken, token_digest

KEYWORD = b"token"
# "Last used" is kept to the minute: a write per request would cost more than the request.
LAST_USED_RESOLUTION = timedelta(seconds=60)


class TokenAuthentication(BaseAuthentication):
    """One indexed query per request: the token's digest, joined with its user."""

    @staticmethod
    def token_with_user(digest: str) -> ApiToken | None:
        return ApiToken.objects.select_related("user").filter(digest=digest).first()

    def authenticate(self, request):
        parts = get_authorization_header(request).split()
        if parts and parts[0].lower() == b"bearer":  # the scheme other APIs use
            raise exceptions.AuthenticationFailed(
                _("Send the token as 'Authorization: Token <token>', not 'Bearer'.")
            )
        if len(parts) == 1 and parts[0].startswith(TOKEN_PREFIX.encode()):
            # The token alone, as the API docs page sends what is pasted in its box.
            raise exceptions.AuthenticationFailed(
                _("Put the word Token before the token: 'Authorization: Token <token>'.")
            )
        if not parts or parts[0].lower() != KEYWORD:
            return None  # no token: other schemes (the session) may apply
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed(
                _("Malformed Authorization header: send 'Authorization: Token <token>'.")
            )
        try:
            secret = parts[1].decode("ascii")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed(_("Invalid token.")) from None
        token = self.token_with_user(token_digest(secret))
        if token is None:  # revoked (the row is gone) or never one of ours
            raise exceptions.AuthenticationFailed(
                _(
                    "Invalid token: it is unknown here (revoked, long expired, or "
                    "mistyped). Get a new one (POST /api/v1/auth/token/)."
                )
            )
        now = timezone.now()
        if token.is_expired(now):
            raise exceptions.AuthenticationFailed(
                _("This token has expired: get a new one (POST /api/v1/auth/token/).")
            )
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("This account is disabled."))
        if token.last_used_at is None or now - token.last_used_at >= LAST_USED_RESOLUTION:
            ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
            token.last_used_at = now
        return token.user, token

    def authenticate_header(self, request) -> str:
        # Makes unauthenticated API requests answer 401 (not 403) with this challenge.
        return 'Token realm="api"'
