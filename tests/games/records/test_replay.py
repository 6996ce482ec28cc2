"""Replays: the stored moves replay to the stored state; every frame is a spectator's
view; the pages step through a game with plain links; the exported record; no hidden
information (the unrevealed deck, early sealed choices) in any of it."""

from __future__ import annotations

import json
import random
import re

import pytest
from django.utils.html import escape

from games.engine import OVER, State, apply_action, new_game, player_view
from games.models import Game, Move, Seat
from games.replay import NotReplayable, game_record, move_lines, replay_load, replay_view
from tests.games.factories import people_game, people_play
from tests.games.records.conftest import play_random, played_game, rating_cells, store_game

ADVANCED = ("gambling", "excursions", "yacht")


# --------------------------------------------------------------------------- the replay


@pytest.mark.parametrize("players,seed,advanced", [(3, 1, ()), (4, 2, ADVANCED), (5, 3, ADVANCED)])
def test_replay_equals_the_stored_moves_and_state(alice, bob, carol, players, seed, advanced):
    seats = [alice, bob, carol, "easy", "hard"][:players]
    game = played_game(seats, seed=seed, advanced=advanced)
    replay = replay_load(game)
    assert replay.total == game.version == Move.objects.filter(game=game).count()
    assert replay.states[-1] == State.from_json(game.state)
    # Every intermediate state is the stored moves applied one by one.
    stored = State.from_json(game.state)
    state = new_game(
        players=players,
        deck=list(stored.setup_deck),
        first_player=stored.first_player,
        advanced=stored.advanced,
    )
    assert replay.states[0] == state
    for n, move in enumerate(Move.objects.filter(game=game).order_by("number")):
        state = apply_action(state, move.action)
        assert replay.states[n + 1] == state
    # Each frame is exactly a spectator's view of that state.
    for n in (0, replay.total // 2, replay.total):
        view = replay_view(replay, n).to_json()
        expected = player_view(replay.states[n], None, memory_aid=game.memory_aid).to_json()
        assert {k: view[k] for k in expected} == expected
        assert view["hand"] is None and view["seat"] is None


def test_a_game_played_through_the_services_replays(alice, bob, carol):
    game = people_play(people_game(alice, bob, carol), random.Random(21))
    assert game.status == Game.Status.FINISHED
    replay = replay_load(game)
    assert replay.states[-1] == State.from_json(game.state)
    assert replay.states[-1].phase == OVER


def test_a_corrupt_log_is_refused(alice, bob, carol):
    game = played_game([alice, bob, carol], seed=5)
    Move.objects.filter(game=game, number=game.version - 1).delete()
    with pytest.raises(ValueError):
        replay_load(game)


def test_unfinished_games_are_not_replayed(client, alice, bob, carol):
    game = people_game(alice, bob, carol)
    with pytest.raises(NotReplayable):
        replay_load(game)
    response = client.get(f"/games/{game.pk}/replay/")
    assert response.status_code == 404
    assert "its replay opens when it ends" in response.content.decode()
    title = response.content.decode().split("<title>")[1].split("</title>")[0]
    assert title.startswith(f"Replay of table {game.pk}")  # not "Move  of  · …"
    response = client.get(f"/games/{game.pk}/record.json")
    assert response.status_code == 404 and response.json()["code"] == "not_finished"
    assert client.get("/games/999999/replay/").status_code == 404


def test_move_lines_describe_every_move_without_sealed_secrets(alice, bob, carol):
    # Find a seeded game with a Yacht Club auction of three choices.
    for seed in range(200):
        state, actions = play_random(3, seed, ADVANCED)
        if sum(a["type"] == "sealed_bid" for a in actions) >= 3:
            break
    game = store_game([alice, bob, carol], state, actions=actions)
    replay = replay_load(game)
    lines = move_lines(replay)
    assert len(lines) == replay.total + 1
    assert lines[0]["text"].startswith(("Alice reveals", "Bob reveals", "Carol reveals"))
    sealed = [n for n, a in enumerate(actions, 1) if a["type"] == "sealed_bid"]
    first = sealed[0]
    assert lines[first]["text"].endswith("makes a sealed choice for the Yacht Club.")
    assert "000" not in lines[first]["text"]
    assert any("Yacht Club choices:" in lines[n]["text"] for n in sealed)


# --------------------------------------------------------------------------- pages


def _links(html):
    return dict(re.findall(r'href="([^"]+)"[^>]*data-replay-step="(\w+)"', html))


def test_stepping_with_plain_links(client, alice, bob, carol):
    game = played_game([alice, bob, carol], seed=7)
    url = f"/games/{game.pk}/replay/"
    last = client.get(url)
    assert last.status_code == 200
    html = last.content.decode()
    assert f"Move {game.version} of {game.version}" in html
    assert "Final scores" in html
    steps = {v: k for k, v in _links(html).items()}
    assert set(steps) == {"first", "prev"}
    assert steps["prev"] == f"{url}?move={game.version - 1}"

    first = client.get(f"{url}?move=0").content.decode()
    assert "Set-up, before move 1 of" in first
    steps = {v: k for k, v in _links(first).items()}
    assert set(steps) == {"next", "last"} and steps["next"] == f"{url}?move=1"
    assert "Final scores" not in first
    # The deck at the start: one card revealed, the others counted, not named.
    assert "15 cards left in the deck" in first or "16 cards left" in first

    middle = client.get(f"{url}?move=5").content.decode()
    assert "Move 5 of" in middle and 'aria-current="step"' in middle
    assert 'src="/static/js/replay.js"' in middle
    assert f'href="/games/{game.pk}/record.json"' in middle


def test_the_last_move_shows_what_the_game_did_to_the_ratings(client, alice, bob):
    """The replay's final scores are the end screen's: each person's rating change and
    a bot's "bots: see the leaderboard", not "unrated" for a rated game; no link to the replay itself."""
    from accounts.models import PlayerResult
    from games.templatetags.game_cards import rating_change

    game = played_game([alice, bob, "hard"], seed=7)
    html = client.get(f"/games/{game.pk}/replay/").content.decode()
    cells = rating_cells(html)
    deltas = {r.seat: r.rating_change_shown for r in PlayerResult.objects.filter(game=game)}
    assert len(cells) == 3 and not any("unrated" in cell for cell in cells)
    for seat in (0, 1):  # the rows are in the order of the places
        assert sum(rating_change(deltas[seat]) in cell for cell in cells) >= 1
    assert sum("bots: see the leaderboard" in cell for cell in cells) == 1
    ending = html.split('class="ending"', 1)[1].split("</nav>", 1)[0]
    assert "Watch the replay" not in ending and "/replay/" not in ending


@pytest.mark.parametrize(
    "value,shown,sentence",
    [
        ("abc", "last", "is not a move number"),
        ("-3", "0", "Moves are numbered from 0"),
        ("100000", "last", "moves: showing the last one"),
        # Far too big is a number all the same (it read "is not a move number").
        ("9" * 19, "last", "moves: showing the last one"),
        ("-" + "9" * 5000, "0", "Moves are numbered from 0"),
        ("1.5", "last", "is not a move number"),
        ("\u0663", "last", "is not a move number"),  # an Arabic-Indic 3: digits are 0-9
        ("\x00", "last", "\ufffd” is not a move number"),  # no raw NUL in the sentence
    ],
)
def test_bad_move_numbers_get_a_sentence_not_an_error(
    client, alice, bob, carol, value, shown, sentence
):
    game = played_game([alice, bob, carol], seed=8)
    response = client.get(f"/games/{game.pk}/replay/", {"move": value})
    assert response.status_code == 400
    html = response.content.decode()
    assert sentence in html and "\x00" not in html
    n = game.version if shown == "last" else 0
    assert f'name="move" type="number" min="0" max="{game.version}" value="{n}"' in html


def test_replay_pages_show_only_public_information(client, alice, bob, carol):
    """Two games that differ only in the deck's unrevealed cards: every replay page and
    the record are identical once the game's id is normalised."""
    for seed in range(11, 300):  # a game that ends with two different cards unrevealed
        state, actions = play_random(3, seed=seed)
        hidden = state.setup_deck[state.deck_pos :]
        if len(set(hidden)) >= 2:
            break
    twin_deck = list(state.setup_deck[: state.deck_pos]) + list(reversed(hidden))
    twin = new_game(players=3, deck=twin_deck, first_player=state.first_player)
    for act in actions:
        twin = apply_action(twin, act)
    assert twin.setup_deck != state.setup_deck
    one = store_game([alice, bob, carol], state, actions=actions)
    two = store_game([alice, bob, carol], twin, actions=actions)

    def page(game, n):
        html = client.get(f"/games/{game.pk}/replay/?move={n}").content.decode()
        html = html.replace(f"/games/{game.pk}/", "/games/ID/").replace(
            f"table {game.pk}", "table ID"
        )
        html = re.sub(r'"X-CSRFToken": "\w+"', "", html)
        html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "CSRF", html)
        # The twins were rated one after the other, so from different ratings.
        html = re.sub(r'(data-label="Rating change">)[+\u2212]?\d+\.\d', r"\1CHANGE", html)
        return re.sub(r"Finished \d+ \w+ \d{4}", "Finished", html)

    for n in range(0, len(actions) + 1, 7):
        assert page(one, n) == page(two, n)
    assert page(one, len(actions)) == page(two, len(actions))

    def record(game):
        data = client.get(f"/games/{game.pk}/record.json").json()
        for key in ("game", "started_at", "finished_at"):
            data.pop(key)
        for move in data["moves"]:
            move.pop("at")
        return data

    assert record(one) == record(two)


# --------------------------------------------------------------------------- record


def test_the_record_of_a_table_that_does_not_exist_is_a_json_404(client, alice, bob, carol):
    """As the record of a game not over yet: the answer is JSON, not an HTML page."""
    response = client.get("/games/999999/record.json")
    assert response.status_code == 404
    assert response.json() == {"detail": "No such table.", "code": "not_found"}


def test_the_record_replays_to_the_same_end(client, alice, bob, carol):
    game = played_game([alice, bob, "medium", "easy"], seed=12, advanced=ADVANCED)
    response = client.get(f"/games/{game.pk}/record.json")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    data = json.loads(response.content)
    assert data["options"] == {
        "players": 4,
        "advanced": list(ADVANCED),
        "memory_aid": False,
        "move_deadline_hours": None,
    }
    assert [p["username"] for p in data["players"]] == ["alice", "bob", None, None]
    assert [p["bot"] for p in data["players"]] == [None, None, "medium", "easy"]
    assert len(data["moves"]) == game.version
    assert data["result"] == game.result
    stored = State.from_json(game.state)
    # Only the revealed part of the deck; the rest is counted, never named.
    assert data["deck_revealed"] == list(stored.setup_deck[: stored.deck_pos])
    assert data["deck_unrevealed"] == len(stored.setup_deck) - stored.deck_pos
    assert "setup_deck" not in response.content.decode()
    # Any deck that starts with the revealed cards replays the record to the same end.
    rest = list(stored.setup_deck)
    for card in data["deck_revealed"]:
        rest.remove(card)
    state = new_game(
        players=4,
        deck=data["deck_revealed"] + sorted(rest),
        first_player=data["first_player"],
        advanced=data["options"]["advanced"],
    )
    for move in data["moves"]:
        state = apply_action(state, move["action"])
    assert state.phase == OVER
    assert player_view(state, None).to_json()["result"] == data["result"]
    assert [dict(e) for e in player_view(state, None).to_json()["log"]] == data["log"]


def test_game_record_function_matches_the_endpoint(client, alice, bob, carol):
    game = played_game([alice, bob, carol], seed=13)
    from_function = json.loads(json.dumps(game_record(replay_load(game)), default=str))
    from_endpoint = client.get(f"/games/{game.pk}/record.json").json()
    assert from_function["moves"][0]["action"] == from_endpoint["moves"][0]["action"]
    assert from_function["score_details"] == from_endpoint["score_details"]


def test_the_record_is_one_file_whoever_reads_it(client, alice, bob, carol):
    """The names are the table's at the start, in English, whatever the reader's
    language; a resignation is its flag, not a word added to the name."""
    game, _actions, _bots = _resigned_half_way(play_random(3, 7), alice, bob, carol)
    Seat.objects.filter(game=game, position=2).update(user=None, ai_level="easy")
    english = client.get(f"/games/{game.pk}/record.json").json()
    german = client.get(f"/games/{game.pk}/record.json", HTTP_ACCEPT_LANGUAGE="de").json()
    french = client.get(f"/games/{game.pk}/record.json", HTTP_ACCEPT_LANGUAGE="fr").json()
    assert english == german == french
    assert [p["name"] for p in english["players"]] == ["Alice", "Bob", "Bot (easy)"]
    assert english["players"][0]["resigned"] is True
    # Resigned before the first move (or at a moment not recorded): still her name.
    for moment in (0, None):
        Seat.objects.filter(game=game, position=0).update(resigned_after=moment)
        record = client.get(f"/games/{game.pk}/record.json").json()
        assert record["players"][0]["name"] == "Alice"


def _resigned_half_way(played, alice, bob, carol):
    """A finished game (``played``: state and actions) stored with Alice resigned at her
    first move of its second half, a bot making her moves from then on: (game, actions,
    the numbers of the bot's moves)."""
    state, actions = played
    bots = {n for n, act in enumerate(actions) if act["seat"] == 0 and n >= len(actions) // 2}
    game = store_game(
        [("resigned", alice, min(bots)), bob, carol],
        state,
        actions=actions,
        actors=dict.fromkeys(bots, "bot"),
    )
    return game, actions, bots


def test_the_set_up_names_a_player_who_resigned_before_any_move_as_they_were(alice, bob, carol):
    """The set-up (the first card revealed by the first player) came before anyone could
    resign: it reads "Alice reveals …" even when she resigned before the first move."""
    state, actions = play_random(3, 7)
    first = state.first_player
    others = iter([bob, carol])
    seats = [("resigned", alice, 0) if p == first else next(others) for p in range(3)]
    bots = {n: "bot" for n, act in enumerate(actions) if act["seat"] == first}
    game = store_game(seats, state, actions=actions, actors=bots)
    lines = move_lines(replay_load(game))
    assert lines[0]["text"].startswith("Alice reveals "), lines[0]["text"]
    assert "Bot (medium) for Alice (resigned)" in lines[1 + min(bots)]["text"]


def test_the_replay_names_who_made_each_move_as_the_board_does(client, alice, bob, carol):
    """A move a bot made for a resigned player reads "Bot (medium) for Alice (resigned)
    passes", not as Alice's own; a forced pass and a standing order's move are named as
    on the board, once (the move's heading no longer repeats it).  Her own moves before
    she resigned read "Alice", and so does her seat in the replay's steps before then."""
    game, actions, bots = _resigned_half_way(play_random(3, 7), alice, bob, carol)
    resigned_after = min(bots)
    replay = replay_load(game)
    lines = move_lines(replay)
    bot_lines = [line for line in lines[1:] if line["number"] - 1 in bots]
    assert bot_lines and all(
        "Bot (medium) for Alice (resigned)" in line["text"] for line in bot_lines
    )
    own = lines[1 + min(n for n, act in enumerate(actions) if act["seat"] == 0)]
    assert own["who"] == "Alice" and own["text"].startswith("Alice ")
    assert all("(resigned)" not in line["text"] for line in lines[: resigned_after + 1])
    # The seat reads resigned from the frame whose caption says the bot took over.
    assert replay_view(replay, resigned_after - 1).seats_info[0].display_name == "Alice"
    assert replay_view(replay, resigned_after - 1).seats_info[0].resigned is False
    assert replay_view(replay, resigned_after).names[0] == "Alice (resigned)"
    assert replay_view(replay, resigned_after).seats_info[0].resigned is True
    takeover = "From here on, a bot (medium) plays for Alice."
    assert [line["number"] for line in lines if takeover in line["text"]] == [resigned_after]
    # "At the table" tells of the resignation from that frame on, not before.
    gone = "(resigned; a bot finished the game)"
    assert gone not in client.get(f"/games/{game.pk}/replay/?move=0").content.decode()
    before = client.get(f"/games/{game.pk}/replay/?move={resigned_after - 1}").content.decode()
    assert gone not in before
    at = client.get(f"/games/{game.pk}/replay/?move={resigned_after}").content.decode()
    assert gone in at
    client.force_login(bob)
    first_bot = min(bots) + 1
    page = client.get(f"/games/{game.pk}/replay/?move={first_bot}").content.decode()
    assert "Bot (medium) for Alice (resigned)" in page


def test_a_resigned_players_seat_that_finishes_first_is_the_bots_result(client, alice, bob, carol):
    """As on the board: the replay's last step says the bot playing for Alice finishes
    first, with no crown and no "Alice wins"; before she resigned her seat is hers."""
    from games.engine import result
    from games.presenter import headline, score_lines

    def alone_first(seed: int) -> bool:
        players = result(play_random(3, seed)[0])["players"]
        return [p["winner"] for p in players] == [True, False, False]

    played = play_random(3, next(s for s in range(1, 300) if alone_first(s)))
    game, actions, _bots = _resigned_half_way(played, alice, bob, carol)
    half = len(actions) // 2
    replay = replay_load(game)
    end = replay_view(replay, replay.total)
    assert headline(end).text == (
        "The game is over: the bot playing for Alice (resigned) finishes first."
    )
    assert next(row for row in score_lines(end) if row["winner"])["bot_first"]
    assert not replay_view(replay, half).seats_info[0].resigned
    client.force_login(bob)
    html = client.get(f"/games/{game.pk}/replay/?move={replay.total}").content.decode()
    assert "is over: Alice" not in html and "is-winner" not in html
    assert "First — played by a bot" in html


def test_the_replay_shows_a_missed_deadline_only_from_when_it_was_missed(client, alice, bob, carol):
    """Bob missed one deadline, at his second move: the replay's steps before it do not
    mark him "Missed 1 deadline" (the seat's count at the end), the steps after do."""
    from games.models import Seat

    state, actions = play_random(3, 11)
    late = [n for n, act in enumerate(actions) if act["seat"] == 1][1]
    game = store_game([alice, bob, carol], state, actions=actions, actors={late: "deadline"})
    Seat.objects.filter(game=game, position=1).update(timeouts=1)
    replay = replay_load(game)
    assert replay_view(replay, late).seats_info[1].timeouts == 0
    assert replay_view(replay, late + 1).seats_info[1].timeouts == 1
    before = client.get(f"/games/{game.pk}/replay/?move={late}").content.decode()
    after = client.get(f"/games/{game.pk}/replay/?move={late + 1}").content.decode()
    assert "Missed 1 deadline" not in before and "Missed 1 deadline" in after


def test_the_move_list_keeps_the_moves_to_come_behind_a_summary(client, alice, bob, carol):
    """Stepping through, the list shows the moves up to the one on the board; the later
    ones (the cards still to come, sealed choices) wait behind a summary, closed, so a
    glance down the list does not tell how the game goes on."""
    game = played_game([alice, bob, carol], seed=7)
    lines = [escape(line["text"]) for line in move_lines(replay_load(game))]
    html = client.get(f"/games/{game.pk}/replay/?move=3").content.decode()
    shown, later = html.split('<details class="replay__later">')
    assert lines[3] in shown and lines[4] not in shown.split("All moves")[-1]
    assert f"Show the {game.version - 3} moves still to come" in later
    assert "<details" in html and "<details open" not in html
    assert 'start="4"' in later and f"?move={game.version}" in later
    last = client.get(f"/games/{game.pk}/replay/").content.decode()
    assert 'class="replay__later"' not in last and lines[-1] in last


def test_an_abandoned_table_says_it_has_no_replay(client, alice, bob):
    """Its host closed it before it started: its player reads why there is no replay
    (it said the game was not over yet, as if it would be)."""
    from games.services import game_create, game_leave

    game = game_create(creator=alice, players=3, seats=[{"open": True}, {"ai": "easy"}])
    game_leave(game=game, user=alice)
    client.force_login(alice)
    response = client.get(f"/games/{game.pk}/replay/")
    assert response.status_code == 404
    assert "closed before its game ended" in response.content.decode()


def test_a_closed_tables_record_answers_as_its_pages_do(client, alice, bob):
    """Its replay page says 410 "closed" to anyone who had no seat there: so does its
    record, in JSON (it said 404 "No such table.")."""
    from games.services import game_create, game_leave

    game = game_create(creator=alice, players=3, seats=[{"open": True}, {"ai": "easy"}])
    game_leave(game=game, user=alice)
    assert client.get(f"/games/{game.pk}/replay/").status_code == 410
    response = client.get(f"/games/{game.pk}/record.json")
    assert response.status_code == 410
    assert response.json() == {"detail": "This table was closed.", "code": "closed"}
    client.force_login(bob)
    assert client.get(f"/games/{game.pk}/record.json").status_code == 410


def test_at_the_table_names_two_bots_of_one_level_apart(client, alice):
    """The board and the log say "Bot (medium) #2"; the list of who sat where said
    "Bot (medium)" twice."""
    game = played_game([alice, "medium", "medium"], seed=11)
    html = client.get(f"/games/{game.pk}/replay/").content.decode()
    seated = html.split('id="seated-title"')[1]
    assert "Bot (medium) #2" in seated and "Bot (medium) #3" in seated
