"""The rematch through the API (``POST /games/{id}/rematch/``): the page's one-click
rematch for clients, and the game views that link the two tables."""

from __future__ import annotations

import random

import pytest

from games.models import Game, Seat
from tests.games.factories import people_game, play_out

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(alice, bob, carol, run_commits):
    with run_commits():
        game = people_game(alice, bob, carol)
    game = play_out(game, random.Random(6), run_commits)
    assert game.status == Game.Status.FINISHED
    return game


def test_a_player_opens_the_rematch_and_a_second_ask_finds_the_same_table(clients, finished):
    url = f"/api/v1/games/{finished.pk}/rematch/"
    before = clients["bob"].get(f"/api/v1/games/{finished.pk}/").json()
    assert before["rematch"] is None and before["rematch_of"] is None

    opened = clients["bob"].post(url)
    assert opened.status_code == 201, opened.json()
    view = opened.json()
    rematch = Game.objects.get(rematch_of=finished)
    assert opened["Location"] == f"/api/v1/games/{rematch.pk}/"
    assert view["id"] == rematch.pk and view["rematch_of"] == finished.pk
    assert view["status"] == "open" and view["your_seat"] == 1
    assert [(s["username"], s["invited"]) for s in view["seats_info"]] == [
        ("alice", True),
        ("bob", False),
        ("carol", True),
    ]

    again = clients["carol"].post(url)
    assert again.status_code == 200 and again.json()["id"] == rematch.pk
    # Asking for it again takes one's invited seat.
    assert again.json()["your_seat"] == 2 and not again.json()["seats_info"][2]["invited"]
    assert again["Location"] == f"/api/v1/games/{rematch.pk}/"
    assert Game.objects.filter(rematch_of=finished).count() == 1
    # The finished game's view names its rematch, for everyone who may see it.
    for who in ("alice", "oscar"):
        assert clients[who].get(f"/api/v1/games/{finished.pk}/").json()["rematch"] == rematch.pk
    # The invited players take their seats as for any invitation; then it starts.
    assert clients["alice"].post(f"/api/v1/games/{rematch.pk}/join/").status_code == 200
    assert Game.objects.get(pk=rematch.pk).status == Game.Status.ACTIVE


def test_refusals_are_readable_and_open_nothing(clients, anon, finished, alice, bob, carol):
    url = f"/api/v1/games/{finished.pk}/rematch/"
    outsider = clients["oscar"].post(url)
    assert outsider.status_code == 403 and outsider.json()["code"] == "not_your_seat"
    assert "Only the players" in outsider.json()["detail"]
    assert anon.post(url).status_code == 401
    assert clients["alice"].post("/api/v1/games/999999/rematch/").status_code == 404
    running = people_game(alice, bob, carol)
    early = clients["alice"].post(f"/api/v1/games/{running.pk}/rematch/")
    assert early.status_code == 409 and early.json()["code"] == "not_allowed"
    assert "not over yet" in early.json()["detail"]
    assert not Game.objects.filter(rematch_of__isnull=False).exists()
    assert not Seat.objects.filter(game__rematch_of__isnull=False).exists()


@pytest.mark.django_db(transaction=True)
def test_against_bots_the_answer_holds_their_opening_moves(alice, monkeypatch):
    """Against bots only the rematch starts at once and the bots before the caller move
    as it commits (no broker: in process); the 201's view is read after them, as the
    new table's own view would be (it showed move 0 with a bot to play)."""
    import secrets

    from games.services import game_create
    from tests.games.api.conftest import token_client
    from tests.games.factories import people_play

    game = game_create(creator=alice, players=3, seats=[{"ai": "random"}, {"ai": "random"}])
    game = people_play(game, random.Random(8))
    assert game.status == Game.Status.FINISHED
    monkeypatch.setattr(secrets.SystemRandom, "randrange", lambda self, n: 1)  # a bot starts
    client = token_client(alice)
    opened = client.post(f"/api/v1/games/{game.pk}/rematch/")
    assert opened.status_code == 201, opened.json()
    view = opened.json()
    stored = Game.objects.get(pk=view["id"])
    assert stored.status == Game.Status.ACTIVE and stored.version >= 1
    assert view["version"] == stored.version
    assert view == client.get(f"/api/v1/games/{stored.pk}/").json()
