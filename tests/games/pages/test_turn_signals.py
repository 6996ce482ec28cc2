"""Signals that it is your turn (issue #14): the page title counts the games waiting for
your move, "(2) Your turn — Table 5", and the header shows the same count."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.selectors import turns_waiting_count
from tests.games.factories import people_game, scenario_deck
from tests.games.pages.conftest import act

pytestmark = pytest.mark.django_db


def test_the_count_of_games_waiting_for_a_move(dora, alice, bob):
    first = people_game(dora, alice, bob, deck=scenario_deck("lux5"), first_player=0)
    people_game(dora, alice, bob, deck=scenario_deck("lux5"), first_player=1)
    yacht = people_game(
        dora,
        alice,
        bob,
        advanced=["yacht"],
        deck=scenario_deck("yacht lux1", ["yacht"]),
        first_player=0,
    )
    # Dora: her turn at the first table, her sealed choice at the third.
    assert turns_waiting_count(dora) == 2
    assert turns_waiting_count(alice) == 2  # the second table, and her sealed choice
    act(first, dora, type="pass")
    assert turns_waiting_count(dora) == 1
    act(yacht, dora, type="sealed_bid", card=1000)
    assert turns_waiting_count(dora) == 0
    assert turns_waiting_count(None) == 0


def test_the_title_and_the_header_count_them(client, dora, alice, bob):
    game = people_game(dora, alice, bob, deck=scenario_deck("lux5"), first_player=0)
    client.force_login(dora)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert f"<title>(1) Your turn — Table {game.pk} · High Society</title>" in html
    assert 'id="turns-waiting-count">1<' in html
    assert f'data-title="(1) Your turn — Table {game.pk} · High Society"' in html
    assert "<title>(1) " in client.get("/").content.decode()
    client.force_login(alice)  # not her turn
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert f"<title>Table {game.pk} · High Society</title>" in html
    assert '<li hidden id="turns-waiting" hx-get="/games/turns/"' in html


def test_pages_ask_for_the_count_again_and_see_turns_at_other_tables(client, dora, alice, bob):
    """A board left open said nothing of a turn at another table until the player
    moved there or reloaded (only the lobby redrew the count)."""
    watched = people_game(dora, alice, bob, deck=scenario_deck("lux5"), first_player=2)
    other = people_game(dora, alice, bob, deck=scenario_deck("lux5"), first_player=2)
    client.force_login(dora)
    board = client.get(f"/games/{watched.pk}/").content.decode()
    assert 'id="turns-waiting" hx-get="/games/turns/" hx-trigger="every 60s"' in board
    assert 'hx-get="/games/turns/"' not in client.get("/").content.decode()  # lists do
    assert '<li hidden id="turns-waiting"' in client.get("/games/turns/").content.decode()
    act(other, bob, type="pass")  # Dora's turn at the other table
    answer = client.get("/games/turns/")
    assert answer.status_code == 200 and answer["Cache-Control"].startswith("max-age=0")
    assert 'id="turns-waiting-count">1<' in answer.content.decode()
    assert '<li id="turns-waiting" hx-get="/games/turns/"' in answer.content.decode()
    client.logout()
    assert client.get("/games/turns/").status_code == 204  # a visitor's header has none


def test_visitors_cost_no_query_for_it(client):
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/rules/").status_code == 200
    assert len(queries) == 0
