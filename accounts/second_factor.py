"""Staff accounts need a second factor (django-allauth's MFA, an authenticator app)
before the admin opens.

The admin asks ``staff_admin_refusal``: None when the session may use it; otherwise
where to send the member of staff: setting up an authenticator app when the account
has none, or confirming a code when this session was signed in without one (signed in
before the app was set up).  Everyone may set one up from the account page; for
players it is optional.
"""

from __future__ import annotations

from allauth.account.authentication import get_authentication_records
from allauth.mfa.adapter import get_adapter
from allauth.mfa.models import Authenticator
from django.http import HttpRequest
from django.urls import reverse
from django.utils.http import urlencode


def second_factor_set_up(user) -> bool:
    """The account has an authenticator app (TOTP)."""
    return get_adapter().is_mfa_enabled(user, [Authenticator.Type.TOTP])


def second_factor_used(request: HttpRequest) -> bool:
    """This session was signed in (or confirmed) with a code of the account's app or
    one of its recovery codes."""
    records = get_authentication_records(request, request.user)
    return any(record.get("method") == "mfa" for record in records)


def staff_admin_refusal(request: HttpRequest, next_url: str = "/admin/") -> tuple[str, str] | None:
    """(where to go, why) when the signed-in staff member may not open the admin yet."""
    if not second_factor_set_up(request.user):
        return (
            reverse("mfa_activate_totp"),
            "Staff accounts need a second factor before the admin opens: "
            "set up an authenticator app, then open the admin again.",
        )
    if not second_factor_used(request):
        query = urlencode({"next": next_url})
        return (
            f"{reverse('mfa_reauthenticate')}?{query}",
            "Confirm a code from your authenticator app to open the admin.",
        )
    return None
