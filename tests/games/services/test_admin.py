"""The admin shows games, seats and moves to staff, read-only, without a running
game's secrets."""

import random
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.chat import chat_post
from games.models import Game, Move
from games.services import game_create, game_submit_action
from tests.factories import UserFactory
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


# --- why a table closed before its start ---------------------------------------------


def _waiting_table(host, guest):
    """``host``'s table of 3: ``guest`` invited (told when it closes), a seat open."""
    return game_create(creator=host, players=3, seats=[{"user": guest.username}, {"open": True}])


@pytest.fixture
def closed_tables(alice, bob, carol, dave, erin):
    """One table closed each way: by its host (Alice), by her host's suspension (Bob),
    by her host's deletion (Carol), after waiting too long (Dave's)."""
    from datetime import timedelta

    from django.utils import timezone

    from accounts.deletion import account_delete
    from accounts.suspension import account_suspend
    from games.services import game_leave, waiting_table_expire

    host = game_leave(game=_waiting_table(alice, erin), user=alice)
    suspended = _waiting_table(bob, erin)
    account_suspend(user=bob)
    deleted = _waiting_table(carol, erin)
    account_delete(user=carol)
    waited = _waiting_table(dave, erin)
    now = timezone.now()
    Game.objects.filter(pk=waited.pk).update(updated_at=now - timedelta(days=31))
    assert waiting_table_expire(game_id=waited.pk, now=now)
    return {
        "host": host.pk,
        "suspended": suspended.pk,
        "deleted": deleted.pk,
        "waited": waited.pk,
    }


def test_the_page_of_a_table_closed_before_its_start_says_why_and_when(admin_client, closed_tables):
    """A table closed by its host, by its host's suspension or after waiting 30 days
    looked the same here: "Abandoned", no reason.  Each way of closing keeps its
    reason and time, and the game's page shows both, read only."""
    said = {
        "host": "Its host closed it",
        "suspended": "Its host&#x27;s account was suspended",
        "deleted": "Its host&#x27;s account was deleted",
        "waited": "It waited too long for players, with nothing changed",
    }
    for reason, pk in closed_tables.items():
        game = Game.objects.get(pk=pk)
        assert (game.status, game.closed_reason) == ("abandoned", reason)
        assert abs((game.updated_at - game.closed_at).total_seconds()) < 1
        page = admin_client.get(reverse("admin:games_game_change", args=[pk])).content.decode()
        assert "Reason for closing" in page and said[reason] in page, reason
        assert "Closed at" in page
        for other in set(said) - {reason}:
            assert said[other] not in page
        assert 'name="_save"' not in page  # still read only
    # Closed before the reason was kept: said unknown, not taken for one of them.
    Game.objects.filter(pk=closed_tables["host"]).update(closed_reason="", closed_at=None)
    page = admin_client.get(
        reverse("admin:games_game_change", args=[closed_tables["host"]])
    ).content.decode()
    assert "Unknown (closed before the reason was kept)" in page
    assert "Its host closed it" not in page


def test_staff_filter_the_games_by_why_they_closed(admin_client, closed_tables):
    running = people_game(*[UserFactory() for _ in range(3)])
    listing = reverse("admin:games_game_changelist")
    for reason, pk in closed_tables.items():
        answer = admin_client.get(listing, {"closed": reason})
        assert [game.pk for game in answer.context["cl"].result_list] == [pk], reason
    Game.objects.filter(pk=closed_tables["waited"]).update(closed_reason="")
    answer = admin_client.get(listing, {"closed": "unknown"})
    assert [game.pk for game in answer.context["cl"].result_list] == [closed_tables["waited"]]
    assert "By reason for closing" in answer.content.decode()
    page = admin_client.get(reverse("admin:games_game_change", args=[running.pk]))
    assert "Reason for closing" not in page.content.decode()
    assert "Closed at" not in page.content.decode()


def test_the_reasons_of_tables_closed_before_are_filled_where_the_data_says_them(
    closed_tables, bob
):
    """games/migrations/0023: an old table that waited too long (``closed_waiting``),
    or whose closing e-mails say its host closed it, or a host's account that is still
    suspended; a host since deleted (suspended first, or not) stays unknown."""
    import importlib

    from django.apps import apps

    migration = importlib.import_module("games.migrations.0023_game_closed_reason")
    Game.objects.filter(pk__in=closed_tables.values()).update(closed_reason="", closed_at=None)
    migration.closed_reasons_derived(apps, None)
    assert {
        reason: Game.objects.get(pk=pk).closed_reason for reason, pk in closed_tables.items()
    } == {"host": "host", "suspended": "suspended", "deleted": "", "waited": "waited"}
    # Reinstated since: a suspension or a deletion that failed half-way, unknown.
    type(bob).objects.filter(pk=bob.pk).update(is_active=True)
    Game.objects.filter(pk__in=closed_tables.values()).update(closed_reason="")
    migration.closed_reasons_derived(apps, None)
    assert Game.objects.get(pk=closed_tables["suspended"]).closed_reason == ""
    assert Game.objects.get(pk=closed_tables["host"]).closed_reason == "host"
