"""The waiting board's "Change seat N" for the table's host: a seat nobody has taken
can be opened, given to a bot or offered to another player; nobody else sees the form,
and a bad form says why and changes nothing."""

from __future__ import annotations

import re

import pytest

from games.models import Game, Seat
from games.services import game_create, game_invitation_respond

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(alice, bob, carol):
    """Alice hosts: Bob invited to seat 2, Carol has taken seat 3, seat 4 is a bot."""
    game = game_create(
        creator=alice,
        players=4,
        seats=[{"user": "bob"}, {"user": "carol"}, {"ai": "easy"}],
    )
    game_invitation_respond(game=game, user=carol, accept=True)
    return game


def _forms(html: str) -> list[int]:
    """The seats (from 0) whose change form the page draws."""
    return [int(p) for p in re.findall(r'name="position" value="(\d+)"', html)]


def _seats(game) -> list[tuple]:
    return list(
        Seat.objects.filter(game=game)
        .order_by("position")
        .values_list("user__username", "ai_level")
    )


def test_only_the_host_may_change_seats_nobody_has_taken(client, table, alice, bob, carol):
    client.force_login(alice)
    html = client.get(f"/games/{table.pk}/").content.decode()
    assert _forms(html) == [1, 3]  # Bob's unanswered invitation and the bot
    assert "Change seat 2" in html and "Change seat 4" in html
    assert re.search(r'<option value="invite" selected>', html)  # seat 2 as it is now
    assert 'value="bob"' in html
    assert re.search(r'<option value="bot:easy" selected>', html)
    for guest in (bob, carol):
        client.force_login(guest)
        assert _forms(client.get(f"/games/{table.pk}/").content.decode()) == []
    client.logout()
    assert _forms(client.get(f"/games/{table.pk}/").content.decode()) == []


def test_the_host_invites_another_player_instead(client, table, alice, dave, erin):
    client.force_login(alice)
    answer = client.post(
        f"/games/{table.pk}/seat/", {"position": "1", "kind": "invite", "invite": " Dave "}
    )
    assert answer.status_code == 302
    assert _seats(table)[1] == ("dave", "")
    page = client.get(answer["Location"]).content.decode()
    assert "You invited Dave to seat 2." in page
    # Named as the table names them, not as typed: "dave" is Dave.
    answer = client.post(
        f"/games/{table.pk}/seat/", {"position": "3", "kind": "invite", "invite": "erin"}
    )
    assert "You invited Erin to seat 4." in client.get(answer["Location"]).content.decode()


def test_a_bot_in_the_last_seat_starts_the_game(client, table, alice):
    client.force_login(alice)
    answer = client.post(
        f"/games/{table.pk}/seat/", {"position": "1", "kind": "bot:hard"}, HTTP_HX_REQUEST="true"
    )
    assert answer.status_code == 200
    assert Game.objects.get(pk=table.pk).status == Game.Status.ACTIVE
    assert 'id="board"' in answer.content.decode()


@pytest.mark.parametrize(
    "data, message, field",
    [
        ({"position": "1", "kind": "invite", "invite": ""}, "Write the name of the player", "invite"),
        ({"position": "1", "kind": "bot:grandmaster"}, "Choose who sits in this seat.", "kind"),
        ({"position": "1"}, "Choose who sits in this seat.", "kind"),
        ({"position": "two", "kind": "open"}, "Choose the seat by its number.", None),
        ({"position": "9", "kind": "open"}, "Choose the seat by its number.", None),
        ({"position": "2", "kind": "open"}, "Carol has taken this seat; it stays theirs.", None),
        ({"position": "0", "kind": "open"}, "This is your own seat.", None),
        ({"position": "1", "kind": "invite", "invite": "nobody"}, "no player called", "invite"),
    ],
)
def test_a_bad_form_says_why_and_changes_nothing(client, table, alice, data, message, field):
    """The reason stands beside the field it is about, in that seat's form, open and as
    it was sent; at the top of the page when the form names no seat the host may change."""
    client.force_login(alice)
    before = _seats(table)
    answer = client.post(f"/games/{table.pk}/seat/", data)
    assert answer.status_code == 400
    html = answer.content.decode().replace("&#x27;", "'")
    assert message in html
    assert _seats(table) == before
    if field is None:
        assert "flash--error" in html and "seat-error-" not in html
        return
    assert "flash--error" not in html
    form = re.search(
        r'<details class="seat-change" id="seat-change-1" open>.*?</details>', html, re.S
    )
    assert form is not None, "seat 2's form is open"
    form = form.group(0)
    assert re.search(rf'id="seat-error-1"><li>[^<]*{re.escape(message)}', form)
    invalid = re.findall(r'<(?:select|input)[^>]*aria-invalid="true"[^>]*>', form)
    assert len(invalid) == 1 and f'name="{field}"' in invalid[0]
    assert 'aria-describedby="seat-error-1"' in invalid[0]
    assert f'name="invite" id="seat-invite-1" value="{data.get("invite", "")}"' in form
    assert html.count('aria-invalid="true"') == 1  # the other seats' forms: as they were


def test_a_guest_is_refused(client, table, carol):
    client.force_login(carol)
    answer = client.post(f"/games/{table.pk}/seat/", {"position": "1", "kind": "open"})
    assert answer.status_code == 400 and "Only the table&#x27;s creator" in answer.content.decode()
    assert _seats(table)[1] == ("bob", "")
    client.logout()
    answer = client.post(f"/games/{table.pk}/seat/", {"position": "1", "kind": "open"})
    assert answer.status_code == 302 and "/accounts/login/" in answer["Location"]
    assert client.get(f"/games/{table.pk}/seat/").status_code in (302, 405)


def test_the_host_alone_sees_who_declined_until_the_seat_changes(client, table, alice, bob, carol):
    game_invitation_respond(game=table, user=bob, accept=False)
    client.force_login(alice)
    assert "Bob declined" in client.get(f"/games/{table.pk}/").content.decode()
    client.force_login(carol)  # the seat's state, not who: that is the host's to know
    page = client.get(f"/games/{table.pk}/").content.decode()
    assert "Bob declined" not in page and "Invitation declined" in page
    client.force_login(alice)
    client.post(f"/games/{table.pk}/seat/", {"position": "1", "kind": "open"})
    assert "Bob declined" not in client.get(f"/games/{table.pk}/").content.decode()


def test_the_hosts_lobby_says_who_declined(client, table, alice, bob, carol):
    from accounts.models import User

    User.objects.filter(pk=bob.pk).update(display_name="")  # named by the username then
    game_invitation_respond(game=table, user=bob, accept=False)
    client.force_login(alice)
    # As written, not in a label's capitals ("BOB DECLINED" changed how a name reads).
    assert '<span class="badge badge--done badge--names">bob declined</span>' in client.get(
        "/"
    ).content.decode()
    assert "bob declined" in client.get(f"/games/{table.pk}/").content.decode()
    client.force_login(carol)
    assert "declined" not in client.get("/").content.decode()


def test_the_lobby_shows_an_invited_seat_as_reserved_not_taken(client, alice, bob, carol, dave):
    """A stranger browsing the open tables sees Bob's seat is only reserved for him."""
    game_create(creator=alice, players=4, seats=[{"user": "bob"}, {"open": True}, {"open": True}])
    client.force_login(dave)
    html = client.get("/").content.decode()
    assert '<span class="seat-dot seat-dot--invited">Bob, invited</span>' in html
    assert '<span class="seat-dot">Alice</span>' in html
