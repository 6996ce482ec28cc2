"""Illegal actions, set-up, seeded random playouts with invariants, replay, JSON, purity."""

from __future__ import annotations

import ast
import copy
import json
import random
from pathlib import Path

import pytest

from games.engine import (
    OVER,
    IllegalAction,
    State,
    apply_action,
    deck_cards,
    forced_action,
    legal_actions,
    new_game,
    player_view,
    random_action,
    result,
    score_details,
)
from games.engine.cards import FULL_HAND, GAME_END_CARDS, LUXURY_VALUE, MASK_SUM

from .scenario import play, start

ADV = ("gambling", "excursions", "yacht")

# ----------------------------------------------------------------- set-up


def test_new_game_deals_full_money_sets_and_reveals_one_card():
    state = new_game(players=5, seed=3)
    assert state.hands == (FULL_HAND,) * 5
    assert MASK_SUM[FULL_HAND] == 106_000
    assert sorted(state.setup_deck) == sorted(deck_cards(()))
    assert state.deck_pos == 1 and state.card == state.setup_deck[0]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"players": 2}, "3 to 5"),
        ({"players": 6}, "3 to 5"),
        ({"players": "4"}, "whole number"),
        ({"advanced": ("casino",)}, "Unknown advanced"),
        ({"deck": ["lux1"] * 16}, "exactly the cards"),
        ({"deck": list(deck_cards(()))[:-1]}, "exactly the cards"),
        ({"deck": list(deck_cards(()))}, None),
        ({"first_player": 4}, "seat from 0 to 3"),
        ({"first_player": -1}, "seat from 0 to 3"),
    ],
)
def test_new_game_validates_its_arguments(kwargs, message):
    if message is None:
        new_game(**kwargs)
        return
    with pytest.raises(ValueError, match=message):
        new_game(**kwargs)


def test_a_deck_with_advanced_cards_must_include_them():
    with pytest.raises(ValueError, match="exactly the cards"):
        new_game(players=3, deck=list(deck_cards(())), advanced=("yacht",))
    state = new_game(players=3, deck=list(deck_cards(("yacht",))), advanced=("yacht",))
    assert len(state.setup_deck) == 17


def test_seeded_games_repeat_and_unseeded_games_are_shuffled_securely():
    assert new_game(seed=42).setup_deck == new_game(seed=42).setup_deck
    decks = {new_game().setup_deck for _ in range(20)}
    assert len(decks) == 20  # 16!/(3!) orders: a repeat means the shuffle is broken
    firsts = {new_game().first_player for _ in range(60)}
    assert firsts == {0, 1, 2, 3}


def test_the_engine_shuffle_does_not_use_the_global_random_generator():
    random.seed(1)
    a = new_game()
    random.seed(1)
    b = new_game()
    assert a.setup_deck != b.setup_deck or a.first_player != b.first_player


# ----------------------------------------------------------------- illegal actions


ILLEGAL = [
    ("not a dict", "object with a seat"),
    ({"type": "pass"}, "seat must be"),
    ({"seat": 9, "type": "pass"}, "seat must be"),
    ({"seat": True, "type": "pass"}, "seat must be"),
    ({"seat": "0", "type": "pass"}, "seat must be"),
    ({"seat": 0, "type": "raise"}, "Unknown action type"),
    ({"seat": 1, "type": "pass"}, "not your turn"),
    ({"seat": 1, "type": "bid", "cards": [1000]}, "not your turn"),
    ({"seat": 0, "type": "bid"}, "at least one"),
    ({"seat": 0, "type": "bid", "cards": []}, "at least one"),
    ({"seat": 0, "type": "bid", "cards": "1000"}, "at least one"),
    ({"seat": 0, "type": "bid", "cards": [7000]}, "7,000 is not a money card"),
    ({"seat": 0, "type": "bid", "cards": ["1000"]}, "not a money card"),
    ({"seat": 0, "type": "bid", "cards": [1000.0]}, "not a money card"),
    ({"seat": 0, "type": "bid", "cards": [True]}, "not a money card"),
    ({"seat": 0, "type": "bid", "cards": [1000, 1000]}, "twice"),
    ({"seat": 0, "type": "discard", "card": "lux1"}, "no Theft"),
    ({"seat": 0, "type": "sealed_bid", "card": 1000}, "no Yacht Club"),
]


@pytest.mark.parametrize("action, message", ILLEGAL)
def test_illegal_actions_raise_a_readable_error_and_change_nothing(action, message):
    state = start("lux5")
    before = copy.deepcopy(state.to_json())
    with pytest.raises(IllegalAction, match=message):
        apply_action(state, action)
    assert state.to_json() == before
    assert isinstance(IllegalAction("x"), ValueError)


def test_cards_not_in_hand_and_acting_after_passing_are_refused():
    state = play("lux5 lux6", "0 bid 25000 | 1 pass | 2 pass | 0 bid 1000 | 1 bid 2000 | 2 pass")
    with pytest.raises(IllegalAction, match="do not hold the 25,000"):
        apply_action(state, {"seat": 0, "type": "bid", "cards": [25000]})
    state = play("lux5", "0 bid 1000 | 1 pass | 2 bid 2000")
    with pytest.raises(IllegalAction, match="already passed"):
        apply_action(state, {"seat": 1, "type": "bid", "cards": [25000]})


# ----------------------------------------------------------------- random playouts


def check_invariants(state: State) -> None:
    for seat in range(state.players):
        hand, bid, discard = state.hands[seat], state.bids[seat], state.discards[seat]
        # Money is conserved: every card is in exactly one place.
        assert hand | bid | discard == FULL_HAND
        assert hand & bid == 0 and hand & discard == 0 and bid & discard == 0
    # Every revealed card is owned, removed, up for auction, or the game-ending card.
    revealed = list(state.setup_deck[: state.deck_pos])
    placed = [c for owned in state.owned for c in owned] + list(state.removed)
    if state.card:
        placed.append(state.card)
    if state.phase == OVER:
        placed.append(revealed[-1])
    assert sorted(placed) == sorted(revealed)
    assert state.game_end_seen == sum(c in GAME_END_CARDS for c in revealed)
    assert state.game_end_seen <= 4


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("advanced", [(), ADV, ("yacht",), ("excursions", "gambling")])
def test_seeded_random_playouts_keep_the_invariants(players, advanced):
    rng = random.Random(players * 100 + len(advanced))
    for _ in range(40):
        state = new_game(players=players, seed=rng.getrandbits(32), advanced=advanced)
        while state.phase != OVER:
            actions = legal_actions(state)
            assert actions, "a legal action exists until the end"
            forced = forced_action(state)
            if forced:
                assert actions == [forced]
            if rng.random() < 0.3:
                action = rng.choice(actions)
            else:
                action = random_action(state, rng)
                assert action in actions or action["type"] == "bid"
            state = apply_action(state, action)
            check_invariants(state)
        assert state.deck_pos <= len(state.setup_deck)
        assert state.setup_deck[state.deck_pos - 1] in GAME_END_CARDS
        check_result(state)


def check_result(state: State) -> None:
    res = result(state)["players"]
    details = score_details(state)
    moneys = [p["money"] for p in res]
    for p, d in zip(res, details, strict=True):
        assert p["cast_out"] == (p["money"] == min(moneys))
        assert p["status"] == d["status"]
        if p["winner"]:
            assert not p["cast_out"]
            rivals = [q for q in res if not q["cast_out"]]
            assert p["status"] == max(q["status"] for q in rivals)
    if len(set(moneys)) == 1:
        assert not any(p["winner"] for p in res)
    elif any(not p["cast_out"] for p in res):
        assert any(p["winner"] for p in res)


def test_every_random_action_is_legal():
    rng = random.Random(5)
    for _ in range(30):
        state = new_game(players=4, seed=rng.getrandbits(32), advanced=ADV)
        while state.phase != OVER:
            action = random_action(state, rng)
            legal = legal_actions(state)
            assert action in legal
            state = apply_action(state, action)


# ----------------------------------------------------------------- replay and JSON


def random_game(seed: int, players: int = 4, advanced=ADV):
    rng = random.Random(seed)
    state = new_game(players=players, seed=seed, advanced=advanced)
    log = []
    states = [state]
    while state.phase != OVER:
        action = random_action(state, rng)
        log.append(action)
        state = apply_action(state, action)
        states.append(state)
    return states, log


def test_a_game_replays_exactly_from_its_set_up_and_action_log():
    for seed in range(10):
        states, log = random_game(seed)
        first = states[0]
        replay = new_game(
            players=first.players, deck=first.setup_deck, first_player=first.first_player, advanced=first.advanced
        )
        assert replay == first
        for action, expected in zip(log, states[1:], strict=True):
            replay = apply_action(replay, json.loads(json.dumps(action)))
            assert replay == expected


def test_apply_action_leaves_the_old_state_usable():
    state = start("lux5")
    after = apply_action(state, {"seat": 0, "type": "bid", "cards": [1000]})
    assert state.bids == (0, 0, 0) and after.bids[0] == 1
    assert apply_action(state, {"seat": 0, "type": "pass"}).turn == 1


def test_json_round_trip_is_lossless_at_every_step():
    states, _ = random_game(11, players=5)
    for state in states:
        text = json.dumps(state.to_json())
        assert State.from_json(json.loads(text)) == state
    with pytest.raises(ValueError, match="format"):
        State.from_json({"format": 99})


def test_player_views_are_json_ready():
    states, _ = random_game(12)
    for state in states:
        for seat in (None, 0, 1, 2, 3):
            view = player_view(state, seat, memory_aid=seat == 2).to_json()
            assert json.loads(json.dumps(view)) == view


def test_luxury_values_cover_excursions_and_yacht():
    assert LUXURY_VALUE["excursions"] == 12 and LUXURY_VALUE["yacht"] == 5


# ----------------------------------------------------------------- purity


def test_the_engine_imports_nothing_from_django_or_the_web_stack():
    banned = ("django", "rest_framework", "celery", "redis", "psycopg")
    root = Path(__file__).resolve().parents[3] / "games" / "engine"
    for path in root.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] not in banned, f"{path.name} imports {name}"
