"""What every page needs about the visitor's way in, and the way to the staff."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.utils.functional import SimpleLazyObject
from django.utils.http import url_has_allowed_host_and_scheme


def entrance(request) -> dict[str, Any]:
    """``entrance_query``: the ``?next=…`` the header's Log in and Sign up links carry,
    so that a visitor who came by a shared link (a table, a profile) comes back to it
    once logged in, or once their new address is confirmed.  On the log-in and sign-up
    pages it passes on the ``next`` they were given, when it stays on this site; empty
    for the lobby (where both lead anyway) and for a signed-in user."""

    def query() -> str:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            return ""
        if request.path.startswith("/accounts/"):
            target = request.GET.get("next", "")
            safe = url_has_allowed_host_and_scheme(
                target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
            )
            return "?" + urlencode({"next": target}, safe="/") if target and safe else ""
        if request.path == "/":
            return ""
        return "?" + urlencode({"next": request.get_full_path()}, safe="/")

    return {"entrance_query": SimpleLazyObject(query)}


def account_facts(request) -> dict[str, Any]:
    """``contact_email``: where to write to the site's staff, "" when none is set;
    ``reset_days``: how long a password-reset link works, in whole days."""
    return {
        "contact_email": settings.CONTACT_EMAIL,
        "reset_days": max(1, settings.PASSWORD_RESET_TIMEOUT // 86400),
    }
