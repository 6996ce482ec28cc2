"""The board page and its polled partial, for every kind of visitor."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Game
from tests.games.pages.conftest import DECK, act, play_passing, table_make

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}


def url(game, tail=""):
    return f"/games/{game.pk}/{tail}"


def board_poll(html: str) -> str:
    """The address the board polls (the header's count polls an address of its own)."""
    poll = html.split('id="board"', 1)[1].split('hx-get="', 1)[1].split('"', 1)[0]
    return poll.replace("&amp;", "&")


def test_seated_player_on_turn_sees_hand_as_checkboxes_and_bid_pass(client, table, alice):
    client.force_login(alice)
    response = client.get(url(table))
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" in html  # the full page
    assert "Your turn: bid for Luxury 3, or pass." in html
    assert "Luxury — normal auction" in html
    for value in (1000, 2000, 25000):
        assert (
            f'<input class="pick__input" type="checkbox" name="cards" value="{value}" id="hand-{value}">'
            in html
        )
    assert 'name="type" value="bid"' in html and 'name="type" value="pass"' in html
    assert f'name="version" value="{table.version}"' in html
    assert f'hx-post="/games/{table.pk}/act/"' in html
    assert f'action="/games/{table.pk}/act/"' in html  # works without JavaScript too


def test_other_player_waits_and_has_no_move_form(client, table, bob):
    client.force_login(bob)
    html = client.get(url(table)).content.decode()
    assert "Waiting for Alice." in html
    assert "Your hand" in html  # Bob sees his own cards...
    assert 'name="cards"' not in html  # ...but cannot bid out of turn
    assert 'name="type" value="bid"' not in html


def test_a_name_ending_with_a_stop_ends_the_headline_once(client, table, alice, bob):
    """ "Waiting for Alice A.." read twice stopped."""
    type(alice).objects.filter(pk=alice.pk).update(display_name="Alice A.")
    client.force_login(bob)
    html = client.get(url(table)).content.decode()
    assert "Waiting for Alice A." in html and "Alice A.." not in html


@pytest.mark.parametrize("who", ["anonymous", "dave"])
def test_spectators_see_the_public_board_only(client, table, who, request):
    if who != "anonymous":
        client.force_login(request.getfixturevalue(who))
    response = client.get(url(table))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Luxury 3" in html and "Waiting for Alice." in html
    assert "Your hand" not in html and 'name="cards"' not in html
    assert "Resign" not in html
    # They are told they are watching; a visitor (a turn e-mail's link followed logged
    # out) is offered to log in and come back to this table, here and in the header.
    if who == "anonymous":
        back = f'href="/accounts/login/?next=/games/{table.pk}/"'
        assert f"You are watching. <a {back}>Log in</a> to play your seat" in html
        assert f"{back}>Log in</a></li>" in html.replace(' aria-current="page"', "")
    else:
        assert "You are watching: you have no seat at this table." in html
        # Someone who followed an open-seat link too late is shown where seats are, or
        # how to open a table (the lobby may have no open table: it said they "wait").
        assert 'look for <a href="/#open-title">an open table</a> in the lobby' in html
        assert 'or <a href="/games/new/">open one</a> yourself.' in html
    player = request.getfixturevalue("bob")
    client.force_login(player)
    assert "You are watching" not in client.get(url(table)).content.decode()


def test_unknown_and_absurd_game_ids_are_404(client, alice):
    client.force_login(alice)
    for path in (
        "/games/999999/",
        "/games/999999/board/",
        "/games/99999999999999999999999/",
        "/games/99999999999999999999999/board/?version=1",
    ):
        assert client.get(path).status_code == 404, path


def test_htmx_gets_the_board_partial_plain_gets_the_page(client, table, alice):
    client.force_login(alice)
    partial = client.get(url(table), **HX).content.decode()
    assert partial.lstrip().startswith('<section id="board"')
    assert "<html" not in partial and "site-nav" not in partial
    page = client.get(url(table)).content.decode()
    assert "<html" in page and '<section id="board"' in page


def test_poll_answers_204_while_nothing_changed(client, table, alice):
    client.force_login(alice)
    html = client.get(url(table)).content.decode()
    poll = board_poll(html)
    assert poll.startswith(f"/games/{table.pk}/board/?version={table.version}&t=")
    assert 'hx-trigger="every 3s, sse:changed"' in html  # polls, and hears the stream
    response = client.get(poll, **HX)
    assert response.status_code == 204 and response.content == b""
    assert "no-store" in response["Cache-Control"]


def test_a_board_whose_session_ended_in_another_tab_reloads_itself(client, table, alice, bob):
    """Logged out in another tab (or in as somebody else): the poll asks for the whole
    page again (HX-Refresh), which then shows what this session may see.  The board
    used to go on saying "Your turn" and "Signed in as Alice", its forms all refused."""
    client.force_login(alice)
    html = client.get(url(table)).content.decode()
    poll = board_poll(html)
    assert f"&as={alice.pk}" in poll
    assert client.get(poll, **HX).status_code == 204  # the same session: no change
    client.logout()
    refreshed = client.get(poll, **HX)
    assert refreshed.status_code == 200 and refreshed["HX-Refresh"] == "true"
    client.force_login(bob)
    assert client.get(poll, **HX)["HX-Refresh"] == "true"
    # Bob switches the site to German in another tab: the English board reloads whole,
    # rather than have a German board swapped into an English page.
    poll = board_poll(client.get(url(table)).content.decode())
    poll = poll.replace("&amp;", "&")
    assert "&lang=en" in poll and client.get(poll, **HX).status_code == 204
    client.post("/accounts/language/", {"language": "de", "next": "/"})
    assert client.get(poll, **HX)["HX-Refresh"] == "true"
    visitor = client_class()  # a visitor's board, drawn for nobody, polls as before
    html = visitor.get(url(table)).content.decode()
    poll = board_poll(html)
    assert "&as=0" in poll and visitor.get(poll, **HX).status_code == 204


def client_class():
    from django.test import Client

    return Client()


def test_poll_without_stamp_uses_the_version_alone(client, table):
    assert client.get(url(table, f"board/?version={table.version}"), **HX).status_code == 204
    response = client.get(url(table, f"board/?version={table.version + 1}"), **HX)
    assert response.status_code == 200
    assert response.content.decode().lstrip().startswith('<section id="board"')


def test_poll_204_costs_one_small_query(client, table, django_assert_num_queries):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url(table, f"board/?version={table.version}"), **HX)
    assert response.status_code == 204
    assert len(queries) == 1
    sql = queries[0]["sql"]
    assert '"state"' not in sql  # the state is not read to answer "no change"


def test_poll_after_a_move_returns_the_new_board(client, table, alice, bob):
    client.force_login(bob)
    html = client.get(url(table)).content.decode()
    poll = board_poll(html)
    act(table, alice, type="bid", cards=[3000])
    response = client.get(poll, **HX)
    assert response.status_code == 200
    assert "Alice bids 3,000 (total 3,000)." in response.content.decode()
    assert "Your turn" in response.content.decode()


@pytest.mark.parametrize("query", ["version=abc", "version=", "version=-1&t=x", "", "version=1e9"])
def test_poll_with_bad_version_renders_instead_of_failing(client, table, query):
    assert client.get(url(table, f"board/?{query}"), **HX).status_code == 200


def test_finished_board_shows_scores_and_polls_gently(client, host, bob, carol):
    game = table_make(host, [bob, carol])
    game = play_passing(game, {0: host, 1: bob, 2: carol})  # free cards for all
    assert game.status == Game.Status.FINISHED
    client.force_login(bob)
    html = client.get(url(game)).content.decode()
    assert "Final scores" in html
    assert "The game is over:" in html
    # Its players' end screen still refreshes (chat, a rematch), every 15 s.
    assert 'hx-trigger="every 15s' in html and 'hx-trigger="every 3s' not in html
    # Nobody spent anything: everybody ties for the least money, so all are cast out.
    assert html.count("Cast out") == 3 and "nobody wins" in html
    assert "Luxuries" in html


@pytest.mark.parametrize("memory_aid", [False, True])
def test_a_finished_board_shows_your_own_money_as_the_others(client, host, bob, carol, memory_aid):
    """While the game runs your money is in your hand; once it is over the hand is
    gone, and your panel alone said "11 cards in hand" without the money the others'
    panels show (and, with the memory aid, the cards left)."""
    import re

    game = table_make(host, [bob, carol], memory_aid=memory_aid)
    game = play_passing(game, {0: host, 1: bob, 2: carol})
    client.force_login(bob)
    html = client.get(url(game)).content.decode()
    panels = re.findall(r'<li class="player[ "].*?</li>\s*(?=<li class="player|</ol>)', html, re.S)
    mine = next(panel for panel in panels if "tag--you" in panel)
    # As the others' panels: their money and cards left with the memory aid only (the
    # final scores give everyone's money).
    assert ("11 cards in hand · 106,000" in mine) is memory_aid
    assert ("Money cards left:" in mine) is memory_aid
    other = next(panel for panel in panels if "tag--you" not in panel)
    assert ("cards in hand · 106,000" in other) is memory_aid


def test_a_finished_board_says_no_status_cards_not_yet(client, host, bob, carol):
    """Prestige three times, then Scandal (the fourth end card) ends the game: Alice
    bids 1,000 more on each Prestige and the others pass, so Bob and Carol end with no
    status card, for good."""
    deck = ["prestige", "prestige", "prestige", "scandal"]
    deck += [card for card in DECK if card not in deck]
    game = table_make(host, [bob, carol], deck=deck)
    users = {0: host, 1: bob, 2: carol}
    for money in (1000, 2000, 3000):
        game = act(game, host, type="bid", cards=[money])
        game = play_passing(game, users, until=lambda s: s.turn == 0)
    assert game.status == Game.Status.FINISHED
    client.force_login(bob)
    html = client.get(url(game)).content.decode()
    assert "No status cards" in html and "No status cards yet" not in html
    running = table_make(host, [bob, carol])
    assert "No status cards yet" in client.get(url(running)).content.decode()


def _board_queries(client, game):
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url(game)).status_code == 200
    return len(queries)


def test_board_queries_do_not_grow_with_the_game(client, host, bob, carol):
    client.force_login(bob)
    game = table_make(host, [bob, carol])
    act(game, host, type="bid", cards=[1000])
    early = _board_queries(client, game)
    game = play_passing(game, {0: host, 1: bob, 2: carol}, until=lambda s: s.moves > 25)
    assert game.version > 20 and game.status == Game.Status.ACTIVE
    assert _board_queries(client, game) == early
    assert early <= 9  # … and the viewer's own standing orders (selectors.orders_view)


def test_memory_aid_shows_remaining_money(client, host, bob, carol):
    game = table_make(host, [bob, carol], memory_aid=True)
    act(game, host, type="bid", cards=[25000])
    client.force_login(bob)
    html = client.get(url(game)).content.decode()
    assert "81,000" in html  # Alice's money left, shown to Bob
    assert "Memory aid" in html
    # Once she has paid, her spent pile too, as the rules page says (the pile
    # Excursions gives back from): it was in the API only.
    act(game, bob, type="pass")
    act(game, carol, type="pass")
    html = client.get(url(game)).content.decode()
    alice = html.split('class="player__name')[1].split("</li>")[0]
    assert "Spent:" in alice and '<span class="mini-money mini-money--spent">25,000</span>' in alice
    # Both rows say what they are: two rows of chips read alike on a phone.
    assert '<p class="player__aid">Money cards left: <span class="mini-money">' in alice
    client.force_login(host)  # her own pile is under her hand, not in her row
    html = client.get(url(game)).content.decode()
    assert "mini-money--spent" not in html.split('class="player__name')[1].split("</li>")[0]


def test_open_table_page_lists_seats_and_join(client, host, dave):
    from games import services

    game = services.game_create(creator=host, players=3, seats=[{"open": True}, {"user": "dave"}])
    html = client.get(url(game)).content.decode()
    assert "Waiting for players" in html and "Log in to join" in html
    client.force_login(dave)
    html = client.get(url(game)).content.decode()
    assert "Invited, not answered" in html and 'name="accept" value="yes"' in html
    assert "Leave this table" not in html
    client.force_login(host)
    html = client.get(url(game)).content.decode()
    assert "Close this table" in html and "Host" in html


def test_an_invitations_link_opened_logged_out_says_how_to_answer_it(client, host, dave, bob):
    """Every seat not taken waits for an invited player: the invitation e-mail's link,
    opened logged out, said only "No seat is open at this table", a dead end for the
    very person invited. It says to log in, and the log-in comes back to the table,
    where the answer waits."""
    from games import services

    game = services.game_create(creator=host, players=3, seats=[{"user": "dave"}, {"user": "bob"}])
    html = client.get(url(game)).content.decode()
    assert "Invited? Log in to accept or decline." in html
    assert f'href="/accounts/login/?next=/games/{game.pk}/"' in html
    assert "Log in to answer your invitation" in html
    client.force_login(dave)
    html = client.get(url(game)).content.decode()
    assert 'name="accept" value="yes"' in html


def test_an_invitations_link_at_a_table_with_an_open_seat_too_says_how_to_answer_it(
    client, host, dave
):
    """With an open seat left, the link opened logged out offered only "Log in to join"
    and "Sign up to join": the invited player read it as someone else's table."""
    from games import services

    game = services.game_create(creator=host, players=3, seats=[{"user": "dave"}, {"open": True}])
    html = client.get(url(game)).content.decode()
    assert "Invited here? Log in to accept or decline your invitation." in html
    assert "Log in to join" in html
    # Without an invitation at the table, nobody is told of one.
    other = services.game_create(creator=host, players=3, seats=[{"open": True}, {"ai": "easy"}])
    assert "Invited here?" not in client.get(url(other)).content.decode()


def test_an_open_table_shows_its_share_link(client, host, dave, bob):
    """Share-a-link invitations: the page of a table with an open seat shows the link
    that lets anyone take it; the link leads a visitor to log in and back, then join."""
    from games import services

    game = services.game_create(creator=host, players=3, seats=[{"open": True}, {"ai": "easy"}])
    client.force_login(host)
    html = client.get(url(game)).content.decode()
    assert f'id="share-url" type="text" readonly value="http://testserver/games/{game.pk}/"' in html
    client.logout()
    html = client.get(url(game)).content.decode()
    assert f"/accounts/login/?next=/games/{game.pk}/" in html
    client.force_login(dave)
    assert client.post(f"/games/{game.pk}/join/").status_code == 302
    full = services.game_create(creator=host, players=3, seats=[{"user": "bob"}, {"ai": "easy"}])
    client.force_login(host)
    assert 'id="share-url"' not in client.get(url(full)).content.decode()  # no open seat


def test_the_browser_notification_offer_goes_to_seated_players_waiting_or_playing(
    client, host, bob, carol, dave
):
    """ "Tell me in this browser when it is my turn": a host waiting for players is
    offered it (the waiting board turns into the game by itself, without a reload), as
    is every seated player of a running game; not an invitee who has not answered, an
    outsider, a player who resigned, or anyone once the game is over."""
    from games import services

    offer = 'id="notify-me"'
    waiting = services.game_create(
        creator=host, players=3, seats=[{"user": "dave"}, {"open": True}]
    )
    client.force_login(host)
    assert offer in client.get(url(waiting)).content.decode()
    client.force_login(dave)  # invited, not answered
    assert offer not in client.get(url(waiting)).content.decode()
    services.game_invitation_respond(game=waiting, user=dave, accept=True)
    assert offer in client.get(url(waiting)).content.decode()

    game = table_make(host, [bob, carol])
    client.force_login(bob)
    assert offer in client.get(url(game)).content.decode()
    client.force_login(dave)  # an outsider watching
    assert offer not in client.get(url(game)).content.decode()
    services.game_resign(game=game, user=carol)
    client.force_login(carol)
    assert offer not in client.get(url(game)).content.decode()
    done = play_passing(table_make(host, [bob, carol]), {0: host, 1: bob, 2: carol})
    assert done.status == Game.Status.FINISHED
    client.force_login(host)
    assert offer not in client.get(url(done)).content.decode()


def test_the_log_shows_the_moves_of_the_version_the_board_shows(client, host, bob, carol):
    """A move stored while the page is drawn (another request's) waits for the next
    refresh: the log never lists a move whose words the board's state does not have."""
    from games import selectors

    game = table_make(host, [bob, carol])
    act(game, host, type="bid", cards=[1000])
    stale = Game.objects.get(pk=game.pk)  # the page read the table here …
    act(game, bob, type="pass")  # … then a move was stored
    view = selectors.table_view(game=stale, user=bob)
    entries = selectors.log_entries(game=stale, view=view)
    assert [entry.number for entry in entries] == [0, 1]
    assert "—" not in [entry.text for entry in entries]


def test_a_bid_reads_out_as_its_cards_and_their_total(client, host, bob, carol):
    """A screen reader heard "Highest bid 3,000 10,000 13,000": the cards and the total
    with nothing between them.  Hidden words join them for it, the eye sees no change."""
    import re

    game = table_make(host, [bob, carol])
    act(game, host, type="bid", cards=[3000, 10000])
    client.force_login(bob)
    html = client.get(url(game)).content.decode()
    bid = html.split('class="player__bid player__bid--lead"', 1)[1].split("</div>", 1)[0]
    hidden = re.sub(r"\s+", " ", " ".join(re.findall(r'class="visually-hidden">([^<]*)<', bid)))
    assert hidden == "3,000 + 10,000 total "


def test_the_score_steps_of_a_player_without_status_cards_are_empty():
    """The end screen showed "none" and then "Luxuries 0" for such a player."""
    from games.engine import status_steps
    from games.presenter import steps_text

    assert steps_text(status_steps(())) == []
    assert steps_text(status_steps(("lux3", "lux7"))) == ["Luxuries 3 + 7 = 10"]
    assert steps_text(status_steps(("prestige",)))[0] == "Luxuries 0"  # explains the ×2
    # One luxury is one: "Luxuries 9" read as a count or a slip.
    assert steps_text(status_steps(("lux9", "prestige"))) == ["Luxury 9", "Prestige ×2 → 18"]


def test_a_scandal_that_halves_an_odd_status_says_it_rounds_down():
    """13 halved read "Scandal ½ → 6": a player expecting 6.5 took the ranking for a
    mistake.  The step says the rules round down, and only where they did."""
    from games.engine import status_steps
    from games.presenter import steps_text

    assert steps_text(status_steps(("lux3", "lux10", "scandal"))) == [
        "Luxuries 3 + 10 = 13",
        "Scandal ½ → 6 (rounded down)",
    ]
    assert steps_text(status_steps(("lux4", "lux8", "scandal")))[-1] == "Scandal ½ → 6"
    # Debt first: −3 halved is −2 (down is towards the lower status, as the rules say).
    assert steps_text(status_steps(("lux2", "debt", "scandal")))[-1] == (
        "Scandal ½ → −2 (rounded down)"
    )


def test_headings_read_their_notes_as_a_separate_phrase(client, table, alice):
    """A screen reader heard "Table chat the players at this table only" as one name:
    a hidden comma parts the heading from its note (the eye sees no change)."""
    import re

    client.force_login(alice)
    html = client.get(url(table)).content.decode()
    for title, words in (
        ("chat-title", "Table chat, the players at this table only"),
        ("log-title", "Game log, newest first"),
        ("tray-title", "Your hand, 11 cards"),
    ):
        heading = html.split(f'id="{title}"', 1)[1].split("</h2>", 1)[0].split(">", 1)[1]
        text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", heading)).strip()
        assert text.startswith(words), text


def test_a_negative_status_is_written_with_a_minus_sign():
    """Statuses wrote "-3" with a hyphen beside the cards' "Debt −5" and the ratings'
    "−24": one minus sign everywhere, in the language's own number format."""
    from django.template import Context, Template
    from django.utils import translation

    from games.engine import status_steps
    from games.presenter import status_text, steps_text

    assert steps_text(status_steps(("lux2", "debt"))) == ["Luxury 2", "Debt −5 → −3"]
    assert status_text(-10) == "−10" and status_text(12) == "12"
    with translation.override("de"):
        assert status_text(-7.5) == "−7,5"
    draw = Template(
        "{% load game_cards %}{{ a|status_number }} {{ b|floatformat:1|status_number }}"
    )
    assert draw.render(Context({"a": -4, "b": -3.5})) == "−4 −3.5"


@pytest.mark.parametrize(
    ("card", "effect"),
    [
        ("gambling", "Its owner&#x27;s money counts double at the end."),
        ("excursions", "every other player takes their best spent card back."),
        ("prestige", "Doubles its owner&#x27;s status."),
        ("theft", "Its owner discards one luxury."),
    ],
)
def test_the_card_up_says_what_it_does(client, host, bob, carol, card, effect):
    """What a special card does is written beside it while it is up, not only in the
    card's tooltip, which a phone never shows: "Special — normal auction" told a
    newcomer nothing of Gambling."""
    advanced = [card] if card in ("gambling", "excursions") else []
    rest = list(DECK)
    if not advanced:
        rest.remove(card)  # the card comes up first
    game = table_make(host, [bob, carol], deck=[card, *rest], advanced=advanced)
    client.force_login(bob)
    html = client.get(f"/games/{game.pk}/").content.decode()
    panel = html.split('class="auction__info"')[1].split("</div>")[0]
    assert '<p class="auction__effect">' in panel and effect in panel
    plain = table_make(host, [bob, carol])  # Luxury 3 up: its name says it all
    html = client.get(f"/games/{plain.pk}/").content.decode()
    assert "auction__effect" not in html.split('class="auction__info"')[1].split("</div>")[0]


def test_a_pending_theft_warns_its_owner_beside_the_luxury_up(client, host, bob, carol):
    """Alice took Theft with no luxury: it waits for her next one.  When a luxury is up,
    her board says beside it that winning it loses it at once (a newcomer bid 16,000 for
    Luxury 9 and kept nothing); the others' boards say nothing of the kind, and her own
    row speaks to her."""
    deck = ["theft", "lux9"] + [c for c in DECK if c not in ("theft", "lux9")]
    game = table_make(host, [bob, carol], deck=deck)
    act(game, host, type="pass")  # the first to pass takes Theft, and owns no luxury
    client.force_login(host)
    html = client.get(url(game)).content.decode()
    warning = "Your Theft is pending: win Luxury 9 and it leaves the game at once, with Theft."
    assert warning in html
    assert "Theft pending: it takes your next luxury." in html
    client.force_login(bob)
    html = client.get(url(game)).content.decode()
    assert "Your Theft is pending" not in html
    assert "Theft pending: it takes their next luxury." in html


@pytest.mark.django_db
def test_the_end_headline_tells_each_player_how_they_did(client, alice, bob, carol):
    """The headline named only the winner: a player who lost heard "Bob wins." and had to
    find their own row in the score table.  Under it now: their place, or cast out."""
    from games.presenter import score_lines
    from games.selectors import table_view
    from tests.games.records.conftest import played_game

    game = played_game([alice, bob, carol], seed=5)
    rows = score_lines(table_view(game=game, user=None))
    said = {}
    for user, row in zip((alice, bob, carol), sorted(rows, key=lambda r: r["seat"]), strict=True):
        client.force_login(user)
        html = client.get(url(game)).content.decode()
        banner = html[html.index('class="banner') :].split("</p>")[0]
        said[user.username] = banner
        if row["winner"]:
            assert "banner__result" not in banner and "you win" in banner
        elif row["cast_out"]:
            assert "You were cast out: you ended with the least money." in banner
        else:
            assert f"Your place: {row['place']} of 3." in banner
    assert sum("banner__result" in text for text in said.values()) >= 1, said
    client.logout()
    assert "banner__result" not in client.get(url(game)).content.decode()


def _heard(html: str) -> str:
    """The text a screen reader reads: what is marked aria-hidden and the tags taken out."""
    html = re.sub(r'<span[^>]*aria-hidden="true"[^>]*>[^<]*</span>', "", html)
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_a_bots_seat_says_bot_once_to_a_screen_reader(client, host, bob):
    """A bot's name already says what it is ("Bot (easy)"): its tag ("Bot · easy"),
    there for the eye, is not read out after it, at a waiting table or at play."""
    from games import services

    waiting = services.game_create(creator=host, players=3, seats=[{"open": True}, {"ai": "easy"}])
    client.force_login(host)
    seats = client.get(url(waiting)).content.decode().split('class="seat')
    seat = _heard(next(s for s in seats if "Bot (easy)" in s))
    assert "Bot (easy)" in seat and "Bot · easy" not in seat
    playing = table_make(host, [bob], bots=["hard"])
    players = client.get(url(playing)).content.decode().split('class="player')
    player = _heard(next(p for p in players if "Bot (hard)" in p))
    assert "Bot (hard)" in player and "Bot · hard" not in player
    assert "Bot · hard" in "".join(players)  # still there for the eye
