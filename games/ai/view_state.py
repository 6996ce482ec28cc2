"""From a player's view back to an engine ``State``, with the unknowns filled in.

A view hides two things: the order of the unrevealed cards and the Yacht Club choices
that other players have made but that are not yet revealed.  ``state_from_view`` takes
both as arguments, so a bot can build one consistent guess of the full state (a
"determinisation") and play it out with the engine's own transitions.  Everything else
in the state is in the view: own hand and discards, and, with the memory aid, everyone's
remaining money, which ``money_from_log`` shows is derivable from the public log.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.engine.cards import BIT, FULL_HAND, MASK_CARDS, MISFORTUNES, deck_cards
from games.engine.state import AUCTION, NOT_BIDDING, SEALED, WAITING, State

from .bids import mask_of


def unseen_cards(view: Mapping[str, Any]) -> list[str]:
    """The cards not yet revealed, as a multiset in the deck's canonical order.

    This is public: the full card set of the table's advanced cards minus every card
    revealed so far (the log shows each one).
    """
    left = Counter(deck_cards(view["advanced"]))
    left.subtract(view["revealed"])
    return [card for card in dict.fromkeys(deck_cards(view["advanced"])) for _ in range(left[card])]


def money_from_log(view: Mapping[str, Any]) -> tuple[list[int], list[int], list[int]]:
    """Every seat's hand, face-up bid and discard pile (masks), replayed from the log.

    All bids are played face up and every payment, return and Yacht Club choice is
    logged, so the memory aid shows nothing a careful player could not write down.
    """
    players = view["players"]
    hands = [FULL_HAND] * players
    bids = [0] * players
    discards = [0] * players
    card = None
    for event in view["log"]:
        kind = event["type"]
        if kind == "reveal":
            card = event["card"]
        elif kind == "bid":
            mask = mask_of(event["cards"])
            hands[event["seat"]] &= ~mask
            bids[event["seat"]] |= mask
        elif kind == "pass" and card not in MISFORTUNES:
            seat = event["seat"]
            hands[seat] |= bids[seat]
            bids[seat] = 0
        elif kind == "take":
            seat = event["seat"]
            hands[seat] |= bids[seat]
            bids[seat] = 0
            for payment in event["payments"]:
                paid = mask_of(payment["cards"])
                bids[payment["seat"]] &= ~paid
                discards[payment["seat"]] |= paid
        elif kind == "win":
            seat = event["seat"]
            discards[seat] |= bids[seat]
            bids[seat] = 0
        elif kind == "return":
            bit = BIT[event["card"]]
            discards[event["seat"]] &= ~bit
            hands[event["seat"]] |= bit
        elif kind == "sealed":
            for choice in event["choices"]:
                bit = BIT[choice["card"]]
                hands[choice["seat"]] &= ~bit
                discards[choice["seat"]] |= bit
    return hands, bids, discards


def _event_from_json(event: Mapping[str, Any]) -> tuple[Any, ...]:
    """The inverse of ``games.engine.redaction.event_json``."""
    kind = event["type"]
    if kind == "reveal":
        return ("reveal", event["seat"], event["card"])
    if kind == "bid":
        return ("bid", event["seat"], tuple(event["cards"]), event["total"])
    if kind == "pass":
        return ("pass", event["seat"])
    if kind == "win":
        return ("win", event["seat"], event["card"], tuple(event["paid"]))
    if kind == "take":
        payments = tuple((p["seat"], tuple(p["cards"])) for p in event["payments"])
        return ("take", event["seat"], event["card"], payments)
    if kind == "return":
        return ("return", event["seat"], event["card"])
    if kind == "theft":
        return ("theft", event["seat"], event["card"], event["automatic"])
    if kind == "sealed":
        winner = event["winner"]
        choices = tuple((c["seat"], c["card"]) for c in event["choices"])
        return ("sealed", choices, -1 if winner is None else winner)
    if kind == "end":
        return ("end", event["card"])
    raise ValueError(f"Unknown event {kind!r}.")


def state_from_view(
    view: Mapping[str, Any],
    deck_order: Sequence[str] | None = None,
    sealed_guesses: Mapping[int, int] | None = None,
    *,
    with_log: bool = True,
) -> State:
    """A full ``State`` consistent with ``view`` (a ``player_view`` of one seat).

    ``deck_order``: the unrevealed cards, top first (default: ``unseen_cards`` order).
    ``sealed_guesses``: seat -> money value for each other seat whose Yacht Club choice
    is made but hidden (default: that seat's lowest card).  ``with_log=False`` leaves the
    event log empty, which the transitions do not read (faster playouts).
    Given the true deck order and choices, the result equals the real state.
    """
    seat = view["seat"]
    unseen = unseen_cards(view)
    order = list(unseen if deck_order is None else deck_order)
    if Counter(order) != Counter(unseen):
        raise ValueError("deck_order must hold exactly the unrevealed cards.")
    rows = view["seats"]
    if all("hand" in row for row in rows):
        hands = [mask_of(row["hand"]) for row in rows]
        discards = [mask_of(row["discards"]) for row in rows]
    else:
        hands, _, discards = money_from_log(view)
        if seat is not None:
            hands[seat] = mask_of(view["hand"])
            discards[seat] = mask_of(view["discards"])
    phase = view["phase"]
    sealed = [NOT_BIDDING] * view["players"]
    if phase == SEALED:
        guesses = dict(sealed_guesses or {})
        for row in rows:
            s = row["seat"]
            if row["sealed"] == "waiting":
                sealed[s] = WAITING
            elif row["sealed"] == "chosen":
                if s == seat:
                    sealed[s] = view["sealed_choice"]
                elif s in guesses:
                    sealed[s] = guesses[s]
                else:
                    sealed[s] = _lowest_card(hands[s])
    return State(
        players=view["players"],
        advanced=tuple(view["advanced"]),
        setup_deck=tuple(view["revealed"]) + tuple(order),
        first_player=view["first_player"],
        deck_pos=len(view["revealed"]),
        hands=tuple(hands),
        bids=tuple(mask_of(row["bid"]) for row in rows),
        discards=tuple(discards),
        owned=tuple(tuple(row["cards"]) for row in rows),
        removed=tuple(view["removed"]),
        phase=phase,
        card=view["card"],
        leader=view["leader"],
        turn=-1 if view["turn"] is None else view["turn"],
        passed=sum(1 << row["seat"] for row in rows if row["passed"]) if phase == AUCTION else 0,
        sealed=tuple(sealed),
        game_end_seen=view["game_end_revealed"],
        moves=view["moves"],
        events=tuple(_event_from_json(e) for e in view["log"]) if with_log else (),
    )


def _lowest_card(hand: int) -> int:
    return MASK_CARDS[hand][0]


def determinise(
    base: State,
    seat: int,
    rng: random.Random,
    guess_sealed: Callable[[State, int, random.Random], int] | None = None,
) -> State:
    """One full state consistent with what ``seat`` knows, ``base`` being built from its view.

    The deck was shuffled uniformly and nothing seen so far depends on the order of the
    cards still hidden, so every order of them is equally likely.  Hidden Yacht Club
    choices of other seats come from ``guess_sealed(state, seat, rng)`` (default: a
    uniformly drawn card of that seat's hand).
    """
    rest = list(base.setup_deck[base.deck_pos :])
    rng.shuffle(rest)
    state = base._replace(setup_deck=base.setup_deck[: base.deck_pos] + tuple(rest))
    if base.phase == SEALED:
        sealed = list(base.sealed)
        for other, choice in enumerate(base.sealed):
            if other != seat and choice > 0:
                if guess_sealed is None:
                    sealed[other] = rng.choice(MASK_CARDS[base.hands[other]])
                else:
                    sealed[other] = guess_sealed(state, other, rng)
        state = state._replace(sealed=tuple(sealed))
    return state
