"""The signed unsubscribe link (RFC 8058 one-click too) and the profile's settings for
game e-mails and vacations."""

from __future__ import annotations

import re
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from accounts.models import User
from accounts.preferences import unsubscribe_token
from games import presenter
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
    assert page.status_code == 200 and b"Stop these e-mails?" in page.content
    # It asks: it does not read as done before the button ("will get no more" did).
    assert "Unsubscribing stops one kind of game e-mail to Dora: “Your turn”." in (
        page.content.decode()
    )
    assert _pref(dora) == User.TurnEmails.EVERY  # a GET (a link checker) changes nothing
    done = client.post(path)
    assert done.status_code == 200 and b"You are unsubscribed" in done.content
    dora.refresh_from_db()
    assert dora.emails_off == ["turn"]  # the link of a turn e-mail stops turn e-mails


@pytest.mark.parametrize(
    ("language", "question"),
    [("de", "Spiel-E-Mails abbestellen?"), ("fr", "Ne plus recevoir d’e-mails de partie")],
)
def test_the_unsubscribe_page_speaks_the_recipients_language(dora, language, question):
    """The link of a German e-mail, opened in a mail program's browser (no session, an
    English browser), asked in English."""
    User.objects.filter(pk=dora.pk).update(language=language)
    page = Client().get(
        f"/accounts/unsubscribe/{unsubscribe_token(dora)}/", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert page.status_code == 200 and question in page.content.decode()
    assert f'lang="{language}"' in page.content.decode()
    # A language picked in this browser (the header's switch) wins.
    client = Client()
    client.cookies["hs_language"] = "en"
    picked = client.get(f"/accounts/unsubscribe/{unsubscribe_token(dora)}/")
    assert "Stop game e-mails?" in picked.content.decode()


def test_one_click_unsubscribe_from_a_mail_program(dora):
    client = Client(enforce_csrf_checks=True)
    response = client.post(
        f"/accounts/unsubscribe/{unsubscribe_token(dora)}/",
        data="List-Unsubscribe=One-Click",
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 200
    assert _pref(dora) == User.TurnEmails.NONE


def test_a_link_opened_logged_in_as_someone_else_says_whose_e_mails_it_changes(dora, bob):
    """Bob opened Dora's link: it asked nothing of whose account it was, and the page
    after read "You can change this on your profile page", linking to Bob's."""
    client = Client()
    client.force_login(bob)
    path = f"/accounts/unsubscribe/{unsubscribe_token(dora)}/"
    page = client.get(path).content.decode()
    assert "You are logged in as Bob: this link changes the e-mails of Dora, not yours." in page
    done = client.post(path).content.decode()
    assert "It was sent to Dora, not to you (Bob): your own e-mails are unchanged" in done
    assert "on your <a" not in done
    assert _pref(dora) == User.TurnEmails.NONE and _pref(bob) == User.TurnEmails.EVERY
    client.force_login(dora)  # her own link, logged in as herself: no such words
    assert "You are logged in as" not in client.get(path).content.decode()


def test_an_unsubscribe_can_be_undone_and_is_not_asked_again(dora, monkeypatch):
    """The page after the button had no way back, and the link opened again asked the
    same question as if nothing had happened.  The way back is that page's only: the
    link, in every e-mail's headers, switches nothing on."""
    client = Client(enforce_csrf_checks=True)
    User.objects.filter(pk=dora.pk).update(turn_emails=User.TurnEmails.DIGEST)
    every = f"/accounts/unsubscribe/{unsubscribe_token(dora)}/"
    done = client.post(every).content.decode()
    assert "Subscribe again" in done and _pref(dora) == User.TurnEmails.NONE
    undo = re.search(r'name="undo" value="([^"]+)"', done).group(1)
    again = client.get(every).content.decode()
    assert "You are already unsubscribed" in again and "Stop game e-mails?" not in again
    assert "Subscribe again" not in again  # the link alone is no way back
    assert "They can be switched on again on the profile page." in again
    # Without the page's own undo, or with a forged or another kind's one: nothing.
    for forged in ("", "x", undo[:-2] + "AA"):
        refused = client.post(every, {"action": "resubscribe", "undo": forged})
        assert refused.status_code == 400 and b"has expired" in refused.content
    one = f"/accounts/unsubscribe/{unsubscribe_token(dora, 'reminder')}/"
    assert client.post(one, {"action": "resubscribe", "undo": undo}).status_code == 400
    assert _pref(dora) == User.TurnEmails.NONE
    back = client.post(every, {"action": "resubscribe", "undo": undo}).content.decode()
    assert "Dora gets game e-mails again" in back
    assert _pref(dora) == User.TurnEmails.DIGEST  # the choice made before, not every turn
    # Past its hour, the way back has gone.
    undo = re.search(r'name="undo" value="([^"]+)"', client.post(every).content.decode())
    monkeypatch.setattr("accounts.preferences.UNDO_SECONDS", -1)
    late = client.post(every, {"action": "resubscribe", "undo": undo.group(1)})
    assert late.status_code == 400 and _pref(dora) == User.TurnEmails.NONE
    monkeypatch.undo()
    # One kind: its way back switches that kind on, and says when all are off anyway.
    done = client.post(one).content.decode()
    dora.refresh_from_db()
    assert dora.emails_off == ["reminder"]
    again = client.get(one).content.decode()
    assert (
        "You are already unsubscribed" in again
        and "“Reminders before a deadline or a hand-over”" in again
    )
    undo = re.search(r'name="undo" value="([^"]+)"', done).group(1)
    back = client.post(one, {"action": "resubscribe", "undo": undo}).content.decode()
    assert (
        "“Reminders before a deadline or a hand-over” is switched on again, but every game e-mail to Dora is"
        " switched off on the profile page." in back
    )
    dora.refresh_from_db()
    assert dora.emails_off == []


def test_unsubscribing_from_the_digest_says_it_is_how_turns_are_told(dora):
    """In digest mode the digest is the only e-mail that says it is your turn: its link
    stopped all turn notices without a word."""
    User.objects.filter(pk=dora.pk).update(turn_emails=User.TurnEmails.DIGEST)
    path = f"/accounts/unsubscribe/{unsubscribe_token(dora, 'digest')}/"
    warning = (
        "The daily digest is how Dora hears of turns waiting: without it, only a table with"
        " deadlines e-mails, when one draws near or passes. An e-mail at each turn can be"
        " chosen instead on the profile page."
    )
    assert warning in Client().get(path).content.decode()
    assert warning in Client().post(path).content.decode()
    assert warning in Client().get(path).content.decode()  # already unsubscribed
    User.objects.filter(pk=dora.pk).update(turn_emails=User.TurnEmails.EVERY, emails_off=[])
    assert warning not in Client().get(path).content.decode()


def test_the_link_of_an_account_closed_since_says_there_is_nothing_to_stop(dora):
    from accounts.deletion import account_delete

    path = f"/accounts/unsubscribe/{unsubscribe_token(dora)}/"
    account_delete(user=dora)
    for answer in (Client().get(path), Client().post(path)):
        assert answer.status_code == 200
        html = answer.content.decode()
        assert "Nothing to unsubscribe" in html and "incomplete or has been changed" not in html


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
    assert not dora.on_vacation(timezone.now()) and dora.vacation_days_used == 1  # the day begun


def test_a_vacation_form_sent_twice_adds_its_days_once(client, dora):
    """A double-click on "Start my vacation" sends the form twice: the second finds the
    vacation changed since its page was shown, adds nothing, and says so; a form from
    the page as it is now lengthens the vacation."""
    client.force_login(dora)
    page = client.get("/accounts/profile/").content.decode()
    seen = page.split('name="seen" value="')[1].split('"')[0]
    assert seen == "none"
    form = {"action": "start", "days": "3", "seen": seen}
    client.post("/accounts/profile/vacation/", form)
    again = client.post("/accounts/profile/vacation/", form, follow=True).content.decode()
    assert "Nothing was added: your vacation changed after this page was shown" in again
    dora.refresh_from_db()
    assert dora.vacation_days_used == 3
    seen = again.split('name="seen" value="')[1].split('"')[0]
    assert seen == dora.vacation_until.isoformat()
    client.post("/accounts/profile/vacation/", {**form, "days": "2", "seen": seen})
    dora.refresh_from_db()
    assert dora.vacation_days_used == 5


def test_lengthening_a_vacation_that_has_ended_says_so(client, dora):
    """The page was shown during the vacation, which then ended: "Lengthen" said "your
    vacation changed (was the form sent twice?)", over nothing sent twice."""
    client.force_login(dora)
    client.post("/accounts/profile/vacation/", {"action": "start", "days": "2", "seen": "none"})
    page = client.get("/accounts/profile/").content.decode()
    seen = page.split('name="seen" value="')[1].split('"')[0]
    client.post("/accounts/profile/vacation/", {"action": "end"})
    again = client.post(
        "/accounts/profile/vacation/",
        {"action": "start", "days": "3", "seen": seen},
        follow=True,
    ).content.decode()
    assert "Nothing was added: your vacation ended after this page was shown." in again
    assert "sent twice" not in again
    dora.refresh_from_db()
    assert not dora.on_vacation(timezone.now())


def test_settings_pages_need_a_login_and_a_post(client, dora):
    assert client.post("/accounts/profile/vacation/", {"days": "3"}).status_code == 302
    client.login(username="dora", password=PASSWORD)
    assert client.get("/accounts/profile/vacation/").status_code == 405
    assert User.objects.get(pk=dora.pk).vacation_until is None


def test_each_emails_link_stops_its_own_kind_only(client, dora, run_commits):
    """The turn e-mail's one-click link (and its List-Unsubscribe header) stops turn
    e-mails; reminders, invitations and results still come; the footer's second link
    stops them all."""
    import re

    from django.core import mail

    from games.models import Notification
    from tests.games.factories import GameFactory, scenario_deck

    with run_commits():
        game = GameFactory(
            creator=dora,
            seats=[{"ai": "medium"}, {"ai": "medium"}],
            deck=scenario_deck("lux5 lux3"),
            first_player=0,
        )
    (message,) = mail.outbox
    one_kind = re.search(r"<(.+)>", message.extra_headers["List-Unsubscribe"]).group(1)
    assert "Stop these e-mails (your turn) with one click: " + one_kind in message.body
    every_kind = re.search(r"Stop all game e-mails: (\S+)", message.body).group(1)
    assert one_kind != every_kind
    page = client.get(one_kind.split("127.0.0.1:8000", 1)[-1])
    assert "Stop these e-mails?" in page.content.decode()
    client.post(one_kind.split("127.0.0.1:8000", 1)[-1])
    dora.refresh_from_db()
    assert dora.emails_off == ["turn"] and dora.turn_emails == "every"
    # Her next turn: no e-mail (the row says why); a reminder would still come.
    from games.notifications import notification_send, turn_notices_create

    Notification.objects.all().delete()
    mail.outbox.clear()
    from games.notifications import turn_key

    ids = turn_notices_create(game_id=game.pk, turn=turn_key(game.turn_started_at))
    notice = Notification.objects.get(pk=ids[0])
    assert notice.status == Notification.Status.SKIPPED
    assert notice.note == "The player switched these e-mails off."
    assert notification_send(notification_id=notice.pk) == "busy"
    client.post(every_kind.split("127.0.0.1:8000", 1)[-1])
    dora.refresh_from_db()
    assert dora.turn_emails == "none"


def test_the_profile_switches_kinds_on_and_off(client, dora):
    client.force_login(dora)
    page = client.get("/accounts/profile/").content.decode()
    assert page.count('name="emails_on"') == 9
    client.post(
        "/accounts/profile/notifications/",
        {"turn_emails": "every", "emails_on": ["turn", "invitation", "game_over"]},
    )
    dora.refresh_from_db()
    assert dora.emails_off == [
        "reminder",
        "deadline",
        "digest",
        "declined",
        "handed_over",
        "closed",
    ]
    bad = client.post(
        "/accounts/profile/notifications/", {"turn_emails": "every", "emails_on": ["spam"]}
    )
    assert bad.status_code == 302
    dora.refresh_from_db()
    assert dora.emails_off == [
        "turn",
        "reminder",
        "deadline",
        "digest",
        "invitation",
        "declined",
        "game_over",
        "handed_over",
        "closed",
    ]


def _dora_against_bots(dora, run_commits, *, first_player):
    """Dora against two medium bots, a day per move, Luxury 5 up."""
    from tests.games.factories import GameFactory, scenario_deck

    with run_commits():
        return GameFactory(
            creator=dora,
            seats=[{"ai": "medium"}, {"ai": "medium"}],
            deck=scenario_deck("lux5 lux3"),
            first_player=first_player,
            move_deadline_hours=24,
        )


def test_a_chosen_time_zone_for_the_board_and_the_emails(client, dora, run_commits):
    """Empty: the browser's own on the pages, UTC in e-mails.  Chosen on the profile:
    the board's times are shown in it and e-mails give deadlines in it."""
    from django.core import mail

    client.force_login(dora)
    profile = client.get("/accounts/profile/").content.decode()
    assert "data-time-zone" not in profile
    assert "The daily digest comes once a day, from 07:00 UTC; chosen later in the day" in profile
    bad = client.post("/accounts/profile/time-zone/", {"time_zone": "Mars/Olympus"}, follow=True)
    assert "Choose a time zone from the list." in bad.content.decode()
    client.post("/accounts/profile/time-zone/", {"time_zone": "Europe/Berlin"})
    dora.refresh_from_db()
    assert dora.time_zone == "Europe/Berlin"
    profile = client.get("/accounts/profile/").content.decode()
    assert "The daily digest comes once a day, from 07:00, Europe/Berlin time; chosen" in profile
    game = _dora_against_bots(dora, run_commits, first_player=0)
    assert 'data-time-zone="Europe/Berlin"' in client.get(f"/games/{game.pk}/").content.decode()
    (message,) = mail.outbox
    # The time in Berlin, marked by its offset (the zone's name, "Europe/Berlin", is not
    # what a reader writes, and in brackets inside the due time's brackets it nested).
    due = message.body.split("Your move is due")[-1].split("\n")[0]
    offset = "UTC+2" if game.deadline_at.astimezone(ZoneInfo("Europe/Berlin")).dst() else "UTC+1"
    assert due.endswith(f" {offset}).") and "Europe/Berlin" not in message.body


def test_without_javascript_the_board_writes_times_in_the_chosen_zone(client, dora, run_commits):
    """A page drawn by the server (read without JavaScript) writes the log's, the chat's
    and the deadline's times in the zone chosen on the profile, marked by its offset;
    without a choice, in UTC, marked so.  It holds from the log-in on, on any device."""
    from games.chat import chat_post

    game = _dora_against_bots(dora, run_commits, first_player=1)
    chat_post(game=game, user=dora, text="hello")
    client.force_login(dora)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert 'class="log__time"' in html and " UTC</time>" in html and "UTC+" not in html
    client.post("/accounts/profile/time-zone/", {"time_zone": "Asia/Kolkata"})
    html = client.get(f"/games/{game.pk}/").content.decode()
    game.refresh_from_db()
    local = game.deadline_at.astimezone(ZoneInfo("Asia/Kolkata"))
    assert f"{local:%H:%M} UTC+5:30" in html  # the deadline, in India's time
    assert html.count(" UTC+5:30</time>") >= 2 and " UTC</time>" not in html  # log, chat
    # The machine-readable time stays the same instant, its offset written out.
    assert f'datetime="{local:%Y-%m-%dT%H:%M:%S}' in html
    assert '+05:30" data-local="deadline">' in html
    client.logout()  # a new log-in, as on another device, brings the zone back
    dora.refresh_from_db()
    client.force_login(dora)
    assert " UTC+5:30</time>" in client.get(f"/games/{game.pk}/").content.decode()
    # Changed in another browser: the board's poll (htmx, which reads no account)
    # goes on in the zone this page was drawn in; the next page drawn whole takes the
    # new one, here as on the other device, and hands it to the page's script.
    other = Client()
    other.force_login(dora)
    other.post("/accounts/profile/time-zone/", {"time_zone": "America/Sao_Paulo"})
    poll = client.get(f"/games/{game.pk}/board/", headers={"HX-Request": "true"})
    assert " UTC+5:30</time>" in poll.content.decode()
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert 'data-time-zone="America/Sao_Paulo"' in html
    assert " UTC\u22123</time>" in html and " UTC+5:30</time>" not in html  # a minus sign
    other.post("/accounts/profile/time-zone/", {"time_zone": ""})  # back to the browser's
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert "data-time-zone" not in html and " UTC</time>" in html


def test_the_time_zone_list_has_current_names_only(client, dora):
    """One name per zone, today's: old aliases (US/Eastern, Asia/Calcutta, Etc/GMT+5)
    doubled the list.  A zone chosen before they left stays chosen until changed."""
    client.force_login(dora)
    html = client.get("/accounts/profile/").content.decode()
    for zone in ("UTC", "Asia/Kolkata", "Europe/Kyiv", "America/New_York"):
        assert f'<option value="{zone}"' in html
    for alias in ("US/Eastern", "Asia/Calcutta", "Europe/Kiev", "Etc/GMT+5"):
        assert f'<option value="{alias}"' not in html
    refused = client.post("/accounts/profile/time-zone/", {"time_zone": "US/Eastern"}, follow=True)
    assert "Choose a time zone from the list." in refused.content.decode()
    dora.refresh_from_db()
    assert dora.time_zone == ""
    type(dora).objects.filter(pk=dora.pk).update(time_zone="US/Eastern")  # chosen long ago
    html = client.get("/accounts/profile/").content.decode()
    assert '<option value="US/Eastern" selected>' in html
    client.post("/accounts/profile/time-zone/", {"time_zone": "US/Eastern"})
    dora.refresh_from_db()
    assert dora.time_zone == "US/Eastern"


def test_a_vacation_says_its_end_with_the_offset_the_board_uses(client, dora):
    """The vacation's message and the profile wrote "CET" (English, and unlike the
    board's and the e-mails' "UTC+1", in every language)."""
    from django.urls import reverse

    client.force_login(dora)
    client.post(reverse("time_zone_update"), {"time_zone": "Europe/Paris"})
    answer = client.post(
        "/accounts/profile/vacation/", {"action": "start", "days": "3"}, follow=True
    )
    text = answer.content.decode()
    assert "your deadlines wait until" in text
    dora.refresh_from_db()
    paris = dora.vacation_until.astimezone(ZoneInfo("Europe/Paris"))
    offset = presenter.utc_offset_text(paris)  # UTC+1 in winter, UTC+2 in summer
    assert text.count(f"{paris:%H:%M} {offset}") >= 2  # the message and the profile's line
    assert "CET" not in text and "CEST" not in text
