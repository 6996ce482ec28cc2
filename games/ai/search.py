"""The searching bots (hard, expert): flat Monte Carlo over a few candidate moves, with
determinisation.

Each iteration draws one full state consistent with the bot's view (a uniformly
shuffled deck, guessed hidden Yacht Club choices), then plays every surviving candidate
move in it and plays the game out with the medium heuristic for every seat.  The same
drawn state serves all candidates (common random numbers), so their scores differ only
by the move.  A playout scores the engine's ``result``: 1 for a win, 1/k for a win
shared by k, plus a small term for the status margin.  Candidates that fall clearly
behind are dropped at checkpoints; the search stops at the time budget, or after
exactly ``iterations`` iterations when that is given (reproducible for tests).

In every playout the searching seat plays medium with the tuned weights ``SHARP`` (its
own plan), the others with the default weights (a model of them).  The two levels run
the same search (``SEARCHERS``): hard for a quarter of a second per move with a handful
of bids to weigh; expert for two seconds, with finer steps between the bids, and every
other seat played with the tuned weights too: it plans against careful players, who
keep their money, so it keeps enough not to be cast out (docs/benchmarks.md measures
why: planning against free spenders gets it cast out).
"""

from __future__ import annotations

import math
import random
import time
from typing import NamedTuple

from games.engine.cards import MASK_CARDS, MASK_SUM, MISFORTUNES
from games.engine.scoring import result
from games.engine.state import SEALED, THEFT_CHOICE, State

from .bids import cheapest_over
from .policy import (
    BID,
    DEFAULT,
    DISCARD,
    PASS,
    SEAL,
    SHARP,
    Move,
    Params,
    apply_move,
    lowest_luxury,
    medium_move,
    need_to_beat,
    play_policy,
)
from .view_state import determinise


class Searcher(NamedTuple):
    """A searching level: its default seconds per move, and the bids it weighs: the
    cheapest sets beating the high bid by more than each step (normal and misfortune
    auctions)."""

    budget: float
    steps: tuple[int, ...]
    misfortune_steps: tuple[int, ...]
    own: Params = SHARP  # the weights its own seat plays the playouts with
    # Each other seat's weights in a playout: drawn from these, evenly, per sampled deal.
    others: tuple[Params, ...] = (DEFAULT,)


SEARCHERS: dict[str, Searcher] = {
    "hard": Searcher(budget=0.25, steps=(0, 2000, 5000, 10000), misfortune_steps=(0, 3000)),
    "expert": Searcher(
        budget=2.0,
        steps=(0, 1000, 2000, 4000, 7000, 12000),
        misfortune_steps=(0, 1000, 3000, 6000),
        others=(SHARP,),
    ),
}
HARD = SEARCHERS["hard"]
CHECKPOINTS = (12, 24, 48, 96, 192, 384)
MARGIN_WEIGHT = 0.1
MARGIN_SCALE = 40.0


def candidate_moves(
    state: State, seat: int, rng: random.Random, searcher: Searcher = HARD
) -> list[Move]:
    """Pass plus a handful of meaningful bids, or every Yacht Club card; the medium
    heuristic's own choice is always among them."""
    phase = state.phase
    if phase == THEFT_CHOICE:
        return [(DISCARD, lowest_luxury(state.owned[seat]))]  # keeping the higher one never hurts
    hand = state.hands[seat]
    if phase == SEALED:
        return [(SEAL, value) for value in MASK_CARDS[hand]]
    moves: list[Move] = [(PASS, 0)]
    need = need_to_beat(state, seat)
    if MASK_SUM[hand] <= need:
        return moves
    steps = searcher.misfortune_steps if state.card in MISFORTUNES else searcher.steps
    for step in steps:
        mask = cheapest_over(hand, need + step)
        if mask and (BID, mask) not in moves:
            moves.append((BID, mask))
    heuristic = medium_move(state, seat, rng, searcher.own)
    if heuristic not in moves:
        moves.append(heuristic)
    return moves


def playout_score(state: State, seat: int) -> float:
    """Win share (the engine's ``result``: 1, or 1/k for a win shared by k), plus a small
    term for the status margin over the best other survivor; being cast out scores least."""
    rows = result(state)["players"]
    me = rows[seat]
    if me["cast_out"]:
        return -MARGIN_WEIGHT
    share = 1.0 / sum(r["winner"] for r in rows) if me["winner"] else 0.0
    others = [r["status"] for r in rows if r["seat"] != seat and not r["cast_out"]]
    margin = (me["status"] - max(others)) / MARGIN_SCALE if others else 1.0
    return share + MARGIN_WEIGHT * max(-1.0, min(1.0, margin))


def _guess_sealed(state: State, seat: int, rng: random.Random) -> int:
    """A hidden Yacht Club choice: half the time what medium would play, else any card."""
    if rng.random() < 0.5:
        return medium_move(state, seat, rng)[1]
    return rng.choice(MASK_CARDS[state.hands[seat]])


def search_move(
    base: State,
    seat: int,
    rng: random.Random,
    *,
    time_budget: float = 1.0,
    iterations: int | None = None,
    searcher: Searcher = HARD,
    stats: dict | None = None,
) -> Move:
    """The best candidate move for ``seat`` in ``base`` (a state rebuilt from its view)."""
    start = time.perf_counter()
    candidates = candidate_moves(base, seat, rng, searcher)
    if len(candidates) == 1:
        if stats is not None:
            stats.update(iterations=0, candidates=1, playouts=0)
        return candidates[0]
    alive = list(range(len(candidates)))
    scores: list[list[float]] = [[] for _ in candidates]
    done = 0
    playouts = 0
    deadline = start + time_budget
    checkpoints = list(CHECKPOINTS)
    while True:
        if iterations is not None and done >= iterations:
            break
        sample = determinise(base, seat, rng, _guess_sealed)
        seed = rng.getrandbits(64)
        weights = tuple(
            searcher.own if s == seat else rng.choice(searcher.others) for s in range(base.players)
        )
        out_of_time = False
        for index in alive:
            state = apply_move(sample, seat, candidates[index])
            end = play_policy(state, random.Random(seed), weights=weights)
            scores[index].append(playout_score(end, seat))
            playouts += 1
            if iterations is None and time.perf_counter() >= deadline:
                out_of_time = True
                break
        if out_of_time:
            # Only complete iterations count, so every candidate saw the same states.
            for index in alive:
                del scores[index][done:]
            break
        done += 1
        if checkpoints and done == checkpoints[0]:
            checkpoints.pop(0)
            alive = _prune(alive, scores, done)
            if len(alive) == 1:
                break
    if done == 0:  # not even one iteration in time: the heuristic's move
        best = candidates.index(medium_move(base, seat, rng, searcher.own))
    else:
        best = max(alive, key=lambda i: (sum(scores[i][:done]) / done, -i))
    if stats is not None:
        stats.update(
            iterations=done,
            candidates=len(candidates),
            playouts=playouts,
            seconds=time.perf_counter() - start,
            means={_describe(candidates[i]): sum(scores[i][:done]) / done for i in alive}
            if done
            else {},
        )
    return candidates[best]


def _prune(alive: list[int], scores: list[list[float]], done: int) -> list[int]:
    """Drop candidates whose paired difference to the leader is clearly negative."""
    means = {i: sum(scores[i][:done]) / done for i in alive}
    leader = max(alive, key=lambda i: (means[i], -i))
    keep = []
    for i in alive:
        if i == leader:
            keep.append(i)
            continue
        diffs = [a - b for a, b in zip(scores[i][:done], scores[leader][:done], strict=True)]
        mean = sum(diffs) / done
        var = sum((d - mean) ** 2 for d in diffs) / max(done - 1, 1)
        if mean > -0.02 - 2.0 * math.sqrt(var / done):
            keep.append(i)
    return keep


def _describe(move: Move) -> str:
    kind, arg = move
    if kind == BID:
        return f"bid {list(MASK_CARDS[arg])}"
    if kind == PASS:
        return "pass"
    if kind == SEAL:
        return f"seal {arg}"
    return f"discard {arg}"
