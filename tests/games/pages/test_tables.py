"""Join, leave, answer an invitation, resign: plain forms (PRG with a message) that
htmx may enhance; refusals are sentences, never errors."""

from __future__ import annotations

import pytest

from games import services
from games.models import Game, Seat

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def open_table(alice, bob):
    return services.game_create(creator=alice, players=3, seats=[{"open": True}, {"user": "bob"}])


def test_join_takes_the_open_seat(client, open_table, dave):
    client.force_login(dave)
    response = client.post(f"/games/{open_table.pk}/join/")
    assert response.status_code == 302 and response["Location"] == f"/games/{open_table.pk}/"
    assert Seat.objects.get(game=open_table, position=1).user == dave
    html = client.get(response["Location"]).content.decode()
    assert "You have joined the table." in html and "Leave this table" in html


def test_join_a_full_table_is_refused(client, open_table, dave, carol):
    services.game_join(game=open_table, user=carol)
    client.force_login(dave)
    response = client.post(f"/games/{open_table.pk}/join/")
    assert response.status_code == 400
    # Bob's invitation keeps the last seat: the refusal says so, not just "full".
    assert (
        "No seat is open: those not taken are kept for invited players."
        in response.content.decode()
    )
    assert not Seat.objects.filter(user=dave).exists()


def test_join_htmx_answers_with_the_board(client, open_table, dave):
    client.force_login(dave)
    response = client.post(f"/games/{open_table.pk}/join/", **HX)
    assert response.status_code == 200
    assert response.content.decode().lstrip().startswith('<section id="board"')


def test_anonymous_join_goes_to_log_in(client, open_table):
    response = client.post(f"/games/{open_table.pk}/join/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert client.get(f"/games/{open_table.pk}/join/").status_code in (302, 405)


def test_accept_and_decline_invitation(client, open_table, bob, dave):
    client.force_login(bob)
    assert (
        client.post(f"/games/{open_table.pk}/invitation/", {"accept": "maybe"}).status_code == 400
    )
    response = client.post(f"/games/{open_table.pk}/invitation/", {"accept": "yes"})
    assert response.status_code == 302
    assert Seat.objects.get(game=open_table, user=bob).accepted
    # Accepted again from an older tab: the answer says where he sits.
    again = client.post(f"/games/{open_table.pk}/invitation/", {"accept": "yes"})
    assert again.status_code == 400
    assert "You already sit at this table, in seat 3." in again.content.decode()
    client.force_login(dave)
    response = client.post(f"/games/{open_table.pk}/invitation/", {"accept": "no"})
    assert (
        response.status_code == 400 and "You have no open invitation" in response.content.decode()
    )


def test_a_declined_seat_is_kept_for_the_host(client, open_table, bob):
    client.force_login(bob)
    client.post(f"/games/{open_table.pk}/invitation/", {"accept": "no"})
    seat = Seat.objects.get(game=open_table, position=2)
    assert seat.held and not seat.is_open


def test_leave_and_creator_closing(client, open_table, alice, dave):
    client.force_login(dave)
    client.post(f"/games/{open_table.pk}/join/")
    response = client.post(f"/games/{open_table.pk}/leave/")
    assert response.status_code == 302
    assert not Seat.objects.filter(user=dave).exists()
    assert client.post(f"/games/{open_table.pk}/leave/").status_code == 400  # no seat any more
    client.force_login(alice)
    closed = client.post(f"/games/{open_table.pk}/leave/", follow=True).content.decode()
    assert Game.objects.get(pk=open_table.pk).status == Game.Status.ABANDONED
    assert "You closed the table." in closed


def test_a_closed_table_says_so_to_its_invited_players(client, open_table, alice, bob):
    """Bob's invitation came before the host closed the table: its page says it is
    closed, with nothing to accept, decline or join."""
    client.force_login(alice)
    client.post(f"/games/{open_table.pk}/leave/")
    client.force_login(bob)
    html = client.get(f"/games/{open_table.pk}/").content.decode()
    assert "This table was closed" in html and "Waiting for players" not in html
    for offer in ("Accept", "Decline", "Join this table", "Leave this table"):
        assert f">{offer}<" not in html


def test_a_closed_table_says_so_to_whoever_watched_it(client, open_table, alice, dave):
    """A visitor or a player without a seat who followed the table's link (or was
    watching it) learns that it was closed: not a bare "not found", and a
    watching board reloads into that page rather than polling a 404 for ever.  They
    see nothing of it but that (no seats, no names)."""
    client.force_login(alice)
    client.post(f"/games/{open_table.pk}/leave/")
    for who in (None, dave):
        client.logout()
        if who is not None:
            client.force_login(who)
        page = client.get(f"/games/{open_table.pk}/")
        html = page.content.decode()
        assert page.status_code == 410
        assert "This table was closed" in html and "It was closed before the game began" in html
        assert "Alice" not in html and "Bob" not in html
        poll = client.get(f"/games/{open_table.pk}/board/?version=0&t=1", **HX)
        assert poll.status_code == 200 and poll["HX-Refresh"] == "true" and not poll.content
    join = client.post(f"/games/{open_table.pk}/join/")
    assert join.status_code == 410 and "This table was closed" in join.content.decode()
    assert not Seat.objects.filter(game=open_table, user=dave).exists()
    assert client.get("/games/999999/").status_code == 404  # no such table: as before


def test_resign_hands_the_seat_to_a_bot(client, table, bob):
    client.force_login(bob)
    html = client.get(f"/games/{table.pk}/").content.decode()
    assert "Resign from this game" in html
    response = client.post(f"/games/{table.pk}/resign/")
    assert response.status_code == 302
    seat = Seat.objects.get(game=table, user=bob)
    assert seat.resigned and seat.ai_level == "medium"
    html = client.get(f"/games/{table.pk}/").content.decode()
    assert "Resigned — played by a bot" in html and "Resign from this game" not in html
    again = client.post(f"/games/{table.pk}/resign/")
    assert again.status_code == 400 and "already resigned" in again.content.decode()


def test_resigning_from_the_board_reloads_the_page_and_says_so(client, table, bob):
    """With htmx, resigning reloads the whole page (not only the board): it says what
    happened, and the offer to be told of one's turns, outside the board, is gone."""
    client.force_login(bob)
    assert 'id="notify-me"' in client.get(f"/games/{table.pk}/").content.decode()
    response = client.post(f"/games/{table.pk}/resign/", **HX)
    assert response.status_code == 200 and response["HX-Redirect"] == f"/games/{table.pk}/"
    html = client.get(f"/games/{table.pk}/").content.decode()
    assert "You resigned; a bot plays your seat from now on." in html
    assert 'id="notify-me"' not in html


def test_outsider_cannot_resign_or_leave(client, table, dave):
    client.force_login(dave)
    for tail in ("resign/", "leave/"):
        response = client.post(f"/games/{table.pk}/{tail}")
        assert response.status_code == 400
        assert "You do not have a seat at this table." in response.content.decode()
