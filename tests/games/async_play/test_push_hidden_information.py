"""Hidden information never reaches a push notification (docs/architecture.md, "Hidden
information"), by the twin-game technique of tests/security/test_hidden_information.py:
two tables equal in everything the players may see and different in what they may not
(the order of the unrevealed deck) must push byte-identical notifications to every
player, table ids aside.  The pushes are taken as the outbox hands them to the sender
(``games.push.push_deliver``, stubbed here: no push service is contacted)."""

from __future__ import annotations

import json
import os

import pytest

from accounts.management.commands.vapid_keys import vapid_key_pair
from accounts.models import PushSubscription
from games import push
from games.models import Game
from tests.games.async_play.push_service import b64url
from tests.games.pages.conftest import DECK, act, play_passing, table_make
from tests.games.pages.test_hidden_information import TWIN_SCRIPT

pytestmark = [pytest.mark.django_db, pytest.mark.slow]  # twin games through the outbox


@pytest.fixture
def host(alice):
    """Alice hosts (staff, to fix the deck), as in the page tests."""
    alice.is_staff = True
    alice.save(update_fields=["is_staff"])
    return alice


@pytest.fixture
def pushed(settings, monkeypatch):
    """Every push the outbox sends, as (user id, payload), in order."""
    public, private = vapid_key_pair()
    settings.WEBPUSH = {"public_key": public, "private_key": private, "subject": "mailto:a@b.c"}
    settings.PUSH_SERVICE_HOSTS = ["localhost:*"]
    sent: list[tuple[int, dict]] = []

    def deliver(*, subscription_id, payload, now=None):
        user_id = PushSubscription.objects.get(pk=subscription_id).user_id
        sent.append((user_id, payload))
        return "sent"

    monkeypatch.setattr(push, "push_deliver", deliver)
    return sent


def _subscribe(*users):
    for user in users:
        PushSubscription.objects.create(
            user=user,
            endpoint=f"https://localhost/push/{user.username}-{b64url(os.urandom(6))}",
            p256dh=b64url(b"\x04" + os.urandom(64)),
            auth=b64url(os.urandom(16)),
        )


def _normalised(sent: list[tuple[int, dict]], game: Game) -> list[str]:
    text = [f"{user_id} {json.dumps(payload, sort_keys=True)}" for user_id, payload in sent]
    return [
        line.replace(f"/games/{game.pk}/", "/games/N/")
        .replace(f"table {game.pk}", "table N")
        .replace(f"game-{game.pk}", "game-N")
        for line in text
    ]


# The same moves as the board's twin test, so both layers see the same stretch of play.
SCRIPT = TWIN_SCRIPT


def _universe(host, bob, carol, deck, pushed, run_commits, *, to_the_end=False):
    """One twin: a fresh table played by the script (or by passing to the end); the
    pushes it caused, normalised."""
    pushed.clear()
    users = {0: host, 1: bob, 2: carol}
    with run_commits():
        game = table_make(host, [bob, carol], deck=deck)
    if to_the_end:
        with run_commits():
            game = play_passing(game, users)
        assert game.status == Game.Status.FINISHED
    else:
        for seat, action in SCRIPT:
            with run_commits():
                act(game, users[seat], **action)
    return game, _normalised(pushed, game)


def test_twins_differing_in_the_unrevealed_deck_push_the_same(
    host, bob, carol, pushed, run_commits
):
    _subscribe(host, bob, carol)
    tail = DECK[4:]
    one, seen_one = _universe(host, bob, carol, DECK[:4] + tail, pushed, run_commits)
    other, seen_other = _universe(host, bob, carol, DECK[:4] + tail[::-1], pushed, run_commits)
    assert len(seen_one) >= len(SCRIPT)  # every turn was pushed to someone
    assert seen_one == seen_other
    assert one.state["setup_deck"] != other.state["setup_deck"]  # the twins really differ


def test_the_rest_of_the_deck_stays_out_of_the_game_over_push(
    host, bob, carol, pushed, run_commits
):
    _subscribe(host, bob, carol)
    head = ["lux3", "prestige", "lux5", "scandal", "prestige", "lux1", "prestige"]
    rest = list(DECK)
    for card in head:
        rest.remove(card)
    _, seen_one = _universe(host, bob, carol, head + rest, pushed, run_commits, to_the_end=True)
    _, seen_other = _universe(
        host, bob, carol, head + rest[::-1], pushed, run_commits, to_the_end=True
    )
    assert any('"kind": "game_over"' in line for line in seen_one)
    assert seen_one == seen_other
