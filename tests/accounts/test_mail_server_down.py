"""Account e-mails while the mail server does not answer: sent through a real SMTP
connection to a port where nothing listens.  Each page says the e-mail could not be
sent and what to do, never a 500; what was asked stays done (the account is created,
or deleted); the log names the kind of e-mail, never the address or the link."""

from __future__ import annotations

import logging
import socket

import pytest
from django.urls import reverse

from accounts.models import User
from tests.accounts.test_account_deletion import DELETE, signed_in
from tests.accounts.test_signup import _sign_up

pytestmark = pytest.mark.django_db

RESET_UNSENT = "The e-mail with a link to reset your password could not be sent just now"


@pytest.fixture(autouse=True)
def mail_server_down(settings):
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", port, 2
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False


def test_sign_up_creates_the_account_and_says_the_link_did_not_go(client, caplog):
    with caplog.at_level(logging.ERROR, logger="accounts.adapter"):
        sent = _sign_up(client)
    response = client.get(sent["Location"])
    assert response.status_code == 200
    page = response.content.decode()
    assert "The e-mail with your confirmation link could not be sent just now" in page
    assert "Your account is there, waiting for that confirmation." in page
    assert "We have sent you an e-mail" not in page
    assert "Confirmation e-mail sent" not in page
    assert User.objects.filter(username="dora").exists()
    logged = caplog.text
    assert "account e-mail not sent (email_confirmation_signup): ConnectionRefusedError" in logged
    assert "dora@example.com" not in logged and "confirm-email" not in logged


@pytest.mark.parametrize("address", ["alice@example.com", "nobody@example.com"])
def test_a_password_reset_says_no_e_mail_went_out_whoever_asks(client, alice, address):
    response = client.post(reverse("account_reset_password"), {"email": address}, follow=True)
    assert response.status_code == 200
    page = response.content.decode()
    assert RESET_UNSENT in page and "No e-mail went out." in page
    assert "we have sent it an e-mail" not in page


def test_the_page_without_a_failure_says_the_e_mail_went(client, alice, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    response = client.post(
        reverse("account_reset_password"), {"email": "alice@example.com"}, follow=True
    )
    page = response.content.decode()
    assert "we have sent it an e-mail with a link" in page and RESET_UNSENT not in page


def test_an_account_is_deleted_though_its_last_e_mail_cannot_go(client, alice):
    signed_in(client, alice)
    response = client.post(DELETE, {"confirm": "on"})
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.deleted_at is not None and not alice.is_active
