"""The account e-mails' HTML fits a small phone: the long confirmation and reset links
written out under their buttons wrap (a 360 px mail screen scrolled sideways to 389 px
for one)."""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import Client

from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

SMALL_PHONE = {"width": 360, "height": 780}


def _html(message) -> str:
    (html, kind), *_ = message.alternatives
    assert kind == "text/html"
    return html


def test_the_account_emails_fit_a_small_phone(new_page):
    client = Client()
    client.post(
        "/accounts/signup/",
        {
            "username": "a-rather-long-username-indeed",
            "email": "someone.with.a.long.address@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    UserFactory(username="bob", email="bob@example.com")
    client.post("/accounts/password/reset/", {"email": "bob@example.com"})
    messages = [m for m in mail.outbox if m.alternatives]
    assert len(messages) == 2, [m.subject for m in mail.outbox]
    page = new_page(viewport=SMALL_PHONE)
    for message in messages:
        page.set_content(_html(message))
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= SMALL_PHONE["width"], (message.subject, width)
