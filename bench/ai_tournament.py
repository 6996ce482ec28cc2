"""Bot tournament: one seat of a level against the level below, at 4-player tables.

Prints, per matchup: games, wins of the tested level (a shared win counts 1/k), win rate
with its 95% Wilson interval (three equal opponents make 25% the baseline at 4 players),
average status, cast-out rate, and the seconds the tested bot spent per decision (mean,
median and 95th percentile over all its decisions).  Each deck is played once with the
tested bot in every seat (seat rotation), so ``--games`` is rounded up to a multiple of
the table size (of 2 head to head at an even table: see ``seatings``).

A matchup is a level (``easy``, ``medium``, ``hard``, ``expert``: one seat of it against
the level below in every other seat) or ``A-B`` for a head-to-head table (``expert-hard``:
half the seats each, alternating, each deal played with both sides in each place; the win
rate is A's share of the wins in the games somebody won, so 50% is even, with its interval
over those games).

    python bench/ai_tournament.py [--games 400] [--jobs 2] [--budget 0.25]
        [--expert-budget 2.0] [--hard-opponent-budget 1.0]
        [--matchups easy,medium,hard] [--players 4] [--advanced yacht,...] [--seed bench]
    (the expert's rows: --matchups expert,expert-hard)
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import random
import statistics
import sys
import time
from datetime import date
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.ai import BUDGETS, choose_action  # noqa: E402
from games.engine import OVER, apply_action, forced_action, new_game, result, seats_to_act  # noqa: E402

BELOW = {"easy": "random", "medium": "easy", "hard": "medium", "expert": "hard"}
SEARCHERS = ("hard", "expert")


def seatings(matchup: str, players: int) -> int:
    """How many distinct seatings each deal is played with: the tested level in every
    seat, or, head to head at an even table, the two ways of alternating the sides (the
    other rotations repeat them: they would play the same table twice)."""
    return 2 if "-" in matchup and players % 2 == 0 else players


def seat_levels(matchup: str, players: int, tested: int) -> tuple[list[str], set[int]]:
    """Each seat's level and the seats counted as the tested side."""
    if "-" in matchup:
        a, b = matchup.split("-")
        # The pattern a, b, a, b(, a) rotated to start at the tested seat: at an odd table
        # alternating by the seat's own parity would give two rotations the same seating.
        side = {s for s in range(players) if (s - tested) % players % 2 == 0}
        return [a if s in side else b for s in range(players)], side
    return [matchup if s == tested else BELOW[matchup] for s in range(players)], {tested}


def play_one(job: tuple) -> tuple[float, float, float, list[float], bool]:
    """One game: (win share, status, cast out) of the tested side, its decision times,
    and whether anybody won (the winners' shares always add up to 1)."""
    matchup, game, players, budgets, advanced, seed = job
    deal, tested = divmod(game, seatings(matchup, players))
    state = new_game(
        players=players, seed=f"{seed}-{deal}", advanced=advanced, first_player=deal % players
    )
    rngs = [random.Random(f"{seed}-{game}-{seat}") for seat in range(players)]
    levels, side = seat_levels(matchup, players, tested)
    times: list[float] = []
    while state.phase != OVER:
        forced = forced_action(state)
        if forced is not None:
            state = apply_action(state, forced)
            continue
        for seat in seats_to_act(state):
            level = levels[seat]
            kwargs = {}
            if level in SEARCHERS:
                # The tested hard bot plays at its budget; hard opponents at theirs.
                key = level if seat in side or level == "expert" else "hard-opponent"
                kwargs = {"time_budget": budgets[key]}
            t0 = time.perf_counter()
            action = choose_action(state, seat, level, rngs[seat], **kwargs)
            if seat in side:
                times.append(time.perf_counter() - t0)
            state = apply_action(state, action)
    rows = result(state)["players"]
    winners = sum(1 for r in rows if r["winner"])
    share = sum(1.0 / winners for s in side if rows[s]["winner"])
    status = sum(rows[s]["status"] for s in side) / len(side)
    cast = sum(rows[s]["cast_out"] for s in side) / len(side)
    return share, status, cast, times, winners > 0


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=400, help="games per matchup")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument(
        "--budget", type=float, default=BUDGETS["hard"], help="tested hard bot's s/move"
    )
    parser.add_argument(
        "--expert-budget", type=float, default=BUDGETS["expert"], help="expert's s/move"
    )
    parser.add_argument(
        "--hard-opponent-budget", type=float, default=1.0, help="hard opponents' s/move"
    )
    parser.add_argument("--matchups", default="easy,medium,hard", help="comma-separated")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--advanced", default="", help="advanced cards, comma-separated")
    parser.add_argument("--seed", default="bench")
    args = parser.parse_args()
    advanced = tuple(a for a in args.advanced.split(",") if a)
    budgets = {
        "hard": args.budget,
        "expert": args.expert_budget,
        "hard-opponent": args.hard_opponent_budget,
    }
    print(
        f"{date.today()}, {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs,"
        f" Python {platform.python_version()}; {args.players} players,"
        f" advanced={list(advanced)}; budgets: hard {args.budget} s, expert"
        f" {args.expert_budget} s, hard opponents {args.hard_opponent_budget} s;"
        f" {args.jobs} job(s)"
    )
    print(
        f"{'matchup':<22}{'games':>6}{'wins':>8}{'rate':>7}  {'95% interval':<16}"
        f"{'status':>9}{'cast out':>9}{'s/move mean':>12}{'median':>8}{'p95':>7}"
    )
    for matchup in args.matchups.split(","):
        rotations = seatings(matchup, args.players)
        games = -(-args.games // rotations) * rotations
        jobs = [(matchup, g, args.players, budgets, advanced, args.seed) for g in range(games)]
        start = time.perf_counter()
        if args.jobs > 1:
            with Pool(args.jobs) as pool:
                rows = pool.map(play_one, jobs, chunksize=1)
        else:
            rows = [play_one(job) for job in jobs]
        wins = sum(r[0] for r in rows)
        if "-" in matchup:
            a, b = matchup.split("-")
            sides = math.ceil(args.players / 2)
            name = f"{sides} {a} vs {args.players - sides} {b}"
            # A's share of the games somebody won (wins shared across the sides split):
            # 50% is even, whatever the number of games nobody wins.
            decided = sum(r[4] for r in rows)
            low, high = wilson(wins, decided)
            rate = wins / decided if decided else 0.0
        else:
            name = f"{matchup} vs {args.players - 1} {BELOW[matchup]}"
            low, high = wilson(wins, games)
            rate = wins / games
        status = sum(r[1] for r in rows) / games
        cast = sum(r[2] for r in rows) / games
        times = [t for r in rows for t in r[3]]
        mean = statistics.fmean(times) if times else 0.0
        print(
            f"{name:<22}{games:>6}{wins:>8.1f}{rate:>7.1%}  [{low:.1%}, {high:.1%}]"
            f"{status:>9.1f}{cast:>9.1%}{mean:>12.3f}{percentile(times, 0.5):>8.3f}"
            f"{percentile(times, 0.95):>7.3f}   ({time.perf_counter() - start:.0f} s)",
            flush=True,
        )


if __name__ == "__main__":
    main()
