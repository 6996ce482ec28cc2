"""Readable scenarios: a deck written top card first and moves written as short lines.

    state = play("lux3 debt prestige", "0 bid 1000 2000 | 1 pass | 2 pass", players=3)

Move lines: ``<seat> bid <cards…>``, ``<seat> pass``, ``<seat> discard <card>``,
``<seat> seal <card>``; several moves separated by ``|`` or newlines.  The deck is
completed with the set's remaining cards in a fixed order, so only the cards a scenario
reaches need to be written.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.engine import apply_action, deck_cards, new_game
from games.engine.state import State


def make_deck(top: str, advanced: tuple[str, ...] = ()) -> list[str]:
    wanted = top.split()
    rest = Counter(deck_cards(advanced))
    rest.subtract(wanted)
    if any(count < 0 for count in rest.values()):
        raise ValueError(f"deck {top!r} uses a card too often")
    remaining = []
    for card in deck_cards(advanced):
        if rest[card] > 0:
            remaining.append(card)
            rest[card] -= 1
    return wanted + remaining


def action(line: str) -> dict[str, Any]:
    seat, kind, *args = line.split()
    if kind == "bid":
        return {"seat": int(seat), "type": "bid", "cards": [int(a) for a in args]}
    if kind == "pass":
        return {"seat": int(seat), "type": "pass"}
    if kind == "discard":
        return {"seat": int(seat), "type": "discard", "card": args[0]}
    if kind == "seal":
        return {"seat": int(seat), "type": "sealed_bid", "card": int(args[0])}
    raise ValueError(line)


def moves(text: str) -> list[dict[str, Any]]:
    return [action(part) for part in text.replace("\n", "|").split("|") if part.strip()]


def start(top: str, players: int = 3, first: int = 0, advanced: tuple[str, ...] = ()) -> State:
    return new_game(players=players, deck=make_deck(top, advanced), first_player=first, advanced=advanced)


def play(top: str, text: str = "", players: int = 3, first: int = 0, advanced: tuple[str, ...] = ()) -> State:
    state = start(top, players, first, advanced)
    for act in moves(text):
        state = apply_action(state, act)
    return state


def run(state: State, text: str) -> State:
    for act in moves(text):
        state = apply_action(state, act)
    return state
