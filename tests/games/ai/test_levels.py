"""Every level plays only legal actions, in every phase, at 3 to 5 players."""

from __future__ import annotations

import random

import pytest

from games.ai import LEVELS, SEARCH_LEVELS, choose_action, choose_from_view
from games.engine import (
    OVER,
    apply_action,
    forced_action,
    legal_actions,
    new_game,
    player_view,
    result,
    seats_to_act,
)
from games.engine.cards import LUXURY_VALUE

from .positions import ADVANCED, random_positions, special_positions

HARD_ITERATIONS = 2


def decide(state, seat, level, seed):
    extra = {"iterations": HARD_ITERATIONS} if level in SEARCH_LEVELS else {}
    return choose_action(state, seat, level, random.Random(seed), **extra)


@pytest.fixture(scope="module")
def specials():
    return special_positions(seed=3)


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_returns_a_legal_action(level):
    positions = random_positions(30 if level in SEARCH_LEVELS else 150, seed=1)
    assert {p.players for p in positions} == {3, 4, 5}
    assert any(p.advanced for p in positions) and any(not p.advanced for p in positions)
    for i, state in enumerate(positions):
        legal = legal_actions(state)
        for seat in seats_to_act(state):
            action = decide(state, seat, level, i)
            assert action in legal, (level, action)
            apply_action(state, action)  # the engine agrees


@pytest.mark.parametrize("level", LEVELS)
def test_theft_choice_and_sealed_phases(level, specials):
    assert specials["theft"] and specials["sealed_chosen"]
    for i, state in enumerate(specials["theft"] + specials["sealed_chosen"]):
        legal = legal_actions(state)
        for seat in seats_to_act(state):
            action = decide(state, seat, level, i)
            assert action in legal
            if action["type"] == "discard" and level != "random":
                # Keeping the higher luxury never hurts.
                lowest = min(LUXURY_VALUE[c] for c in state.owned[seat] if c in LUXURY_VALUE)
                assert LUXURY_VALUE[action["card"]] == lowest


@pytest.mark.parametrize("level", LEVELS)
def test_a_position_where_passing_is_the_only_action(level, specials):
    assert specials["forced"]
    for i, state in enumerate(specials["forced"]):
        assert forced_action(state) is not None
        assert decide(state, state.turn, level, i) == {"seat": state.turn, "type": "pass"}


def test_unknown_level_and_seat_without_a_move_are_refused():
    state = new_game(players=4, seed=5, first_player=0)
    with pytest.raises(ValueError):
        choose_action(state, 0, "grandmaster", random.Random(1))
    with pytest.raises(ValueError):
        choose_action(state, 1, "easy", random.Random(1))  # not seat 1's turn


@pytest.mark.parametrize("players", [3, 4, 5])
def test_complete_games_between_bots_finish(players):
    rng = random.Random(players)
    levels = ["hard", "medium", "easy", "expert", "medium"][:players]
    for advanced in ((), ADVANCED):
        state = new_game(players=players, seed=f"bots-{players}-{advanced}", advanced=advanced)
        moves = 0
        while state.phase != OVER:
            forced = forced_action(state)
            if forced is not None:
                state = apply_action(state, forced)
                continue
            for seat in seats_to_act(state):
                extra = {"iterations": 1} if levels[seat] in SEARCH_LEVELS else {}
                state = apply_action(state, choose_action(state, seat, levels[seat], rng, **extra))
            moves += 1
            assert moves < 500
        assert result(state) is not None


@pytest.mark.parametrize("level", ["random", "easy", "medium"])
def test_the_memory_aid_only_saves_work(level):
    """Without the memory aid the bots replay the public log and decide the same."""
    for i, state in enumerate(random_positions(60, seed=8)):
        for seat in seats_to_act(state):
            with_aid = choose_from_view(
                player_view(state, seat, memory_aid=True).to_json(), level, random.Random(i)
            )
            without = choose_from_view(player_view(state, seat).to_json(), level, random.Random(i))
            assert with_aid == without
