"""A turn e-mail never reaches a player who is at the board (issue #14), in a real
browser: a bot answers first, so the turn begins before the page has loaded; the page
load and its polls keep the e-mail back; once she has left, it goes out."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail

from games.models import Game, Notification
from games.notifications import notification_send
from tests.games.pages.conftest import table_make

pytestmark = pytest.mark.django_db(transaction=True)


def _turn_notice(game: Game) -> Notification | None:
    return Notification.objects.filter(
        game=game, kind=Notification.Kind.TURN, turn_started_at=game.turn_started_at
    ).first()


def test_no_turn_email_while_the_board_is_open(live_server, new_page, log_in, alice, settings):
    from playwright.sync_api import expect

    settings.TURN_EMAIL_GRACE_SECONDS = 60  # as in production
    alice.is_staff = True  # a staff table: the deck and the first player are set
    alice.save(update_fields=["is_staff"])
    game = table_make(alice, [], bots=("medium", "medium"), first_player=1)
    assert game.version >= 1  # the bots answered first: her turn began already
    page = log_in(new_page(), alice)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator(".banner")).to_contain_text("Your turn")

    notice = _turn_notice(game)
    assert notice is not None and notice.status == Notification.Status.PENDING
    a_minute_on = game.turn_started_at + timedelta(seconds=61)
    assert notification_send(notification_id=notice.pk, now=a_minute_on) == "deferred"
    notice.refresh_from_db()
    assert notice.note == "The player has the game open."

    # She bids; the bots answer at once; her turn again, and she is there.
    page.click("label[for=hand-3000]")
    page.click("#bid-button")
    expect(page.locator(".log")).to_contain_text("Alice bids 3,000")
    game = Game.objects.get(pk=game.pk)
    page.wait_for_timeout(3500)  # a poll
    later = _turn_notice(game)
    if later is not None:  # owed only if she had not been seen (she had)
        moment = game.turn_started_at + timedelta(seconds=61)
        assert notification_send(notification_id=later.pk, now=moment) == "deferred"
    assert mail.outbox == []

    # She closes the page; once her last mark is old, the e-mail goes out.
    page.close()
    game = Game.objects.get(pk=game.pk)
    from games.notifications import missed_turns_sweep

    gone = game.turn_started_at + timedelta(minutes=5)
    missed_turns_sweep(now=gone, stalled_after=timedelta(minutes=2))
    notice = _turn_notice(game)
    assert notice is not None
    if notice.status == Notification.Status.PENDING:
        assert notification_send(notification_id=notice.pk, now=gone) == "sent"
    assert [m.to for m in mail.outbox] == [[alice.email]]
