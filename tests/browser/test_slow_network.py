"""The board on a slow or failing connection: a form on its way is pressed once only, a
line typed meanwhile is kept, the answer to the player's own form is not lost to a
refresh that came first, and a failure says that the move may or may not have counted."""

from __future__ import annotations

import pytest

from games.chat import chat_post
from games.models import ChatMessage, Move
from tests.games.factories import people_game, scenario_deck
from tests.games.pages.conftest import act

pytestmark = pytest.mark.django_db(transaction=True)


def _kept(page, fragment: str):
    """Every POST to an address containing ``fragment`` reaches the server at once; its
    answer is kept from the page until the returned function is called, while the
    page's other requests (the poll, the stream's refreshes) go on.  (Not a sleep in the
    handler: that would stop every request the page makes meanwhile.)"""
    kept = []

    def handler(route):
        kept.append((route, route.fetch()))

    page.route(lambda url: fragment in url, handler)

    def release(*, lost: bool = False, refused: bool = False, ruled_out: bool = False):
        for route, response in kept:
            if lost:
                route.abort()  # the connection dropped on the way back
            elif ruled_out:  # a board that says why the move was refused
                body = '<div id="board"><p class="flash flash--error">Not now.</p></div>'
                route.fulfill(status=200, content_type="text/html", body=body)
            elif refused:  # as the site's 429 page says it
                body = '<main><div class="sheet"><h1>Too many requests</h1><p>Wait.</p></div>'
                route.fulfill(status=429, content_type="text/html", body=body)
            else:
                route.fulfill(response=response)
        kept.clear()

    return release


def _streamed_board(server, new_page, alice, bob, dora):
    """Alice's board of a table where Dora is to act, its stream open (ASGI)."""
    from playwright.sync_api import expect

    from tests.browser.test_board_stream import open_board

    game = people_game(dora, alice, bob, deck=scenario_deck("lux5 lux6"), first_player=0)
    page = new_page()
    open_board(page, server, alice, game)
    expect(page.locator("#board-live[sse-connect]")).to_have_count(1)
    return game, page


def test_a_line_typed_while_the_last_is_on_its_way_stays(
    live_server, new_page, log_in, alice, bob, dora
):
    """The second line was queued, dropped with the board it belonged to, and its text
    wiped from the box."""
    from playwright.sync_api import expect

    game = people_game(dora, alice, bob, deck=scenario_deck("lux5 lux6"), first_player=0)
    page = log_in(new_page(), alice)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    release = _kept(page, "/chat/")
    page.fill("#chat-text", "first line")
    page.press("#chat-text", "Enter")
    send = page.locator("#chat-form button")
    expect(send).to_be_disabled()  # on its way: pressed once is enough
    page.fill("#chat-text", "second line")
    page.press("#chat-text", "Enter")  # the disabled button: nothing is sent
    page.wait_for_timeout(300)
    release()
    expect(page.locator(".chat")).to_contain_text("first line")
    expect(send).to_be_enabled()
    expect(page.locator("#chat-text")).to_have_value("second line")
    assert list(ChatMessage.objects.values_list("text", flat=True)) == ["first line"]


def _line_kept_across_a_poll(live_server, page, log_in, alice, bob, dora):
    """Alice sends "first line" at a table where Dora is to act; its answer is kept
    (``_kept``) until the poll (every 3 s) has brought a board with the line stored
    meanwhile.  Returns the page and the answer's release."""
    from playwright.sync_api import expect

    game = people_game(dora, alice, bob, deck=scenario_deck("lux5 lux6"), first_player=0)
    page = log_in(page, alice)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    release = _kept(page, "/chat/")
    page.evaluate(
        """() => document.addEventListener("htmx:afterSettle", (event) => {
             const source = event.detail.requestConfig && event.detail.requestConfig.elt;
             if (source && source.id === "board") { document.body.dataset.polled = "yes"; }
           })"""
    )
    page.fill("#chat-text", "first line")
    page.press("#chat-text", "Enter")
    expect(page.locator("body[data-polled]")).to_have_count(1, timeout=5_000)
    return page, release


def test_a_refresh_while_a_line_is_on_its_way_keeps_send_pressed(
    live_server, new_page, log_in, alice, bob, dora
):
    """The poll redrew the board while the line was on its way: the new Send was
    pressable, a second Enter sent the line typed meanwhile, and the first line's answer
    then emptied the box of it."""
    from playwright.sync_api import expect

    page, release = _line_kept_across_a_poll(live_server, new_page(), log_in, alice, bob, dora)
    expect(page.locator(".chat")).to_contain_text("first line")
    send = page.locator("#chat-form button")
    expect(send).to_be_disabled()  # the new board's Send: the line is still on its way
    page.fill("#chat-text", "second line")
    page.press("#chat-text", "Enter")
    page.wait_for_timeout(300)
    release()
    expect(send).to_be_enabled()
    expect(page.locator("#chat-text")).to_have_value("second line")
    assert list(ChatMessage.objects.values_list("text", flat=True)) == ["first line"]


def test_a_line_lost_after_a_refresh_gives_send_back(
    live_server, new_page, log_in, alice, bob, dora
):
    """Send, kept pressed across the poll's board, is pressable again when the line's
    answer never comes, with the line still in the box to be sent again; the page says
    the line may not have reached the table.  (The failure happened on the replaced
    board, out of the page, and was told nowhere.)"""
    from playwright.sync_api import expect

    page, release = _line_kept_across_a_poll(live_server, new_page(), log_in, alice, bob, dora)
    send = page.locator("#chat-form button")
    expect(send).to_be_disabled()
    new_page.expect("htmx:sendError")
    new_page.expect("net::ERR_FAILED")
    release(lost=True)
    expect(send).to_be_enabled()
    expect(page.locator("#chat-text")).to_have_value("first line")
    expect(page.locator("#request-problem")).to_be_visible()
    expect(page.locator("#request-problem")).to_contain_text("connection")


def test_a_line_refused_after_a_refresh_stays_in_the_box(
    live_server, new_page, log_in, alice, bob, dora
):
    """A refusal (429) that came for a board already replaced was taken for a line that
    went through: the box was emptied, and a real 429 stores nothing.  (Here the line
    reached the server before its answer was swapped for the refusal.)"""
    from playwright.sync_api import expect

    page, release = _line_kept_across_a_poll(live_server, new_page(), log_in, alice, bob, dora)
    new_page.expect("htmx:responseError")
    new_page.expect("429")
    release(refused=True)
    expect(page.locator("#chat-form button")).to_be_enabled()
    expect(page.locator("#request-problem")).to_contain_text("Too many requests")
    expect(page.locator("#chat-text")).to_have_value("first line")


def test_the_answer_to_ones_own_line_wins_over_a_refresh_that_came_first(
    asgi_server, new_page, alice, bob, dora
):
    """The stream's refresh replaced the board before the chat's answer came, which was
    then dropped: the line showed, and stayed in the box too, inviting a second send."""
    from playwright.sync_api import expect

    game, page = _streamed_board(asgi_server, new_page, alice, bob, dora)
    release = _kept(page, "/chat/")
    page.fill("#chat-text", "hello table")
    page.press("#chat-text", "Enter")
    expect(page.locator("#chat-form button")).to_be_disabled()
    act(game, dora, type="pass")  # a move: the stream's news redraws the board meanwhile
    expect(page.locator(".log")).to_contain_text("Dora passes")
    release()
    expect(page.locator("#chat-text")).to_have_value("")
    expect(page.locator(".chat")).to_contain_text("hello table")


def test_a_failed_move_leaves_the_next_refresh_alone(
    live_server, new_page, log_in, alice, bob, dora
):
    """After a move that never got its answer, the next refresh (someone's chat line)
    took the focus into the hand and dropped the cards ticked since."""
    from playwright.sync_api import expect

    game = people_game(dora, alice, bob, deck=scenario_deck("lux5 lux6"), first_player=0)
    page = log_in(new_page(), dora)
    new_page.expect("ERR_INTERNET_DISCONNECTED")
    new_page.expect("htmx:sendError")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.context.set_offline(True)
    page.click("#pass-button")
    problem = page.locator("#request-problem")
    expect(problem).to_be_visible()
    expect(problem).to_contain_text("may not have received this")
    expect(problem).to_be_focused()  # not its Reload: a second Enter would reload offline
    page.context.set_offline(False)
    page.click(".request-problem__close")
    page.click("label[for=hand-4000]")
    page.focus("#chat-text")
    chat_post(game=game, user=bob, text="anyone there?")
    expect(page.locator(".chat")).to_contain_text("anyone there?", timeout=10_000)
    expect(page.locator("#chat-text")).to_be_focused()
    expect(page.locator("#hand-4000")).to_be_checked()
    assert not Move.objects.filter(game=game).exists()


def test_a_proxys_error_page_is_told_in_the_sites_words(
    live_server, new_page, log_in, alice, bob, dora
):
    """A proxy's "502 Bad Gateway" was shown as it came: English, and silent on whether
    the move counted."""
    from playwright.sync_api import expect

    game = people_game(dora, alice, bob, deck=scenario_deck("lux5 lux6"), first_player=0)
    alice.language = "de"
    alice.save(update_fields=["language"])
    page = log_in(new_page(), alice)
    new_page.expect("502")
    new_page.expect("htmx:responseError")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.route(
        lambda url: "/chat/" in url,
        lambda route: route.fulfill(
            status=502, content_type="text/html", body="<h1>502 Bad Gateway</h1>nginx"
        ),
    )
    page.fill("#chat-text", "hallo")
    page.press("#chat-text", "Enter")
    problem = page.locator("#request-problem")
    expect(problem).to_contain_text("Das hat nicht geklappt.")
    expect(problem).to_contain_text("vielleicht gezählt")
    expect(problem).not_to_contain_text("Bad Gateway")


def test_a_refresh_that_failed_is_asked_for_again_soon(asgi_server, new_page, alice, bob, dora):
    """The stream announced a move, the refresh it asked for failed (a node restarting):
    the board stayed on "Waiting for Dora" until the safety poll, half a minute on."""
    from playwright.sync_api import expect

    new_page.expect("502")
    new_page.expect("htmx:responseError")
    game, page = _streamed_board(asgi_server, new_page, alice, bob, dora)
    page.wait_for_timeout(500)  # the stream's hello
    failed = []

    def once(route):
        if not failed:
            failed.append(route.request.url)
            route.fulfill(status=502, body="<h1>502 Bad Gateway</h1>")
        else:
            route.continue_()

    page.route(lambda url: f"/games/{game.pk}/board/" in url, once)
    act(game, dora, type="pass")
    expect(page.locator(".log")).to_contain_text("Dora passes", timeout=8_000)
    assert failed


def test_news_that_came_while_the_board_was_on_its_way_is_asked_for(
    asgi_server, new_page, alice, bob, dora
):
    """The stream's news that came while the board's request was on its way triggered a
    request for a board that answer then replaced, so it never ran: a chat line
    announced then showed only at the next safety poll, half a minute on.  Another swap
    settling meanwhile (a bid's preview) must not make the board forget it."""
    from playwright.sync_api import expect

    game, page = _streamed_board(asgi_server, new_page, alice, bob, dora)
    page.wait_for_timeout(500)  # the stream's hello
    kept = []

    def keep_the_first(route):
        if kept:
            route.continue_()
        else:
            kept.append((route, route.fetch()))

    page.route(lambda url: f"/games/{game.pk}/board/" in url, keep_the_first)
    page.evaluate(
        """() => document.addEventListener("htmx:sseMessage", () => {
             document.body.dataset.news = String(Number(document.body.dataset.news || 0) + 1);
           })"""
    )
    act(game, dora, type="pass")
    for _ in range(50):  # the board's request for the move, answered and kept
        if kept:
            break
        page.wait_for_timeout(100)
    chat_post(game=game, user=bob, text="said meanwhile")
    # Its news came while that request is on its way; then another swap settles.
    expect(page.locator("body[data-news='2']")).to_have_count(1)
    page.evaluate("() => document.dispatchEvent(new CustomEvent('htmx:afterSettle', {detail: {}}))")
    page.wait_for_timeout(100)
    route, response = kept[0]
    route.fulfill(response=response)
    expect(page.locator(".log")).to_contain_text("Dora passes")
    expect(page.locator(".chat")).to_contain_text("said meanwhile", timeout=5_000)


def test_ones_own_late_answer_never_hides_another_players_line(
    asgi_server, new_page, alice, bob, dora
):
    """Swapped in over the board the stream had drawn at the same version, the late
    answer to Alice's line took Bob's line, posted meanwhile, off her page."""
    from playwright.sync_api import expect

    game, page = _streamed_board(asgi_server, new_page, alice, bob, dora)
    release = _kept(page, "/chat/")
    page.fill("#chat-text", "from alice")
    page.press("#chat-text", "Enter")
    for _ in range(50):  # her answer is drawn (without Bob's line), then kept
        if ChatMessage.objects.filter(text="from alice").exists():
            break
        page.wait_for_timeout(100)
    chat_post(game=game, user=bob, text="from bob")
    expect(page.locator(".chat")).to_contain_text("from bob")
    release()
    expect(page.locator("#chat-text")).to_have_value("")  # her answer came
    expect(page.locator(".chat")).to_contain_text("from bob")
    expect(page.locator(".chat")).to_contain_text("from alice", timeout=35_000)


def test_enter_on_a_card_with_nothing_to_bid_sends_nothing(
    live_server, new_page, log_in, alice, bob, dora
):
    """Enter presses the form's hidden first button: with no card ticked and no order
    filled in, it is held back as a press of the inactive Bid is."""
    game = people_game(dora, alice, bob, deck=scenario_deck("lux5 lux6"), first_player=0)
    page = log_in(new_page(), dora)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    posts = []
    page.on(
        "request", lambda request: posts.append(request.url) if request.method == "POST" else None
    )
    page.focus("#hand-1000")
    page.keyboard.press("Enter")
    page.wait_for_timeout(700)
    assert posts == [] and not Move.objects.filter(game=game).exists()


@pytest.mark.parametrize("refused", [False, True])
def test_a_move_whose_answer_lost_the_race_leaves_the_focus_in_the_hand(
    asgi_server, new_page, alice, bob, dora, refused
):
    """Pass pressed with the keyboard is disabled under the focus, which drops to the
    page; the stream's board came in first and its answer was dropped before that board
    settled, so nothing put the focus back: the next Tab reached Resign.  (The settle
    delay is widened here to make the race certain.)"""
    from playwright.sync_api import expect

    from tests.browser.test_board_stream import open_board

    game = people_game(dora, alice, bob, deck=scenario_deck("lux5 lux6"), first_player=0)
    page = new_page()
    open_board(page, asgi_server, dora, game)
    expect(page.locator("#board-live[sse-connect]")).to_have_count(1)
    page.wait_for_timeout(500)  # the stream's hello
    page.evaluate("() => { htmx.config.defaultSettleDelay = 1500; }")
    release = _kept(page, "/act/")
    page.focus("#pass-button")
    page.keyboard.press("Enter")
    expect(page.locator(".log")).to_contain_text("Dora passes")  # the stream's board
    release(ruled_out=refused)  # refused: the focus goes back to the hand all the same
    page.wait_for_timeout(2_000)  # that board settles
    assert page.evaluate("() => document.getElementById('tray').contains(document.activeElement)")
