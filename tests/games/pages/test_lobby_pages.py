"""The lobby lists open tables a page at a time, in a fixed number of queries, and
never lists a staff scenario table (its deck is known to staff)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.selectors import LOBBY_PAGE
from games.services import game_create
from tests.factories import UserFactory
from tests.games.factories import scenario_deck

pytestmark = pytest.mark.django_db


def _open_tables(count: int) -> None:
    for _ in range(count):
        game_create(creator=UserFactory(), players=3, seats=[{"open": True}, {"ai": "easy"}])


def _lobby_queries(client) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as queries:
        html = client.get("/").content.decode()
    return len(queries), html


def test_the_lobby_pages_open_tables_in_a_fixed_number_of_queries(client, alice):
    client.force_login(alice)
    _open_tables(3)
    few, _ = _lobby_queries(client)
    _open_tables(2 * LOBBY_PAGE)
    many, html = _lobby_queries(client)
    assert many == few
    assert html.count('class="game-row game-row--open"') == LOBBY_PAGE
    assert "Page 1 of 3" in html and "?page=2" in html
    last = client.get("/?page=3").content.decode()
    assert last.count('class="game-row game-row--open"') == 3
    assert client.get("/?page=zzz").status_code == 200  # a bad page number: the first page


@pytest.mark.parametrize("fixed", ["deck", "first_player"])
def test_scenario_tables_are_not_listed_and_are_marked(client, dora, alice, fixed):
    scenario = game_create(
        creator=dora,
        players=3,
        seats=[{"open": True}, {"open": True}],
        **({"deck": scenario_deck("lux5")} if fixed == "deck" else {"first_player": 1}),
    )
    client.force_login(alice)
    assert f"/games/{scenario.pk}/" not in client.get("/").content.decode()
    board = client.get(f"/games/{scenario.pk}/").content.decode()
    assert "Scenario · unrated" in board


def test_games_without_a_table_number_leads_to_the_lobby(client):
    """/games/ is a table's address with its number taken off: it goes to the lobby,
    whether signed in or not, rather than to a "not found" page."""
    response = client.get("/games/")
    assert response.status_code == 302 and response.url == "/"
    assert client.get("/games/", follow=True).status_code == 200


def test_the_lobby_redraws_its_lists_only_when_a_table_changed(client, alice, bob):
    """The page asks again every 20 s with the stamp of what it shows: 204 while
    nothing changed; a new invitation brings the lists (and the header's count)."""
    import re

    client.force_login(bob)
    html = client.get("/").content.decode()
    url = re.search(r'id="lobby-live"[^>]*hx-get="([^"]+)"', html).group(1).replace("&amp;", "&")
    assert 'hx-select-oob="#turns-waiting"' in html
    assert client.get(url, HTTP_HX_REQUEST="true").status_code == 204
    table = game_create(creator=alice, players=3, seats=[{"user": "bob"}, {"ai": "easy"}])
    again = client.get(url, HTTP_HX_REQUEST="true")
    assert again.status_code == 200
    assert f'href="/games/{table.pk}/"' in again.content.decode()


def test_your_games_mark_who_resigned(client, dora, alice, bob):
    """A player who resigned is marked in the lobby's rows (a bot plays their seat), and
    the one who resigned reads so in their own row (it said "In play" like any game)."""
    from games.services import game_resign
    from tests.games.factories import people_game

    game = people_game(
        dora, alice, bob, deck=scenario_deck("lux5 lux6 debt lux7"), first_player=2
    )  # bob to move: dora reads "In play"
    game_resign(game=game, user=alice)
    client.force_login(dora)
    html = client.get("/").content.decode()
    assert f"{alice.public_name} (resigned)" in html and "In play" in html
    assert f"{bob.public_name} (resigned)" not in html
    client.force_login(alice)
    html = client.get("/").content.decode()
    assert "You resigned" in html and "In play" not in html


def test_a_running_game_says_whom_it_waits_for(client, dora, alice, bob):
    """A host with several tables over days read only "In play" on each, not who held
    one up (how long they have is theirs to read, on their own row)."""
    from tests.games.factories import people_game

    game = people_game(
        dora,
        alice,
        bob,
        deck=scenario_deck("lux5 lux6 lux7"),
        first_player=2,
        move_deadline_hours=48,
    )  # bob to move
    client.force_login(dora)
    html = client.get("/").content.decode()
    row = html.split(f'href="/games/{game.pk}/"', 1)[1].split("</li>", 1)[0]
    assert "In play" in row and f"waiting for {bob.public_name}" in row
    assert "Move due" not in row
    client.force_login(bob)  # his own turn: the row says so, as before
    row = client.get("/").content.decode().split(f'href="/games/{game.pk}/"', 1)[1]
    assert "Your turn" in row.split("</li>", 1)[0] and "waiting for" not in row.split("</li>", 1)[0]


def test_an_invitation_in_your_games_says_what_the_table_will_be(client, alice, bob):
    """Players, special cards and pace, as the open tables say them: one answers an
    invitation knowing what it asks for (the row named the seats alone)."""
    game_create(
        creator=alice,
        players=4,
        seats=[{"user": "bob"}, {"open": True}, {"ai": "easy"}],
        advanced=["yacht"],
        move_deadline_hours=24,
    )
    client.force_login(bob)
    html = client.get("/").content.decode()
    row = html.split("Invitation from")[1].split("</li>")[0]
    assert "4 players · Yacht Club · 1 day per move" in row
    # The badge names the host as they write their name (not "ALICE" in capitals).
    assert '<span class="badge badge--turn badge--names">Invitation from Alice</span>' in html
    client.force_login(alice)  # the host's row: who has not answered yet says so
    row = client.get("/").content.decode().split("Waiting for players")[1].split("</li>")[0]
    assert f"{bob.public_name} (invited)," in row  # not "Bob, invited, …": one more name


def test_an_invitation_in_your_games_is_accepted_from_the_lobby(client, alice, bob):
    """On a phone the invitation's row read as plain text: "Accept" appeared only on
    the table's page, and the lobby's one button was "Decline all invitations"."""
    from games.models import Seat

    game = game_create(creator=alice, players=3, seats=[{"user": "bob"}, {"open": True}])
    client.force_login(bob)
    row = client.get("/").content.decode().split("Invitation from")[1].split("</li>")[0]
    assert f'action="/games/{game.pk}/invitation/"' in row and 'name="csrfmiddlewaretoken"' in row
    assert (
        f'value="yes" class="button button--small" id="accept-{game.pk}">Accept'
        f'<span class="visually-hidden"> table {game.pk}</span>' in row
    )
    client.post(f"/games/{game.pk}/invitation/", {"accept": "yes"})
    assert Seat.objects.get(game=game, user=bob).accepted
    client.force_login(alice)  # the host's own rows offer nothing of the kind
    assert "/invitation/" not in client.get("/").content.decode()


def test_an_invitation_is_declined_from_the_lobby_which_says_how_to_undo_it(client, alice, bob):
    """One invitation not wanted meant opening its table, or "Decline all invitations"
    beside it; the row's own "Decline" declines it and comes back to the lobby."""
    from games.models import Seat

    game = game_create(creator=alice, players=3, seats=[{"user": "bob"}, {"open": True}])
    other = game_create(creator=alice, players=3, seats=[{"user": "bob"}, {"ai": "easy"}])
    client.force_login(bob)
    row = client.get("/").content.decode().split(f'href="/games/{game.pk}/"')[1].split("</li>")[0]
    assert '<input type="hidden" name="back" value="lobby">' in row
    assert f'Decline<span class="visually-hidden"> table {game.pk}</span>' in row
    done = client.post(
        f"/games/{game.pk}/invitation/", {"accept": "no", "back": "lobby"}, follow=True
    )
    assert done.redirect_chain == [("/", 302)]
    page = done.content.decode()
    assert (
        f'You declined the invitation to <a href="/games/{game.pk}/">table {game.pk}</a>; its '
        "host is told. Changed your mind? Its page gives the seat back" in page
    )
    seat = Seat.objects.get(game=game, position=1)
    assert seat.user is None and seat.declined_by == bob
    assert Seat.objects.get(game=other, user=bob).invited  # the other one still waits
    # Sent again (declined already): the lobby says why nothing happened.
    again = client.post(
        f"/games/{game.pk}/invitation/", {"accept": "no", "back": "lobby"}, follow=True
    )
    assert again.redirect_chain == [("/", 302)] and "errorlist" not in again.content.decode()
    assert "message--error" in again.content.decode()


def test_many_invitations_are_listed_the_newest_first_and_the_rest_on_request(client, alice):
    """Invitations come from any number of hosts: the lobby lists the ten newest and
    says how many more there are; "Show N more" lists them all, and the page's poll
    keeps asking for them all."""
    from games.views import LOBBY_INVITATIONS

    tables = [
        game_create(creator=UserFactory(), players=3, seats=[{"user": "alice"}, {"ai": "easy"}])
        for _ in range(LOBBY_INVITATIONS + 3)
    ]
    client.force_login(alice)
    html = client.get("/").content.decode()
    shown = [game.pk for game in tables if f'href="/games/{game.pk}/"' in html]
    assert shown == [game.pk for game in tables[3:]]  # the newest ten
    assert "Show 3 more invitations" in html and 'href="?invitations=all"' in html
    assert "Decline all invitations" in html
    everything = client.get("/?invitations=all").content.decode()
    assert all(f'href="/games/{game.pk}/"' in everything for game in tables)
    assert "more invitation" not in everything and "invitations=all&amp;stamp=" in everything


def test_a_finished_game_in_your_games_says_how_you_did(client, dora, alice, bob):
    """The row said "Finished" and nothing of the result: one opened each game to see."""
    import random

    from accounts.models import PlayerResult
    from tests.games.factories import people_game, people_play

    game = people_play(
        people_game(dora, alice, bob, deck=scenario_deck("lux5 lux6"), first_player=0),
        random.Random(0),
    )
    for user in (dora, alice, bob):
        result = PlayerResult.objects.get(game=game, user=user)
        client.force_login(user)
        html = client.get("/").content.decode()
        row = html.split(f"Table {game.pk}</span>")[1].split("</li>")[0]
        word = (
            "Won"
            if result.won
            else "Cast out"
            if result.cast_out
            else {2: "2nd", 3: "3rd"}[result.rank]
        )
        assert '<span class="game-row__result">' in row and word in row, (user, row)
        assert "&lt;" not in row, row  # the word's own markup, not shown as text


def test_your_games_say_when(client, dora, alice, bob):
    """A player back after weeks away reads since when each table waits and when each
    game ended: the rows said "Your turn", "Waiting for players" or "Finished" alone."""
    import random
    from datetime import datetime, timedelta

    from django.utils import timezone

    from games.models import Game
    from tests.games.factories import people_game, people_play

    def row(html: str, game) -> str:
        return html.split(f'href="/games/{game.pk}/"', 1)[1].split("</li>", 1)[0]

    invitation = game_create(creator=dora, players=3, seats=[{"user": "bob"}, {"open": True}])
    own = game_create(creator=bob, players=3, seats=[{"open": True}, {"ai": "easy"}])
    day = timezone.make_aware(datetime(2026, 11, 9, 12))
    Game.objects.filter(pk__in=[invitation.pk, own.pk]).update(created_at=day)
    untimed = people_game(dora, alice, bob, deck=scenario_deck("lux5 lux6"), first_player=2)
    Game.objects.filter(pk=untimed.pk).update(turn_started_at=day + timedelta(days=1))
    timed = people_game(
        dora, alice, bob, deck=scenario_deck("lux5 lux6"), first_player=2, move_deadline_hours=24
    )
    over = people_play(people_game(dora, alice, bob), random.Random(2))
    Game.objects.filter(pk=over.pk).update(finished_at=day + timedelta(days=2))
    client.force_login(bob)
    html = client.get("/").content.decode()
    assert "waiting since 9 Nov 2026" in row(html, invitation)
    assert "waiting since 9 Nov 2026" in row(html, own)
    assert "Your turn" in row(html, untimed) and "since 10 Nov 2026" in row(html, untimed)
    assert "Move due" in row(html, timed) and "since" not in row(html, timed)
    assert "Finished" in row(html, over) and "ended 11 Nov 2026" in row(html, over)
    # Another player's turn at a table without deadlines says since when it waits too
    # (the host looks for who keeps a table waiting); with deadlines, the due time does.
    client.force_login(alice)
    html = client.get("/").content.decode()
    assert "waiting for Bob" in row(html, untimed) and "since 10 Nov 2026" in row(html, untimed)
    assert "waiting for Bob" in row(html, timed) and "since" not in row(html, timed)


def test_the_host_sees_in_the_lobby_which_seat_may_go_to_a_bot(client, dora, alice, bob):
    """A host with tables over days found out that a seat could be handed to a bot only
    by opening each board: the lobby row says so, to the host alone, by the board's
    rule (a week waited at a table without deadlines)."""
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Game
    from tests.games.factories import people_game

    def row(html: str, game) -> str:
        return html.split(f'href="/games/{game.pk}/"', 1)[1].split("</li>", 1)[0]

    game = people_game(dora, alice, bob, deck=scenario_deck("lux5 lux6"), first_player=2)
    said = "you may hand a bot the seat of Bob"
    Game.objects.filter(pk=game.pk).update(turn_started_at=timezone.now() - timedelta(days=6))
    client.force_login(dora)
    assert said not in row(client.get("/").content.decode(), game)
    Game.objects.filter(pk=game.pk).update(turn_started_at=timezone.now() - timedelta(days=8))
    assert said in row(client.get("/").content.decode(), game)
    client.force_login(alice)  # not the host: nothing of the kind
    assert "may hand a bot" not in row(client.get("/").content.decode(), game)


def test_a_waiting_table_says_when_it_closes_by_itself(client, settings, dora, bob):
    from datetime import datetime

    from django.utils import timezone

    from games.models import Game

    settings.WAITING_TABLE_DAYS = 30
    game = game_create(creator=dora, players=3, seats=[{"user": "bob"}, {"open": True}])
    day = timezone.make_aware(datetime(2026, 11, 9, 12))
    Game.objects.filter(pk=game.pk).update(created_at=day, updated_at=day)
    for who in (dora, bob):
        client.force_login(who)
        html = client.get(f"/games/{game.pk}/").content.decode()
        assert (
            "Open since 9 Nov 2026. A table closes by itself after 30 days with no seat "
            "taken, left or changed: this one on 9 Dec 2026 if nothing changes before."
        ) in html


def test_your_games_lead_to_the_history_once_one_is_finished(client, alice, bob, carol):
    """The lobby lists the latest finished games only: a link leads to all of them."""
    import random

    from tests.games.factories import people_game, people_play

    client.force_login(alice)
    people_game(alice, bob, carol)
    assert 'id="all-my-games"' not in client.get("/").content.decode()
    people_play(people_game(alice, bob, carol), random.Random(5))
    html = client.get("/").content.decode()
    assert 'id="all-my-games" href="/games/history/?show=finished"' in html
    assert "All your finished games, in your history" in html
