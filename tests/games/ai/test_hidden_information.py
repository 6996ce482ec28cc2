"""Bots see only their view: secrets cannot change a decision; decisions are reproducible."""

from __future__ import annotations

import random
import time

import pytest

from games.ai import LEVELS, SEARCH_LEVELS, choose_action
from games.ai.search import search_move
from games.ai.view_state import state_from_view
from games.engine import new_game, player_view, seats_to_act
from games.engine.cards import MASK_CARDS
from games.engine.state import SEALED

from .positions import random_positions, special_positions

pytestmark = pytest.mark.slow  # twin games that differ only in hidden things


ITERATIONS = 3


def twin(state, seat, rng):
    """The same game with another order of the unrevealed cards and other hidden Yacht
    Club choices of the other seats: everything ``seat`` may see is unchanged."""
    rest = list(state.setup_deck[state.deck_pos :])
    if len(set(rest)) > 1:
        shuffled = rest[:]
        while shuffled == rest:
            rng.shuffle(shuffled)
        rest = shuffled
    sealed = list(state.sealed)
    if state.phase == SEALED:
        for other, choice in enumerate(state.sealed):
            others_cards = [v for v in MASK_CARDS[state.hands[other]] if v != choice]
            if other != seat and choice > 0 and others_cards:
                sealed[other] = rng.choice(others_cards)
    return state._replace(
        setup_deck=state.setup_deck[: state.deck_pos] + tuple(rest), sealed=tuple(sealed)
    )


def decide(state, seat, level, seed):
    extra = {"iterations": ITERATIONS} if level in SEARCH_LEVELS else {}
    return choose_action(state, seat, level, random.Random(seed), **extra)


@pytest.fixture(scope="module")
def positions():
    specials = special_positions(seed=4)
    return random_positions(24, seed=6) + specials["sealed_chosen"] + specials["theft"]


@pytest.mark.parametrize("level", LEVELS)
def test_deck_order_and_others_sealed_choices_do_not_change_the_action(level, positions):
    rng = random.Random(11)
    differed = 0
    sealed_differed = 0
    if level in SEARCH_LEVELS:  # the slowest: fewer positions, the sealed ones included
        positions = positions[:10] + [p for p in positions if p.phase == SEALED][:3]
    for i, state in enumerate(positions):
        for seat in seats_to_act(state):
            other = twin(state, seat, rng)
            assert player_view(other, seat, memory_aid=True) == player_view(
                state, seat, memory_aid=True
            )
            differed += other.setup_deck != state.setup_deck
            sealed_differed += other.sealed != state.sealed
            assert decide(state, seat, level, i) == decide(other, seat, level, i)
    assert differed > 8 and sealed_differed > 0


@pytest.mark.parametrize("level", LEVELS)
def test_a_seeded_bot_is_deterministic(level, positions):
    for i, state in enumerate(positions[:8] + positions[-4:]):
        for seat in seats_to_act(state):
            assert decide(state, seat, level, i) == decide(state, seat, level, i)


def test_hard_runs_exactly_the_iterations_asked():
    state = new_game(players=4, seed=21, first_player=0)
    while state.card in ("scandal", "debt", "theft"):
        state = new_game(players=4, seed=state.moves + 100, first_player=0)
    base = state_from_view(player_view(state, 0, memory_aid=True).to_json(), with_log=False)
    stats: dict = {}
    search_move(base, 0, random.Random(1), iterations=7, stats=stats)
    assert stats["iterations"] == 7
    assert stats["playouts"] >= 7 * 2  # every surviving candidate plays each drawn state


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_a_searching_bot_keeps_to_its_time_budget(level):
    state = new_game(
        players=5, seed=22, first_player=0, advanced=("gambling", "excursions", "yacht")
    )
    budget = 0.3
    start = time.perf_counter()
    choose_action(
        state,
        state.turn if state.turn >= 0 else seats_to_act(state)[0],
        level,
        random.Random(2),
        time_budget=budget,
    )
    assert time.perf_counter() - start <= 1.5 * budget + 0.2  # loose: the machine is shared
