"""Public profiles; the one error format; request limits (429 with Retry-After)."""

from __future__ import annotations

import random

import pytest
from rest_framework.test import APIClient

from games.models import Game
from tests.factories import PASSWORD, UserFactory
from tests.games.api.conftest import people_table, token_client
from tests.moves import view_choose as choose

# --------------------------------------------------------------------------- profiles


def _play_to_the_end(clients, view, names, rng):
    game_id = view["id"]
    while True:
        view = clients[names[0]].get(f"/api/v1/games/{game_id}/").json()
        if view["status"] != "active":
            return view
        name = names[view["to_act"][0]]
        mine = clients[name].get(f"/api/v1/games/{game_id}/").json()
        response = clients[name].post(
            f"/api/v1/games/{game_id}/moves/",
            {**choose(mine, rng), "version": mine["version"]},
            format="json",
        )
        assert response.status_code == 201, response.json()


def test_profile_stats_from_finished_games(clients):
    rng = random.Random(5)
    names = ["alice", "bob", "carol"]
    finals = [
        _play_to_the_end(clients, people_table(clients, "alice", ["bob", "carol"]), names, rng)
        for _ in range(2)
    ]
    people_table(clients, "alice", ["bob", "carol"])  # still running: not counted
    mine = [final["result"]["players"][0] for final in finals]
    response = clients["bob"].get("/api/v1/users/alice/")
    assert response.status_code == 200
    body = response.json()
    assert {key: body[key] for key in list(body)[:7]} == {
        "username": "alice",
        "display_name": "Alice",
        "games_played": 2,
        "games_won": sum(p["winner"] for p in mine),
        "win_rate": round(sum(p["winner"] for p in mine) / 2, 4),
        "average_status": round(sum(p["status"] for p in mine) / 2, 2),
        "times_cast_out": sum(p["cast_out"] for p in mine),
    }
    # Two rated games of people only (tests/profiles checks the rating and the rest).
    assert body["rating"] is not None and body["rated_games"] == 2
    assert Game.objects.filter(status="finished").count() == 2


def test_profile_of_a_new_player(clients):
    body = clients["alice"].get("/api/v1/users/oscar/").json()
    assert body["games_played"] == 0 and body["win_rate"] is None
    assert body["average_status"] is None and body["rating"] is None


@pytest.mark.parametrize("name", ["nobody", "x" * 500, "%00", "ali%20ce", "<script>"])
def test_unknown_players_are_404(clients, name):
    response = clients["alice"].get(f"/api/v1/users/{name}/")
    assert response.status_code == 404 and response.json()["code"] == "not_found"


@pytest.mark.parametrize(
    ("name", "said"), [("nobody", "nobody"), ("%00", "\ufffd"), ("o'hara", "o'hara")]
)
def test_an_unknown_player_is_named_as_typed_not_as_python_writes_it(clients, name, said):
    """The 404 named the name the way Python writes a string ('nobody', '\\x00'), as the
    profile page does not; a character that cannot be shown is shown as such."""
    detail = clients["alice"].get(f"/api/v1/users/{name}/").json()["detail"]
    assert detail == f"There is no player called “{said}”."


def test_a_query_parameter_given_twice_is_400_not_its_last_value(clients):
    """``?status=open&status=active`` listed the active games, silently."""
    for path in ("/api/v1/games/?status=open&status=active", "/api/v1/leaderboard/?page=1&page=2"):
        response = clients["alice"].get(path)
        assert response.status_code == 400, path
        body = response.json()
        assert body["code"] == "invalid" and "Give this parameter once" in body["detail"]
    assert clients["alice"].get("/api/v1/games/?status=open&mine=true").status_code == 200
    # A parameter the list does not read (a cache's, a campaign's) may repeat: ignored.
    assert clients["alice"].get("/api/v1/games/?utm=1&utm=2&_=1&_=2").status_code == 200


def test_inactive_players_are_404(clients, db):
    UserFactory(username="gone", is_active=False)
    assert clients["alice"].get("/api/v1/users/gone/").status_code == 404


def test_profiles_need_authentication(anon, alice):
    assert anon.get("/api/v1/users/alice/").status_code == 401


# --------------------------------------------------------------------------- error format


@pytest.mark.parametrize(
    "method, path, status, code",
    [
        ("get", "/api/v1/nothing/", 404, "not_found"),
        ("get", "/api/v1/games/abc/", 404, "not_found"),
        ("post", "/api/v1/games/1/join/extra/", 404, "not_found"),
        ("post", "/api/v1/games/-1.5e-21/moves/", 404, "not_found"),
        ("get", "/api/v1/games/a%0Ab/", 404, "not_found"),
        ("delete", "/api/v1/games/", 405, "method_not_allowed"),
        ("put", "/api/v1/games/1/moves/", 405, "method_not_allowed"),
        ("get", "/api/v1/games/1/join/", 405, "method_not_allowed"),
        ("get", "/api/v1/auth/token/", 405, "method_not_allowed"),
    ],
)
def test_every_error_has_the_same_shape(clients, method, path, status, code):
    response = getattr(clients["alice"], method)(path)
    assert response.status_code == status
    assert response["Content-Type"].startswith("application/json")
    assert response.json() == {"detail": response.json()["detail"], "code": code}


def test_unknown_paths_are_404_for_any_method_without_csrf(alice):
    from django.test import Client

    browser = Client(enforce_csrf_checks=True)
    browser.force_login(alice)
    response = browser.post("/api/v1/nothing/here/")
    assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_a_path_without_its_last_slash_is_told_where_the_endpoint_is(clients):
    """``/api/v1/games/3`` answered "There is no such API endpoint" with no hint that
    only the slash was missing."""
    game = clients["alice"].post(
        "/api/v1/games/", {"players": 3, "seats": [{"ai": "easy"}] * 2}, format="json"
    )
    path = f"/api/v1/games/{game.json()['id']}"
    response = clients["alice"].get(path)
    assert response.status_code == 404 and response.json()["code"] == "not_found"
    assert response.json()["detail"] == (
        f"There is no such API endpoint: every address ends with a slash, {path}/."
    )
    unknown = clients["alice"].get("/api/v1/nothing").json()["detail"]
    assert unknown == "There is no such API endpoint. See /api/docs/."


@pytest.mark.parametrize("query", ["status=", "mine=", "page=", "status=open&status="])
def test_empty_query_parameters_are_400(clients, query):
    response = clients["alice"].get(f"/api/v1/games/?{query}")
    assert response.status_code == 400 and response.json()["code"] == "invalid"


def test_not_acceptable_is_in_the_error_format(clients):
    response = clients["alice"].get("/api/v1/games/", HTTP_ACCEPT="text/html")
    assert response.status_code == 406 and response.json()["code"] == "not_acceptable"


@pytest.mark.parametrize("value", ["api", "yaml", "xml", "json"])
def test_a_format_query_parameter_is_ignored_like_any_unknown_one(clients, anon, value):
    """``?format=`` is not this API's: it answers JSON, and a call without credentials
    still gets 401 (not a 404 from a format nobody serves)."""
    response = clients["alice"].get(f"/api/v1/games/?format={value}")
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    assert "results" in response.json()
    response = anon.get(f"/api/v1/games/1/?format={value}")
    assert response.status_code == 401 and response.json()["code"] == "not_authenticated"


def test_no_shared_cache_keeps_one_players_answer_for_another(clients, anon):
    """Answers depend on who asks, and a program proves it with Authorization, not a
    cookie: every API answer (errors too) is private and varies with Authorization."""
    for client, path in (
        (clients["alice"], "/api/v1/games/"),
        (clients["alice"], "/api/v1/users/alice/"),
        (anon, "/api/v1/games/"),  # 401
        (clients["alice"], "/api/v1/nothing/here/"),  # 404
    ):
        response = client.get(path)
        vary = {part.strip().lower() for part in response["Vary"].split(",")}
        assert "authorization" in vary, (path, response["Vary"])
        assert {"private", "no-cache"} <= {
            part.strip() for part in response["Cache-Control"].split(",")
        }, (path, response["Cache-Control"])


# --------------------------------------------------------------------------- throttling


def _rates(settings, **rates):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], **rates},
    }


def test_per_user_limit_answers_429_with_retry_after(limits_clock, settings, alice, bob):
    _rates(settings, user="3/min")
    client = token_client(alice)
    assert [client.get("/api/v1/games/").status_code for _ in range(3)] == [200] * 3
    refused = client.get("/api/v1/games/")
    assert refused.status_code == 429 and refused.json()["code"] == "throttled"
    assert 0 < int(refused["Retry-After"]) <= 60
    # Another user from the same address is not held up by Alice's count.
    assert token_client(bob).get("/api/v1/games/").status_code == 200


def test_every_counted_answer_says_where_the_client_stands(limits_clock, settings, alice):
    """RateLimit-Limit, -Remaining and -Reset (the tightest scope) on every answer the
    limits counted, so a client can slow down before the 429; none on a 401."""
    _rates(settings, user="3/min", ip="600/min")
    client = token_client(alice)
    answers = [client.get(url) for url in ("/api/v1/games/", "/api/v1/games/999999/") * 2][:3]
    assert [a.status_code for a in answers] == [200, 404, 200]  # an error answer counts too
    assert [a["RateLimit-Remaining"] for a in answers] == ["2", "1", "0"]
    assert {a["RateLimit-Limit"] for a in answers} == {"3"}
    assert all(0 < int(a["RateLimit-Reset"]) <= 60 for a in answers)
    refused = client.get("/api/v1/games/")
    assert refused.status_code == 429 and refused["RateLimit-Remaining"] == "0"
    assert refused["RateLimit-Reset"] == refused["Retry-After"]
    assert "RateLimit-Limit" not in APIClient().get("/api/v1/games/")  # 401: not counted


def test_per_address_limit_holds_whoever_signs_in(limits_clock, settings, alice, bob):
    _rates(settings, ip="4/min")
    first, second = token_client(alice), token_client(bob)
    assert [first.get("/api/v1/games/").status_code for _ in range(2)] == [200, 200]
    assert [second.get("/api/v1/games/").status_code for _ in range(2)] == [200, 200]
    refused = second.get("/api/v1/games/")
    assert refused.status_code == 429 and "Retry-After" in refused
    # A different address has its own count; a forged X-Forwarded-For changes nothing.
    assert first.get("/api/v1/games/", REMOTE_ADDR="10.9.8.7").status_code == 200
    assert first.get("/api/v1/games/", HTTP_X_FORWARDED_FOR="10.1.1.1").status_code == 429


def test_token_log_ins_are_limited_per_address(limits_clock, settings, alice):
    _rates(settings, auth="2/min")
    client = APIClient()
    body = {"username": "alice", "password": "wrong"}
    assert [
        client.post("/api/v1/auth/token/", body, format="json").status_code for _ in range(2)
    ] == [400, 400]
    refused = client.post(
        "/api/v1/auth/token/", {"username": "alice", "password": PASSWORD}, format="json"
    )
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0


def test_throttle_counts_live_in_the_shared_cache(limits_clock, settings, alice):
    """With REDIS_URL set, the default cache (where the limits count) is Redis, shared
    by every worker process."""
    from django.core.cache import cache

    _rates(settings, user="5/min")
    token_client(alice).get("/api/v1/games/")
    assert cache.get(f"throttle:user:u{alice.pk}:{int(limits_clock // 60)}") == 1
    if settings.REDIS_URL:
        assert settings.CACHES["default"]["BACKEND"].endswith("RedisCache")


def test_a_client_polling_an_unchanged_answer_gets_304_without_a_body(clients):
    """Every successful GET carries an ETag of its body; asked again with it in
    If-None-Match, an unchanged answer is 304 with no body (the client keeps its copy),
    and a changed one (a move, another caller's view) is a full 200 with a new ETag."""
    view = people_table(clients, "alice", ["bob", "carol"])
    path = f"/api/v1/games/{view['id']}/"
    mover = ["alice", "bob", "carol"][view["to_act"][0]]
    first = clients["alice"].get(path)
    etag = first["ETag"]
    assert first.status_code == 200 and etag.startswith('"')
    again = clients["alice"].get(path, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == etag and "RateLimit-Remaining" in again
    assert "authorization" in again["Vary"].lower()
    # Bob's view of the same game holds his own hand: a 200 of its own, never Alice's 304.
    other = clients["bob"].get(path, HTTP_IF_NONE_MATCH=etag)
    assert other.status_code == 200 and other["ETag"] != etag
    mine = clients[mover].get(path).json()
    moved = clients[mover].post(
        f"{path}moves/",
        {**choose(mine, random.Random(1)), "version": mine["version"]},
        format="json",
    )
    assert moved.status_code == 201, moved.json()
    assert "ETag" not in moved  # only reads are tagged
    after = clients["alice"].get(path, HTTP_IF_NONE_MATCH=etag)
    assert after.status_code == 200 and after.json()["version"] > view["version"]
    assert after["ETag"] != etag
    # Lists and errors: the list is tagged too, an error never is.
    listed = clients["alice"].get("/api/v1/games/?mine=true")
    assert (
        clients["alice"]
        .get("/api/v1/games/?mine=true", HTTP_IF_NONE_MATCH=listed["ETag"])
        .status_code
        == 304
    )
    assert "ETag" not in clients["alice"].get("/api/v1/games/999999/")


def test_a_head_carries_the_gets_etag_and_answers_304_too(clients):
    """HEAD: the answer without its body, tagged as the GET is (Django's own middleware
    tags GETs only), so a client can check for a change without the body."""
    view = people_table(clients, "alice", ["bob", "carol"])
    path = f"/api/v1/games/{view['id']}/"
    etag = clients["alice"].get(path)["ETag"]
    head = clients["alice"].head(path)
    assert head.status_code == 200 and head["ETag"] == etag
    again = clients["alice"].head(path, HTTP_IF_NONE_MATCH=f'"other", {etag}')
    assert again.status_code == 304 and again["ETag"] == etag
    assert "RateLimit-Remaining" in again and "authorization" in again["Vary"].lower()
    assert clients["bob"].head(path, HTTP_IF_NONE_MATCH=etag).status_code == 200
    assert "ETag" not in clients["alice"].head("/api/v1/games/999999/")


def test_a_finished_games_view_says_each_seats_place_and_rating_change(clients):
    """What the end screen shows, for a client: places as the records count them and
    each person's rating change, the same figures as the player's recent games."""
    names = ["alice", "bob", "carol"]
    running = people_table(clients, "alice", ["bob", "carol"])
    assert running["ending"] is None
    final = _play_to_the_end(clients, running, names, random.Random(7))
    ending = final["ending"]
    players = final["result"]["players"]
    assert all(ending["places"][p["seat"]] == 1 for p in players if p["winner"])
    assert ending["unrated_reason"] is None
    for seat, name in enumerate(names):
        recent = clients[name].get(f"/api/v1/users/{name}/").json()["recent_games"][0]
        assert recent["game"] == final["id"]
        assert (recent["place"], recent["rating_change"]) == (
            ending["places"][seat],
            ending["rating_changes"][seat],
        )


def test_too_many_query_parameters_are_a_400_not_a_500(clients):
    """Past Django's DATA_UPLOAD_MAX_NUMBER_FIELDS (1,000), as the pages answer."""
    query = "&".join(f"a{n}=1" for n in range(1001))
    response = clients["alice"].get(f"/api/v1/games/?{query}")
    assert response.status_code == 400
    assert response.json() == {
        "detail": "The request has too many parameters.",
        "code": "invalid",
    }


@pytest.mark.parametrize(
    ("body", "english", "german"),
    [
        (b'{"players": 3,', "line 1, column 15", "Zeile 1, Spalte 15"),
        (b'{"players": NaN}', "not valid JSON.", "kein gültiges JSON."),
        ("{}".encode("utf-16"), "not UTF-8 text", "kein UTF-8-Text"),
    ],
)
def test_an_unreadable_body_is_told_in_the_readers_language(alice, body, english, german):
    """DRF passed on the json module's English ("Expecting value: line 1 column 15 (char
    14)") under any Accept-Language, where the other errors were translated."""
    api = token_client(alice)
    for language, words in (("en", english), ("de", german)):
        answer = api.post(
            "/api/v1/games/", body, content_type="application/json", HTTP_ACCEPT_LANGUAGE=language
        )
        assert answer.status_code == 400 and answer.json()["code"] == "parse_error"
        assert words in answer.json()["detail"], answer.json()
        assert "Expecting" not in answer.json()["detail"]
    assert not Game.objects.exists()


def test_a_null_body_is_told_in_the_readers_language(alice):
    """``null`` as the whole body got DRF's "No data provided", in English under any
    Accept-Language (DRF does not translate it)."""
    api = token_client(alice)
    for language, words in (("en", "The request has no data"), ("de", "Die Anfrage")):
        answer = api.post(
            "/api/v1/games/",
            b"null",
            content_type="application/json",
            HTTP_ACCEPT_LANGUAGE=language,
        )
        assert answer.status_code == 400 and answer.json()["code"] == "invalid"
        assert answer.json()["detail"].startswith(words), answer.json()
        assert answer.json()["errors"] == {"non_field_errors": [answer.json()["detail"]]}
    assert not Game.objects.exists()


def test_a_body_sent_in_chunks_is_refused_not_read_as_empty(alice):
    """A body with Transfer-Encoding: chunked and no Content-Length (streaming HTTP
    stacks send them) was read as empty: "text: This field is required", pointing the
    client at the wrong cause, and a 3 MB one got the same instead of 413."""
    api = token_client(alice)
    answer = api.post(
        "/api/v1/games/",
        b'{"players": 3, "seats": [{"ai": "easy"}, {"ai": "easy"}]}',
        content_type="application/json",
        HTTP_TRANSFER_ENCODING="chunked",
        CONTENT_LENGTH="",
    )
    assert answer.status_code == 400 and answer.json()["code"] == "invalid"
    assert "Content-Length" in answer.json()["detail"]
    assert not Game.objects.exists()
    # A request that sends no body type reads none (join, leave, resign): not refused.
    table = api.post(
        "/api/v1/games/", {"players": 3, "seats": [{"open": True}, {"ai": "easy"}]}, format="json"
    ).json()
    joined = token_client(UserFactory()).post(
        f"/api/v1/games/{table['id']}/join/", HTTP_TRANSFER_ENCODING="chunked"
    )
    assert joined.status_code == 200, joined.json()
    Game.objects.all().delete()
    # With its length, the same body is read.
    answer = api.post(
        "/api/v1/games/",
        {"players": 3, "seats": [{"ai": "easy"}, {"ai": "easy"}]},
        format="json",
    )
    assert answer.status_code == 201


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/api/v1/auth/token/", {"username": "alice", "password": 123}, "password"),
        ("/api/v1/auth/token/", {"username": 5, "password": "x"}, "username"),
        ("/api/v1/games/", {"players": 3, "seats": [{"user": 5}, {"ai": "easy"}]}, "seats"),
    ],
)
def test_a_number_where_text_is_due_is_refused_not_read_as_text(anon, alice, path, body, field):
    """DRF's CharField took 123 as the password "123", and 5 as a player called "5"."""
    client = token_client(alice) if path.endswith("/games/") else anon
    response = client.post(path, body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert response.json()["detail"].startswith(field)
    assert "(a JSON string)" in response.json()["detail"]
