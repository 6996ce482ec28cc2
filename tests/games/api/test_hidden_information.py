"""Hidden information never leaves through the API (docs/rules.md, "What each player may
see"; docs/architecture.md, "Hidden information").

The strongest check: two games that are the same in everything a viewer may see but
differ in what they may not (the order of the unrevealed deck; another player's sealed
Yacht Club choice).  Played with the same moves, every API answer to every viewer must
be byte-identical (ids and timestamps normalised) until the difference is revealed.
Every answer is also scanned: no card code that has not been revealed, no name of a
secret field.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from games.engine import deck_cards
from tests.games.api.conftest import create
from tests.moves import view_choose as choose

pytestmark = pytest.mark.slow  # twin games that differ only in hidden things


ADVANCED = ["gambling", "excursions", "yacht"]
PLAYERS = ("dora", "bob", "carol")  # seats 0, 1, 2
VIEWERS = ("dora", "bob", "carol", "oscar")  # oscar has no seat: the spectator
CARD_CODES = set(deck_cards(tuple(ADVANCED)))
# (A finished game's "ending" may say in words that it was "a scenario game", as the end
# screen does: what must never show is the scenario's fields.)
SECRET_WORDS = ("setup_deck", "deck_pos", '"scenario_', "seed", '"sealed":[')
TIMESTAMP = re.compile(r'"\d{4}-\d\d-\d\dT[0-9:.]+(Z|[+-]\d\d:\d\d)?"')


def _table(clients, deck: list[str], first_player: int) -> int:
    view = create(
        clients["dora"],
        players=3,
        seats=[{"user": "bob"}, {"user": "carol"}],
        advanced=ADVANCED,
        deck=deck,
        first_player=first_player,
    )
    for name in ("bob", "carol"):
        assert clients[name].post(f"/api/v1/games/{view['id']}/join/").status_code == 200
    return view["id"]


def _normal(response, game_id: int) -> str:
    text = response.content.decode()
    text = TIMESTAMP.sub('"<time>"', text)
    return text.replace(f'"id":{game_id},', '"id":0,').replace(f'"game":{game_id},', '"game":0,')


def _codes(data: Any, skip=("game_end_cards", "advanced")) -> set[str]:
    """Card codes anywhere in a JSON answer, except the table's public lists of game-end
    cards and of advanced cards in play."""
    if isinstance(data, dict):
        return set().union(*(_codes(v) for k, v in data.items() if k not in skip), set())
    if isinstance(data, list):
        return set().union(*(_codes(v) for v in data), set())
    return {data} if isinstance(data, str) and data in CARD_CODES else set()


def _scan(response, revealed: list[str]) -> None:
    text = response.content.decode()
    for word in SECRET_WORDS:
        assert word not in text, word
    assert _codes(json.loads(text)) <= set(revealed), set(_codes(json.loads(text))) - set(revealed)


def _answers(clients, game_id: int, skip: tuple[str, ...] = ()) -> tuple[dict[str, str], list[str]]:
    """Every viewer's view and move log of the game, normalised; and the cards revealed."""
    answers, raw = {}, []
    for name in VIEWERS:
        if name in skip:
            continue
        for path in ("", "moves/"):
            response = clients[name].get(f"/api/v1/games/{game_id}/{path}")
            assert response.status_code == 200
            answers[f"{name} {path}"] = _normal(response, game_id)
            raw.append(response)
    revealed = clients["oscar"].get(f"/api/v1/games/{game_id}/").json()["revealed"]
    for response in raw:
        _scan(response, revealed)
    return answers, revealed


def _deck_pair(seed: int) -> tuple[list[str], list[str], int]:
    """Two decks equal in their first ``k`` cards and different at card ``k``."""
    rng = random.Random(seed)
    deck = list(deck_cards(tuple(ADVANCED)))
    rng.shuffle(deck)
    k = rng.randrange(3, len(deck) - 4)
    tail = deck[k:]
    while True:
        other = tail[:]
        rng.shuffle(other)
        if other[0] != tail[0]:
            return deck, deck[:k] + other, k


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_unrevealed_deck_never_shows(clients, seed):
    deck_a, deck_b, k = _deck_pair(seed)
    first = seed % 3
    game_a, game_b = _table(clients, deck_a, first), _table(clients, deck_b, first)
    rng = random.Random(seed)
    compared = 0
    while True:
        answers_a, revealed_a = _answers(clients, game_a)
        answers_b, revealed_b = _answers(clients, game_b)
        if revealed_a != revealed_b:
            # The two games part only when card k is turned up, and not before.
            assert revealed_a[:k] == revealed_b[:k] and len(revealed_a) == k + 1
            break
        assert revealed_a == deck_a[: len(revealed_a)]
        assert answers_a == answers_b
        compared += 1
        view = json.loads(answers_a["oscar "])
        if view["status"] != "active":
            break
        mover = PLAYERS[view["to_act"][0]]
        mine = clients[mover].get(f"/api/v1/games/{game_a}/").json()
        body = {**choose(mine, rng, pass_chance=0.6), "version": mine["version"]}
        made_a = clients[mover].post(f"/api/v1/games/{game_a}/moves/", body, format="json")
        made_b = clients[mover].post(f"/api/v1/games/{game_b}/moves/", body, format="json")
        assert made_a.status_code == made_b.status_code == 201, made_a.json()
        if made_a.json()["revealed"] == made_b.json()["revealed"]:
            assert _normal(made_a, game_a) == _normal(made_b, game_b)
    assert compared > k  # a real stretch of the game was compared


def test_sealed_choices_never_show_before_all_are_in(clients):
    """Bob chooses 25,000 in one game and 1,000 in the other: until everyone has chosen,
    Dora, Carol and a spectator see exactly the same answers, and nobody's move log
    shows a card."""
    deck = list(deck_cards(tuple(ADVANCED)))
    deck.remove("yacht")
    random.Random(9).shuffle(deck)
    deck.insert(2, "yacht")
    game_a, game_b = _table(clients, deck, 0), _table(clients, deck, 0)
    rng = random.Random(4)
    while True:  # the same moves in both games until the Yacht Club is up
        view = clients["oscar"].get(f"/api/v1/games/{game_a}/").json()
        if view["phase"] == "sealed":
            break
        assert view["status"] == "active"
        mover = PLAYERS[view["to_act"][0]]
        mine = clients[mover].get(f"/api/v1/games/{game_a}/").json()
        body = {**choose(mine, rng), "version": mine["version"]}
        for game_id in (game_a, game_b):
            made = clients[mover].post(f"/api/v1/games/{game_id}/moves/", body, format="json")
            assert made.status_code == 201

    version = view["version"]
    bob_hand = clients["bob"].get(f"/api/v1/games/{game_a}/").json()["hand"]
    choices = {game_a: max(bob_hand), game_b: min(bob_hand)}
    for game_id, card in choices.items():
        made = clients["bob"].post(
            f"/api/v1/games/{game_id}/moves/",
            {"type": "sealed_bid", "card": card, "version": version},
            format="json",
        )
        assert made.status_code == 201 and made.json()["sealed_choice"] == card
    answers_a, _ = _answers(clients, game_a, skip=("bob",))
    answers_b, _ = _answers(clients, game_b, skip=("bob",))
    assert answers_a == answers_b
    for game_id in choices:  # Bob's own log hides it too
        log = clients["bob"].get(f"/api/v1/games/{game_id}/moves/").json()["moves"]
        assert log[-1]["action"] == {"seat": 1, "type": "sealed_bid"}

    # The next choice (the same in both games) still reveals nothing of Bob's.
    waiting = [p for p in clients["oscar"].get(f"/api/v1/games/{game_a}/").json()["to_act"]]
    assert 1 not in waiting and waiting
    name = PLAYERS[waiting[0]]
    hand = clients[name].get(f"/api/v1/games/{game_a}/").json()["hand"]
    for game_id in (game_a, game_b):
        made = clients[name].post(
            f"/api/v1/games/{game_id}/moves/",
            {"type": "sealed_bid", "card": hand[0], "version": version + 1},
            format="json",
        )
        assert made.status_code == 201
    if clients["oscar"].get(f"/api/v1/games/{game_a}/").json()["phase"] == "sealed":
        answers_a, _ = _answers(clients, game_a, skip=("bob",))
        answers_b, _ = _answers(clients, game_b, skip=("bob",))
        assert answers_a == answers_b
