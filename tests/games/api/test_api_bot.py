"""examples/api_bot.py, a third-party client, plays a whole game against a live server."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from games.models import Game, Move
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.embedded


BOT = Path(__file__).resolve().parents[3] / "examples" / "api_bot.py"


@pytest.mark.django_db(transaction=True)
def test_api_bot_plays_a_game_against_two_server_bots(live_server):
    UserFactory(username="robot")
    run = subprocess.run(
        [
            sys.executable,
            str(BOT),
            "--url",
            live_server.url,
            "--username",
            "robot",
            "--password",
            PASSWORD,
            "--bots",
            "easy,random",
            "--poll",
            "0.05",
            "--timeout",
            "240",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "is over" in run.stdout and "<- this bot" in run.stdout
    assert " on None" not in run.stdout  # each move says what it was about (Theft's choice too)
    game = Game.objects.get()
    assert game.status == Game.Status.FINISHED and game.result is not None
    assert Move.objects.filter(game=game, user__username="robot", actor="player").exists()
    assert Move.objects.filter(game=game, actor="bot").exists()
    # The bot signed out: its token is revoked.
    assert not game.created_by.api_tokens.exists()


def test_cheapest_bid():
    sys.path.insert(0, str(BOT.parent))
    try:
        from api_bot import cheapest_bid, decide
    finally:
        sys.path.pop(0)
    assert cheapest_bid([1000, 2000, 3000, 25000], 3500) == [1000, 3000]
    assert cheapest_bid([1000, 2000], 5000) is None
    legal = {
        "types": ["bid", "pass"],
        "hand": [1000, 2000, 3000, 4000, 6000, 8000, 10000, 12000, 15000, 20000, 25000],
        "to_beat": 4000,
        "current_bid": 1000,
        "discard_choices": [],
        "sealed_choices": [],
    }
    assert decide({"legal_actions": legal, "auction": "normal", "card": "lux7"}) == {
        "type": "bid",
        "cards": [4000],
    }
    assert decide({"legal_actions": legal, "auction": "misfortune", "card": "debt"}) == {
        "type": "pass"
    }
