"""The staff's address (CONTACT_EMAIL): a suspended player, or one whose account the
staff changed, was told "only the staff can reinstate it" with no way to reach them."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.core.exceptions import ImproperlyConfigured
from django.test import override_settings
from django.urls import reverse

from accounts.suspension import account_suspend
from highsociety_site.env import env_email
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

STAFF = "staff@highsociety.example"


def _footer(client, path: str) -> str:
    return client.get(path).content.decode().split('<footer class="site-footer">')[1]


@override_settings(CONTACT_EMAIL=STAFF)
def test_every_page_names_the_staffs_address_when_there_is_one(client, alice):
    link = f'<a href="mailto:{STAFF}">Write to the staff</a>'
    for path in ("/", "/rules/", "/accounts/login/"):
        assert link in _footer(client, path), path
    client.force_login(alice)
    assert link in _footer(client, "/")


def test_no_address_is_named_when_none_is_set(client, settings, carol):
    settings.CONTACT_EMAIL = ""
    assert "mailto:" not in _footer(client, "/")
    account_suspend(user=carol)
    page = client.post(reverse("account_login"), {"login": "carol", "password": PASSWORD})
    page = client.get(page["Location"]) if page.status_code == 302 else page
    html = page.content.decode()
    assert "This account is suspended" in html
    assert "write to the staff" not in html and "mailto:" not in html


@override_settings(CONTACT_EMAIL=STAFF)
def test_a_suspended_player_learns_where_to_ask_for_the_account_back(client, carol):
    EmailAddress.objects.update_or_create(
        user=carol, email=carol.email, defaults={"verified": True, "primary": True}
    )
    account_suspend(user=carol)
    page = client.post(reverse("account_login"), {"login": "carol", "password": PASSWORD})
    page = client.get(page["Location"]) if page.status_code == 302 else page
    html = page.content.decode()
    assert (
        "To ask why, or to ask for it back, write to the staff: "
        f'<a href="mailto:{STAFF}">{STAFF}</a>'
    ) in html
    mail.outbox.clear()
    client.post(reverse("account_reset_password"), {"email": carol.email})
    (message,) = mail.outbox
    assert f"To ask why, or to ask for it back, write to the staff: {STAFF}" in message.body
    html_part = message.alternatives[0][0]
    assert f'<a href="mailto:{STAFF}"' in html_part


@override_settings(CONTACT_EMAIL=STAFF)
def test_a_change_the_staff_made_names_where_to_ask_about_it(admin_client, alice):
    """The admin's "set a new password" notice (by_staff) names the address; a change
    the player made does not need it."""
    mail.outbox.clear()
    answer = admin_client.post(
        reverse("admin:auth_user_password_change", args=[alice.pk]),
        {"password1": "another long secret 42", "password2": "another long secret 42"},
    )
    assert answer.status_code == 302
    (message,) = [m for m in mail.outbox if alice.email in m.to]
    assert f"Questions about it: {STAFF}" in message.body
    assert f'<a href="mailto:{STAFF}"' in message.alternatives[0][0]


@pytest.mark.parametrize("raw", ["staff", "staff@", "High Society <staff@example.org>"])
def test_a_contact_address_that_is_not_one_stops_the_start(raw):
    with pytest.raises(ImproperlyConfigured, match="CONTACT_EMAIL=.* is not an e-mail address"):
        env_email("CONTACT_EMAIL", environ={"CONTACT_EMAIL": raw})


def test_a_contact_address_is_read_plain():
    assert env_email("CONTACT_EMAIL", environ={"CONTACT_EMAIL": f" {STAFF} "}) == STAFF
    assert env_email("CONTACT_EMAIL", environ={}) == ""
