"""The one way tests pick a legal move: from the legal-move summary a player is shown.

``choose(legal, rng)`` takes the API's ``legal_actions`` (JSON) or the engine's
``LegalSummary`` and returns an action: Theft's discard and the Yacht Club's choice
when those are due, otherwise a bid with the cheapest cards that beat the high bid,
or (with ``pass_chance``, or when no bid is possible) a pass.  ``view_choose`` reads
it from an API game view; ``action_pick`` from a state, for one seat (the seat's own
summary, as the engine gives it).
"""

from __future__ import annotations

import random
from typing import Any

from games.engine import LegalSummary, legal_summary


def choose(
    legal: dict[str, Any] | LegalSummary, rng: random.Random, *, pass_chance: float = 0.4
) -> dict[str, Any]:
    if isinstance(legal, LegalSummary):
        legal = {**legal.to_json(), "types": list(legal.types)}
    if "discard" in legal["types"]:
        return {"type": "discard", "card": rng.choice(legal["discard_choices"])}
    if "sealed_bid" in legal["types"]:
        return {"type": "sealed_bid", "card": rng.choice(legal["sealed_choices"])}
    if "bid" in legal["types"] and (not legal["can_pass"] or rng.random() > pass_chance):
        need = legal["to_beat"] - legal["current_bid"]
        cards: list[int] = []
        for value in sorted(legal["hand"]):  # the smallest cards that reach the amount
            if sum(cards) > need:
                break
            cards.append(value)
        if sum(cards) > need:
            return {"type": "bid", "cards": cards}
    return {"type": "pass"}


def view_choose(view: dict[str, Any], rng: random.Random, **options: Any) -> dict[str, Any]:
    """A legal action from an API game view (its ``legal_actions``)."""
    return choose(view["legal_actions"], rng, **options)


def action_pick(state, seat: int, rng: random.Random, **options: Any) -> dict[str, Any]:
    """A legal action of ``seat`` in ``state``, with the seat named."""
    return {**choose(legal_summary(state, seat), rng, **options), "seat": seat}
