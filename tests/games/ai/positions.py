"""Positions for bot tests: snapshots of seeded random games, every phase included."""

from __future__ import annotations

import random

from games.engine import OVER, apply_action, forced_action, new_game, random_action
from games.engine.state import SEALED, THEFT_CHOICE, State

ADVANCED = ("gambling", "excursions", "yacht")


def random_positions(count: int, seed: int = 0, advanced_share: float = 0.5) -> list[State]:
    """``count`` running positions from random games of 3 to 5 players, with advanced
    cards in about ``advanced_share`` of them (Theft choices and Yacht Club phases too)."""
    rng = random.Random(seed)
    positions: list[State] = []
    game = 0
    while len(positions) < count:
        players = 3 + game % 3
        advanced = ADVANCED if rng.random() < advanced_share else ()
        state = new_game(players=players, seed=f"{seed}-{game}", advanced=advanced)
        game += 1
        taken = 0
        while state.phase != OVER and taken < max(2, count // 9):
            if rng.random() < 0.2 or state.phase in (SEALED, THEFT_CHOICE):
                positions.append(state)
                taken += 1
            state = apply_action(state, random_action(state, rng, pass_chance=0.6))
    return positions[:count]


def special_positions(seed: int = 0) -> dict[str, list[State]]:
    """Positions of the rarer kinds: a Theft choice, a Yacht Club with a choice already
    made, and an auction where passing is the only legal action."""
    rng = random.Random(seed)
    found: dict[str, list[State]] = {"theft": [], "sealed_chosen": [], "forced": []}
    game = 0
    while any(len(v) < 3 for v in found.values()) and game < 2000:
        state = new_game(players=3 + game % 3, seed=f"special-{seed}-{game}", advanced=ADVANCED)
        game += 1
        while state.phase != OVER:
            if state.phase == THEFT_CHOICE:
                found["theft"].append(state)
            elif state.phase == SEALED and any(v > 0 for v in state.sealed):
                found["sealed_chosen"].append(state)
            elif state.phase != SEALED and forced_action(state) is not None:
                found["forced"].append(state)
            state = apply_action(state, random_action(state, rng, pass_chance=0.3))
    return found
