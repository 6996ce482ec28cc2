"""Known browsers: a failed-log-in lockout that a stranger cannot impose on them.

Five wrong passwords for one account lock its log-in for five minutes (allauth's
``login_failed`` limit, ``accounts.adapter.AccountAdapter.pre_authenticate``).  Counted
for the account alone, anybody could keep a player locked out by guessing five times
every five minutes.  So a browser that has logged in to the account gets a signed
cookie (``hs_device``: the account and a random tag, no secret of the account), and the
log-ins it sends for that account are counted for that browser alone: a stranger's
guesses lock the account for everyone else, never for the player's own browsers, and
guesses from one of those browsers lock only it.  (OWASP's "device cookies".)
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.core import signing

COOKIE = "hs_device"
SALT = "accounts.devices"
MAX_AGE = 365 * 24 * 3600  # a year from the last log-in


def device_tag(request: Any, user_id: int | None) -> str | None:
    """The tag of this browser when it has logged in to account ``user_id`` before."""
    raw = getattr(request, "COOKIES", {}).get(COOKIE) if user_id is not None else None
    if not raw:
        return None
    try:
        value = signing.loads(raw, salt=SALT, max_age=MAX_AGE)
    except signing.BadSignature:
        return None
    if not isinstance(value, dict) or value.get("u") != user_id:
        return None
    tag = value.get("d")
    return tag if isinstance(tag, str) and tag.isalnum() else None


def device_remember(
    sender: Any, request: Any = None, response: Any = None, user: Any = None, **_: Any
) -> None:
    """allauth's ``user_logged_in``: this browser is now known to the account (its tag is
    kept from one log-in to the next, its year starts again)."""
    if response is None or user is None or not hasattr(response, "set_cookie"):
        return
    tag = device_tag(request, user.pk) or secrets.token_hex(8)
    response.set_cookie(
        COOKIE,
        signing.dumps({"u": user.pk, "d": tag}, salt=SALT),
        max_age=MAX_AGE,
        httponly=True,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )
