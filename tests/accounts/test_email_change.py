"""Changing the e-mail address: the new one replaces the old once verified."""

import re

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_change_email_takes_effect_after_verification(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("account_email"), {"action_add": "", "email": "alice@new.example"}
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"  # not yet

    message = next(m for m in mail.outbox if m.to == ["alice@new.example"])
    # A change, not a sign-up: no welcome, no "if you did not sign up".
    assert message.subject == "[High Society] Confirm your e-mail address"
    assert "please confirm that this e-mail address belongs to your High Society" in message.body
    assert "Welcome" not in message.body and "sign up" not in message.body
    assert "Welcome" not in message.alternatives[0][0]
    link = re.search(r"https?://testserver(/accounts/confirm-email/\S+/)", message.body).group(1)
    assert client.post(link).status_code == 302

    alice.refresh_from_db()
    assert alice.email == "alice@new.example"
    addresses = EmailAddress.objects.filter(user=alice)
    assert [(a.email, a.verified, a.primary) for a in addresses] == [
        ("alice@new.example", True, True)
    ]


def test_email_page_uses_the_site_layout(client, alice):
    client.force_login(alice)
    html = client.get(reverse("account_email")).content.decode()
    assert 'class="site-nav"' in html
    assert 'aria-label="Account settings"' in html
    assert "alice@example.com" in html
