"""The public profile and the leaderboard: what they show, and a fixed number of
queries whatever the number of games (proved with 200 finished games)."""

from __future__ import annotations

import re

from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import PlayerStats
from tests.factories import PASSWORD, UserFactory
from tests.games.records.conftest import played_game, rating_cells, scored_game
from tests.games.records.test_stats import five_games  # noqa: F401  (a fixture)

PROFILE_QUERIES = 6  # user; stats; chart points; recent results + games; their seats; head-to-head
LEADERBOARD_QUERIES = 3  # count; page of stats with users; bot ratings


def _count(client, url):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    return len(queries), response


# --------------------------------------------------------------------------- profile


def test_profile_shows_the_hand_checked_stats(client, five_games, alice):  # noqa: F811
    response = client.get("/players/alice/")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<h1 class="profile-head__name">Alice</h1>' in html
    stats = dict(re.findall(r"<dt>([^<]+)</dt><dd>([^<]+)</dd>", html))
    assert stats == {
        "Games played": "5",
        "Games won": "1",
        "Win rate": "20%",
        "Average status": "4.3",  # 17 over the four games she did not resign from
        "Times cast out": "2",
        "Resigned or handed to a bot": "1",
    }
    rating = PlayerStats.objects.get(user=alice).rating
    assert f'<span class="rating-badge__value">{rating:,.0f}</span>' in html
    # Most-won cards, the chart, recent games, head-to-head.
    assert "won 1 time<" in html and "won 2 times" not in html  # G4 was the bot's
    assert '<svg class="chart__svg"' in html and '<title id="chart-title">' in html
    # The description is the figure's visible caption, read once: not the picture's too.
    assert 'aria-labelledby="chart-title"' in html and "<desc" not in html
    assert '<figcaption class="chart__caption">' in html
    assert (
        "in the first games any place but the last usually raises it" in html
    )  # why +14 after a loss
    assert html.count('class="chart__dot') == 4  # before the first game + 3 rated games
    assert 'href="/players/bob/"' in html and "Bot (easy)" in html
    # Her resignation counts as finishing last there: the note says so.
    assert "a player who resigned finished behind everybody" in html
    assert html.count("/replay/") >= 5
    assert "unrated" in html


def test_profile_of_a_newcomer(client, dave):
    html = client.get("/players/dave/").content.decode()
    assert "No rated games yet" in html and "No finished games yet." in html
    assert "<svg" not in html


def test_profile_lookup_ignores_case_and_unknown_names_are_404(client, alice):
    # Another spelling of the name leads to the profile's one address.
    for spelling in ("ALICE", "Alice", "alice%20"):
        response = client.get(f"/players/{spelling}/")
        assert response.status_code == 302 and response["Location"] == "/players/alice/"
    assert client.get("/players/ALICE/", follow=True).status_code == 200
    for name in ("nobody", "x" * 300, "%3Cscript%3E"):
        assert client.get(f"/players/{name}/").status_code == 404
    # The page says whom it looked for, escaped, not that "the table" may be gone.
    page = client.get("/players/nobody/").content.decode()
    assert "There is no player called “nobody”." in page and "table" not in page.lower()
    assert "&lt;script&gt;" in client.get("/players/%3Cscript%3E/").content.decode()


def test_profile_lookup_reads_names_as_the_site_does(client, db):
    """Upper-case letters beyond ASCII, and a name without its accent, find the player
    (SQLite's case-insensitive match knows ASCII only: "ZOË" was nobody there)."""
    UserFactory(username="zoë", display_name="Zoë")
    for name in ("zo%C3%AB", "ZO%C3%8B", "zoe", "Zoe"):
        assert client.get(f"/players/{name}/", follow=True).status_code == 200, name


def test_my_own_profile_links_to_my_history(client, alice):
    client.login(username="alice", password=PASSWORD)
    html = client.get("/players/alice/").content.decode()
    assert 'href="/games/history/"' in html


def test_display_names_are_escaped(client, db):
    evil = UserFactory(username="evil", display_name="<b>x</b>")
    other = UserFactory(username="other")
    scored_game(
        [evil, other, "easy"],
        [
            {"cards": ["lux3"], "money": [8000]},
            {"cards": ["lux2"], "money": [6000]},
            {"money": [1000]},
        ],
    )
    for url in ("/players/evil/", "/players/other/"):
        html = client.get(url).content.decode()
        assert "<b>x</b>" not in html and "&lt;b&gt;x&lt;/b&gt;" in html


# --------------------------------------------------------------------------- leaderboard


def test_leaderboard_lists_players_with_enough_rated_games(client, settings, alice, bob, carol):
    settings.LEADERBOARD_MIN_GAMES = 2
    for _ in range(2):
        scored_game(
            [alice, bob, "hard"],
            [
                {"cards": ["lux10"], "money": [20000]},
                {"cards": ["lux4"], "money": [15000]},
                {"cards": ["lux9"], "money": [1000]},
            ],
        )
    scored_game(
        [carol, "easy", "easy"], [{"cards": ["lux1"], "money": [8000, 1000]}, {}, {"money": [1000]}]
    )
    html = client.get("/leaderboard/").content.decode()
    assert "at least 2 rated games" in html
    rows = re.findall(r'<a href="/players/(\w+)/">', html)
    assert rows == ["alice", "bob"]  # Carol has one rated game only
    assert "Bot (hard)" in html and "Bot (easy)" in html
    # Ratings are written as the reader's language writes numbers: 1,062; 1.062 in German.
    rating = PlayerStats.objects.get(user=alice).rating
    assert rating >= 1000  # four digits, so grouped
    assert f"<strong>{rating:,.0f}</strong>" in html
    client.cookies["hs_language"] = "de"
    html = client.get("/leaderboard/").content.decode()
    assert f"<strong>{rating:,.0f}</strong>".replace(",", ".") in html


def test_leaderboard_is_paginated(client, settings, db):
    settings.LEADERBOARD_MIN_GAMES = 1
    users = [UserFactory(username=f"p{i:02d}") for i in range(30)]
    for i in range(0, 30, 3):
        scored_game(
            users[i : i + 3],
            [
                {"cards": ["lux10"], "money": [20000]},
                {"cards": ["lux4"], "money": [15000]},
                {"cards": ["lux9"], "money": [1000]},
            ],
        )
    first = client.get("/leaderboard/").content.decode()
    second = client.get("/leaderboard/?page=2").content.decode()
    assert len(re.findall(r'<a href="/players/', first)) == 25
    assert len(re.findall(r'<a href="/players/', second)) == 5
    assert "Page 2 of 2" in second
    # A page past the last shows the last (the board shrank since the link was made); a
    # page number that is not one is answered 400 with a sentence, as in the history (it
    # showed the first or the last page without a word).
    past = client.get("/leaderboard/?page=999").content.decode()
    assert "Page 2 of 2" in past
    assert "There is no page 999: this is the last page." in past  # it said nothing
    assert "There is no page" not in second
    for bad, sentence in [
        ("abc", "The page must be a whole number."),
        ("0", "Pages are numbered from 1."),
        ("-1", "Pages are numbered from 1."),
        ("%00", "The page must be a whole number."),
    ]:
        response = client.get(f"/leaderboard/?page={bad}")
        assert response.status_code == 400
        html = response.content.decode()
        assert sentence in html and '<a href="/players/' not in html.split("<h2")[0]


# --------------------------------------------------------------------------- end screen

END_ROWS = [
    {"cards": ["lux10"], "money": [20000]},
    {"cards": ["lux4"], "money": [15000]},
    {"cards": ["lux9"], "money": [1000]},
]


def test_the_end_screen_shows_each_persons_rating_change_and_where_bots_are_rated(
    client, alice, bob
):
    """A rated game: each person's change; a bot's seat is not called unrated (its level's
    rating moved) but links to the leaderboard, where each level has one rating."""
    from accounts.models import PlayerResult

    game = scored_game([alice, bob, "hard"], END_ROWS)
    client.force_login(alice)
    cells = rating_cells(client.get(f"/games/{game.pk}/").content.decode())
    deltas = {r.seat: r.rating_change_shown for r in PlayerResult.objects.filter(game=game)}
    from games.templatetags.game_cards import rating_change

    assert rating_change(deltas[0]) in cells[0] and rating_change(deltas[1]) in cells[1]
    assert "." not in cells[0].split(">", 1)[1]  # whole, as the ratings themselves
    assert 'href="/leaderboard/"' in cells[2] and "bots: see the leaderboard" in cells[2]
    assert all(cell.startswith(' data-label="Rating change">') for cell in cells)
    assert not any("unrated" in cell for cell in cells)


def test_the_end_screen_of_an_unrated_game_says_so_for_every_seat(client, alice, bob):
    game = scored_game([alice, bob, "hard"], END_ROWS, scenario=True)
    client.force_login(alice)
    cells = rating_cells(client.get(f"/games/{game.pk}/").content.decode())
    assert len(cells) == 3 and all("unrated" in cell for cell in cells)
    assert not any("/leaderboard/" in cell for cell in cells)
    # And why, under the scores, in the reader's language.
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert "This game changes no rating. A scenario game (the deck or first player" in html


def test_a_game_with_a_deadline_move_says_why_it_changes_no_rating(client, alice, bob):
    """A bot moved for an absent player: the game is unrated, and the end screen and the
    replay's last move say so, in the reader's language."""
    from games.models import Move

    game = scored_game(
        [alice, bob, "hard"],
        END_ROWS,
        actions=[{"seat": 1, "type": "pass"}],
        actors={0: Move.Actor.DEADLINE},
    )
    client.force_login(alice)
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert "This game changes no rating. A deadline passed and a bot moved for an absent" in html
    client.cookies["hs_language"] = "de"
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert "This game changes no rating" not in html and "ein Bot" in html.split("scores__note")[1]
    rated = scored_game([alice, bob, "hard"], END_ROWS)
    assert "scores__note" not in client.get(f"/games/{rated.pk}/").content.decode()


# --------------------------------------------------------------------------- speed


def test_profile_and_leaderboard_queries_do_not_grow_with_200_games(
    client, settings, alice, bob, carol, dave
):
    settings.LEADERBOARD_MIN_GAMES = 1
    people = [alice, bob, carol, dave]
    levels = ["random", "easy", "medium", "hard"]

    def add_games(start, stop):
        for i in range(start, stop):
            seats = [alice, people[1 + i % 3], levels[i % 4]]
            if i % 2:
                seats.append(people[1 + (i + 1) % 3])
            played_game(seats, seed=1000 + i)

    add_games(0, 2)
    few = {url: _count(client, url)[0] for url in ("/players/alice/", "/leaderboard/")}
    add_games(2, 200)
    assert PlayerStats.objects.get(user=alice).games_played == 200
    many = {}
    for url in ("/players/alice/", "/leaderboard/"):
        many[url], response = _count(client, url)
        assert response.status_code == 200
    assert few == many
    assert many["/players/alice/"] == PROFILE_QUERIES
    assert many["/leaderboard/"] == LEADERBOARD_QUERIES
    # Signed in: the same figures plus the session's own two (session, user) and the
    # header's count of games waiting for a move.
    client.login(username="alice", password=PASSWORD)
    assert _count(client, "/players/alice/")[0] == PROFILE_QUERIES + 3
    assert _count(client, "/leaderboard/")[0] == LEADERBOARD_QUERIES + 3


def test_column_heads_count_games_in_french(client, alice, bob, carol):
    """The head-to-head's columns count games ("Victoires", "Défaites", "Égalités"),
    not a game's result in a word ("Gagnée"), which stays for the rows."""
    played_game([alice, bob, carol], seed=5)
    client.cookies["hs_language"] = "fr"
    html = client.get("/players/alice/").content.decode()
    assert '<th scope="col" class="num">Victoires</th>' in html
    assert '<th scope="col" class="num">Défaites</th>' in html
    assert '<th scope="col" class="num">Égalités</th>' in html
    # French writes a space (one that does not break) before the percent sign.
    assert re.search(r"<dd>\d+\u00a0%</dd>", html)
