"""How many visits standing orders save in games played over days.

Simulates 4-player games between people who each look at the site once a day (at an
hour of their own), in three ways, on the same decks and first players:

- **answer**: a person answers every turn of theirs at their next visit;
- **orders**: at each visit a person answers, and when they bid they also leave a
  proxy bid for the rest of that auction up to their valuation, plus a standing
  default for misfortunes (pay up to their valuation of the cheapest misfortune to
  come) and Theft's discard (the lowest luxury).  Their orders answer at once, in the
  move that made their turn come (games.ai.orders, as the game service plays them),
  so they visit only when no order answers;
- **mixed**: two people (alternate seats) leave orders as above and two answer.

Every person decides as the medium bot (its valuation is ``medium_limit``), so the two
ways differ only in who answers.  Prints visits per player per game, the game's length
in simulated days, and the winners: the share of games each seat (counted from the
first player) wins in each way, how often both ways crowned the same winners, and at the
mixed tables the share of the wins that went to the people who leave orders.

    python bench/standing_orders.py [--games 400] [--jobs 2] [--seed 1]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai_tournament import wilson  # noqa: E402  (this script's own folder)

from games.ai import choose_action  # noqa: E402
from games.ai.orders import LOWEST, Defaults, Order, order_action  # noqa: E402
from games.ai.policy import medium_limit  # noqa: E402
from games.engine import (  # noqa: E402
    AUCTION,
    OVER,
    apply_action,
    forced_action,
    new_game,
    player_view,
    result,
    seats_to_act,
)
from games.engine.cards import LUXURY_VALUE, MISFORTUNES, THEFT  # noqa: E402

PLAYERS = 4


def _next_visit(offset: float, now: float) -> float:
    """The first visit of a person who comes each day at ``offset`` (a share of the day)
    after the moment ``now``."""
    day = math.floor(now - offset) + 1
    return day + offset


def _auction(state) -> int:
    return sum(1 for event in state.events if event[0] == "reveal")


def play(job: tuple[int, str, int]) -> dict:
    """One game: every person answers (``answer``), every person leaves orders
    (``orders``), or two people leave orders and two answer (``mixed``: the seats
    ``game % 2`` and ``game % 2 + 2``, so each seat takes each part as often)."""
    game, mode, seed = job
    state = new_game(players=PLAYERS, seed=f"{seed}-{game}", first_player=game % PLAYERS)
    first = state.first_player
    people = random.Random(f"{seed}-{game}-hours")
    offsets = [people.random() for _ in range(PLAYERS)]
    rngs = [random.Random(f"{seed}-{game}-{s}") for s in range(PLAYERS)]
    orders: dict[int, tuple[int, Order]] = {}
    defaults: dict[int, Defaults] = {}
    visits = [0] * PLAYERS
    now, visitor = 0.0, None
    leaves = [mode == "orders" or (mode == "mixed" and s % 2 == game % 2) for s in range(PLAYERS)]
    while state.phase != OVER:
        forced = forced_action(state)
        if forced is not None:
            state = apply_action(state, forced)
            continue
        to_act = seats_to_act(state)
        if any(leaves):
            answered = None
            for seat in to_act:
                mine = orders.get(seat)
                order = mine[1] if mine and mine[0] == _auction(state) else None
                answered = order_action(player_view(state, seat), order, defaults.get(seat))
                if answered is not None:
                    break
            if answered is not None:
                state = apply_action(state, answered)
                if answered["type"] != "bid":
                    orders.pop(answered["seat"], None)
                visitor = None  # the others' turn: the order made a move meanwhile
                continue
        seat = min(to_act, key=lambda s: _next_visit(offsets[s], now))
        if seat != visitor:  # one visit answers every turn of the person in a row
            now = _next_visit(offsets[seat], now)
            visits[seat] += 1
            visitor = seat
        action = choose_action(state, seat, "medium", rngs[seat])
        if leaves[seat]:
            _orders_leave(state, seat, action, orders, defaults)
        state = apply_action(state, action)
    rows = result(state)["players"]
    winners = tuple((r["seat"] - first) % PLAYERS for r in rows if r["winner"])
    share = 1 / max(1, sum(1 for r in rows if r["winner"]))
    order_wins = sum(share for r in rows if r["winner"] and leaves[r["seat"]])
    return {
        "mode": mode,
        "game": game,
        "visits": visits,
        "days": now,
        "winners": winners,
        "order_wins": order_wins,
        "decided": any(r["winner"] for r in rows),
    }


def _orders_leave(state, seat: int, action: dict, orders: dict, defaults: dict) -> None:
    """What a person leaves at a visit: a proxy bid for this auction at their valuation
    when they bid, a discard for Theft, and their misfortune default."""
    if state.phase == AUCTION and action["type"] == "bid":
        order = Order(kind="bid", maximum=medium_limit(state, seat))
        if state.card == THEFT:
            order = Order(kind="bid", maximum=order.maximum, discard=LOWEST)
        orders[seat] = (_auction(state), order)
    elif state.phase == AUCTION and state.card == THEFT:
        orders[seat] = (_auction(state), Order(discard=LOWEST))
    unseen = set(state.setup_deck[state.deck_pos :])
    misfortunes = sorted(unseen & MISFORTUNES)
    most = min((medium_limit(state, seat, card) for card in misfortunes), default=None)
    # Pass on the luxuries to come that are worth less to me than what a luxury has
    # cost at this table so far.
    price = _typical_price(state)
    below = None
    for value in sorted(LUXURY_VALUE[c] for c in unseen if c.startswith("lux")):
        if medium_limit(state, seat, f"lux{value}") >= price:
            break
        below = value + 1
    defaults[seat] = Defaults(luxury_below=below, misfortune_max=most)


def _typical_price(state) -> int:
    """What the luxuries sold so far went for (8,000 before any)."""
    paid = [
        sum(event[3]) for event in state.events if event[0] == "win" and event[2] in LUXURY_VALUE
    ]
    return int(statistics.median(paid)) if paid else 8000


def _share(rows: list[dict]) -> list[float]:
    wins = [0.0] * PLAYERS
    for row in rows:
        for seat in row["winners"]:
            wins[seat] += 1 / len(row["winners"])
    return [w / len(rows) for w in wins]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    modes = ("answer", "orders", "mixed")
    jobs = [(g, mode, args.seed) for g in range(args.games) for mode in modes]
    start = time.perf_counter()
    with Pool(args.jobs) as pool:
        rows = pool.map(play, jobs, chunksize=4)
    took = time.perf_counter() - start
    by = {mode: [r for r in rows if r["mode"] == mode] for mode in modes}
    print(
        f"{args.games} games of {PLAYERS} people (medium valuations), seed {args.seed}, "
        f"{args.jobs} jobs, {took:.0f} s"
    )
    print(f"{'':8} {'visits/player/game':>19} {'p10-p90':>10} {'days/game':>10} {'p10-p90':>10}")
    means = {}
    for mode in ("answer", "orders"):
        games = by[mode]
        visits = [sum(r["visits"]) / PLAYERS for r in games]
        days = [r["days"] for r in games]
        means[mode] = statistics.mean(visits)
        v10, v90 = _deciles(visits)
        d10, d90 = _deciles(days)
        print(
            f"{mode:8} {statistics.mean(visits):19.1f} {v10:4.0f}-{v90:<5.0f} "
            f"{statistics.mean(days):10.1f} {d10:4.0f}-{d90:<5.0f}"
        )
    saved = 1 - means["orders"] / means["answer"]
    print(f"visits saved by standing orders: {saved:.0%} (target: at least 50%)")
    print("win share by seat, counted from the first player (answer / orders):")
    for seat, (a, o) in enumerate(zip(_share(by["answer"]), _share(by["orders"]), strict=True)):
        print(f"  seat +{seat}: {a:5.1%} / {o:5.1%}   (95% ±{_margin(a, len(by['answer'])):.1%})")
    same = sum(
        1 for a, o in zip(by["answer"], by["orders"], strict=True) if a["winners"] == o["winners"]
    )
    print(f"same winners in both ways: {same / args.games:.0%} of the games")
    # The orders' side's share of the wins in the games somebody won (a win shared across
    # the sides split): 50% is fair, whatever the number of games nobody wins.
    wins = sum(r["order_wins"] for r in by["mixed"])
    decided = sum(r["decided"] for r in by["mixed"])
    share = wins / decided if decided else 0.0
    low, high = wilson(wins, decided)
    print(
        f"mixed tables (two people leave orders, two answer): orders' side takes {share:.1%} "
        f"of the wins ({wins:g} of the {decided} games somebody won; fair: 50%, "
        f"95% interval {low:.1%}-{high:.1%})"
    )


def _deciles(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    return ordered[len(ordered) // 10], ordered[(9 * len(ordered)) // 10]


def _margin(p: float, n: int) -> float:
    return 1.96 * math.sqrt(max(p * (1 - p), 1e-9) / n)


if __name__ == "__main__":
    main()
