"""Contract tests of the table endpoints: list, create, join, the caller's view."""

from __future__ import annotations

import pytest

from games.models import Game, Seat
from games.services import game_leave
from tests.games.api.conftest import create, people_table
from tests.games.factories import scenario_deck

GAMES = "/api/v1/games/"
BOTS = [{"ai": "random"}, {"ai": "random"}]


def _error(response, status: int, code: str | None = None) -> dict:
    assert response.status_code == status, (response.status_code, response.content)
    body = response.json()
    assert set(body) <= {"detail", "code", "errors"} and body["detail"]
    if code is not None:
        assert body["code"] == code, body
    return body


# --------------------------------------------------------------------------- create


def test_create_against_bots_starts_at_once(clients):
    response = clients["alice"].post(GAMES, {"players": 3, "seats": BOTS}, format="json")
    assert response.status_code == 201
    view = response.json()
    assert response["Location"] == f"/api/v1/games/{view['id']}/"
    assert view["status"] == "active" and view["your_seat"] == 0
    assert view["seats_info"][0]["username"] == "alice" and view["seats_info"][1]["is_bot"]
    assert view["hand"] == [1000, 2000, 3000, 4000, 6000, 8000, 10000, 12000, 15000, 20000, 25000]
    assert view["version"] == Game.objects.get(pk=view["id"]).version


def test_create_with_every_option(clients, bob):
    view = create(
        clients["alice"],
        players=4,
        seats=[{"user": "bob"}, {"ai": "hard"}, {"open": True}],
        advanced=["yacht", "gambling", "excursions"],
        move_deadline_hours=48,
        memory_aid=True,
    )
    assert view["status"] == "open" and view["phase"] is None and view["seats"] == []
    assert view["options"] == {
        "players": 4,
        "advanced": ["gambling", "excursions", "yacht"],
        "memory_aid": True,
        "move_deadline_hours": 48,
    }
    assert [s["invited"] for s in view["seats_info"]] == [False, True, False, False]
    assert view["seats_info"][3]["is_open"] and view["legal_actions"] is None


def test_an_expert_bot_takes_a_seat_through_the_api(clients):
    view = create(clients["alice"], players=3, seats=[{"ai": "expert"}, {"ai": "medium"}])
    assert [s["ai_level"] for s in view["seats_info"]] == ["", "expert", "medium"]
    schema = clients["alice"].get("/api/schema/").content.decode()
    assert "- expert" in schema  # the seat's level enumerates it


def test_create_with_all_seats_listed(clients, bob):
    view = create(
        clients["alice"], players=3, seats=[{"ai": "easy"}, {"user": "alice"}, {"open": True}]
    )
    assert view["your_seat"] is None or view["your_seat"] == 1  # not started: seat once accepted
    assert view["seats_info"][1]["username"] == "alice"


@pytest.mark.parametrize(
    "body, field",
    [
        ({"seats": BOTS}, "players"),
        ({"players": 2, "seats": BOTS}, "players"),
        ({"players": 6, "seats": BOTS}, "players"),
        ({"players": "three", "seats": BOTS}, "players"),
        ({"players": 10**30, "seats": BOTS}, "players"),
        ({"players": 3}, "seats"),
        ({"players": 3, "seats": "bots"}, "seats"),
        ({"players": 3, "seats": [{"ai": "genius"}, {"ai": "easy"}]}, "seats"),
        ({"players": 3, "seats": [{"ai": "easy", "open": True}, {"ai": "easy"}]}, "seats"),
        ({"players": 3, "seats": [{"open": False}, {"ai": "easy"}]}, "seats"),
        ({"players": 3, "seats": [{"robot": 1}, {"ai": "easy"}]}, "seats"),
        ({"players": 3, "seats": BOTS, "advanced": ["poker"]}, "advanced"),
        ({"players": 3, "seats": BOTS, "advanced": "yacht"}, "advanced"),
        ({"players": 3, "seats": BOTS, "move_deadline_hours": 5}, "move_deadline_hours"),
        ({"players": 3, "seats": BOTS, "memory_aid": "perhaps"}, "memory_aid"),
        # JSON types, not look-alikes: "3", 3.0, "yes", 1, "48" are refused.
        ({"players": "3", "seats": BOTS}, "players"),
        ({"players": 3.0, "seats": BOTS}, "players"),
        ({"players": 3, "seats": BOTS, "memory_aid": "yes"}, "memory_aid"),
        ({"players": 3, "seats": BOTS, "memory_aid": 1}, "memory_aid"),
        ({"players": 3, "seats": BOTS, "move_deadline_hours": "48"}, "move_deadline_hours"),
        ({"players": 3, "seats": [{"open": "true"}, {"ai": "easy"}]}, "seats"),
        ({"players": 3, "seats": BOTS, "colour": "red"}, "colour"),
    ],
)
def test_create_validates_input(clients, body, field):
    error = _error(clients["alice"].post(GAMES, body, format="json"), 400, "invalid")
    assert any(key.split("[")[0].split(".")[0] == field for key in error["errors"]), error
    assert error["detail"].startswith(field)
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    "sent, said",
    [(5, "5 is not one of 24, 48, 72, 168."), ("48", '"48" is not one of 24, 48, 72, 168.')],
)
def test_a_deadline_out_of_the_choices_is_quoted_as_sent_and_the_choices_named(clients, sent, said):
    """DRF's own sentence quoted a number as text ('"5" is not a valid choice.')."""
    body = {"players": 3, "seats": BOTS, "move_deadline_hours": sent}
    error = _error(clients["alice"].post(GAMES, body, format="json"), 400, "invalid")
    assert error["errors"] == {"move_deadline_hours": [said]}


@pytest.mark.parametrize(
    "seats, words, where",
    [
        ([{"ai": "easy"}], "needs 2 seats", "non_field_errors"),
        ([{"ai": "easy"}, {"user": "nobody"}], "no player called", "seats[1].user"),
        ([{"user": "bob"}, {"user": "bob"}], "twice", "non_field_errors"),
        ([{"user": "alice"}, {"ai": "easy"}], "first seat", "non_field_errors"),
    ],
)
def test_create_passes_on_the_services_sentences(clients, seats, words, where):
    error = _error(clients["alice"].post(GAMES, {"players": 3, "seats": seats}, format="json"), 400)
    assert words in error["detail"]
    # Invalid input always lists its messages: under the path of the seat a sentence is
    # about, else as about the whole body.
    assert error["code"] == "invalid"
    assert error["errors"] == {where: [error["detail"]]}


def test_only_staff_fix_deck_and_first_player(clients):
    deck = scenario_deck("lux1 lux2")
    body = {"players": 3, "seats": BOTS, "deck": deck}
    _error(clients["alice"].post(GAMES, body, format="json"), 403, "permission_denied")
    _error(
        clients["alice"].post(GAMES, {**body, "deck": None, "first_player": 1}, format="json"), 400
    )
    _error(
        clients["alice"].post(
            GAMES, {"players": 3, "seats": BOTS, "first_player": 1}, format="json"
        ),
        403,
    )
    assert not Game.objects.exists()
    view = create(
        clients["dora"],
        players=3,
        seats=[{"user": "bob"}, {"user": "carol"}],
        deck=deck,
        first_player=1,
    )
    game = Game.objects.get(pk=view["id"])
    assert game.scenario_deck == deck and game.scenario_first_player == 1
    assert "lux2" not in str(view)  # the scenario deck is as secret as any deck


def test_staff_deck_must_be_the_whole_set(clients):
    error = _error(
        clients["dora"].post(GAMES, {"players": 3, "seats": BOTS, "deck": ["lux1"]}, format="json"),
        400,
    )
    assert "exactly the 16 cards" in error["detail"]


# --------------------------------------------------------------------------- join


def test_join_fills_the_table_and_starts_it(clients):
    view = create(clients["alice"], players=3, seats=[{"open": True}, {"open": True}])
    game_id = view["id"]
    joined = clients["bob"].post(f"{GAMES}{game_id}/join/")
    assert joined.status_code == 200
    assert joined.json()["status"] == "open" and joined.json()["seats_info"][1]["username"] == "bob"
    started = clients["carol"].post(f"{GAMES}{game_id}/join/")
    assert started.json()["status"] == "active" and started.json()["your_seat"] == 2
    assert started.json()["hand"] is not None
    _error(clients["oscar"].post(f"{GAMES}{game_id}/join/"), 409, "not_allowed")


def test_join_accepts_an_invitation(clients):
    view = create(clients["alice"], players=3, seats=[{"user": "bob"}, {"ai": "easy"}])
    response = clients["bob"].post(f"{GAMES}{view['id']}/join/")
    assert response.status_code == 200 and response.json()["your_seat"] == 1


def test_an_invited_player_is_told_to_accept_first(clients):
    """The view places an invited player at their seat (`your_seat`), so "You do not
    have a seat at this table" read as a contradiction."""
    view = create(clients["alice"], players=3, seats=[{"user": "bob"}, {"ai": "easy"}])
    url = f"{GAMES}{view['id']}/"
    assert clients["bob"].get(url).json()["your_seat"] == 1
    for answer in (
        clients["bob"].post(f"{url}moves/", {"type": "pass", "version": 0}, format="json"),
        clients["bob"].get(f"{url}orders/"),
        clients["bob"].delete(f"{url}orders/"),
    ):
        body = _error(answer, 403, "not_your_seat")
        assert body["detail"].startswith("Accept your invitation first"), body


def test_an_invited_player_is_told_to_accept_before_the_chat(clients):
    view = create(clients["alice"], players=3, seats=[{"user": "bob"}, {"open": True}])
    answer = clients["bob"].get(f"{GAMES}{view['id']}/chat/")
    body = _error(answer, 403, "not_your_seat")
    assert body["detail"].startswith("Accept your invitation first"), body
    body = _error(clients["oscar"].get(f"{GAMES}{view['id']}/chat/"), 403, "not_your_seat")
    assert body["detail"].startswith("Only the players at this table"), body


def test_the_list_and_the_view_agree_on_a_resigned_players_seat(clients):
    view = create(clients["alice"], players=3, seats=[{"user": "bob"}, {"ai": "easy"}])
    clients["bob"].post(f"{GAMES}{view['id']}/join/")
    assert clients["bob"].post(f"{GAMES}{view['id']}/resign/").status_code == 200
    detail = clients["bob"].get(f"{GAMES}{view['id']}/").json()
    listed = next(
        item
        for item in clients["bob"].get(f"{GAMES}?mine=true").json()["results"]
        if item["id"] == view["id"]
    )
    assert detail["status"] == "active" and detail["your_seat"] is None
    assert listed["your_seat"] is None and not listed["your_turn"]


def test_a_full_table_is_409(clients):
    view = create(clients["alice"], players=3, seats=[{"user": "bob"}, {"open": True}])
    clients["carol"].post(f"{GAMES}{view['id']}/join/")
    _error(clients["oscar"].post(f"{GAMES}{view['id']}/join/"), 409)
    assert Seat.objects.filter(game_id=view["id"], user__username="oscar").count() == 0


def test_a_join_sent_again_is_answered_as_done(clients):
    """A client retrying a join whose answer was lost was told "You already have a
    seat" (409), or, when its first join had filled the table, "This game has already
    started": the words a stranger gets, over a join that worked."""
    view = create(clients["alice"], players=3, seats=[{"user": "bob"}, {"open": True}])
    url = f"{GAMES}{view['id']}/join/"
    assert clients["carol"].post(url).status_code == 200
    again = clients["carol"].post(url)
    assert again.status_code == 200 and again.json()["your_seat"] == 2
    assert clients["alice"].post(url).json()["your_seat"] == 0  # the host sits there too
    assert clients["bob"].post(url).json()["status"] == "active"  # the last seat
    again = clients["bob"].post(url)
    assert again.status_code == 200 and again.json()["your_seat"] == 1
    assert again.json()["hand"] is not None
    _error(clients["oscar"].post(url), 409, "not_allowed")  # a stranger: started
    assert Seat.objects.filter(game_id=view["id"]).count() == 3


def test_join_unknown_game_is_404(clients, anon):
    _error(clients["alice"].post(f"{GAMES}999999/join/"), 404, "not_found")
    _error(anon.post(f"{GAMES}1/join/"), 401)


# --------------------------------------------------------------------------- the view


def test_view_for_a_player_a_spectator_and_nobody(clients, anon):
    view = people_table(clients, "alice", ["bob", "carol"])
    game_id = view["id"]
    mine = clients["bob"].get(f"{GAMES}{game_id}/").json()
    assert mine["your_seat"] == 1 and mine["seat"] == 1 and len(mine["hand"]) == 11
    assert "hand" in mine["seats"][1] and "hand" not in mine["seats"][0]
    spectator = clients["oscar"].get(f"{GAMES}{game_id}/").json()
    assert spectator["your_seat"] is None and spectator["hand"] is None
    assert spectator["legal_actions"] is None
    assert all("hand" not in seat for seat in spectator["seats"])
    _error(anon.get(f"{GAMES}{game_id}/"), 401)


def test_legal_actions_summary_lets_a_client_build_a_bid(clients):
    dora_view = create(
        clients["dora"],
        players=3,
        seats=[{"user": "bob"}, {"user": "carol"}],
        deck=scenario_deck("lux5 lux1"),
        first_player=1,
    )
    game_id = dora_view["id"]
    for name in ("bob", "carol"):
        clients[name].post(f"{GAMES}{game_id}/join/")
    bob = clients["bob"].get(f"{GAMES}{game_id}/").json()
    assert bob["turn"] == 1 and bob["card"] == "lux5" and bob["auction"] == "normal"
    assert bob["legal_actions"] == {
        "types": ["bid", "pass"],
        "seat": 1,
        "can_pass": True,
        "can_bid": True,
        "to_beat": 0,
        "current_bid": 0,
        "hand": [1000, 2000, 3000, 4000, 6000, 8000, 10000, 12000, 15000, 20000, 25000],
        "discard_choices": [],
        "sealed_choices": [],
    }
    assert clients["carol"].get(f"{GAMES}{game_id}/").json()["legal_actions"] is None


@pytest.mark.parametrize("game_id", ["0", "999999", str(2**63), "9" * 40])
def test_unknown_game_ids_are_404(clients, game_id):
    _error(clients["alice"].get(f"{GAMES}{game_id}/"), 404, "not_found")
    _error(clients["alice"].get(f"{GAMES}{game_id}/moves/"), 404, "not_found")
    body = {"type": "pass", "version": 0}
    _error(clients["alice"].post(f"{GAMES}{game_id}/moves/", body, format="json"), 404)


def test_abandoned_tables_are_known_only_to_their_players(clients, alice):
    view = create(clients["alice"], players=3, seats=[{"open": True}, {"ai": "easy"}])
    game_leave(game=Game.objects.get(pk=view["id"]), user=alice)
    assert clients["alice"].get(f"{GAMES}{view['id']}/").json()["status"] == "abandoned"
    _error(clients["bob"].get(f"{GAMES}{view['id']}/"), 404)
    assert clients["bob"].get(GAMES).json()["count"] == 0
    # Its host is told it was closed, not that "the game is over" (nothing was played).
    url = f"{GAMES}{view['id']}/"
    for answer in (
        clients["alice"].post(f"{url}resign/"),
        clients["alice"].get(f"{url}orders/"),
        clients["alice"].put(f"{url}orders/", {"defaults": {}}, format="json"),
    ):
        body = _error(answer, 409, "not_allowed")
        assert body["detail"] == "This table was closed before its game started.", body


# --------------------------------------------------------------------------- list


def test_list_filters_and_pages(clients):
    open_table = create(clients["bob"], players=3, seats=[{"open": True}, {"ai": "easy"}])
    active = create(clients["alice"], players=3, seats=BOTS)
    people = people_table(clients, "carol", ["alice", "bob"])

    def ids(url, who="alice"):
        response = clients[who].get(url)
        assert response.status_code == 200
        return [game["id"] for game in response.json()["results"]]

    assert ids(GAMES) == [people["id"], active["id"], open_table["id"]]
    assert ids(f"{GAMES}?status=open") == [open_table["id"]]
    assert ids(f"{GAMES}?status=active") == [people["id"], active["id"]]
    assert ids(f"{GAMES}?status=finished") == []
    assert ids(f"{GAMES}?mine=true") == [people["id"], active["id"]]
    assert ids(f"{GAMES}?mine=true&status=open", "bob") == [open_table["id"]]
    assert ids(f"{GAMES}?mine=true", "oscar") == []

    page = clients["alice"].get(f"{GAMES}?page_size=2").json()
    assert page["count"] == 3 and len(page["results"]) == 2 and page["next"]
    assert clients["alice"].get(page["next"]).json()["results"][0]["id"] == open_table["id"]
    _error(clients["alice"].get(f"{GAMES}?page=9"), 404, "not_found")
    _error(clients["alice"].get(f"{GAMES}?status=lost"), 400, "invalid")
    _error(clients["alice"].get(f"{GAMES}?page=0"), 400, "invalid")


def test_finished_games_are_listed_by_their_end(clients, run_commits):
    """A long game that ended today comes first among the finished ones, as on the
    history page, however long ago it began."""
    with run_commits():
        older = create(clients["alice"], players=3, seats=BOTS)
        newer = create(clients["alice"], players=3, seats=BOTS)
    for game in (newer, older):  # the older table ends last
        with run_commits():
            answer = clients["alice"].post(f"{GAMES}{game['id']}/resign/")
        assert answer.status_code == 200, answer.content
    assert Game.objects.filter(status=Game.Status.FINISHED).count() == 2
    listed = clients["alice"].get(f"{GAMES}?mine=true&status=finished").json()["results"]
    assert [game["id"] for game in listed] == [older["id"], newer["id"]]
    everything = clients["alice"].get(f"{GAMES}?mine=true").json()["results"]
    assert [game["id"] for game in everything] == [newer["id"], older["id"]]  # by start


def test_list_items_say_whose_turn_and_open_seats(clients):
    create(clients["bob"], players=3, seats=[{"open": True}, {"ai": "easy"}])
    view = people_table(clients, "carol", ["alice", "bob"])
    to_act = view["turn"]
    name = ["carol", "alice", "bob"][to_act]
    items = {g["id"]: g for g in clients[name].get(GAMES).json()["results"]}
    assert items[view["id"]]["your_turn"] is True
    assert items[view["id"]]["your_seat"] == to_act
    other = ["carol", "alice", "bob"][(to_act + 1) % 3]
    assert clients[other].get(f"{GAMES}?status=active").json()["results"][0]["your_turn"] is False
    open_item = clients["oscar"].get(f"{GAMES}?status=open").json()["results"][0]
    assert open_item["open_seats"] == 1 and open_item["your_seat"] is None
    assert "state" not in open_item and "scenario_deck" not in open_item


def test_the_list_names_the_seats_as_the_game_does(clients):
    """Two easy bots read "Bot (easy)" twice in the list and "#1", "#2" in the game."""
    game = create(clients["alice"], players=3, seats=[{"ai": "easy"}, {"ai": "easy"}])
    listed = {g["id"]: g for g in clients["alice"].get(GAMES).json()["results"]}[game["id"]]
    names = [s["display_name"] for s in listed["seats_info"]]
    assert names == [s["display_name"] for s in game["seats_info"]]
    assert len(set(names)) == 3, names


def test_nested_field_errors_are_named_by_their_path(clients):
    body = {"players": 3, "seats": [{"ai": "easy"}, {"ai": "genius"}], "advanced": ["x"]}
    error = _error(clients["alice"].post(GAMES, body, format="json"), 400, "invalid")
    assert set(error["errors"]) == {"seats[1].ai", "advanced[0]"}
    assert all(isinstance(m, str) for ms in error["errors"].values() for m in ms)
    assert error["detail"].startswith("seats[1].ai: ")
    whole = _error(clients["alice"].post(GAMES, [1, 2], format="json"), 400, "invalid")
    assert set(whole["errors"]) == {"non_field_errors"} and not whole["detail"].startswith(":")


@pytest.mark.parametrize("fixed", ["deck", "first_player"])
def test_a_scenario_table_waiting_is_listed_to_those_seated_only(clients, fixed):
    """Staff fix its deck or its first player: as in the lobby, it is not listed to
    strangers (the list showed it to anyone, who could join and play a deck staff may
    know; a first player alone was listed to all)."""
    scenario = create(
        clients["dora"],
        players=3,
        seats=[{"open": True}, {"user": "bob"}],
        **({"deck": scenario_deck("lux5")} if fixed == "deck" else {"first_player": 1}),
    )
    listed = {who: clients[who].get(f"{GAMES}?status=open").json() for who in ("alice", "bob")}
    assert scenario["id"] not in [game["id"] for game in listed["alice"]["results"]]
    assert scenario["id"] in [game["id"] for game in listed["bob"]["results"]]
    assert scenario["id"] in [g["id"] for g in clients["dora"].get(GAMES).json()["results"]]


def test_an_idempotency_key_opens_one_table_however_often_it_is_sent(clients):
    """A client that retries after a timeout sends the same key: the answer is the
    table the first request opened (200), never a second table."""
    alice = clients["alice"]
    body = {"players": 3, "seats": [{"open": True}, {"ai": "easy"}]}
    first = alice.post(GAMES, body, format="json", HTTP_IDEMPOTENCY_KEY="table-1")
    again = alice.post(GAMES, body, format="json", HTTP_IDEMPOTENCY_KEY="table-1")
    assert (first.status_code, again.status_code) == (201, 200)
    assert first["Location"] == again["Location"]
    assert again.json()["id"] == first.json()["id"]
    other = alice.post(GAMES, body, format="json", HTTP_IDEMPOTENCY_KEY="table-2")
    assert other.status_code == 201 and other.json()["id"] != first.json()["id"]
    # Keys are each account's own: Bob's "table-1" is his first table.
    bobs = clients["bob"].post(GAMES, body, format="json", HTTP_IDEMPOTENCY_KEY="table-1")
    assert bobs.status_code == 201
    assert Game.objects.count() == 3


@pytest.mark.parametrize("key", ["x" * 41, "two words", "é", "a/b", ""])
def test_a_bad_idempotency_key_is_400_and_opens_nothing(clients, key):
    response = clients["alice"].post(
        GAMES, {"players": 3, "seats": BOTS}, format="json", HTTP_IDEMPOTENCY_KEY=key
    )
    error = _error(response, 400, "invalid")
    assert "Idempotency-Key" in error["errors"]
    assert error["detail"].startswith("Idempotency-Key: The Idempotency-Key header is 1 to 40")
    assert not Game.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_one_idempotency_key_sent_four_times_at_once_opens_one_table(alice):
    from tests.games.api.conftest import token_client
    from tests.races import at_once

    body = {"players": 3, "seats": [{"open": True}, {"ai": "easy"}]}
    programs = [token_client(alice) for _ in range(4)]
    answers = at_once(
        [lambda p=p: p.post(GAMES, body, format="json", HTTP_IDEMPOTENCY_KEY="k") for p in programs]
    )
    assert sorted(a.status_code for a in answers) == [200, 200, 200, 201], answers
    assert len({a.json()["id"] for a in answers}) == 1
    assert Game.objects.filter(created_by=alice).count() == 1


@pytest.mark.parametrize(
    "query",
    ["page=2.0", "page_size=20.0", "page=+1", "page=1e0", "page= 1", "page=１", "page_size=-5"],
)
def test_page_numbers_are_whole_numbers_in_digits(clients, query):
    """DRF's integer field takes "2.0" (and "1e0") for 2; a list's page is asked for in
    digits, anything else is a 400 that says so."""
    error = _error(clients["alice"].get(f"{GAMES}?{query}"), 400, "invalid")
    assert "A whole number in digits is required (such as 2)." in error["detail"]


def test_the_move_log_and_chat_take_whole_numbers_in_digits_too(clients):
    view = create(clients["alice"], players=3, seats=BOTS)
    for query in ("moves/?since=1.0", "moves/?limit=5.0", "chat/?after=0.0"):
        response = clients["alice"].get(f"{GAMES}{view['id']}/{query}")
        assert "A whole number in digits" in _error(response, 400, "invalid")["detail"], query
    assert clients["alice"].get(f"{GAMES}{view['id']}/moves/?since=1&limit=5").status_code == 200
