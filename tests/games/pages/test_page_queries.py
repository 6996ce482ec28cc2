"""The lobby and the board cost a fixed number of queries, whatever the number of
games a player has and the number of moves a game has; the lobby's "Your turn" rows
and the header's count read only the fields of each state that say who is to act."""

from __future__ import annotations

import random
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import selectors, services
from games.engine import seats_to_act
from games.models import Game
from tests.games.pages.conftest import act, play_passing, table_make
from tests.moves import action_pick

pytestmark = pytest.mark.django_db


def queries(client, path: str) -> list[str]:
    client.get(path)  # warm: the session, the content types
    with CaptureQueriesContext(connection) as captured:
        response = client.get(path)
    assert response.status_code == 200
    return [query["sql"] for query in captured]


def test_lobby_queries_are_fixed_for_many_games_with_many_moves(client, host, bob, carol):
    client.force_login(bob)
    users = {0: host, 1: bob, 2: carol}
    first = table_make(host, [bob, carol])
    play_passing(table_make(host, [bob, carol]), users)
    services.game_create(creator=carol, players=3, seats=[{"open": True}, {"ai": "easy"}])
    few = queries(client, "/")  # one of each kind of row: an empty list costs less
    for _ in range(6):
        game = table_make(host, [bob, carol])
        play_passing(game, users, until=lambda state: state.moves > 14)
        play_passing(table_make(host, [bob, carol]), users)
    services.game_create(creator=host, players=3, seats=[{"user": bob.username}, {"ai": "easy"}])
    for _ in range(5):
        services.game_create(creator=carol, players=3, seats=[{"open": True}, {"ai": "easy"}])
    many = queries(client, "/")
    assert len(many) == len(few), many
    # No game's whole state (the events of every move) is read for the list: only fields
    # out of its JSON column (PostgreSQL's ->>, SQLite's JSON_EXTRACT).
    for sql in many:
        rest = re.sub(
            r'"games_game"\."state" ->>|JSON_(EXTRACT|TYPE)\("games_game"\."state"', "", sql
        )
        assert '"games_game"."state"' not in rest, sql
    # The header's count comes from the list on this page, and says what the query says.
    client.force_login(host)  # first player at the first table: at least one turn
    html = client.get("/").content.decode()
    waiting = selectors.turns_waiting_count(host)
    assert waiting >= 1 and f'id="turns-waiting-count">{waiting}<' in html
    assert html.count('<span class="badge badge--turn">Your turn</span>') == waiting
    assert first.pk


def test_board_queries_do_not_grow_with_the_moves(client, host, bob, carol):
    users = {0: host, 1: bob, 2: carol}
    short = table_make(host, [bob, carol])
    act(short, host, type="pass")
    long = table_make(host, [bob, carol])
    long = play_passing(long, users, until=lambda state: state.moves > 14)
    assert long.status == Game.Status.ACTIVE and long.version > short.version + 10
    client.force_login(bob)
    assert len(queries(client, f"/games/{long.pk}/")) == len(queries(client, f"/games/{short.pk}/"))
    client.logout()  # a spectator too
    assert len(queries(client, f"/games/{long.pk}/")) == len(queries(client, f"/games/{short.pk}/"))


def test_finished_board_queries_do_not_grow_with_the_moves(client, host, bob, carol):
    users = {0: host, 1: bob, 2: carol}
    one = play_passing(table_make(host, [bob, carol]), users)
    two = play_passing(table_make(host, [bob, carol]), users)
    assert one.status == two.status == Game.Status.FINISHED
    client.force_login(carol)
    assert len(queries(client, f"/games/{one.pk}/")) == len(queries(client, f"/games/{two.pk}/"))


def test_the_header_count_and_the_lobby_agree_through_every_phase(host, bob, carol):
    """Auction turns, Theft's discard and the sealed Yacht Club choice (several seats
    to act at once): the count of the header and the lobby's rows are the engine's."""
    users = {0: host, 1: bob, 2: carol}
    game = table_make(host, [bob, carol], advanced=("yacht", "excursions", "gambling"), deck=None)
    phases = set()
    for _ in range(300):
        game = Game.objects.get(pk=game.pk)
        if game.status != Game.Status.ACTIVE:
            break
        state = game.engine_state()
        phases.add(state.phase)
        to_act = set(seats_to_act(state))
        for position, user in users.items():
            mine = [g for g in selectors.games_for_user(user=user) if g.pk == game.pk]
            assert mine[0].your_turn is (position in to_act), (state.phase, position)
            assert selectors.turns_waiting_count(user) == (1 if position in to_act else 0)
        seat = sorted(to_act)[0]
        action = action_pick(state, seat, random.Random(game.version))
        act(game, users[seat], **action)
    assert game.status == Game.Status.FINISHED, phases  # "sealed" only if the Yacht Club came up
