"""Engine speed: prints median µs per apply_action and per legal_actions at an opening bid,
and complete random games per second for 3, 4 and 5 players (one core, one process).

    python bench/engine_speed.py [--games N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import OVER, apply_action, legal_actions, new_game, random_action  # noqa: E402


def median_us(fn, repeats: int) -> float:
    samples = []
    for _ in range(repeats):
        t0 = time.perf_counter_ns()
        fn()
        samples.append((time.perf_counter_ns() - t0) / 1000)
    return statistics.median(samples)


def bench_apply(games: int) -> float:
    """Median over every action of random games (each timed alone)."""
    rng = random.Random(1)
    samples = []
    for g in range(games):
        state = new_game(players=4, seed=g)
        while state.phase != OVER:
            action = random_action(state, rng)
            t0 = time.perf_counter_ns()
            state = apply_action(state, action)
            samples.append((time.perf_counter_ns() - t0) / 1000)
    return statistics.median(samples)


def random_games_per_second(players: int, seconds: float) -> float:
    rng = random.Random(players)
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = new_game(players=players, seed=rng.getrandbits(32))
        while state.phase != OVER:
            state = apply_action(state, random_action(state, rng))
        done += 1
    return done / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300, help="games sampled for apply_action")
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per games/s figure")
    args = parser.parse_args()
    opening = new_game(players=4, seed=7)
    while opening.card in ("scandal", "debt", "theft", "yacht"):  # a normal auction's opening bid
        opening = apply_action(opening, {"seat": opening.turn, "type": "pass"})
    count = len(legal_actions(opening))
    print(f"apply_action: median {bench_apply(args.games):.1f} µs")
    print(f"legal_actions at an opening bid ({count} actions): median {median_us(lambda: legal_actions(opening), 200):.0f} µs")
    for players in (3, 4, 5):
        print(f"random games, {players} players: {random_games_per_second(players, args.seconds):.0f} games/s")


if __name__ == "__main__":
    main()
