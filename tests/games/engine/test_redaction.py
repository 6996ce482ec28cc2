"""Redaction: views of games that differ only in hidden things are identical (docs/rules.md,
"What each player may see"; docs/architecture.md, "Hidden information")."""

from __future__ import annotations

import json
import random

from games.engine import OVER, apply_action, new_game, player_view, random_action

from .scenario import make_deck, play, run

ADV = ("gambling", "excursions", "yacht")


def all_views(state):
    views = {}
    for seat in [None, *range(state.players)]:
        for aid in (False, True):
            views[(seat, aid)] = json.dumps(player_view(state, seat, memory_aid=aid).to_json(), sort_keys=True)
    return views


def twin_decks(rng: random.Random, advanced):
    """Two decks with the same cards, the same top cards, and then a different order."""
    deck = make_deck("", advanced)
    rng.shuffle(deck)
    shared = rng.randrange(3, 12)
    tail = deck[shared:]
    while tail == deck[shared:]:
        rng.shuffle(tail)
    return deck, deck[:shared] + tail


def test_views_are_identical_until_the_decks_differ_in_a_revealed_card():
    rng = random.Random(2024)
    compared = 0
    for game in range(40):
        players = 3 + game % 3
        deck_a, deck_b = twin_decks(rng, ADV)
        first = rng.randrange(players)
        a = new_game(players=players, deck=deck_a, first_player=first, advanced=ADV)
        b = new_game(players=players, deck=deck_b, first_player=first, advanced=ADV)
        while a.phase != OVER and b.phase != OVER:
            if a.setup_deck[: a.deck_pos] != b.setup_deck[: b.deck_pos]:
                break  # a different card is now public: the views may differ
            assert all_views(a) == all_views(b)
            compared += 1
            action = random_action(a, rng)
            a, b = apply_action(a, action), apply_action(b, action)
    assert compared > 100


def test_a_view_never_contains_the_unrevealed_deck_order():
    state = new_game(players=4, seed=9)
    hidden = list(state.setup_deck[state.deck_pos :])
    for seat in [None, 0, 1, 2, 3]:
        text = json.dumps(player_view(state, seat, memory_aid=True).to_json())
        assert "setup_deck" not in text and "seed" not in text
        # The remaining order does not appear as a sequence anywhere in the view.
        assert json.dumps(hidden) not in text
        assert json.dumps(hidden[:3])[1:-1] not in text


def test_sealed_choices_stay_hidden_until_all_are_in():
    base = play("yacht lux1", players=4, advanced=ADV)
    one = run(base, "0 seal 25000 | 1 seal 3000")
    other = run(base, "0 seal 1000 | 1 seal 20000")
    for seat in (None, 2, 3):
        for aid in (False, True):
            assert player_view(one, seat, memory_aid=aid) == player_view(other, seat, memory_aid=aid)
    # The chooser sees their own choice, and the others see only that a choice was made.
    assert player_view(one, 0).to_json()["sealed_choice"] == 25000
    assert player_view(one, 2).to_json()["sealed_choice"] is None
    assert [s["sealed"] for s in player_view(one, 3).to_json()["seats"]] == ["chosen", "chosen", "waiting", "waiting"]
    assert player_view(one, 0, memory_aid=True).to_json()["seats"][1]["hand"] == player_view(base, 0, memory_aid=True).to_json()["seats"][1]["hand"]
    # Once all are in, the choices are public.
    done = run(one, "2 seal 1000 | 3 seal 2000")
    sealed = [e for e in player_view(done, None).to_json()["log"] if e["type"] == "sealed"][0]
    assert sealed["choices"] == [
        {"seat": 0, "card": 25000},
        {"seat": 1, "card": 3000},
        {"seat": 2, "card": 1000},
        {"seat": 3, "card": 2000},
    ]


def test_own_hand_and_discards_only_for_the_owner_without_memory_aid():
    state = play("lux5 lux6", "0 bid 3000 | 1 pass | 2 pass")
    view = player_view(state, 1).to_json()
    assert view["hand"] is not None and "hand" in view["seats"][1]
    assert "hand" not in view["seats"][0] and "money" not in view["seats"][0]
    assert player_view(state, None).to_json()["hand"] is None
    aided = player_view(state, 1, memory_aid=True).to_json()
    assert aided["seats"][0]["money"] == 103_000
    assert aided["seats"][0]["discards"] == [3000]
