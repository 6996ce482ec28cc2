"""``Authorization: Token <token>`` for Django REST framework."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header

from accounts.tokens.models import ApiToken, token_digest

KEYWORD = b"token"
# "Last used" is kept to the minute: a write per request would cost more than the request.
LAST_USED_RESOLUTION = timedelta(seconds=60)


class _TokenQuery:
    """The token and its user in one statement, compiled once per process.

    Every API request authenticates, and building this join through the ORM each time
    cost more than the rest of a game view; the SQL is the ORM's own (from the models'
    metadata) and the values pass through the same converters the ORM applies."""

    TOKEN_FIELDS = ("id", "user_id", "expires_at", "last_used_at")

    def __init__(self):
        user_model = get_user_model()
        quote = connection.ops.quote_name
        token_table, user_table = ApiToken._meta.db_table, user_model._meta.db_table
        self.token_fields = [ApiToken._meta.get_field(name) for name in self.TOKEN_FIELDS]
        self.user_fields = list(user_model._meta.concrete_fields)
        columns = [f"{quote(token_table)}.{quote(f.column)}" for f in self.token_fields]
        columns += [f"{quote(user_table)}.{quote(f.column)}" for f in self.user_fields]
        self.sql = (
            f"SELECT {', '.join(columns)} FROM {quote(token_table)} INNER JOIN "
            f"{quote(user_table)} ON {quote(user_table)}.{quote(user_model._meta.pk.column)} "
            f"= {quote(token_table)}.{quote(ApiToken._meta.get_field('user').column)} "
            f"WHERE {quote(token_table)}.{quote(ApiToken._meta.get_field('digest').column)} = %s"
        )
        self.user_model = user_model
        self.converters = [self._converters(field, token_table) for field in self.token_fields] + [
            self._converters(field, user_table) for field in self.user_fields
        ]

    @staticmethod
    def _converters(field, table):
        col = field.get_col(table)
        return [*connection.ops.get_db_converters(col), *col.get_db_converters(connection)], col

    def __call__(self, digest: str) -> ApiToken | None:
        with connection.cursor() as cursor:
            cursor.execute(self.sql, [digest])
            row = cursor.fetchone()
        if row is None:
            return None
        values = []
        for value, (converters, col) in zip(row, self.converters, strict=True):
            for convert in converters:
                value = convert(value, col, connection)
            values.append(value)
        split = len(self.token_fields)
        token = ApiToken.from_db(connection.alias, list(self.TOKEN_FIELDS), values[:split])
        user = self.user_model.from_db(
            connection.alias, [f.attname for f in self.user_fields], values[split:]
        )
        token.user = user
        return token


_token_query: _TokenQuery | None = None


def _token_with_user(digest: str) -> ApiToken | None:
    global _token_query
    if _token_query is None:
        _token_query = _TokenQuery()
    return _token_query(digest)


class TokenAuthentication(BaseAuthentication):
    """One indexed query per request: the token's digest, joined with its user."""

    def authenticate(self, request):
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() != KEYWORD:
            return None  # no token: other schemes (the session) may apply
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed(
                "Malformed Authorization header: send 'Authorization: Token <token>'."
            )
        try:
            secret = parts[1].decode("ascii")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed("Invalid token.") from None
        token = _token_with_user(token_digest(secret))
        if token is None:
            raise exceptions.AuthenticationFailed("Invalid token.")
        now = timezone.now()
        if token.is_expired(now):
            raise exceptions.AuthenticationFailed(
                "This token has expired: get a new one (POST /api/v1/auth/token/)."
            )
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed("This account is disabled.")
        if token.last_used_at is None or now - token.last_used_at >= LAST_USED_RESOLUTION:
            ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
            token.last_used_at = now
        return token.user, token

    def authenticate_header(self, request) -> str:
        # Makes unauthenticated API requests answer 401 (not 403) with this challenge.
        return 'Token realm="api"'
