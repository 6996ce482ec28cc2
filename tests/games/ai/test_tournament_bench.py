"""bench/ai_tournament.py keeps working: a tiny run of every kind of matchup prints its
header (date, machine) and one line per matchup with the decision times."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_a_tiny_tournament_prints_every_matchup():
    out = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "ai_tournament.py"),
            "--games=4",
            "--jobs=2",
            "--budget=0.01",
            "--expert-budget=0.01",
            "--hard-opponent-budget=0.01",
            "--matchups=easy,expert,expert-hard",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    ).stdout
    lines = out.splitlines()
    assert "CPUs" in lines[0] and "2 job(s)" in lines[0]
    assert "median" in lines[1] and "p95" in lines[1]
    rows = {line[:22].strip(): line[22:].split() for line in lines[2:]}
    assert set(rows) == {"easy vs 3 random", "expert vs 3 hard", "2 expert vs 2 hard"}
    for name, fields in rows.items():
        assert fields[0] == "4", name  # games
        assert 0.0 <= float(fields[2].rstrip("%")) <= 100.0, name  # win rate
    # The searching bots' decisions are timed: a mean, a median and a 95th percentile.
    mean, median, p95 = (float(x) for x in rows["expert vs 3 hard"][7:10])
    assert 0.0 < median <= p95 and mean > 0.0


def test_no_table_is_played_twice():
    """Head to head at four seats, rotations 2 and 3 repeated rotations 0 and 1 on the same
    deal: "600 games" were 300 tables, each played twice, and the interval too narrow."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("tournament", ROOT / "bench" / "ai_tournament.py")
    tournament = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tournament)
    for matchup, players in [("expert-hard", 4), ("expert-hard", 3), ("expert", 4), ("hard", 5)]:
        rotations = tournament.seatings(matchup, players)
        tables = set()
        for game in range(rotations * 3):
            deal, tested = divmod(game, rotations)
            levels, side = tournament.seat_levels(matchup, players, tested)
            tables.add((deal, tuple(levels)))
            assert len(side) == levels.count(levels[tested])
        assert len(tables) == rotations * 3, (matchup, players, rotations)
        # Every seat holds the tested level in some rotation of a deal.
        assert {
            seat
            for _, levels in tables
            for seat, level in enumerate(levels)
            if level == matchup.split("-")[0]
        } == set(range(players))
