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
from allauth.mfa.adapter import DefaultMFAAdapter, get_adapter
from allauth.mfa.models import Authenticator
from django.http import HttpRequest
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext


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
            gettext(
                "Staff accounts need a second factor before the admin opens: "
                "set up an authenticator app, then open the admin again."
            ),
        )
    if not second_factor_used(request):
        query = urlencode({"next": next_url})
        return (
            f"{reverse('mfa_reauthenticate')}?{query}",
            gettext("Confirm a code from your authenticator app to open the admin."),
        )
    return None


# --------------------------------------------------------------------------- secrets at rest

# allauth keeps each authenticator app's key and the seed of the recovery codes in the
# database; in the clear, every database dump (a backup, a copy for debugging) would let
# its reader compute a player's codes.  They are stored encrypted (Fernet: AES with an
# HMAC), with a key derived from SECRET_KEY; the keys of SECRET_KEY_FALLBACKS still
# decrypt, so a rotated SECRET_KEY (the old one kept as a fallback) locks nobody out.
ENCRYPTED_PREFIX = "fernet:"


def _fernet_key(secret: str) -> bytes:
    import base64

    from django.utils.crypto import salted_hmac

    digest = salted_hmac("accounts.second_factor", "mfa-secrets", secret=secret, algorithm="sha256")
    return base64.urlsafe_b64encode(digest.digest())


def _fernet():
    from cryptography.fernet import Fernet, MultiFernet
    from django.conf import settings

    keys = [settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", ())]
    return MultiFernet([Fernet(_fernet_key(key)) for key in keys])


def secret_encrypt(text: str) -> str:
    if text.startswith(ENCRYPTED_PREFIX):
        return text
    return ENCRYPTED_PREFIX + _fernet().encrypt(text.encode()).decode("ascii")


def secret_decrypt(stored: str) -> str:
    """The secret as allauth uses it; one stored before encryption came in is read as
    it is (the data migration accounts 0012 encrypted those)."""
    if not stored.startswith(ENCRYPTED_PREFIX):
        return stored
    return _fernet().decrypt(stored[len(ENCRYPTED_PREFIX) :].encode("ascii")).decode()


class MFAAdapter(DefaultMFAAdapter):
    def encrypt(self, text: str) -> str:
        return secret_encrypt(text)

    def decrypt(self, encrypted_text: str) -> str:
        return secret_decrypt(encrypted_text)
