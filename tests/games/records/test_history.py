"""My games: filters (finished, being played, won, lost, with whom), pagination, and
clear sentences for bad filter values."""

from __future__ import annotations

import re

import pytest

from games.models import Game
from tests.factories import PASSWORD
from tests.games.factories import people_game
from tests.games.records.conftest import scored_game

WIN = {"cards": ["lux10"], "money": [20000]}
SECOND = {"cards": ["lux4"], "money": [15000]}
LAST = {"cards": ["lux9"], "money": [1000]}


@pytest.fixture
def tables(alice, bob, carol, dave):
    """Alice: won with Bob and Carol, lost with Bob and Dave, lost with Carol and a bot,
    one game still running with Bob and Carol, one abandoned table (never listed)."""
    won = scored_game([alice, bob, carol], [WIN, SECOND, LAST])
    lost_bob = scored_game([alice, bob, dave], [SECOND, WIN, LAST])
    lost_carol = scored_game([alice, carol, "easy"], [LAST, WIN, SECOND])
    running = people_game(alice, bob, carol)
    abandoned = Game.objects.create(created_by=alice, players=3, status=Game.Status.ABANDONED)
    abandoned.seats.create(position=0, user=alice, accepted=True)
    return {"won": won, "lost_bob": lost_bob, "lost_carol": lost_carol, "running": running}


def _listed(response) -> set[int]:
    return {
        int(n)
        for n in re.findall(r'<th scope="row"><a href="/games/(\d+)/">', response.content.decode())
    }


@pytest.fixture
def alice_client(client, alice):
    client.login(username="alice", password=PASSWORD)
    return client


def test_history_needs_a_log_in(client, db):
    response = client.get("/games/history/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


@pytest.mark.parametrize(
    "query,expected",
    [
        ({}, {"won", "lost_bob", "lost_carol", "running"}),
        ({"show": "all"}, {"won", "lost_bob", "lost_carol", "running"}),
        ({"show": "finished"}, {"won", "lost_bob", "lost_carol"}),
        ({"show": "active"}, {"running"}),
        ({"show": "won"}, {"won"}),
        ({"show": "lost"}, {"lost_bob", "lost_carol"}),
        ({"opponent": "bob"}, {"won", "lost_bob", "running"}),
        ({"opponent": "CAROL"}, {"won", "lost_carol", "running"}),
        ({"show": "lost", "opponent": "bob"}, {"lost_bob"}),
        ({"show": "won", "opponent": "dave"}, set()),
    ],
)
def test_filters(alice_client, tables, query, expected):
    response = alice_client.get("/games/history/", query)
    assert response.status_code == 200
    assert _listed(response) == {tables[name].pk for name in expected}


def test_a_filter_that_matches_nothing_says_so(alice_client, tables):
    html = alice_client.get("/games/history/", {"show": "won", "opponent": "dave"}).content
    assert "0 games match the filter." in html.decode()
    assert "No games here: try another filter." in html.decode()


def test_no_games_at_all_says_so(client, dave):
    client.force_login(dave)
    assert "No games here." in client.get("/games/history/").content.decode()


def test_rows_show_my_result_and_link_the_replay(alice_client, tables):
    html = alice_client.get("/games/history/", {"show": "finished"}).content.decode()
    assert html.count("/replay/") == 3
    # Each link says which table it replays (a screen reader's list of links read
    # "Replay" three times).
    for game in ("won", "lost_bob", "lost_carol"):
        table = tables[game].pk
        assert f'Replay<span class="visually-hidden"> table {table}</span></a>' in html
    # Places read as on the profile ("2nd"), one partial for both.
    assert "Won" in html and "Cast out" in html and "2nd" in html
    assert 'href="/players/bob/"' in html and "Bot (easy)" in html
    # Each rated game says by how much it moved Alice's rating, named as such.
    from accounts.models import PlayerResult
    from games.templatetags.game_cards import rating_change

    for game in ("won", "lost_bob", "lost_carol"):
        delta = PlayerResult.objects.get(game=tables[game], seat=0).rating_change_shown
        assert f"rating {rating_change(delta)}" in html
    running = alice_client.get("/games/history/", {"show": "active"}).content.decode()
    assert "Being played" in running and "/replay/" not in running


def test_an_unrated_game_says_so_as_on_the_profile(alice_client, alice, bob, carol):
    """A game with a resignation counts for nobody's rating: the row says "unrated"
    where a rated one gives the change."""
    game = scored_game([alice, ("resigned", bob), carol], [WIN, SECOND, LAST])
    html = alice_client.get("/games/history/", {"show": "finished"}).content.decode()
    row = html[html.index(f'<a href="/games/{game.pk}/">') :].split("</tr>")[0]
    assert "unrated" in row and "rating " not in row


@pytest.mark.parametrize(
    "query,sentence",
    [
        ({"show": "best"}, "is not a filter: choose all, finished, active, won or lost."),
        ({"opponent": "nobody"}, "There is no player called “nobody”."),
        ({"opponent": "ALICE"}, "That is you: every game here is yours. Name another player."),
        ({"opponent": "x" * 200}, "A username has at most 150 characters."),
        ({"page": "abc"}, "The page must be a whole number."),
        ({"page": "\u0663"}, "The page must be a whole number."),  # digits are 0-9, as the replay's
        ({"page": "0"}, "Pages are numbered from 1."),
        ({"show": "<script>"}, "“&lt;script&gt;” is not a filter"),
    ],
)
def test_bad_filters_are_explained(alice_client, tables, query, sentence):
    response = alice_client.get("/games/history/", query)
    assert response.status_code == 400
    html = response.content.decode()
    assert sentence in html
    assert "<script>" not in html.split("</header>", 1)[1]
    assert _listed(response) == set()
    # A box marked invalid is described by its reason: the id it names is on the page.
    import re

    described = re.findall(r'aria-describedby="([^"]+)"', html)
    if "show" in query or "opponent" in query:  # a box in error: it names its reason
        assert described
    for name in described:
        assert f'id="{name}"' in html, name


def test_pagination_keeps_the_filter(alice_client, alice, bob, carol):
    for _ in range(23):
        scored_game([alice, bob, carol], [WIN, SECOND, LAST])
    scored_game([alice, bob, carol], [LAST, WIN, SECOND])
    first = alice_client.get("/games/history/", {"show": "won"})
    assert len(_listed(first)) == 20
    html = first.content.decode()
    assert "23 games match the filter" in html
    assert 'href="?show=won&amp;opponent=&amp;page=2"' in html or "page=2" in html
    second = alice_client.get("/games/history/", {"show": "won", "page": "2"})
    assert len(_listed(second)) == 3
    assert not _listed(first) & _listed(second)
    # Past the last page: the last page, which says so (it said nothing).
    past = alice_client.get("/games/history/", {"show": "won", "page": "9"}).content.decode()
    assert "There is no page 9: this is the last page." in past
    assert "There is no page" not in second.content.decode()
    assert _listed(alice_client.get("/games/history/", {"show": "won", "page": "9"})) == _listed(
        second
    )


def test_the_opponent_filter_takes_the_name_the_table_shows(alice_client, tables, bob):
    """The "With" column shows display names: the filter takes them too, in any case."""
    bob.display_name = "Bobby Tables"
    bob.save()
    response = alice_client.get("/games/history/", {"opponent": "bobby tables"})
    assert response.status_code == 200
    assert _listed(response) == {tables[name].pk for name in ("won", "lost_bob", "running")}


@pytest.mark.parametrize("name", ["Bot (easy)", "bot (EASY)", "Bot (easy) #3", "Bot (leicht)"])
def test_the_opponent_filter_takes_a_bots_name_as_the_table_shows_it(alice_client, tables, name):
    """ "Bot (easy)" was refused as "no player called": the tables name bots so too.
    The English name and the page's language's both find the level's games."""
    headers = {"HTTP_ACCEPT_LANGUAGE": "de"} if "leicht" in name else {}
    response = alice_client.get("/games/history/", {"opponent": name}, **headers)
    assert response.status_code == 200
    assert _listed(response) == {tables["lost_carol"].pk}
    assert _listed(alice_client.get("/games/history/", {"opponent": "Bot (hard)"})) == set()


@pytest.mark.parametrize(("name", "language"), [("easy", "en"), ("facile", "fr"), ("Leicht", "de")])
def test_the_opponent_filter_takes_a_bots_level_alone(alice_client, tables, name, language):
    """ "facile" was "no player called «\u00a0facile\u00a0»": only "Bot (facile)" worked."""
    headers = {"HTTP_ACCEPT_LANGUAGE": language}
    response = alice_client.get("/games/history/", {"opponent": name}, **headers)
    assert response.status_code == 200
    assert _listed(response) == {tables["lost_carol"].pk}


def test_a_player_called_like_a_level_is_found_first(alice_client, tables, alice, bob, carol):
    from tests.factories import UserFactory

    easy = UserFactory(username="easy")
    shared = scored_game([alice, easy, carol], [WIN, SECOND, LAST])
    response = alice_client.get("/games/history/", {"opponent": "easy"})
    assert _listed(response) == {shared.pk}


def test_an_invitation_not_answered_says_it_waits_for_me(client, alice, bob):
    from games import services

    table = services.game_create(creator=alice, players=3, seats=[{"open": True}, {"user": "bob"}])
    client.force_login(bob)
    html = client.get("/games/history/").content.decode()
    row = html[html.index(f'<a href="/games/{table.pk}/">') :].split("</tr>")[0]
    assert "Invitation to answer" in row
    client.force_login(alice)  # the host's own row: waiting for players
    html = client.get("/games/history/").content.decode()
    row = html[html.index(f'<a href="/games/{table.pk}/">') :].split("</tr>")[0]
    assert "Waiting for players" in row and "Invitation to answer" not in row
    # Who one plays with: people and bots, not the seats still empty.
    assert "Open seat" not in row and "Bob" in row


def test_the_filter_for_games_not_over_says_it_holds_waiting_tables(alice_client, tables):
    html = alice_client.get("/games/history/").content.decode()
    assert "Waiting or being played" in html
