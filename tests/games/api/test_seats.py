"""A waiting table through the API: the host changes a seat nobody has taken
(``PUT /games/{id}/seats/{position}/``), an invited player declines and anyone leaves
before the start (``POST /games/{id}/leave/``)."""

from __future__ import annotations

import pytest

from games.models import Game, Seat
from tests.games.api.conftest import create

pytestmark = pytest.mark.django_db


def _seat(game_id: int, position: int) -> tuple:
    return Seat.objects.filter(game_id=game_id, position=position).values_list(
        "user__username", "ai_level", "accepted"
    )[0]


@pytest.fixture
def waiting(clients):
    """Alice's table of three: Bob invited to seat 1, seat 2 open."""
    return create(clients["alice"], players=3, seats=[{"user": "bob"}, {"open": True}])["id"]


def test_the_host_sets_seats_and_a_bot_in_the_last_one_starts_the_game(clients, waiting):
    alice = clients["alice"]
    answer = alice.put(f"/api/v1/games/{waiting}/seats/1/", {"user": "carol"}, format="json")
    assert answer.status_code == 200, answer.json()
    seats = answer.json()["seats_info"]
    assert seats[1]["username"] == "carol" and seats[1]["invited"]
    assert answer.json()["status"] == "open"
    answer = alice.put(f"/api/v1/games/{waiting}/seats/1/", {"open": True}, format="json")
    assert answer.json()["seats_info"][1]["is_open"]
    alice.put(f"/api/v1/games/{waiting}/seats/1/", {"ai": "easy"}, format="json")
    answer = alice.put(f"/api/v1/games/{waiting}/seats/2/", {"ai": "hard"}, format="json")
    assert answer.status_code == 200 and answer.json()["status"] == "active"
    assert [s["ai_level"] for s in answer.json()["seats_info"]] == ["", "easy", "hard"]


def test_a_seat_change_sent_again_is_answered_as_done(clients, waiting):
    """A PUT that HTTP clients retry on their own: the second was refused ("carol
    already has a seat", or "This game has already started" when the first filled the
    last seat), over a change that had been made."""
    alice = clients["alice"]
    url = f"/api/v1/games/{waiting}/seats/1/"
    for _ in range(2):
        answer = alice.put(url, {"user": "carol"}, format="json")
        assert answer.status_code == 200, answer.json()
        assert answer.json()["seats_info"][1]["username"] == "carol"
    for _ in range(2):
        answer = alice.put(url, {"open": True}, format="json")
        assert answer.status_code == 200 and answer.json()["seats_info"][1]["is_open"]
    alice.put(url, {"ai": "easy"}, format="json")
    for _ in range(2):
        answer = alice.put(f"/api/v1/games/{waiting}/seats/2/", {"ai": "hard"}, format="json")
        assert answer.status_code == 200, answer.json()
        assert answer.json()["status"] == "active"
    # Another change once started is still refused.
    answer = alice.put(f"/api/v1/games/{waiting}/seats/2/", {"ai": "easy"}, format="json")
    assert answer.status_code == 409 and "already started" in answer.json()["detail"]
    assert _seat(waiting, 2) == (None, "hard", True)


@pytest.mark.parametrize(
    "who, position, body, code, error",
    [
        ("bob", 2, {"ai": "easy"}, 409, "not_allowed"),
        ("oscar", 2, {"ai": "easy"}, 409, "not_allowed"),
        ("alice", 0, {"ai": "easy"}, 409, "not_allowed"),
        ("alice", 0, {"user": "alice"}, 409, "not_allowed"),  # her own: not "as asked"
        ("alice", 3, {"ai": "easy"}, 400, "invalid"),
        ("alice", 2, {"ai": "grandmaster"}, 400, "invalid"),
        ("alice", 2, {"ai": "easy", "open": True}, 400, "invalid"),
        ("alice", 2, {"open": False}, 400, "invalid"),
        ("alice", 2, {"open": "true"}, 400, "invalid"),
        ("alice", 2, {"open": 1}, 400, "invalid"),
        ("alice", 2, {"colour": "red"}, 400, "invalid"),
        ("alice", 2, {"user": "nobody"}, 400, "invalid"),
        ("alice", 2, {"user": "bob"}, 400, "invalid"),
    ],
)
def test_refusals_are_readable_and_change_nothing(
    clients, waiting, who, position, body, code, error
):
    before = [_seat(waiting, p) for p in range(3)]
    answer = clients[who].put(f"/api/v1/games/{waiting}/seats/{position}/", body, format="json")
    assert answer.status_code == code, answer.json()
    assert answer.json()["code"] == error and answer.json()["detail"]
    assert [_seat(waiting, p) for p in range(3)] == before


def test_a_seat_the_table_does_not_have_is_named_as_the_path_counts(clients, waiting):
    answer = clients["alice"].put(
        f"/api/v1/games/{waiting}/seats/9/", {"ai": "easy"}, format="json"
    )
    assert answer.status_code == 400 and answer.json()["code"] == "invalid"
    said = "There is no seat 9 at this table: seats are numbered from 0 to 2."
    assert answer.json()["detail"] == said
    assert answer.json()["errors"] == {"position": [said]}  # invalid input lists its errors
    # A name the table cannot take: about the body's "user".
    answer = clients["alice"].put(
        f"/api/v1/games/{waiting}/seats/1/", {"user": "nobody"}, format="json"
    )
    assert answer.status_code == 400
    assert answer.json()["errors"] == {"user": [answer.json()["detail"]]}


def test_not_found_and_logged_out(clients, anon, waiting):
    assert (
        clients["alice"]
        .put("/api/v1/games/999999/seats/1/", {"open": True}, format="json")
        .status_code
        == 404
    )
    assert (
        clients["alice"]
        .put(f"/api/v1/games/{waiting}/seats/-1/", {"open": True}, format="json")
        .status_code
        == 404
    )
    assert (
        anon.put(f"/api/v1/games/{waiting}/seats/2/", {"open": True}, format="json").status_code
        == 401
    )
    assert anon.post(f"/api/v1/games/{waiting}/leave/").status_code == 401


def test_an_invited_player_declines_and_a_guest_leaves(clients, waiting):
    answer = clients["bob"].post(f"/api/v1/games/{waiting}/leave/")
    assert answer.status_code == 200, answer.json()
    declined = answer.json()["seats_info"][1]
    assert declined["held"] and not declined["is_open"] and declined["username"] is None
    # Held for the host: a guest joining takes the open seat 2, not Bob's.
    assert clients["carol"].post(f"/api/v1/games/{waiting}/join/").status_code == 200
    assert _seat(waiting, 2) == ("carol", "", True) and _seat(waiting, 1) == (None, "", False)
    full = clients["dora"].post(f"/api/v1/games/{waiting}/join/")
    assert full.status_code == 409 and "for the host to fill" in full.json()["detail"]
    assert clients["carol"].post(f"/api/v1/games/{waiting}/leave/").status_code == 200
    assert _seat(waiting, 2) == (None, "", False)
    again = clients["carol"].post(f"/api/v1/games/{waiting}/leave/")
    assert again.status_code == 403 and again.json()["code"] == "not_your_seat"


def test_a_player_resigns_through_the_api_and_a_bot_plays_on(clients):
    """The API's resign is the board's: a medium bot takes the seat, the others play
    on; a second resign, or one before the start, is refused and changes nothing."""
    bots = {"players": 3, "seats": [{"ai": "easy"}, {"ai": "easy"}]}
    game = clients["alice"].post("/api/v1/games/", bots, format="json").json()
    answer = clients["alice"].post(f"/api/v1/games/{game['id']}/resign/")
    assert answer.status_code == 200, answer.json()
    seat = Seat.objects.get(game_id=game["id"], position=0)
    assert seat.resigned and seat.ai_level == "medium"
    again = clients["alice"].post(f"/api/v1/games/{game['id']}/resign/")
    assert again.status_code == 409 and "already resigned" in again.json()["detail"]


def test_resigning_a_table_that_waits_says_to_leave_instead(clients, waiting):
    answer = clients["alice"].post(f"/api/v1/games/{waiting}/resign/")
    assert answer.status_code == 409 and "leave the table" in answer.json()["detail"]
    assert not Seat.objects.filter(game_id=waiting, resigned=True).exists()


def test_the_host_leaving_abandons_the_table_and_a_started_game_is_resigned_instead(
    clients, waiting
):
    assert clients["alice"].post(f"/api/v1/games/{waiting}/leave/").status_code == 200
    assert Game.objects.get(pk=waiting).status == Game.Status.ABANDONED
    running = create(clients["alice"], players=3, seats=[{"ai": "easy"}, {"ai": "easy"}])["id"]
    answer = clients["alice"].post(f"/api/v1/games/{running}/leave/")
    assert answer.status_code == 409 and "resign" in answer.json()["detail"]


def test_the_host_reads_who_declined_in_the_game_and_in_the_list(clients, waiting):
    clients["bob"].post(f"/api/v1/games/{waiting}/leave/")
    mine = clients["alice"].get(f"/api/v1/games/{waiting}/").json()["seats_info"]
    assert [s["declined_by"] for s in mine] == [None, "bob", None]
    listed = clients["alice"].get("/api/v1/games/?status=open").json()["results"]
    assert [s["declined_by"] for s in listed[0]["seats_info"]] == [None, "bob", None]
    for other in ("bob", "carol"):
        view = clients[other].get(f"/api/v1/games/{waiting}/").json()["seats_info"]
        assert [s["declined_by"] for s in view] == [None] * 3


def test_an_invitation_not_yet_answered_names_the_seat_as_the_docs_say(clients, waiting):
    """``your_seat`` is the seat held for Bob; ``accepted`` says he does not sit there
    yet, and the chat answers him as someone without a seat (docs/api.md)."""
    view = clients["bob"].get(f"/api/v1/games/{waiting}/").json()
    assert view["your_seat"] == 1
    seat = view["seats_info"][view["your_seat"]]
    assert seat["invited"] and not seat["accepted"] and seat["is_you"]
    chat = clients["bob"].get(f"/api/v1/games/{waiting}/chat/")
    assert chat.status_code == 403 and chat.json()["code"] == "not_your_seat"
