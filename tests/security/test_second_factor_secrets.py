"""Second-factor secrets are stored encrypted: a database dump does not hold an
authenticator app's key or the recovery codes' seed.  Codes still work through the
pages, a secret stored before encryption came in still works (and the data migration
encrypts it), and a rotated SECRET_KEY kept as a fallback still decrypts."""

from __future__ import annotations

import importlib
import json
import time

import pytest
from allauth.mfa.models import Authenticator
from cryptography.fernet import InvalidToken
from django.apps import apps
from django.urls import reverse

from accounts.second_factor import ENCRYPTED_PREFIX, secret_decrypt, secret_encrypt
from tests.factories import PASSWORD
from tests.second_factor import second_factor_set_up, totp_code

pytestmark = pytest.mark.django_db

MIGRATION = importlib.import_module("accounts.migrations.0012_second_factor_secrets_encrypted")
PLAIN = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"


def _log_in_with_code(client, user, secret, settings, ahead: int = 30) -> None:
    """Log in with the password and a code of the app (``ahead`` seconds on: each code
    is taken once, so a second log-in uses another period's)."""
    client.logout()
    answer = client.post(reverse("account_login"), {"login": user.username, "password": PASSWORD})
    assert answer.url == reverse("mfa_authenticate")
    settings.MFA_TOTP_TOLERANCE = 1
    answer = client.post(
        reverse("mfa_authenticate"), {"code": totp_code(secret, time.time() + ahead)}
    )
    assert answer.status_code == 302 and "_auth_user_id" in client.session


def test_set_up_through_the_pages_stores_nothing_in_the_clear(client, alice, settings):
    secret, codes = second_factor_set_up(client, alice)
    stored = {row.type: row.data for row in Authenticator.objects.filter(user=alice)}
    dump = json.dumps(stored)
    assert secret not in dump and not any(code in dump for code in codes)
    assert stored["totp"]["secret"].startswith(ENCRYPTED_PREFIX)
    assert stored["recovery_codes"]["seed"].startswith(ENCRYPTED_PREFIX)
    assert secret_decrypt(stored["totp"]["secret"]) == secret
    _log_in_with_code(client, alice, secret, settings)  # the code still opens the account


def test_a_secret_stored_in_the_clear_works_and_the_migration_encrypts_it(client, alice, settings):
    row = Authenticator.objects.create(user=alice, type="totp", data={"secret": PLAIN})
    _log_in_with_code(client, alice, PLAIN, settings, ahead=0)
    MIGRATION.encrypt(apps, None)
    row.refresh_from_db()
    assert row.data["secret"].startswith(ENCRYPTED_PREFIX) and PLAIN not in json.dumps(row.data)
    _log_in_with_code(client, alice, PLAIN, settings)
    MIGRATION.encrypt(apps, None)  # run again: encrypted once, not twice
    row.refresh_from_db()
    assert secret_decrypt(row.data["secret"]) == PLAIN
    MIGRATION.decrypt(apps, None)  # the way back
    row.refresh_from_db()
    assert row.data == {"secret": PLAIN}


def test_a_rotated_secret_key_kept_as_a_fallback_still_decrypts(settings):
    stored = secret_encrypt(PLAIN)
    old = settings.SECRET_KEY
    settings.SECRET_KEY = "a-new-secret-key-for-this-site-" + "x" * 30
    settings.SECRET_KEY_FALLBACKS = [old]
    assert secret_decrypt(stored) == PLAIN
    settings.SECRET_KEY_FALLBACKS = []
    with pytest.raises(InvalidToken):
        secret_decrypt(stored)


def test_the_second_factor_e_mails_speak_the_sites_words(alice):
    """"[High Society] Authenticator App Activated" in allauth's Title Case, in plain text
    only, where every other e-mail has the site's layout; likewise when it is turned off
    and when new recovery codes are made."""
    from allauth.account.adapter import get_adapter
    from allauth.core import context
    from django.core import mail
    from django.test import RequestFactory

    request = RequestFactory().get("/accounts/2fa/totp/activate/")
    request.user = alice
    said = {
        "totp_activated": ("Two-factor authentication is on", "each log-in asks for a code"),
        "totp_deactivated": ("Two-factor authentication is off", "asks for the password only"),
        "recovery_codes_generated": ("New recovery codes", "the earlier ones no longer work"),
    }
    for kind, (subject, text) in said.items():
        mail.outbox.clear()
        with context.request_context(request):
            get_adapter(request).send_notification_mail(f"mfa/email/{kind}", alice)
        [message] = mail.outbox
        assert message.subject == f"[High Society] {subject}"
        assert text in message.body and text in message.alternatives[0][0]
