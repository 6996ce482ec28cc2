"""Bots for High Society (docs/api.md, bots): ``choose_action(state, seat, level, rng)``.

Levels:

- ``random``: passes half the time, else a uniformly drawn legal bid; random Theft and
  Yacht Club choices.
- ``easy``: fixed price lists (luxuries by face value, Prestige by what it doubles),
  always the cheapest cards that beat the high bid; dodges misfortunes only cheaply;
  stays within reach of the poorest opponent as the game goes on; discards its lowest
  luxury to Theft and gives its lowest card to the Yacht Club.
- ``medium``: one-step look-ahead on an evaluation of the position: the chance of not
  being the poorest at the end (money against each opponent's, projected at the pace
  they spend; the uncertainty shrinks as game-end cards come out) times the chance of
  out-scoring each surviving opponent (cards owned with their Prestige multiplier,
  Debt, Scandal and Theft, plus a share of the cards to come that grows with the money
  one has to spare).  It raises with the cheapest, most flexible card set that beats
  the high bid when winning at that price evaluates better than letting the card go
  (for a misfortune: when losing that bid beats taking the card), and picks its Yacht
  Club card by its chance of being the highest unique value.
- ``hard``: flat Monte Carlo search (``search.py``): a few candidate moves (pass, the
  cheapest bids beating the high bid by several margins, the medium move, or every
  Yacht Club card), each played out to the end with the medium heuristic in states
  drawn consistently with the view, its own seat with tuned weights (``SHARP``); the
  best average result wins.  Default budget a quarter of a second per move;
  ``iterations`` makes it reproducible.
- ``expert``: the same search with finer bid steps, two seconds per move, and every
  other seat played out with the tuned weights as well (careful players).

Bots see only ``player_view(state, seat, memory_aid=True)``: ``choose_action`` computes
the view first and everything after works from it (``choose_from_view``), so neither the
deck order nor other players' hidden Yacht Club choices can reach a decision.  The memory
aid (everyone's remaining money) adds nothing a player could not note down: every bid is
played face up and every payment, return and Yacht Club choice is in the public log
(``view_state.money_from_log`` replays it).
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from typing import Any

from games.engine.redaction import player_view
from games.engine.state import AUCTION, OVER, State

from .policy import POLICIES, move_to_action
from .search import SEARCHERS, search_move
from .view_state import state_from_view

LEVELS: tuple[str, ...] = ("random", "easy", "medium", "hard", "expert")
SEARCH_LEVELS: tuple[str, ...] = tuple(SEARCHERS)  # the levels that think for a time budget
BUDGETS: dict[str, float] = {level: s.budget for level, s in SEARCHERS.items()}
DEFAULT_BUDGET = BUDGETS["hard"]  # seconds per hard move

__all__ = [
    "BUDGETS",
    "DEFAULT_BUDGET",
    "LEVELS",
    "SEARCH_LEVELS",
    "choose_action",
    "choose_from_view",
    "state_from_view",
]


def choose_action(
    state: State,
    seat: int,
    level: str = "hard",
    rng: random.Random | None = None,
    *,
    time_budget: float | None = None,
    iterations: int | None = None,
) -> dict[str, Any]:
    """One legal action dict for ``seat``, decided from that seat's view only.

    ``time_budget``: seconds for a searching bot (hard, expert; default its ``BUDGETS``);
    ``iterations``: its number of sampled states instead (reproducible).
    """
    start = time.perf_counter()
    view = player_view(state, seat, memory_aid=True).to_json()  # the bots read the JSON form
    if time_budget is None:
        time_budget = BUDGETS.get(level, DEFAULT_BUDGET)
    budget = max(time_budget - (time.perf_counter() - start), 0.0)  # the view is part of the move
    return choose_from_view(view, level, rng, time_budget=budget, iterations=iterations)


def choose_from_view(
    view: Mapping[str, Any],
    level: str = "hard",
    rng: random.Random | None = None,
    *,
    time_budget: float | None = None,
    iterations: int | None = None,
) -> dict[str, Any]:
    """The bot's decision from a ``player_view`` (with the memory aid, or a full log)."""
    if level not in LEVELS:
        raise ValueError(f"Unknown bot level {level!r}; choose from {', '.join(LEVELS)}.")
    seat = view["seat"]
    if seat is None or seat not in view["to_act"]:
        phase = view["phase"]
        raise ValueError(
            "The game is over." if phase == OVER else f"Seat {seat} has nothing to do now."
        )
    if rng is None:
        rng = random.Random()
    # The deck order here is a placeholder: the heuristics read the unseen cards only as
    # a multiset, and the search draws its own orders.
    base = state_from_view(view, with_log=False)
    if base.phase == AUCTION and view["seats"][seat]["passed"]:
        raise ValueError(f"Seat {seat} has passed this round.")
    searcher = SEARCHERS.get(level)
    if searcher is not None:
        budget = searcher.budget if time_budget is None else time_budget
        move = search_move(
            base,
            seat,
            rng,
            time_budget=budget,
            iterations=iterations,
            searcher=searcher,
        )
    else:
        move = POLICIES[level](base, seat, rng)
    return move_to_action(move, seat)
