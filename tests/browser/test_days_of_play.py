"""Issue #14 end to end: two people and a bot play a whole game in Chromium with table
chat, then a rematch in one click; the e-mails go to a file mail folder, which the
test reads as a mail program would."""

from __future__ import annotations

import email
import re
from email import policy
from pathlib import Path

import pytest

from games.engine import LUXURY_VALUE, seats_to_act
from games.models import Game
from tests.browser.players import give_up_card
from tests.browser.test_full_game import wait_for_version

pytestmark = pytest.mark.django_db(transaction=True)


def _mails(folder: Path) -> list[email.message.EmailMessage]:
    """Every message the file backend wrote (each file: messages after a line of dashes)."""
    found = []
    for path in sorted(folder.glob("*.log")):
        for chunk in path.read_bytes().split(b"-" * 79 + b"\n"):
            if chunk.strip():
                found.append(email.message_from_bytes(chunk, policy=policy.default))
    return found


def _text(message) -> str:
    return message.get_body(preferencelist=("plain",)).get_content()


def test_two_people_and_a_bot_over_a_whole_game(
    live_server, new_page, log_in, screenshot, settings, tmp_path, alice, bob
):
    from playwright.sync_api import expect

    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    settings.EMAIL_FILE_PATH = str(tmp_path)
    base = live_server.url
    pages = {"alice": log_in(new_page(), alice), "bob": log_in(new_page(), bob)}

    # Alice opens a table: Bob invited, an easy bot.
    first = pages["alice"]
    first.goto(f"{base}/games/new/")
    first.check("input[name=players][value='3']")
    first.select_option("select[name=seat_2]", "invite")
    first.fill("input[name=invite_2]", "bob")
    first.select_option("select[name=seat_3]", "bot:easy")
    first.click("main form button[type=submit]")
    first.wait_for_url(re.compile(r"/games/\d+/$"))
    game_id = int(re.search(r"/games/(\d+)/", first.url).group(1))

    # Bob's invitation e-mail says who invites and links to the table.
    (invitation,) = [m for m in _mails(tmp_path) if m["To"] == "bob@example.com"]
    assert invitation["Subject"] == f"[High Society] Alice invites you to table {game_id}"
    link = re.search(r"(https?://\S+/games/\d+/)", _text(invitation)).group(1)
    assert link.endswith(f"/games/{game_id}/")
    pages["bob"].goto(f"{base}/games/{game_id}/")
    pages["bob"].click("button[name=accept][value=yes]")

    game = Game.objects.get(pk=game_id)
    assert game.status == Game.Status.ACTIVE
    owners = {s.position: s.user.username for s in game.seats.select_related("user") if s.user_id}
    moves = 0
    while game.status == Game.Status.ACTIVE and moves < 300:
        state = game.engine_state()
        people = [p for p in seats_to_act(state) if p in owners]
        if not people:  # the bot's answer is still on its way
            game = wait_for_version(game_id, game.version)
            continue
        seat = people[0]
        page = pages[owners[seat]]
        page.goto(f"{base}/games/{game_id}/")
        expect(page.locator(".banner--you")).to_be_visible()
        if moves == 2:  # a word at the table, seen by the other on their next look
            page.fill("#chat-text", f"Good luck, from {owners[seat]}!")
            page.click(".chat__form button[type=submit]")
            expect(page.locator(".chat__lines")).to_contain_text("Good luck")
        if state.phase == "theft":
            give_up_card(page.locator("[id^=discard-]").first)
        elif state.card in LUXURY_VALUE and max(state.bids) == 0 and state.hands[seat]:
            smallest = page.locator(".pick__input").first.get_attribute("value")
            page.click(f"label[for=hand-{smallest}]")
            page.click("#bid-button")
        else:
            page.click("#pass-button")
        game = wait_for_version(game_id, game.version)
        moves += 1
    assert game.status == Game.Status.FINISHED

    for page in pages.values():
        page.goto(f"{base}/games/{game_id}/")
        expect(page.locator(".scores__table tbody tr")).to_have_count(3)
        expect(page.locator(".chat__lines")).to_contain_text("Good luck")
    screenshot(pages["bob"], "days-of-play-end")
    # Both watched the end at the board and were at the table on their turns: no turn
    # e-mail and no result e-mail reached them.
    sent = _mails(tmp_path)
    assert [m["Subject"] for m in sent if "Your turn" in m["Subject"]] == []
    assert [m["Subject"] for m in sent if "is over" in m["Subject"]] == []

    # A rematch in one click: the same seats, Bob invited again by e-mail.
    pages["bob"].click(".ending__rematch button")
    rematch = Game.objects.get(rematch_of_id=game_id)
    pages["bob"].wait_for_url(f"{base}/games/{rematch.pk}/")
    again = [m for m in _mails(tmp_path) if m["To"] == "alice@example.com"]
    assert [m["Subject"] for m in again] == [
        f"[High Society] Bob invites you to table {rematch.pk}"
    ]
    assert f"/games/{rematch.pk}/" in _text(again[0])
