"""The signed unsubscribe link (RFC 8058 one-click too) and the profile's settings for
game e-mails and vacations."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from accounts.models import User
from accounts.preferences import unsubscribe_token
from tests.factories import PASSWORD
from tests.games.factories import GameFactory, scenario_deck

pytestmark = pytest.mark.django_db


def _pref(user) -> str:
    return User.objects.get(pk=user.pk).turn_emails


def test_the_emails_link_asks_then_unsubscribes(dora, run_commits):
    with run_commits():
        GameFactory(
            creator=dora, seats=[{"ai": "easy"}] * 2, deck=scenario_deck("lux5"), first_player=0
        )
    link = re.search(r"<(.+)>", mail.outbox[0].extra_headers["List-Unsubscribe"]).group(1)
    path = link.split("8000", 1)[1] if "8000" in link else "/" + link.split("/", 3)[3]
    client = Client(enforce_csrf_checks=True)  # no session, no CSRF cookie: as from a mail
    page = client.get(path)
    assert page.status_code == 200 and b"Stop game e-mails?" in page.content
    assert _pref(dora) == User.TurnEmails.EVERY  # a GET (a link checker) changes nothing
    done = client.post(path)
    assert done.status_code == 200 and b"You are unsubscribed" in done.content
    assert _pref(dora) == User.TurnEmails.NONE


def test_one_click_unsubscribe_from_a_mail_program(dora):
    client = Client(enforce_csrf_checks=True)
    response = client.post(
        f"/accounts/unsubscribe/{unsubscribe_token(dora)}/",
        data="List-Unsubscribe=One-Click",
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 200
    assert _pref(dora) == User.TurnEmails.NONE


@pytest.mark.parametrize("method", ["get", "post"])
def test_a_tampered_link_changes_nothing(dora, bob, method):
    token = unsubscribe_token(dora)
    forged = token.replace(token.split(":")[0], unsubscribe_token(bob).split(":")[0])
    for bad in (token[:-2] + ("AA" if not token.endswith("AA") else "BB"), forged, "nonsense"):
        response = getattr(Client(), method)(f"/accounts/unsubscribe/{bad}/")
        assert response.status_code == 400
        assert b"This unsubscribe link does not work" in response.content
    assert _pref(dora) == _pref(bob) == User.TurnEmails.EVERY


def test_the_profile_sets_game_emails_and_vacations(client, dora):
    client.login(username="dora", password=PASSWORD)
    page = client.get("/accounts/profile/")
    assert b"Game e-mails" in page.content and b"14 of 14 days left this year" in page.content
    response = client.post("/accounts/profile/notifications/", {"turn_emails": "digest"})
    assert response.status_code == 302 and _pref(dora) == User.TurnEmails.DIGEST
    client.post("/accounts/profile/notifications/", {"turn_emails": "sometimes"})
    assert _pref(dora) == User.TurnEmails.DIGEST  # refused
    client.post("/accounts/profile/vacation/", {"action": "start", "days": "3"})
    dora.refresh_from_db()
    assert dora.on_vacation(timezone.now()) and dora.vacation_days_used == 3
    page = client.get("/accounts/profile/")
    assert b"You are on vacation until" in page.content and b"11 of 14 days" in page.content
    refused = client.post(
        "/accounts/profile/vacation/", {"action": "start", "days": "40"}, follow=True
    )
    assert b"You have 11 vacation days left this year; you asked for 40." in refused.content
    client.post("/accounts/profile/vacation/", {"action": "end"})
    dora.refresh_from_db()
    assert dora.vacation_until is None and dora.vacation_days_used == 1  # the day begun


def test_settings_pages_need_a_login_and_a_post(client, dora):
    assert client.post("/accounts/profile/vacation/", {"days": "3"}).status_code == 302
    client.login(username="dora", password=PASSWORD)
    assert client.get("/accounts/profile/vacation/").status_code == 405
    assert User.objects.get(pk=dora.pk).vacation_until is None
