"""The account e-mails speak in the site's name (issue #14): the sign-up confirmation
and the password reset, with an HTML part, and a way to get the confirmation again."""

import re

import pytest
from django.core import mail

from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db


def _signup(client, name="newcomer"):
    return client.post(
        "/accounts/signup/",
        {
            "username": name,
            "email": f"{name}@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )


def test_the_signup_confirmation_is_the_sites_own(client, settings):
    _signup(client)
    (message,) = mail.outbox
    assert message.subject == "[High Society] Confirm your e-mail address"
    assert message.body.startswith("Hello from High Society!")
    assert (
        "Hello from testserver" not in message.body
        and "127.0.0.1" not in message.body.split("\n")[0]
    )
    assert "Welcome, newcomer!" in message.body
    link = re.search(r"https?://\S+/accounts/confirm-email/\S+/", message.body).group(0)
    assert settings.SITE_URL in message.body
    html = message.alternatives[0][0]
    assert "Confirm my e-mail address" in html and link in html


def test_the_confirmation_can_be_had_again_by_logging_in(client):
    """The page after sign-up says how to get a new link; logging in with an address
    still unconfirmed sends one (at most one per address every three minutes)."""
    from tests.factories import UserFactory

    _signup(client)
    page = client.get("/accounts/confirm-email/").content.decode()
    assert "No e-mail after a few minutes?" in page and 'href="/accounts/login/"' in page
    mail.outbox.clear()
    client.post("/accounts/login/", {"login": "newcomer", "password": PASSWORD})
    assert mail.outbox == []  # the first link is a moment old: no second one yet

    UserFactory(username="unconfirmed", email="unconfirmed@example.com", verified_email=False)
    response = client.post("/accounts/login/", {"login": "unconfirmed", "password": PASSWORD})
    assert response.status_code == 302 and response.url == "/accounts/confirm-email/"
    (again,) = mail.outbox
    # Greeted by the display name, as the site names players (ACCOUNT_USER_DISPLAY).
    assert again.to == ["unconfirmed@example.com"]
    assert "Hello Unconfirmed, please confirm that this e-mail address belongs" in again.body


def test_the_password_reset_is_the_sites_own(client, alice):
    client.post("/accounts/password/reset/", {"email": alice.email})
    (message,) = mail.outbox
    assert message.body.startswith("Hello from High Society!")
    assert "Choose a new password here:" in message.body
    assert "Choose a new password" in message.alternatives[0][0]


def test_the_confirmation_page_speaks_as_the_site_does(client):
    """The page behind the e-mail's link says "e-mail" and names the player, asks one
    click (mail programs open links by themselves), and a stale link says what to do."""
    _signup(client)
    (message,) = mail.outbox
    path = re.search(r"https?://[^/\s]+(/accounts/confirm-email/\S+/)", message.body).group(1)
    page = client.get(path).content.decode()
    assert "Confirm your e-mail address" in page and "Email" not in page
    assert "Confirm my address" in page
    stale = client.get("/accounts/confirm-email/not-a-key/").content.decode()
    assert "This link has expired or is not valid." in stale and "/accounts/login/" in stale
