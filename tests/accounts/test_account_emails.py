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
    assert message.subject == "[High Society] Reset your password"


def test_account_links_lead_to_the_site_whatever_host_the_request_named(client, alice, settings):
    """A Host header is the asker's to choose (any port of an allowed host passes): a
    reset link built from it would send the key to another server.  The links of the
    reset and of a confirmation are on SITE_URL."""
    settings.SITE_URL = "https://highsociety.example"
    settings.ALLOWED_HOSTS = ["localhost", "127.0.0.1"]
    client.post("/accounts/password/reset/", {"email": alice.email}, HTTP_HOST="127.0.0.1:6666")
    client.post(
        "/accounts/signup/",
        {
            "email": "newbie@example.com",
            "username": "newbie",
            "password1": "a-long-enough-password-42",
            "password2": "a-long-enough-password-42",
        },
        HTTP_HOST="localhost:6666",
    )
    reset, confirm = mail.outbox
    for message, path in (
        (reset, "/accounts/password/reset/key/"),
        (confirm, "/accounts/confirm-email/"),
    ):
        assert f"https://highsociety.example{path}" in message.body, message.body
        assert ":6666" not in message.body and ":6666" not in message.alternatives[0][0]


def test_a_password_reset_for_an_unknown_address_is_the_sites_own(client):
    client.post("/accounts/password/reset/", {"email": "nobody@example.com"})
    (message,) = mail.outbox
    assert message.subject == "[High Society] No account with this e-mail address"
    assert "no account has this address" in message.body
    assert "/accounts/signup/" in message.alternatives[0][0]


def test_the_security_notices_are_the_sites_own_in_the_players_language(client, alice):
    """A changed password or address is told in the site's words, with an HTML part,
    where it came from, and in the account's language (not the page's)."""
    from django.urls import reverse

    from tests.factories import PASSWORD

    alice.language, alice.time_zone = "de", "Asia/Kolkata"
    alice.save(update_fields=["language", "time_zone"])
    client.force_login(alice)
    client.post(
        reverse("account_change_password"),
        {"oldpassword": PASSWORD, "password1": "a-new-pass-9876", "password2": "a-new-pass-9876"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    (message,) = mail.outbox
    assert message.subject == "[High Society] Dein Passwort wurde geändert"
    assert message.body.startswith("Hallo!")
    assert "IP-Adresse:" in message.body
    # When, in her zone, marked as the game e-mails mark their times (it said UTC).
    when = message.body.split("Wann: ")[1].splitlines()[0]
    assert when.endswith(" UTC+5:30") and "(UTC)" not in message.body, when
    assert "/accounts/password/reset/" in message.alternatives[0][0]
    alice.language = "en"
    alice.save(update_fields=["language"])
    mail.outbox.clear()
    client.post(reverse("account_reauthenticate"), {"password": "a-new-pass-9876"})
    client.post(reverse("account_email"), {"action_add": "", "email": "alice@new.example"})
    (confirm,) = mail.outbox
    link = re.search(r"http://127\.0\.0\.1:8000(/accounts/confirm-email/\S+/)", confirm.body).group(
        1
    )
    mail.outbox.clear()
    client.post(link)
    (changed,) = mail.outbox
    assert changed.to == ["alice@example.com"]
    assert changed.subject == "[High Society] Your e-mail address was changed"
    assert "is now alice@new.example (it was alice@example.com)" in changed.body


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
    assert "This link has expired, has been used already, or is not valid." in stale
    assert "/accounts/login/" in stale
