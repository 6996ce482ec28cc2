"""Signing a member of staff in as a browser would, second factor included: the
site's log-in, an authenticator app set up through allauth's own pages (the code
computed here as the app would, RFC 6238), and a code confirmed for this session."""

from __future__ import annotations

import base64
import hashlib
import hmac
import struct
import time

from django.urls import reverse

from tests.factories import PASSWORD


def totp_code(secret: str, at: float | None = None, *, period: int = 30, digits: int = 6) -> str:
    """The code an authenticator app shows for ``secret`` (base32) at ``at``."""
    key = base64.b32decode(secret.upper() + "=" * (-len(secret) % 8))
    counter = int((time.time() if at is None else at) // period)
    digest = hmac.new(key, struct.pack(">Q", counter), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    value = struct.unpack(">I", digest[offset : offset + 4])[0] & 0x7FFFFFFF
    return str(value % 10**digits).zfill(digits)


def second_factor_set_up(client, user, password: str = PASSWORD) -> tuple[str, list[str]]:
    """Sign ``user`` in with the password and set up an authenticator app through the
    pages.  Returns (the app's secret, the recovery codes)."""
    response = client.post(reverse("account_login"), {"login": user.username, "password": password})
    assert response.status_code == 302, response
    # allauth asks for the password once more before a second factor is set up.
    response = client.get(reverse("mfa_activate_totp"))
    assert response.url.startswith(reverse("account_reauthenticate")), response
    client.post(response.url, {"password": password})
    page = client.get(reverse("mfa_activate_totp"))
    assert page.status_code == 200, page
    secret = page.context["form"].secret
    for _ in range(2):
        response = client.post(reverse("mfa_activate_totp"), {"code": totp_code(secret)})
        if response.status_code == 302:
            break
        # A code computed at the very end of its 30 seconds (or one this user already
        # used in them) is refused: the app's next code comes with the next period.
        time.sleep(30 - time.time() % 30 + 0.5)
    assert response.status_code == 302, response.content
    codes = client.get(reverse("mfa_view_recovery_codes")).context["unused_codes"]
    return secret, list(codes)


def staff_admin_session(client, user, password: str = PASSWORD) -> None:
    """``client`` becomes ``user``'s browser, signed in with both factors: the admin
    opens for it (``user`` must be staff)."""
    _, codes = second_factor_set_up(client, user, password)
    response = client.post(reverse("mfa_reauthenticate"), {"code": codes[0]})
    assert response.status_code == 302, response.content
