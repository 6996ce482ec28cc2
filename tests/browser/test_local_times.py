"""Times the board rewrites in the reader's zone keep the server's way of writing them:
day before month, a 24-hour clock, the deadline with its year (the browser's American
default for English wrote "Sat, Nov 28, 06:03 AM" where the page had said
"Sat 28 Nov 2026, 06:03")."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


def _deadline_rewritten(live_server, page, log_in, alice):
    """The deadline of Alice's table with a day to move, once the board's script has
    rewritten it (its title is then set)."""
    from games.services import game_create

    game = game_create(
        creator=alice, players=3, seats=[{"ai": "easy"}, {"ai": "easy"}], move_deadline_hours=24
    )
    page = log_in(page, alice)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    return _rewritten(page, ".banner__deadline time")


def _rewritten(page, selector: str):
    """The ``<time>`` at ``selector`` once the board's script has rewritten it (its
    title is then set)."""
    moment = page.locator(selector)
    moment.wait_for()
    for _ in range(50):
        if moment.get_attribute("title"):
            break
        page.wait_for_timeout(100)
    return moment


def test_the_deadline_reads_as_the_server_writes_it(live_server, new_page, log_in, alice):
    type(alice).objects.filter(pk=alice.pk).update(time_zone="Europe/Berlin")
    deadline = _deadline_rewritten(live_server, new_page(), log_in, alice)
    text = deadline.inner_text()
    assert re.fullmatch(
        r"\((Mon|Tue|Wed|Thu|Fri|Sat|Sun),? \d{1,2} \w{3} \d{4}, \d{2}:\d{2} \S+\)", text
    ), text
    assert "AM" not in text and "PM" not in text


@pytest.mark.parametrize(
    ("chosen", "browser_zone", "language", "offset"),
    [
        ("Asia/Kolkata", None, "de", "UTC+5:30"),
        ("", "America/Sao_Paulo", "fr", "UTC\u22123"),
        ("", "UTC", "en", "UTC"),
    ],
)
def test_the_deadline_marks_its_zone_as_the_e_mails_do(
    live_server, new_page, log_in, alice, chosen, browser_zone, language, offset
):
    """The board wrote the browser's abbreviation ("GMT-3", "MEZ") where the e-mails
    and the server's own text write the offset ("UTC−3", "UTC+1"), the same in every
    language: the two read as different times."""
    type(alice).objects.filter(pk=alice.pk).update(time_zone=chosen, language=language)
    page = new_page(timezone_id=browser_zone)
    text = _deadline_rewritten(live_server, page, log_in, alice).inner_text()
    assert text.endswith(f" {offset})"), text


def test_a_zone_the_page_cannot_use_stops_no_script(live_server, new_page, log_in, alice):
    """A stored zone this server does not know (chosen long ago, or newer than the
    browser's data) is not handed to the page's script, and a zone the browser refuses
    would leave the server's text in place: the board's script runs on either way."""
    from games.services import game_create

    type(alice).objects.filter(pk=alice.pk).update(time_zone="Mars/Olympus")
    game = game_create(
        creator=alice, players=3, seats=[{"ai": "easy"}, {"ai": "easy"}], move_deadline_hours=24
    )
    page = log_in(new_page(), alice)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live_server.url}/games/{game.pk}/")
    assert page.evaluate("() => document.body.dataset.timeZone") is None
    # A zone the browser refuses, written into the page as an old browser would meet it.
    page.evaluate("() => { document.body.dataset.timeZone = 'Mars/Olympus'; }")
    page.evaluate("() => document.dispatchEvent(new CustomEvent('htmx:afterSettle', {detail: {}}))")
    page.wait_for_timeout(300)
    assert errors == []
    assert page.locator(".banner__deadline time").inner_text().startswith("(")


def test_the_exact_moment_in_a_times_tooltip_is_in_the_pages_language(
    live_server, new_page, log_in, alice
):
    """The tooltip of each time (the deadline, the log's, the chat's) gave the exact
    moment in the browser's English ("Sun, 29 Nov 2026 22:37:29 GMT") on a French page."""
    type(alice).objects.filter(pk=alice.pk).update(language="fr")
    title = _deadline_rewritten(live_server, new_page(), log_in, alice).get_attribute("title")
    assert re.match(r"(lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche) \d{1,2} ", title), title
    assert "UTC" in title and "GMT" not in title


def test_the_end_of_a_chat_bar_reads_in_the_browsers_zone(live_server, new_page, log_in, alice):
    """The note of a moderator's bar wrote its end in UTC for a player without a zone
    chosen, while every other time of the board was in the browser's own zone."""
    from datetime import UTC, datetime

    from games.services import game_create

    until = datetime(2031, 3, 4, 12, 0, tzinfo=UTC)
    type(alice).objects.filter(pk=alice.pk).update(chat_barred_until=until)
    game = game_create(creator=alice, players=3, seats=[{"ai": "easy"}, {"ai": "easy"}])
    page = log_in(new_page(timezone_id="Asia/Tokyo"), alice)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    moment = _rewritten(page, "#chat-barred time")
    assert moment.get_attribute("datetime") == until.isoformat()
    assert moment.inner_text() == "Tue, 4 Mar 2031, 21:00 UTC+9"
    assert (
        page.locator("#chat-barred")
        .inner_text()
        .startswith(
            "A moderator has barred you from writing in the table chats until Tue, 4 Mar 2031, 21:00 UTC+9."
        )
    )
