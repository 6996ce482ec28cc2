"""The lobby's "Games to watch": the running games that moved last and the games that
ended last, for visitors and players alike, each with its way in (watch the table,
replay the game); never a player's own games (they are in "Your games") nor a staff
scenario table, and always in the same number of queries."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Game
from games.presenter import join_names
from games.selectors import LOBBY_WATCH, games_just_finished
from games.services import game_create
from tests.factories import UserFactory
from tests.games.factories import people_game, people_play, scenario_deck

pytestmark = pytest.mark.django_db


def _section(html: str) -> str:
    """The "Games to watch" section of a lobby page ("" when it is not there)."""
    start = html.find('aria-labelledby="watch-title"')
    return html[start : html.index("</section>", start)] if start >= 0 else ""


def _finished(*players) -> Game:
    return people_play(people_game(*players), random.Random(7))


def test_a_visitor_sees_a_running_and_a_finished_game_with_their_way_in(client):
    running = people_game(*(UserFactory(display_name=n) for n in ("Ann", "Ben", "Cy")))
    over = _finished(*(UserFactory(display_name=n) for n in ("Dee", "Eve", "Fay")))
    assert over.status == Game.Status.FINISHED
    section = _section(client.get("/").content.decode())
    assert "Being played" in section and "Just finished" in section
    assert f'href="/games/{running.pk}/"' in section and "Watch" in section
    assert all(name in section for name in ("Ann", "Ben", "Cy", "Dee", "Eve", "Fay"))
    assert f'href="/games/{over.pk}/replay/"' in section
    first = [row["seat"] for row in over.result["players"] if row["winner"]]
    names = {0: "Dee", 1: "Eve", 2: "Fay"}
    # A secure shuffle: now and then everybody ends cast out, and nobody wins.
    said = f"First: {join_names([names[s] for s in first])}" if first else "Nobody won"
    assert said in section
    # The way in works for the visitor: the table as a spectator sees it, the replay.
    assert client.get(f"/games/{running.pk}/").status_code == 200
    assert client.get(f"/games/{over.pk}/replay/").status_code == 200


@pytest.mark.parametrize("fixed", ["deck", "first_player"])
def test_a_players_own_games_and_scenario_tables_are_not_among_the_games_to_watch(
    client, alice, bob, carol, dora, fixed
):
    own = people_game(alice, bob, carol)
    scenario = game_create(
        creator=dora,
        players=3,
        seats=[{"ai": "easy"}, {"ai": "easy"}],
        **({"deck": scenario_deck("lux5")} if fixed == "deck" else {"first_player": 1}),
    )
    other = people_game(*(UserFactory() for _ in range(3)))
    client.force_login(alice)
    section = _section(client.get("/").content.decode())
    assert f'href="/games/{other.pk}/"' in section
    assert f'href="/games/{own.pk}/"' not in section
    assert f'href="/games/{scenario.pk}/"' not in section
    # The visitor sees alice's table, not the scenario.
    client.logout()
    section = _section(client.get("/").content.decode())
    assert f'href="/games/{own.pk}/"' in section
    assert f'href="/games/{scenario.pk}/"' not in section


def test_no_section_without_games_to_watch(client):
    assert 'id="watch-title"' not in client.get("/").content.decode()


def test_a_game_nobody_won_says_so(client):
    over = _finished(*(UserFactory() for _ in range(3)))
    result = over.result
    for row in result["players"]:
        row["winner"] = False  # as when everyone tied for the least money
    Game.objects.filter(pk=over.pk).update(result=result)
    (listed,) = games_just_finished(user=None)
    assert listed.first == ""
    assert "Nobody won" in _section(client.get("/").content.decode())


def test_the_games_to_watch_cost_the_same_queries_however_many_games_there_are(client, alice):
    client.force_login(alice)
    for _ in range(2):
        people_game(*(UserFactory() for _ in range(3)))
        _finished(*(UserFactory() for _ in range(3)))
    with CaptureQueriesContext(connection) as few:
        client.get("/")
    for _ in range(LOBBY_WATCH + 2):
        people_game(*(UserFactory() for _ in range(3)))
        _finished(*(UserFactory() for _ in range(3)))
    with CaptureQueriesContext(connection) as many:
        html = client.get("/").content.decode()
    assert len(many) == len(few)
    section = _section(html)
    assert section.count(">Watch<") == LOBBY_WATCH
    assert section.count(">Replay<") == LOBBY_WATCH


def test_the_lobbys_refresh_does_not_read_the_games_to_watch(client, alice):
    """The 20 s refresh swaps in the player's own lists only: it neither reads the
    games to watch (running and finished, with their seats) nor sends them."""
    people_game(*(UserFactory() for _ in range(3)))
    _finished(*(UserFactory() for _ in range(3)))
    client.force_login(alice)
    with CaptureQueriesContext(connection) as page:
        client.get("/")
    with CaptureQueriesContext(connection) as refresh:
        html = client.get("/", HTTP_HX_REQUEST="true").content.decode()
    assert len(refresh) == len(page) - 4
    assert 'id="watch-title"' not in html


def test_the_games_of_a_switched_off_account_are_not_shown(client):
    """A suspended or deactivated account's profile is gone and the leaderboard leaves
    it out: its name is not on the lobby either."""
    from accounts.models import User

    gone = UserFactory(display_name="Gone")
    running = people_game(gone, *(UserFactory() for _ in range(2)))
    over = _finished(gone, *(UserFactory() for _ in range(2)))
    User.objects.filter(pk=gone.pk).update(is_active=False)
    section = _section(client.get("/").content.decode())
    assert f"/games/{running.pk}/" not in section and f"/games/{over.pk}/" not in section
    assert "Gone" not in section
