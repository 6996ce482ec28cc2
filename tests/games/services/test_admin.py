"""The admin shows games, seats and moves to staff, read-only, without a running
game's secrets."""

import random
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.chat import chat_post
from games.models import Move
from games.services import game_submit_action
from tests.games.factories import people_game, people_play, scenario_deck

pytestmark = pytest.mark.django_db


@pytest.fixture
def yacht_game(dora, alice, bob):
    game = people_game(
        dora,
        alice,
        bob,
        advanced=["yacht"],
        deck=scenario_deck("yacht lux4", ["yacht"]),
        first_player=0,
    )
    game_submit_action(
        game=game, user=alice, action={"type": "sealed_bid", "card": 15000}, expected_version=0
    )
    return game


def test_staff_see_games_read_only_without_the_secrets(admin_client, yacht_game):
    changelist = admin_client.get(reverse("admin:games_game_changelist"))
    assert changelist.status_code == 200
    page = admin_client.get(reverse("admin:games_game_change", args=[yacht_game.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "hidden until the game is over" in text
    assert "setup_deck" not in text and "lux4" not in text
    assert 'name="_save"' not in text  # nothing to edit
    assert admin_client.get(reverse("admin:games_game_add")).status_code == 403

    moves = admin_client.get(reverse("admin:games_move_changelist"))
    assert moves.status_code == 200
    assert "15000" not in moves.content.decode()  # alice's sealed choice is still secret
    move = Move.objects.get(game=yacht_game)
    assert (
        "15000"
        not in admin_client.get(reverse("admin:games_move_change", args=[move.pk])).content.decode()
    )


def test_people_who_are_not_staff_are_sent_to_the_admin_login(client, alice, yacht_game):
    client.force_login(alice)
    response = client.get(reverse("admin:games_game_changelist"))
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


# --- the lists: ordered by their own columns, never reading a game's state ----------


def _list_read(admin_client, url):
    """The page, and the SQL of every query it made."""
    with CaptureQueriesContext(connection) as queries:
        answer = admin_client.get(url)
    assert answer.status_code == 200
    return answer, [query["sql"] for query in queries.captured_queries]


def _rows_query(sqls, table):
    """The query that reads the page's rows (not a count, not the date links)."""
    (found,) = [
        sql for sql in sqls if sql.startswith(f'SELECT "{table}"."id"') and "ORDER BY" in sql
    ]
    return found


def _games_with_moves(users, count, seed):
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        game = people_game(*users)
        chat_post(game=game, user=users[0], text="good luck")
        games.append(people_play(game, rng, until_version=4))
    return games


@pytest.mark.parametrize(
    ("url", "table", "order_by"),
    [
        (
            "admin:games_move_changelist",
            "games_move",
            'ORDER BY "games_move"."game_id" DESC, "games_move"."number" DESC',
        ),
        (
            "admin:games_chatmessage_changelist",
            "games_chatmessage",
            'ORDER BY "games_chatmessage"."game_id" DESC, "games_chatmessage"."id" ASC',
        ),
        (
            "admin:games_notification_changelist",
            "games_notification",
            'ORDER BY "games_notification"."id" DESC',
        ),
        ("admin:games_game_changelist", "games_game", 'ORDER BY "games_game"."id" DESC'),
    ],
)
def test_a_list_is_sorted_by_its_own_columns_and_reads_no_game_state(
    admin_client, alice, bob, carol, url, table, order_by
):
    """The moves' list sorted by the game's own order (newest first), a join of every
    move with its game, and loaded each game's state: 3.8 s for 760,000 moves.  Each
    list is sorted by its own table's columns (an index), reads no game's JSON, and
    makes as many queries for twice the rows."""
    _games_with_moves((alice, bob, carol), 2, seed=1)
    answer, sqls = _list_read(admin_client, reverse(url))
    rows = _rows_query(sqls, table)
    assert order_by in rows, rows
    assert set(re.findall(r'"(\w+)"\.', rows.partition("ORDER BY")[2])) == {table}
    assert not [sql for sql in sqls if '"games_game"."state"' in sql]
    assert not [sql for sql in sqls if '"games_game"."result"' in sql]
    assert len(answer.context["cl"].result_list) >= 2

    _games_with_moves((alice, bob, carol), 2, seed=2)
    again, more = _list_read(admin_client, reverse(url))
    assert len(again.context["cl"].result_list) > len(answer.context["cl"].result_list)
    assert len(more) == len(sqls)


def test_the_moves_list_shows_the_newest_game_first_its_moves_last_first(
    admin_client, alice, bob, carol
):
    first, second = _games_with_moves((alice, bob, carol), 2, seed=3)
    answer = admin_client.get(reverse("admin:games_move_changelist"))
    listed = [(move.game_id, move.number) for move in answer.context["cl"].result_list]
    assert listed == [(second.pk, n) for n in (3, 2, 1, 0)] + [(first.pk, n) for n in (3, 2, 1, 0)]
    text = answer.content.decode()
    assert f"Game {second.pk} (active)" in text
    # A game's number sorts the list by the move's column too, not the game's order.
    by_game = admin_client.get(reverse("admin:games_move_changelist") + "?o=0")
    assert by_game.status_code == 200
    assert [m.game_id for m in by_game.context["cl"].result_list][:4] == [first.pk] * 4
