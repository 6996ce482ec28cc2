"""Contract tests of the move endpoints: every answer of POST .../moves/ (201, 400,
401, 403, 404, 409), bad bodies, Theft and Yacht Club actions, the public log."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from rest_framework.test import APIClient

from games.models import Game, Move
from tests.factories import UserFactory
from tests.games.api.conftest import create, token_client
from tests.games.factories import StaffUserFactory, scenario_deck

pytestmark = pytest.mark.embedded


GAMES = "/api/v1/games/"
NAMES = ("dora", "bob", "carol")  # seats 0, 1, 2 of every scenario here


def _error(response, status: int, code: str | None = None) -> dict:
    assert response.status_code == status, (response.status_code, response.content)
    body = response.json()
    assert set(body) <= {"detail", "code", "errors", "version"} and body["detail"]
    if code is not None:
        assert body["code"] == code, body
    return body


def scenario(clients, top: str, *, first_player: int = 0, advanced=()) -> int:
    """A started 3-player table: dora (staff) seat 0, bob 1, carol 2, a fixed deck."""
    view = create(
        clients["dora"],
        players=3,
        seats=[{"user": "bob"}, {"user": "carol"}],
        deck=scenario_deck(top, advanced),
        first_player=first_player,
        advanced=list(advanced),
    )
    for name in ("bob", "carol"):
        assert clients[name].post(f"{GAMES}{view['id']}/join/").status_code == 200
    return view["id"]


def move(clients, name: str, game_id: int, **body):
    return clients[name].post(f"{GAMES}{game_id}/moves/", body, format="json")


def view_of(clients, name: str, game_id: int) -> dict:
    return clients[name].get(f"{GAMES}{game_id}/").json()


def stored(game_id: int) -> tuple:
    game = Game.objects.get(pk=game_id)
    return game.version, game.state, Move.objects.filter(game=game).count()


# --------------------------------------------------------------------------- 201


def test_a_bid_answers_201_with_the_new_view(clients):
    game_id = scenario(clients, "lux5")
    response = move(clients, "dora", game_id, type="bid", cards=[3000, 1000], version=0)
    assert response.status_code == 201
    view = response.json()
    assert view["version"] == 1 and view["your_seat"] == 0
    assert view["seats"][0]["bid"] == [1000, 3000] and view["seats"][0]["bid_total"] == 4000
    assert 1000 not in view["hand"] and view["turn"] == 1 and view["legal_actions"] is None
    moved = Move.objects.get(game_id=game_id)
    assert (moved.number, moved.seat, moved.actor) == (0, 0, "player")
    assert moved.action == {"seat": 0, "type": "bid", "cards": [1000, 3000]}
    # Seat given explicitly; and a pass.
    assert move(clients, "bob", game_id, seat=1, type="pass", version=1).status_code == 201


def test_the_summary_to_beat_is_what_the_next_bid_must_exceed(clients):
    game_id = scenario(clients, "lux5")
    move(clients, "dora", game_id, type="bid", cards=[4000], version=0)
    legal = view_of(clients, "bob", game_id)["legal_actions"]
    assert legal["to_beat"] == 4000 and legal["current_bid"] == 0
    _error(move(clients, "bob", game_id, type="bid", cards=[3000, 1000], version=1), 400)
    assert (
        move(clients, "bob", game_id, type="bid", cards=[3000, 2000], version=1).status_code == 201
    )


# --------------------------------------------------------------------------- 400


@pytest.mark.parametrize(
    "body, words",
    [
        ({"type": "bid", "cards": [5000]}, "5,000"),
        ({"type": "discard", "card": "lux5"}, ""),
        ({"type": "sealed_bid", "card": 12000}, ""),
    ],
)
def test_illegal_actions_are_400_with_the_rules_sentence(clients, body, words):
    game_id = scenario(clients, "lux5")
    before = stored(game_id)
    error = _error(move(clients, "dora", game_id, version=0, **body), 400, "illegal_action")
    assert words in error["detail"] and error["detail"].endswith(".")
    assert stored(game_id) == before


def test_a_bid_that_does_not_beat_the_high_bid_says_so(clients):
    game_id = scenario(clients, "lux5")
    move(clients, "dora", game_id, type="bid", cards=[12000], version=0)
    error = _error(move(clients, "bob", game_id, type="bid", cards=[10000], version=1), 400)
    assert "12,000" in error["detail"] and "10,000" in error["detail"]


def test_acting_out_of_turn_is_400_not_your_turn(clients):
    game_id = scenario(clients, "lux5")
    before = stored(game_id)
    error = _error(move(clients, "carol", game_id, type="pass", version=0), 400, "not_your_turn")
    assert "not your turn" in error["detail"]
    assert stored(game_id) == before


@pytest.mark.parametrize(
    "body, field",
    [
        ({"type": "pass"}, "version"),
        ({"version": 0}, "type"),
        ({"type": "fold", "version": 0}, "type"),
        ({"type": "pass", "version": "zero"}, "version"),
        ({"type": "pass", "version": -1}, "version"),
        ({"type": "pass", "version": 10**40}, "version"),
        ({"type": "pass", "version": True}, "version"),
        ({"type": "pass", "version": None}, "version"),
        ({"type": "bid", "version": 0}, "cards"),
        ({"type": "bid", "cards": [], "version": 0}, "cards"),
        ({"type": "bid", "cards": "1000", "version": 0}, "cards"),
        ({"type": "bid", "cards": [10**40], "version": 0}, "cards"),
        ({"type": "bid", "cards": [1000, 1000], "version": 0}, "cards"),  # uniqueItems
        ({"type": "bid", "cards": [1000] * 12, "version": 0}, "cards"),
        ({"type": "bid", "cards": [{"value": 1}], "version": 0}, "cards"),
        ({"type": "pass", "cards": [1000], "version": 0}, "cards"),
        ({"type": "pass", "card": "lux1", "version": 0}, "card"),
        ({"type": "discard", "version": 0}, "card"),
        ({"type": "discard", "card": {"x": 1}, "version": 0}, "card"),
        ({"type": "sealed_bid", "card": True, "version": 0}, "card"),
        ({"type": "sealed_bid", "card": "x" * 100, "version": 0}, "card"),
        ({"type": "pass", "seat": "me", "version": 0}, "seat"),
        ({"type": "pass", "seat": 99, "version": 0}, "seat"),
        ({"type": "pass", "version": 0, "note": "hi"}, "note"),
        ({"type": "pass", "version": 0, "\u0000<script>": 1}, "\u0000<script>"),
    ],
)
def test_bad_bodies_are_400_with_field_errors(clients, body, field):
    game_id = scenario(clients, "lux5")
    before = stored(game_id)
    error = _error(move(clients, "dora", game_id, **body), 400, "invalid")
    assert any(key.split("[")[0].split(".")[0] == field for key in error["errors"]), error
    assert stored(game_id) == before


@pytest.mark.parametrize(
    "payload, content_type, status, code",
    [
        ("{not json", "application/json", 400, "parse_error"),
        ("", "application/json", 400, "invalid"),
        ("[1, 2]", "application/json", 400, "invalid"),
        ('"pass"', "application/json", 400, "invalid"),
        ("null", "application/json", 400, "invalid"),
        ('{"type": "pass", "version": 1e999}', "application/json", 400, None),
        ('{"type": "pass", "version": NaN}', "application/json", 400, None),
        ("\xff\xfe", "application/json", 400, "parse_error"),
        # Read as its last value, a key written twice moved at version 1 (not 0).
        ('{"type": "pass", "version": 1, "version": 0}', "application/json", 400, "parse_error"),
        ('{"\\ud800": 1, "\\ud800": 2}', "application/json", 400, "parse_error"),
        # Not text encodings: bz2 would decompress a small body without bound.
        ('{"type": "pass"}', "application/json; charset=bz2_codec", 400, "parse_error"),
        ('{"type": "pass"}', "application/json; charset=zlib_codec", 400, "parse_error"),
        ('{"type": "pass"}', "application/json; charset=rot13", 400, "parse_error"),
        ("type=pass&version=0", "application/x-www-form-urlencoded", 415, "unsupported_media_type"),
        ("x" * 100_000, "text/plain", 415, "unsupported_media_type"),
    ],
)
def test_malformed_requests_never_500(clients, payload, content_type, status, code):
    game_id = scenario(clients, "lux5")
    before = stored(game_id)
    response = clients["dora"].generic(
        "POST", f"{GAMES}{game_id}/moves/", payload.encode("latin-1"), content_type=content_type
    )
    _error(response, status, code)
    assert stored(game_id) == before


def test_a_pass_with_cards_is_told_it_takes_none_even_listed_twice(clients):
    game_id = scenario(clients, "lux5")
    body = {"type": "pass", "cards": [1000, 1000], "version": 0}
    error = _error(move(clients, "dora", game_id, **body), 400, "invalid")
    assert error["errors"] == {"cards": ["A pass takes no cards."]}


def test_a_body_without_its_content_type_is_told_what_to_send(clients):
    """A JSON body sent without Content-Type got 'Unsupported media type "" in request.'"""
    game_id = scenario(clients, "lux5")
    response = clients["dora"].generic(
        "POST", f"{GAMES}{game_id}/moves/", b'{"type": "pass", "version": 0}', content_type=""
    )
    error = _error(response, 415, "unsupported_media_type")
    assert "Content-Type: application/json" in error["detail"]
    assert "named no Content-Type" in error["detail"]
    form = clients["dora"].generic(
        "POST", f"{GAMES}{game_id}/moves/", b"type=pass", content_type="text/plain"
    )
    assert "said “text/plain”" in _error(form, 415, "unsupported_media_type")["detail"]


# --------------------------------------------------------------------------- 401 / 403 / 404


def test_unauthenticated_moves_are_401(clients, anon):
    game_id = scenario(clients, "lux5")
    _error(
        anon.post(f"{GAMES}{game_id}/moves/", {"type": "pass", "version": 0}, format="json"), 401
    )


def test_another_players_seat_is_403(clients):
    game_id = scenario(clients, "lux5")
    before = stored(game_id)
    # Bob names seat 0 (Dora's, whose turn it is).
    error = _error(
        move(clients, "bob", game_id, seat=0, type="pass", version=0), 403, "not_your_seat"
    )
    assert "your own seat" in error["detail"]
    # Someone with no seat at all.
    _error(move(clients, "oscar", game_id, type="pass", version=0), 403, "not_your_seat")
    _error(move(clients, "oscar", game_id, seat=0, type="pass", version=0), 403, "not_your_seat")
    assert stored(game_id) == before


def test_moves_of_an_unknown_game_are_404(clients):
    _error(move(clients, "dora", 123456, type="pass", version=0), 404, "not_found")


def test_a_table_that_has_not_started_refuses_moves(clients):
    view = create(clients["alice"], players=3, seats=[{"open": True}, {"ai": "easy"}])
    _error(move(clients, "alice", view["id"], type="pass", version=0), 409, "not_allowed")


# --------------------------------------------------------------------------- 409


def test_stale_and_repeated_versions_are_409_and_never_move_twice(clients):
    game_id = scenario(clients, "lux5")
    body = {"type": "bid", "cards": [1000], "version": 0}
    assert move(clients, "dora", game_id, **body).status_code == 201
    error = _error(move(clients, "dora", game_id, type="pass", version=0), 409, "version_conflict")
    assert "moved on" in error["detail"]
    assert error["version"] == 1  # the current version, as a field a client can use
    error = _error(
        move(clients, "dora", game_id, type="bid", cards=[2000], version=0), 409, "version_conflict"
    )
    _error(move(clients, "bob", game_id, type="pass", version=0), 409, "version_conflict")
    _error(move(clients, "bob", game_id, type="pass", version=7), 409, "version_conflict")
    assert Move.objects.filter(game_id=game_id).count() == 1
    assert Game.objects.get(pk=game_id).version == 1


def test_a_move_sent_again_after_a_lost_answer_is_answered_as_made(clients):
    """A client whose answer was lost sends the same move again: it was told "the game
    has moved on" (409), over its own move, and had to read the log to learn it counted.
    Now 200 with its view; the move is made once, even after others have moved."""
    game_id = scenario(clients, "lux5")
    body = {"type": "bid", "cards": [1000], "version": 0}
    assert move(clients, "dora", game_id, **body).status_code == 201
    again = move(clients, "dora", game_id, type="bid", cards=[1000], version=0)
    assert again.status_code == 200 and again.json()["version"] == 1
    assert move(clients, "bob", game_id, type="bid", cards=[2000], version=1).status_code == 201
    again = move(clients, "dora", game_id, type="bid", cards=[1000], version=0)
    assert again.status_code == 200 and again.json()["version"] == 2
    assert again.json()["seats"][1]["bid"] == [2000]
    # Another player sending dora's move at that version made nothing of hers.
    _error(move(clients, "bob", game_id, type="bid", cards=[1000], version=0), 409)
    # Her move sent again for another seat is refused as such, not answered as made.
    _error(move(clients, "dora", game_id, type="bid", cards=[1000], seat=1, version=0), 403)
    assert Move.objects.filter(game_id=game_id).count() == 2


def test_a_yacht_club_choice_sent_again_is_answered_as_made(clients):
    game_id = scenario(clients, "yacht", advanced=("yacht",))
    assert (
        move(clients, "bob", game_id, type="sealed_bid", card=12000, version=0).status_code == 201
    )
    again = move(clients, "bob", game_id, type="sealed_bid", card=12000, version=0)
    assert again.status_code == 200 and again.json()["sealed_choice"] == 12000
    # Another card after a choice is still refused: a choice is not changed.
    _error(move(clients, "bob", game_id, type="sealed_bid", card=15000, version=1), 400)
    assert Move.objects.filter(game_id=game_id).count() == 1


@pytest.mark.django_db(transaction=True)
def test_simultaneous_identical_submissions_make_one_move():
    """Real threads, real database connections: the lock (PostgreSQL's row lock,
    SQLite's write lock taken as each transaction begins) and the version check let
    exactly one of ten identical requests through."""
    staff = StaffUserFactory(username="dora")
    others = [UserFactory(username=name) for name in ("bob", "carol")]
    clients = {"dora": token_client(staff), **{u.username: token_client(u) for u in others}}
    game_id = scenario(clients, "lux5")
    secret = clients["dora"].token
    results: list[int] = []
    barrier = threading.Barrier(10)

    def submit():
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {secret}")
        barrier.wait()
        try:
            response = client.post(
                f"{GAMES}{game_id}/moves/",
                {"type": "bid", "cards": [1000], "version": 0},
                format="json",
            )
            results.append(response.status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=submit) for _ in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # One made it; the others, sent while it was being made, find it made (200).
    assert sorted(results) == [200] * 9 + [201]
    assert Move.objects.filter(game_id=game_id).count() == 1


# --------------------------------------------------------------------------- Theft, Yacht Club


def test_theft_choice_through_the_api(clients):
    game_id = scenario(clients, "lux3 theft")
    move(clients, "dora", game_id, type="bid", cards=[1000], version=0)
    move(clients, "bob", game_id, type="pass", version=1)
    move(clients, "carol", game_id, type="pass", version=2)
    view = view_of(clients, "dora", game_id)
    assert view["card"] == "theft" and view["auction"] == "misfortune"
    view = move(clients, "dora", game_id, type="pass", version=view["version"]).json()
    assert view["phase"] == "theft"
    assert view["legal_actions"]["types"] == ["discard"]
    assert view["legal_actions"]["discard_choices"] == ["lux3"]
    response = move(clients, "dora", game_id, type="discard", card="lux3", version=view["version"])
    assert response.status_code == 201
    assert "lux3" in response.json()["removed"]


def test_sealed_choices_stay_hidden_until_all_are_in(clients):
    game_id = scenario(clients, "yacht", advanced=("yacht",))
    view = view_of(clients, "bob", game_id)
    assert view["phase"] == "sealed" and view["auction"] == "sealed"
    assert view["legal_actions"]["types"] == ["sealed_bid"]
    assert view["legal_actions"]["sealed_choices"] == view["hand"]

    mine = move(clients, "bob", game_id, type="sealed_bid", card=12000, version=0).json()
    assert mine["sealed_choice"] == 12000 and mine["seats"][1]["sealed"] == "chosen"
    for name in ("dora", "carol", "oscar"):
        other = clients[name].get(f"{GAMES}{game_id}/")
        assert other.json()["sealed_choice"] is None
        assert other.json()["seats"][1]["sealed"] == "chosen"
        log = clients[name].get(f"{GAMES}{game_id}/moves/").json()["moves"]
        assert log[-1]["action"] == {"seat": 1, "type": "sealed_bid"}
    # Bob too sees his own choice only in his view, not in the log.
    assert clients["bob"].get(f"{GAMES}{game_id}/moves/").json()["moves"][-1]["action"] == {
        "seat": 1,
        "type": "sealed_bid",
    }

    move(clients, "carol", game_id, type="sealed_bid", card=12000, version=1)
    move(clients, "dora", game_id, type="sealed_bid", card=25000, version=2)
    log = clients["carol"].get(f"{GAMES}{game_id}/moves/").json()["moves"]
    assert [m["action"].get("card") for m in log[:3]] == [12000, 12000, 25000]
    view = view_of(clients, "carol", game_id)
    sealed = next(e for e in view["log"] if e["type"] == "sealed")
    assert sealed["winner"] == 0 and {c["card"] for c in sealed["choices"]} == {12000, 25000}
    assert "yacht" in view["seats"][0]["cards"]  # the only unique value wins
    # Only the sealed event names a winner (the others had "winner": null).
    assert [e["type"] for e in view["log"] if "winner" in e] == ["sealed"]


# --------------------------------------------------------------------------- the log


def test_the_move_log_since_n(clients):
    game_id = scenario(clients, "lux5")
    move(clients, "dora", game_id, type="bid", cards=[1000], version=0)
    move(clients, "bob", game_id, type="bid", cards=[2000], version=1)
    move(clients, "carol", game_id, type="pass", version=2)
    log = clients["oscar"].get(f"{GAMES}{game_id}/moves/").json()
    assert log["game"] == game_id and log["version"] == 3 and log["since"] == 0
    assert [m["number"] for m in log["moves"]] == [0, 1, 2] and log["next_since"] is None
    assert log["moves"][1] == {
        "number": 1,
        "seat": 1,
        "action": {"seat": 1, "type": "bid", "cards": [2000]},
        "actor": "player",
        "created_at": log["moves"][1]["created_at"],
    }
    assert [
        m["number"] for m in clients["bob"].get(f"{GAMES}{game_id}/moves/?since=2").json()["moves"]
    ] == [2]
    assert clients["bob"].get(f"{GAMES}{game_id}/moves/?since=3").json()["moves"] == []
    page = clients["bob"].get(f"{GAMES}{game_id}/moves/?since=0&limit=2").json()
    assert [m["number"] for m in page["moves"]] == [0, 1] and page["next_since"] == 2
    _error(clients["bob"].get(f"{GAMES}{game_id}/moves/?since=-1"), 400, "invalid")
    _error(clients["bob"].get(f"{GAMES}{game_id}/moves/?since=abc"), 400, "invalid")
    _error(clients["bob"].get(f"{GAMES}{game_id}/moves/?limit=100000"), 400, "invalid")


def test_bot_moves_appear_in_the_log_as_such(clients):
    view = create(clients["alice"], players=3, seats=[{"ai": "random"}, {"ai": "random"}])
    log = clients["alice"].get(f"{GAMES}{view['id']}/moves/").json()["moves"]
    assert {m["actor"] for m in log} <= {"bot", "forced", "player"}


@pytest.mark.parametrize(
    "body",
    [
        {"type": "pass", "version": "0"},
        {"type": "pass", "version": 0.0},
        {"type": "pass", "version": "0.0"},
        {"type": "pass", "version": True},
        {"type": "pass", "seat": "3", "version": 0},
    ],
    ids=[
        "string-version",
        "float-version",
        "string-float-version",
        "boolean-version",
        "string-seat",
    ],
)
def test_a_move_takes_json_integers_only(clients, body):
    """version and seat are JSON integers, as money cards are: "0" and 0.0 are refused,
    and no move is made."""
    game_id = scenario(clients, "lux5")
    _error(clients["dora"].post(f"{GAMES}{game_id}/moves/", body, format="json"), 400, "invalid")
    assert not Move.objects.filter(game_id=game_id).exists()


@pytest.mark.parametrize(
    "cards",
    [[1000.0], ["1000"], ["１０００"], [True], [1000, "25000"]],
    ids=["float", "string", "fullwidth-digits", "boolean", "mixed"],
)
def test_money_cards_must_be_json_integers(clients, cards):
    """A money card is a JSON integer: 1000.0, "1000" and non-ASCII digits are refused
    with a clear error, and nothing is stored."""
    game_id = scenario(clients, "lux5")
    error = _error(
        move(clients, "dora", game_id, type="bid", cards=cards, version=0), 400, "invalid"
    )
    assert "whole number" in error["detail"]
    assert not Move.objects.filter(game_id=game_id).exists()
    assert move(clients, "dora", game_id, type="bid", cards=[1000], version=0).status_code == 201


@pytest.mark.embedded  # the turn fields are read from JSON in each database's own SQL
def test_the_game_list_says_whose_turn_in_the_yacht_club_without_loading_states(clients):
    """Every player is to act during the sealed choice, until they chose: the list says
    so from the state's turn fields alone (it reads no whole state, a few kilobytes a
    game), on PostgreSQL and SQLite alike."""
    import re

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    game_id = scenario(clients, "yacht", advanced=("yacht",))

    def your_turn(name):
        with CaptureQueriesContext(connection) as queries:
            items = clients[name].get(f"{GAMES}?mine=true").json()["results"]
        for query in queries.captured_queries:
            column = r'"games_game"\."state"\s*(,\s*"|\s+FROM)'  # the state itself, selected
            assert not re.search(column, query["sql"]), query["sql"]
        return next(item for item in items if item["id"] == game_id)["your_turn"]

    assert [your_turn(name) for name in ("dora", "bob", "carol")] == [True, True, True]
    move(clients, "bob", game_id, type="sealed_bid", card=12000, version=0)
    assert [your_turn(name) for name in ("dora", "bob", "carol")] == [True, False, True]
