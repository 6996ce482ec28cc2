"""The lobby at "/" and the create-table form."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services
from games.models import Game, Seat
from tests.games.pages.conftest import act, table_make

pytestmark = pytest.mark.django_db


def test_anonymous_lobby_shows_open_tables_and_sign_up(client, alice):
    services.game_create(
        creator=alice,
        players=4,
        seats=[{"open": True}, {"ai": "hard"}, {"open": True}],
        advanced=["yacht"],
    )
    html = client.get("/").content.decode()
    assert "Open tables" in html and "Yacht Club" in html
    assert "Sign up to play" in html and "/accounts/signup/" in html
    # Under the open tables: a button that says what it does, not a sentence's first
    # word set in a button ("Sign up" to join a table).
    assert (
        '<a class="button button--gold" href="/accounts/signup/">Sign up to join a table</a>'
        in html
    )
    assert "Your games" not in html
    assert "/join/" not in html  # joining needs an account


def test_lobby_lists_my_games_your_turn_first(client, host, bob, carol, dave):
    waiting = table_make(host, [bob, carol])  # Alice to move
    act(waiting, host, type="bid", cards=[1000])  # now Bob to move
    mine = table_make(host, [carol, bob], first_player=2)  # Bob (seat 2) to move
    other = table_make(host, [bob, carol], first_player=0)  # Alice to move
    open_table = services.game_create(
        creator=dave, players=3, seats=[{"open": True}, {"open": True}], move_deadline_hours=48
    )
    client.force_login(bob)
    html = client.get("/").content.decode()
    assert html.count("Your turn</span>") == 2
    first_turn = html.index("Your turn</span>")
    assert html.index(f"Table {other.pk}<") > first_turn
    assert f"/games/{open_table.pk}/join/" in html and "2 days per move" in html
    assert "+ Create a table" in html
    assert mine.pk and waiting.pk


def test_lobby_queries_do_not_grow_with_the_number_of_games(client, host, bob, carol):
    client.force_login(bob)
    table_make(host, [bob, carol])
    services.game_create(creator=carol, players=3, seats=[{"open": True}, {"ai": "easy"}])
    with CaptureQueriesContext(connection) as few:
        client.get("/")
    for _ in range(4):
        table_make(host, [bob, carol])
        services.game_create(creator=carol, players=3, seats=[{"open": True}, {"ai": "easy"}])
    with CaptureQueriesContext(connection) as many:
        client.get("/")
    assert len(many) == len(few), [q["sql"][:120] for q in many]


def test_create_needs_log_in(client):
    response = client.get("/games/new/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_create_form_has_every_option(client, alice):
    client.force_login(alice)
    html = client.get("/games/new/").content.decode()
    for needle in (
        'name="players"',
        'name="your_seat"',
        'name="seat_2"',
        'name="invite_2"',
        'value="bot:hard"',
        'value="bot:expert"',
        'value="gambling"',
        'value="excursions"',
        'value="yacht"',
        'name="move_deadline_hours"',
        'value="168"',
        'name="memory_aid"',
    ):
        assert needle in html, needle
    # What each bot level is, beside their names (a newcomer could not tell which to pick).
    assert "medium weighs each bid, a good first opponent" in html


def _form(**changes):
    data = {
        "players": "3",
        "your_seat": "1",
        "seat_2": "open",
        "seat_3": "open",
        "move_deadline_hours": "",
    }
    data.update(changes)
    return data


def test_create_with_bots_starts_the_game(client, alice):
    client.force_login(alice)
    response = client.post(
        "/games/new/",
        _form(
            seat_2="bot:easy",
            seat_3="bot:random",
            advanced=["yacht", "gambling"],
            move_deadline_hours="72",
            memory_aid="on",
        ),
    )
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert game.status == Game.Status.ACTIVE
    assert (
        game.advanced == ["gambling", "yacht"]
        and game.move_deadline_hours == 72
        and game.memory_aid
    )
    assert [s.ai_level for s in game.seats.order_by("position")] == ["", "easy", "random"]


def test_an_expert_bot_can_take_a_seat_and_is_named_so_on_the_board(client, alice):
    client.force_login(alice)
    response = client.post("/games/new/", _form(seat_2="bot:expert", seat_3="open"))
    game = Game.objects.get()
    assert response.status_code == 302
    assert [s.ai_level for s in game.seats.order_by("position")] == ["", "expert", ""]
    assert "Bot — expert" in client.get("/games/new/").content.decode()
    assert "expert" in client.get(f"/games/{game.pk}/").content.decode()


def test_create_with_an_invitation_and_my_own_seat(client, alice, bob):
    client.force_login(alice)
    response = client.post(
        "/games/new/",
        _form(
            players="4",
            your_seat="3",
            seat_1="invite",
            invite_1="bob",
            seat_2="bot:medium",
            seat_4="open",
        ),
    )
    assert response.status_code == 302
    game = Game.objects.get()
    seats = {s.position: s for s in game.seats.all()}
    assert seats[2].user == alice and seats[0].user == bob and not seats[0].accepted
    assert seats[1].ai_level == "medium" and seats[3].is_open
    assert game.status == Game.Status.OPEN


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"seat_2": "invite", "invite_2": "nobody-here"}, "There is no player called"),
        (
            {"seat_2": "invite", "invite_2": ""},
            "Write the name of the player to invite: their username or the name the boards show.",
        ),
        ({"seat_2": "invite", "invite_2": "alice"}, "You already sit in seat 1."),
        (
            {"seat_2": "invite", "invite_2": "bob", "seat_3": "invite", "invite_3": "BOB"},
            "already invited",
        ),
        ({"your_seat": "5"}, "Choose a seat from 1 to 3."),
        ({"players": "9"}, "Select a valid choice"),
        ({"players": "abc"}, "Select a valid choice"),
        ({"seat_2": "bot:godlike"}, "Select a valid choice"),
        ({"advanced": ["chess"]}, "Select a valid choice"),
        ({"move_deadline_hours": "5"}, "Select a valid choice"),
        ({"seat_2": "invite", "invite_2": "x" * 500}, "at most 150 characters"),
    ],
)
def test_create_errors_are_shown_and_create_nothing(client, alice, bob, changes, message):
    client.force_login(alice)
    response = client.post("/games/new/", _form(**changes))
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Game.objects.exists() and not Seat.objects.exists()


def test_unknown_username_is_shown_beside_its_seat(client, alice):
    client.force_login(alice)
    response = client.post("/games/new/", _form(seat_3="invite", invite_3="ghost"))
    html = response.content.decode()
    assert response.status_code == 400
    row = html.split('class="seat-row seat-row--3"', 1)[1].split('class="seat-row seat-row--4"', 1)[
        0
    ]
    assert "There is no player called “ghost”." in row
    assert 'value="ghost"' in row and 'aria-invalid="true"' in row


def test_every_error_of_the_seats_comes_at_once(client, alice):
    """An unknown name was told only once the form's own errors were mended: one
    error per try."""
    client.force_login(alice)
    html = client.post(
        "/games/new/",
        _form(players="4", seat_2="invite", invite_2="ghost", seat_3="invite", invite_3="alice"),
    ).content.decode()
    summary = html.split('id="form-errors"', 1)[1].split("</div>", 1)[0]
    assert "to seat 2</a>: There is no player called “ghost”." in summary
    assert "to seat 3</a>: You already sit in seat 1." in summary


@pytest.mark.parametrize(
    ("changes", "line"),
    [
        (
            {"seat_3": "invite", "invite_3": "ghost"},  # the form's, as the service's
            '<a href="#id_invite_3">Name to invite to seat 3</a>: '
            "There is no player called “ghost”.",
        ),
        (
            {"seat_2": "invite", "invite_2": "alice"},  # the form's
            '<a href="#id_invite_2">Name to invite to seat 2</a>: You already sit in seat 1.',
        ),
        ({"your_seat": "5"}, '<a href="#id_your_seat">Your seat</a>: Choose a seat from 1 to 3.'),
    ],
)
def test_a_refused_table_sums_up_its_errors_where_the_page_opens(client, alice, changes, line):
    """Above the form, before the players' choice: a phone shows a seat's own error two
    screens down, so the page says at once that nothing was created and links each error
    to its field."""
    client.force_login(alice)
    html = client.post("/games/new/", _form(**changes)).content.decode()
    summary = html.split('id="form-errors"', 1)[1].split("</div>", 1)[0]
    assert "The table was not created:" in summary
    assert line in summary
    assert html.index('id="form-errors"') < html.index('name="players"')


def test_a_fresh_form_has_no_error_summary(client, alice):
    client.force_login(alice)
    assert 'id="form-errors"' not in client.get("/games/new/").content.decode()


@pytest.mark.parametrize("post", [None, {"seat_3": "invite", "invite_3": "ghost"}])
def test_every_described_by_names_an_element_of_the_page(client, alice, post):
    """A screen reader reads a field's help and its error through aria-describedby: each
    id it names must be on the page (the help texts had none; the invite box with its
    error was not tied to it)."""
    import re

    client.force_login(alice)
    page = client.post("/games/new/", _form(**post)) if post else client.get("/games/new/")
    html = page.content.decode()
    ids = set(re.findall(r'\bid="([^"]+)"', html))
    named = [
        name for value in re.findall(r'aria-describedby="([^"]+)"', html) for name in value.split()
    ]
    assert "id_move_deadline_hours_helptext" in named
    assert [name for name in named if name not in ids] == []
    if post:
        assert "id_invite_3_error" in named


def test_the_lobby_is_never_kept_by_the_browser(client, alice):
    """Back from a board after a move must not show the lobby's old "Your turn"."""
    client.force_login(alice)
    assert "no-store" in client.get("/")["Cache-Control"]


def test_each_of_your_turns_says_when_its_move_is_due(client, host, bob, carol):
    """With several games waiting, the most urgent stands out: each of your turns says
    when its move is due (the lobby said only "Your turn"), and the lobby's refresh
    notices when those words change with time alone."""
    from datetime import timedelta

    from django.utils import timezone

    game = table_make(host, [bob, carol], first_player=1)  # Bob to move
    Game.objects.filter(pk=game.pk).update(
        move_deadline_hours=24, deadline_at=timezone.now() + timedelta(hours=5, minutes=30)
    )
    client.force_login(bob)
    html = client.get("/").content.decode()
    assert '<span class="badge badge--due">Move due in 5 hours</span>' in html
    stamp = html.split("stamp=", 1)[1].split('"', 1)[0]
    assert client.get(f"/?stamp={stamp}", HTTP_HX_REQUEST="true").status_code == 204
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - timedelta(minutes=1))
    again = client.get(f"/?stamp={stamp}", HTTP_HX_REQUEST="true")
    assert again.status_code == 200
    assert "Time is up for this move: a bot plays it shortly." in again.content.decode()
    client.force_login(carol)  # not her turn: no deadline shown to her
    assert "badge--due" not in client.get("/").content.decode()


def _once(client) -> str:
    page = client.get("/games/new/").content.decode()
    return page.split('name="once" value="')[1].split('"')[0]


def test_the_same_form_sent_twice_opens_one_table(client, alice):
    """A double click (or a reload of the answer) sends the form again: the second
    request goes to the table the first opened; a fresh form opens another."""
    client.force_login(alice)
    form = _form(once=_once(client))
    first = client.post("/games/new/", form)
    again = client.post("/games/new/", form)
    (game,) = Game.objects.filter(created_by=alice)
    assert first["Location"] == again["Location"] == f"/games/{game.pk}/"
    client.post("/games/new/", _form(once=_once(client)))
    assert Game.objects.filter(created_by=alice).count() == 2


@pytest.mark.django_db(transaction=True)
def test_the_same_form_sent_twice_at_once_opens_one_table(alice):
    from django.test import Client

    from tests.races import at_once

    browsers = [Client(), Client()]
    for browser in browsers:
        browser.force_login(alice)
    form = _form(once=_once(browsers[0]), seat_2="bot:easy")
    answers = at_once([lambda b=b: b.post("/games/new/", form) for b in browsers])
    (game,) = Game.objects.filter(created_by=alice)
    assert [a.status_code for a in answers] == [302, 302], answers
    assert {a["Location"] for a in answers} == {f"/games/{game.pk}/"}


@pytest.mark.parametrize("typed", ["frank@example.com", "bob@example.com"])
def test_an_address_typed_for_an_invitation_says_how_to_bring_a_friend(client, alice, bob, typed):
    """A host typed a friend's e-mail address: "There is no player called …", with no
    word of how to get someone new to the table.  Said alike whether an account has
    the address (the form tells nobody whose address is whose)."""
    client.force_login(alice)
    html = client.post("/games/new/", _form(seat_2="invite", invite_2=typed)).content.decode()
    assert (
        "An invitation names a player by their username or the name the boards show, not by an e-mail address."
        in html
    )
    assert "takes an open seat through the table&#x27;s link" in html
    assert "bob" not in html.split('id="form-errors"', 1)[1].split("</div>", 1)[0].lower()
    unknown = client.post("/games/new/", _form(seat_2="invite", invite_2="frank")).content.decode()
    assert "There is no player called “frank”. Someone without an account yet" in unknown


def test_each_name_to_invite_field_says_its_seat_to_a_screen_reader(client, alice):
    """Four fields all read "Name to invite" told a screen reader's field list nothing:
    each is named with its seat, the visible words first."""
    client.force_login(alice)
    html = client.get("/games/new/").content.decode()
    for n in range(1, 6):
        field = html.split(f'id="id_invite_{n}"', 1)[1].split(">", 1)[0]
        assert f'aria-label="Name to invite to seat {n}"' in field
