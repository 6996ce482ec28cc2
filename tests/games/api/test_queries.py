"""Database queries per API request stay constant as a game grows longer."""

from __future__ import annotations

import random

from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.games.api.conftest import people_table
from tests.moves import view_choose as choose

NAMES = ["alice", "bob", "carol"]


def _count(call) -> tuple[int, object]:
    with CaptureQueriesContext(connection) as queries:
        response = call()
    return len(queries), response


def test_queries_per_request_do_not_grow_with_the_game(clients):
    rng = random.Random(11)
    view = people_table(clients, "alice", ["bob", "carol"])
    game_id = view["id"]
    url = f"/api/v1/games/{game_id}/"
    # Warm up each client once ("last used" of a fresh token is written on first use).
    for name in NAMES:
        clients[name].get(url)
    counts: dict[str, list[int]] = {"view": [], "move": [], "log": [], "list": []}
    versions = []
    while True:
        n, response = _count(lambda: clients["alice"].get(url))
        view = response.json()
        if view["status"] != "active":
            break
        counts["view"].append(n)
        n, _ = _count(lambda: clients["bob"].get(f"{url}moves/?since=0"))
        counts["log"].append(n)
        n, _ = _count(lambda: clients["carol"].get("/api/v1/games/?mine=true"))
        counts["list"].append(n)
        name = NAMES[view["to_act"][0]]
        mine = clients[name].get(url).json()
        body = {**choose(mine, rng), "version": mine["version"]}
        n, response = _count(
            lambda: clients[name].post(f"{url}moves/", body, format="json")  # noqa: B023
        )
        assert response.status_code == 201
        counts["move"].append(n)
        versions.append(mine["version"])
    assert versions[-1] >= 20, "the game should be long enough to show growth"
    # The move that ends the game also records stats and ratings in its transaction
    # (games.ratings.record_finished_game), and its answer, the view of a finished game,
    # looks up the rematch table and the rating changes (``ending``): a figure of its
    # own, also constant.
    final_move = counts["move"].pop()
    assert final_move <= 22, final_move
    # One figure per endpoint, from the first move to the last.
    for endpoint, figures in counts.items():
        assert len(set(figures)) == 1, (endpoint, figures)
    assert counts["view"][0] <= 3  # token, game, seats
    assert counts["log"][0] <= 3  # token, game, moves with the phase
    assert counts["list"][0] <= 5  # token, count, page, seats
    # token; savepoint, the game locked, then its seats (the one lock order), the moves
    # inserted, the game updated, release; the answer: the game and its seats read again
    assert counts["move"][0] <= 9, counts["move"][0]
