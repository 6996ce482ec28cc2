"""The API hands an away player's seat to a bot as the host's board does
(``POST /api/v1/games/{id}/seats/{position}/hand-over/``), under the same rule
(games.clock.may_hand_over), and its game view says what that rule reads: each seat's
missed deadlines, vacation, and at a table without deadlines since when it is waited for."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game, Move, Seat
from tests.games.api.conftest import token_client

pytestmark = pytest.mark.django_db


def _hand_over(client, game, position):
    return client.post(f"/api/v1/games/{game.pk}/seats/{position}/hand-over/")


def test_after_missed_deadlines_the_host_hands_the_seat_over(
    dora, bob, bobs_table, misses_deadline, run_commits
):
    host, player = token_client(dora), token_client(bob)
    game = misses_deadline(bobs_table, dora, 1)
    early = _hand_over(host, game, 1)
    assert (early.status_code, early.json()["code"]) == (409, "not_allowed")
    assert early.json()["detail"] == (
        "This seat has missed 1 deadline; it can be handed to a bot after 2."
    )
    game = misses_deadline(game, dora, 1)
    view = host.get(f"/api/v1/games/{game.pk}/").json()
    assert [s["timeouts"] for s in view["seats_info"]] == [0, 2, 0]
    assert all(s["idle_since"] is None for s in view["seats_info"])  # deadlines count here
    refused = [
        (player, 1, 409, "Only the table's creator can hand a seat to a bot."),
        (host, 0, 409, "This is your own seat: resign instead."),
        (host, 2, 409, "A bot already plays this seat."),
        (
            host,
            3,
            400,
            "There is no seat 3 at this table: seats are numbered from 0 to 2.",
        ),
        # The same 400 for anyone: a seat the table does not have is a bad request.
        (player, 9, 400, "There is no seat 9 at this table: seats are numbered from 0 to 2."),
    ]
    for client, position, code, said in refused:
        answer = _hand_over(client, game, position)
        assert (answer.status_code, answer.json()["detail"]) == (code, said)
    assert not Seat.objects.get(game=game, position=1).is_bot
    with run_commits():
        answer = _hand_over(host, game, 1)
    assert answer.status_code == 200, answer.json()
    (seat,) = [s for s in answer.json()["seats_info"] if s["position"] == 1]
    assert seat["handed_over"] and seat["is_bot"] and seat["username"] == "bob"
    moves = Move.objects.filter(game=game).count()
    again = _hand_over(host, game, 1)  # a retry: the same answer, nothing changes
    assert again.status_code == 200 and Move.objects.filter(game=game).count() == moves
    assert Seat.objects.filter(game=game, handed_over=True).count() == 1


def test_at_a_table_without_deadlines_the_view_says_since_when_it_waits(
    dora, bob, outsider, bobs_table_with, run_commits
):
    game = bobs_table_with(deadline=None)
    since = timezone.now() - timedelta(days=6)
    Game.objects.filter(pk=game.pk).update(turn_started_at=since)
    host = token_client(dora)
    seats = host.get(f"/api/v1/games/{game.pk}/").json()["seats_info"]
    assert [s["idle_since"] for s in seats] == [
        None,
        since.isoformat().replace("+00:00", "Z"),
        None,
    ]
    stranger = token_client(outsider).get(f"/api/v1/games/{game.pk}/").json()["seats_info"]
    assert [s["idle_since"] for s in stranger] == [None, None, None]  # the players' only
    early = _hand_over(host, game, 1)
    assert early.status_code == 409
    assert early.json()["detail"].startswith(
        "At a table without move deadlines, a seat can be handed to a bot after 7 days "
        "without its move: this one from "
    )
    Game.objects.filter(pk=game.pk).update(turn_started_at=since - timedelta(days=2))
    with run_commits():
        answer = _hand_over(host, game, 1)
    assert answer.status_code == 200, answer.json()
    assert answer.json()["seats_info"][1]["handed_over"]
