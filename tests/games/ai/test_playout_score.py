"""How a searching bot scores one playout: its win share, plus a small weight times its
status margin over the best other survivor; being cast out scores least."""

from __future__ import annotations

import random

import pytest

from games.ai.policy import play_policy
from games.ai.search import MARGIN_SCALE, MARGIN_WEIGHT, playout_score
from games.engine import new_game, result


def finished_games(count: int = 40):
    for i in range(count):
        state = new_game(players=4, seed=f"score-{i}", first_player=i % 4)
        end = play_policy(state, random.Random(i))
        yield end, result(end)["players"]


def test_the_score_is_the_win_share_plus_the_weighted_margin():
    weight = MARGIN_WEIGHT
    seen = {"cast out": 0, "winner": 0, "survivor": 0}
    for end, rows in finished_games():
        winners = sum(r["winner"] for r in rows)
        for row in rows:
            score = playout_score(end, row["seat"])
            if row["cast_out"]:
                seen["cast out"] += 1
                assert score == -weight
                continue
            others = [r["status"] for r in rows if r["seat"] != row["seat"] and not r["cast_out"]]
            margin = (row["status"] - max(others)) / MARGIN_SCALE if others else 1.0
            share = 1 / winners if row["winner"] else 0.0
            seen["winner" if row["winner"] else "survivor"] += 1
            assert score == pytest.approx(share + weight * max(-1.0, min(1.0, margin)))
            # A win scores at least its share; a survivor who lost, between being cast
            # out and nothing.
            if row["winner"]:
                assert score >= share
            else:
                assert -weight <= score <= 0
    assert all(seen.values()), seen  # every kind of result was met
