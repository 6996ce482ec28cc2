"""GET /api/v1/users/{username}/ reads the stored stats: the same figures as the
profile page, with the rating, its history, recent games and head-to-head records."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from accounts.models import PlayerResult, PlayerStats
from tests.games.api.conftest import token_client
from tests.games.records.conftest import played_game
from tests.games.records.test_stats import five_games  # noqa: F401  (a fixture)

FIELDS = {
    "username",
    "display_name",
    "games_played",
    "games_won",
    "win_rate",
    "average_status",
    "times_cast_out",
    "rating",
    "rated_games",
    "games_resigned",
    "rating_mu",
    "rating_sigma",
    "most_won_cards",
    "rating_history",
    "recent_games",
    "head_to_head",
}


@pytest.fixture
def api(bob, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"user": "10000/min", "ip": "10000/min", "auth": "10000/min"},
    }
    return token_client(bob)


def test_the_fields_and_the_hand_checked_figures(api, five_games, alice):  # noqa: F811
    response = api.get("/api/v1/users/alice/")
    assert response.status_code == 200
    body = response.json()
    assert set(body) == FIELDS
    stats = PlayerStats.objects.get(user=alice)
    expected = {
        "username": "alice",
        "display_name": "Alice",
        "games_played": 5,
        "games_won": 1,
        "win_rate": 0.2,
        "average_status": 4.25,  # over the four games she did not resign from
        "times_cast_out": 2,
        "rating": stats.rating,
        "rated_games": 3,
        "games_resigned": 1,
        "rating_mu": stats.rating_mu,
        "rating_sigma": stats.rating_sigma,
    }
    assert {key: body[key] for key in expected} == expected
    assert body["most_won_cards"][:2] == [
        {"card": "prestige", "count": 1},
        {"card": "lux10", "count": 1},  # not G4's: her seat's bot won it
    ]
    assert [point["game"] for point in body["rating_history"]] == [g.pk for g in five_games[:3]]
    assert body["rating_history"][-1]["rating"] == stats.rating
    assert [g["game"] for g in body["recent_games"]] == [g.pk for g in reversed(five_games)]
    g4 = body["recent_games"][1]
    assert g4 == {
        "game": five_games[3].pk,
        "finished_at": g4["finished_at"],
        "seat": 0,
        "place": 1,
        "won": False,
        "cast_out": False,
        "resigned": True,
        "handed_over": False,
        "status": 10,
        "rated": False,
        "rating_change": None,
    }
    h2h = {(h["opponent"], h["bot_level"]): h for h in body["head_to_head"]}
    assert h2h[("bob", None)] == {
        "opponent": "bob",
        "opponent_name": "Bob",
        "bot_level": None,
        "games": 5,
        "wins": 0,
        "losses": 3,
        "draws": 2,
    }
    assert h2h[(None, "easy")]["opponent_name"] == "Bot (easy)"
    # In the language asked for, as the seats name bots (it stayed "Bot (easy)").
    german = api.get("/api/v1/users/alice/", HTTP_ACCEPT_LANGUAGE="de").json()
    bots = [h["opponent_name"] for h in german["head_to_head"] if h["bot_level"] == "easy"]
    assert bots == ["Bot (leicht)"]


def test_a_newcomer_has_nulls_and_empty_lists(api, dave):
    body = api.get("/api/v1/users/dave/").json()
    assert set(body) == FIELDS
    assert body["games_played"] == 0 and body["rating"] is None and body["win_rate"] is None
    assert body["rating_mu"] is None and body["rating_history"] == []
    assert body["recent_games"] == [] and body["head_to_head"] == []


def test_the_endpoint_agrees_with_the_stored_results(api, alice, bob, carol):
    for seed in range(6):
        played_game([alice, bob, carol, "hard"][: 3 + seed % 2], seed=seed)
    body = api.get("/api/v1/users/carol/").json()
    results = PlayerResult.objects.filter(user=carol)
    assert body["games_played"] == results.count() == 6
    assert body["games_won"] == results.filter(won=True).count()
    assert body["times_cast_out"] == results.filter(cast_out=True).count()
    total = sum(r.status for r in results)
    assert body["average_status"] == round(total / 6, 2)


def test_queries_do_not_grow_with_games(api, alice, bob, carol):
    def count():
        with CaptureQueriesContext(connection) as queries:
            assert api.get("/api/v1/users/alice/").status_code == 200
        return len(queries)

    played_game([alice, bob, carol], seed=1)
    api.get("/api/v1/users/alice/")  # the token's first use writes "last used"
    few = count()
    for seed in range(2, 30):
        played_game([alice, bob, carol], seed=seed)
    assert count() == few == 6  # token, user, stats, rating history, recent, head-to-head


def test_anonymous_callers_are_refused(alice):
    assert APIClient().get("/api/v1/users/alice/").status_code == 401


def test_the_leaderboard_as_the_page_shows_it(api, settings, alice, bob, carol):
    """GET /api/v1/leaderboard/: the players with enough rated games, best first, with
    their rank across pages, and each bot level's rating (there was no route for it)."""
    from accounts.selectors import leaderboard_players

    settings.LEADERBOARD_MIN_GAMES = 1
    for seed in range(3):
        played_game([alice, bob, carol, "medium"], seed=40 + seed)
    body = api.get("/api/v1/leaderboard/").json()
    expected = list(leaderboard_players())
    assert body["count"] == len(expected) == 3 and body["min_games"] == 1
    assert [row["username"] for row in body["results"]] == [s.user.username for s in expected]
    assert [row["rank"] for row in body["results"]] == [1, 2, 3]
    assert body["results"][0]["rating"] == expected[0].rating
    assert [bot["level"] for bot in body["bots"]] == ["medium"]
    second = api.get("/api/v1/leaderboard/?page=2&page_size=2").json()
    assert [row["rank"] for row in second["results"]] == [3] and second["previous"]
    refused = api.get("/api/v1/leaderboard/?page=0")
    assert refused.status_code == 400 and refused.json()["code"] == "invalid"
    assert APIClient().get("/api/v1/leaderboard/").status_code == 401


def test_a_player_is_found_as_the_profile_page_finds_them(api, db):
    """The API looked a name up exactly or in ASCII case only: ZOË was nobody."""
    from tests.factories import UserFactory

    UserFactory(username="zoë", display_name="Zoë")
    for name in ("zo%C3%AB", "ZO%C3%8B", "zoe"):
        response = api.get(f"/api/v1/users/{name}/")
        assert response.status_code == 200 and response.json()["username"] == "zoë", name
