"""Presence that matches the promise (issue #14): loading the board, polling it, the
player's own form posts and the API's reads mark the player at the table; a turn
e-mail waits a minute after the turn began (a bot may answer before the page has
loaded), then goes to a player who is away, and never to one at the board."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from games.engine import seats_to_act
from games.models import Game, Notification
from games.notifications import notification_send, seats_online
from tests.games.factories import GameFactory, scenario_deck

pytestmark = pytest.mark.django_db


@pytest.fixture
def grace(settings):
    settings.TURN_EMAIL_GRACE_SECONDS = 60  # as in production
    return timedelta(seconds=60)


def _her_turn(dora, run_commits) -> Game:
    """Dora against two medium bots, her turn first."""
    with run_commits():
        game = GameFactory(
            creator=dora,
            seats=[{"ai": "medium"}, {"ai": "medium"}],
            deck=scenario_deck("lux5 lux3 prestige"),
            first_player=0,
        )
    return Game.objects.get(pk=game.pk)


def _turn_notice(game) -> Notification:
    return Notification.objects.get(
        game=game, kind=Notification.Kind.TURN, turn_started_at=game.turn_started_at
    )


@pytest.mark.parametrize(
    "how", ["the board page", "the board's poll", "the API's game view", "a form post"]
)
def test_each_way_of_looking_at_the_game_marks_the_player_present(how, client, dora, run_commits):
    game = _her_turn(dora, run_commits)
    client.force_login(dora)
    assert seats_online(game_id=game.pk, user_ids=[dora.pk], now=timezone.now()) == set()
    if how == "the board page":
        assert client.get(f"/games/{game.pk}/").status_code == 200
    elif how == "the board's poll":
        assert client.get(f"/games/{game.pk}/board/?version=0").status_code in (200, 204)
    elif how == "the API's game view":
        from rest_framework.test import APIClient

        api = APIClient()
        api.force_authenticate(dora)
        assert api.get(f"/api/v1/games/{game.pk}/").status_code == 200
    else:  # a bid refused by the rules still says she is there
        response = client.post(
            f"/games/{game.pk}/act/", {"version": 0, "type": "bid", "cards": ["99"]}
        )
        assert response.status_code == 400
    assert seats_online(game_id=game.pk, user_ids=[dora.pk], now=timezone.now()) == {dora.pk}


def test_a_turn_email_waits_a_minute_then_reaches_a_player_who_is_away(dora, run_commits, grace):
    game = _her_turn(dora, run_commits)
    notice = _turn_notice(game)
    assert mail.outbox == []  # tried at once, and held back
    assert notice.status == Notification.Status.PENDING
    assert notice.due_at == game.turn_started_at + grace  # when the outbox sweep sends it
    assert "just begun" in notice.note
    later = game.turn_started_at + grace + timedelta(seconds=1)
    assert notification_send(notification_id=notice.pk, now=later) == "sent"
    assert [m.to for m in mail.outbox] == [["dora@example.com"]]


def test_no_turn_email_for_a_player_whose_board_loaded_meanwhile(client, dora, run_commits, grace):
    """A bot answered first and the turn began before her page had loaded: the page
    load marks her at the board, and the e-mail waits on while she is there."""
    game = _her_turn(dora, run_commits)
    client.force_login(dora)
    client.get(f"/games/{game.pk}/")
    notice = _turn_notice(game)
    later = game.turn_started_at + grace + timedelta(seconds=1)
    assert notification_send(notification_id=notice.pk, now=later) == "deferred"
    notice.refresh_from_db()
    assert notice.note == "The player has the game open." and mail.outbox == []


def test_a_players_own_move_through_the_page_marks_her_present(client, dora, run_commits):
    """She bids on the page; the bots answer within the request and it is her turn
    again: no e-mail is owed at all, since she is the one who just moved."""
    game = _her_turn(dora, run_commits)
    mail.outbox.clear()
    client.force_login(dora)
    with run_commits():
        response = client.post(
            f"/games/{game.pk}/act/", {"version": 0, "type": "bid", "cards": ["3000"]}
        )
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.version > 1 and 0 in seats_to_act(game.engine_state())  # her turn again
    assert mail.outbox == []
    assert not Notification.objects.filter(
        game=game, kind=Notification.Kind.TURN, turn_started_at=game.turn_started_at
    ).exists()


def test_a_player_on_vacation_gets_the_turn_email_when_back(dora, run_commits, grace):
    """Eve went on vacation and still got "Your turn" e-mails (and the digest), each
    saying she was on vacation: her deadlines waited, her mailbox did not.  A turn's
    e-mail (and push) now waits for the vacation's end, and goes then if the turn is
    still hers; coming back early sends it at once; the digest skips her days away."""
    from games.services import vacation_end, vacation_start

    game = _her_turn(dora, run_commits)
    now = timezone.now()
    dora = vacation_start(user=dora, days=3, now=now)
    notice = _turn_notice(game)
    later = game.turn_started_at + grace + timedelta(seconds=1)
    assert notification_send(notification_id=notice.pk, now=later) == "deferred"
    notice.refresh_from_db()
    assert notice.due_at == dora.vacation_until and mail.outbox == []
    assert "vacation" in notice.note
    back = later + timedelta(hours=2)
    vacation_end(user=dora, now=back)
    notice.refresh_from_db()
    assert notice.due_at <= back
    assert notification_send(notification_id=notice.pk, now=back) == "sent"
    assert [m.to for m in mail.outbox] == [["dora@example.com"]]


def test_no_digest_while_on_vacation(dora, run_commits):
    from games.notifications import digests_sweep
    from games.services import vacation_start

    _her_turn(dora, run_commits)
    type(dora).objects.filter(pk=dora.pk).update(turn_emails=type(dora).TurnEmails.DIGEST)
    dora.refresh_from_db()
    now = timezone.now().replace(hour=12)
    vacation_start(user=dora, days=2, now=now - timedelta(hours=1))
    mail.outbox.clear()
    digests_sweep(now=now)
    digest = Notification.objects.get(user=dora, kind=Notification.Kind.DIGEST)
    notification_send(notification_id=digest.pk, now=now + timedelta(minutes=5))
    digest.refresh_from_db()
    assert digest.status == Notification.Status.SKIPPED
    assert "vacation" in digest.note and mail.outbox == []
