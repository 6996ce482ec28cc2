"""Bot tournament: one seat of a level against the level below, at 4-player tables.

Prints, per matchup: games, wins of the tested level (a shared win counts 1/k), win rate
with its 95% Wilson interval (three equal opponents make 25% the baseline at 4 players),
average status, cast-out rate, and the tested bot's average seconds per decision.
Each deck is played once with the tested bot in every seat (seat rotation), so
``--games`` is rounded up to a multiple of the table size.

    python bench/ai_tournament.py [--games 200] [--jobs 2] [--budget 1.0]
                                  [--matchups easy,medium,hard] [--players 4]
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.ai import choose_action  # noqa: E402
from games.engine import OVER, apply_action, forced_action, new_game, result, seats_to_act  # noqa: E402

BELOW = {"easy": "random", "medium": "easy", "hard": "medium"}


def play_one(job: tuple) -> tuple[float, int, bool, float, int]:
    """One game: (win share, status, cast out, seconds deciding, decisions) of the tested seat."""
    level, game, players, budget, iterations, advanced, seed = job
    deal, tested = divmod(game, players)
    state = new_game(
        players=players, seed=f"{seed}-{deal}", advanced=advanced, first_player=deal % players
    )
    rngs = [random.Random(f"{seed}-{game}-{seat}") for seat in range(players)]
    levels = [level if seat == tested else BELOW[level] for seat in range(players)]
    spent = 0.0
    decisions = 0
    while state.phase != OVER:
        forced = forced_action(state)
        if forced is not None:
            state = apply_action(state, forced)
            continue
        for seat in seats_to_act(state):
            kwargs = {}
            if levels[seat] == "hard":
                kwargs = {"time_budget": budget, "iterations": iterations}
            t0 = time.perf_counter()
            action = choose_action(state, seat, levels[seat], rngs[seat], **kwargs)
            if seat == tested:
                spent += time.perf_counter() - t0
                decisions += 1
            state = apply_action(state, action)
    row = result(state)["players"][tested]
    winners = sum(1 for r in result(state)["players"] if r["winner"])
    share = 1.0 / winners if row["winner"] else 0.0
    return share, row["status"], row["cast_out"], spent, decisions


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200, help="games per matchup")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (at most 2 here)")
    parser.add_argument("--budget", type=float, default=1.0, help="hard bot's seconds per move")
    parser.add_argument(
        "--iterations", type=int, default=None, help="hard bot's iterations per move instead"
    )
    parser.add_argument(
        "--matchups", default="easy,medium,hard", help="tested levels, comma-separated"
    )
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--advanced", default="", help="advanced cards, comma-separated")
    parser.add_argument("--seed", default="bench")
    args = parser.parse_args()
    advanced = tuple(a for a in args.advanced.split(",") if a)
    games = -(-args.games // args.players) * args.players
    print(
        f"{args.players} players, advanced={list(advanced)}, hard budget "
        + (f"{args.iterations} iterations" if args.iterations else f"{args.budget} s")
        + f", {args.jobs} job(s)"
    )
    print(
        f"{'matchup':<22}{'games':>6}{'wins':>8}{'rate':>7}  {'95% interval':<14}{'status':>7}{'cast out':>9}{'s/move':>8}"
    )
    for level in args.matchups.split(","):
        jobs = [
            (level, g, args.players, args.budget, args.iterations, advanced, args.seed)
            for g in range(games)
        ]
        start = time.perf_counter()
        if args.jobs > 1:
            with Pool(args.jobs) as pool:
                rows = pool.map(play_one, jobs, chunksize=1)
        else:
            rows = [play_one(job) for job in jobs]
        wins = sum(r[0] for r in rows)
        low, high = wilson(wins, games)
        status = sum(r[1] for r in rows) / games
        cast = sum(r[2] for r in rows) / games
        per_move = sum(r[3] for r in rows) / max(1, sum(r[4] for r in rows))
        name = (
            f"{level} vs 3 {BELOW[level]}"
            if args.players == 4
            else f"{level} vs {args.players - 1} {BELOW[level]}"
        )
        print(
            f"{name:<22}{games:>6}{wins:>8.1f}{wins / games:>7.1%}  [{low:.1%}, {high:.1%}]"
            f"{status:>7.1f}{cast:>9.1%}{per_move:>8.3f}   ({time.perf_counter() - start:.0f} s)",
            flush=True,
        )


if __name__ == "__main__":
    main()
