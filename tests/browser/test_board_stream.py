"""The board's stream in a real browser, under an ASGI server: another player's move
reaches an open board through the stream, with no poll at all; with the stream blocked,
the board polls every 3 seconds as before and the move arrives all the same."""

from __future__ import annotations

import pytest

from tests.factories import PASSWORD
from tests.games.pages.conftest import act, table_make

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.embedded]


@pytest.fixture
def staff_alice(alice):
    alice.is_staff = True
    alice.save(update_fields=["is_staff"])
    return alice


def open_board(page, server, user, game):
    """Log in through the form and open the board, recording the page's requests."""
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(f"{server.url}/accounts/login/")
    page.fill("input[name=login]", user.username)
    page.fill("input[name=password]", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(f"{server.url}/")
    page.goto(f"{server.url}/games/{game.pk}/")
    return requests


def polls(requests: list[str], game) -> int:
    return sum(f"/games/{game.pk}/board/" in url for url in requests)


def streams(requests: list[str], game) -> int:
    return sum(f"/games/{game.pk}/stream/" in url for url in requests)


def test_a_move_reaches_an_open_board_through_the_stream(
    asgi_server, new_page, screenshot, staff_alice, bob, carol
):
    from playwright.sync_api import expect

    game = table_make(staff_alice, [bob, carol])
    page = new_page()
    requests = open_board(page, asgi_server, bob, game)
    expect(page.locator(".banner")).to_contain_text("Waiting for Alice")
    page.wait_for_timeout(7000)  # two polls' worth of waiting: none may go out
    assert streams(requests, game) == 1
    assert polls(requests, game) == 0

    act(game, staff_alice, type="pass")
    expect(page.locator(".log")).to_contain_text("Alice passes.", timeout=2500)
    page.wait_for_timeout(500)
    # One fetch of the partial, asked for by the stream's news; the stream stayed open.
    assert polls(requests, game) == 1
    assert streams(requests, game) == 1
    screenshot(page, "browser-board-stream")


def test_with_the_stream_blocked_the_board_polls(
    asgi_server, new_page, screenshot, staff_alice, bob, carol
):
    from playwright.sync_api import expect

    game = table_make(staff_alice, [bob, carol])
    page = new_page()
    new_page.expect("Failed to load resource: net::ERR_FAILED")  # the blocked stream
    page.route("**/stream/**", lambda route: route.abort())
    requests = open_board(page, asgi_server, bob, game)
    expect(page.locator(".banner")).to_contain_text("Waiting for Alice")
    page.wait_for_timeout(7000)
    assert polls(requests, game) >= 2  # every 3 seconds, as without the stream
    attempts = streams(requests, game)
    assert 1 <= attempts <= 3  # then the board gives up on the stream

    act(game, staff_alice, type="pass")
    # htmx polls every 3 s: a poll sent just before the move's commit finds nothing new,
    # and the next is sent 3 s after it; on a loaded machine (SQLite's one writer, other
    # test processes) its answer and the swap can take more than a second.
    expect(page.locator(".log")).to_contain_text("Alice passes.", timeout=8000)
    page.wait_for_timeout(6000)
    assert streams(requests, game) == attempts
    screenshot(page, "browser-board-stream-blocked")


def test_a_stream_that_worked_comes_back_after_an_outage(
    asgi_server, new_page, settings, staff_alice, bob, carol
):
    """The stream works, then fails again and again (a node restarting, Redis away):
    the board polls meanwhile, and once the stream answers again it is live again and
    the polls stop; it was given up for good after three failures, leaving every open
    board polling every 3 s until reloaded."""
    from playwright.sync_api import expect

    settings.LIVE_STREAM_SECONDS = 2  # each stream ends soon: the browser asks again
    game = table_make(staff_alice, [bob, carol])
    page = new_page()
    new_page.expect("the server responded with a status of 503")
    requests = open_board(page, asgi_server, bob, game)
    expect(page.locator(".banner")).to_contain_text("Waiting for Alice")
    page.wait_for_timeout(1000)
    answers: list[int] = []
    page.on(
        "response",
        lambda response: answers.append(response.status) if "/stream/" in response.url else None,
    )
    page.route("**/stream/**", lambda route: route.fulfill(status=503, body="away"))
    page.wait_for_timeout(6000)
    assert answers.count(503) >= 2, answers  # with the end of the stream: three failures
    assert polls(requests, game) >= 1  # the board polls meanwhile
    page.unroute("**/stream/**")
    for _ in range(200):  # the extension waits longer after each failure: up to 20 s
        if 200 in answers:
            break
        page.wait_for_timeout(100)
    assert 200 in answers, answers
    page.wait_for_timeout(500)
    before = polls(requests, game)
    page.wait_for_timeout(1500)  # the stream lives 2 s here: check within one life
    assert polls(requests, game) == before  # live again: no poll goes out
    act(game, staff_alice, type="pass")
    expect(page.locator(".log")).to_contain_text("Alice passes.", timeout=4000)


def test_a_log_out_in_another_tab_redraws_an_open_board_at_once(
    asgi_server, new_page, staff_alice, bob, carol
):
    """Two tabs of Bob's; the board's stream works, so its polls are held back and
    the stream learns of a log-out only within half a minute: the board went on saying
    "Signed in as Bob" for about 26 seconds.  The other tab's word now redraws it."""
    from playwright.sync_api import expect

    game = table_make(staff_alice, [bob, carol])
    page = new_page()
    requests = open_board(page, asgi_server, bob, game)
    expect(page.locator(".banner")).to_contain_text("Waiting for Alice")
    page.wait_for_timeout(1000)
    assert streams(requests, game) == 1 and polls(requests, game) == 0
    other = page.context.new_page()
    other.goto(f"{asgi_server.url}/")
    other.click(".site-header__who button")  # Log out
    other.wait_for_url(f"{asgi_server.url}/**")
    # Drawn again for a visitor: the log-in link in the header, Bob's name gone.
    expect(page.locator(".site-header")).not_to_contain_text("Signed in as", timeout=5000)
    expect(page.locator("#board")).to_be_visible()
