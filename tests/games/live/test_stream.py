"""The board's stream (``games.views.game_stream``) through Django's ASGI test client:
who may open it, what it sends (hello, changed, heartbeats: ids and versions only), the
"at the table" mark it keeps, and its end.  With REDIS_URL set, a change travels through
Redis; without, through the process's own channel (both are run by ``make test``)."""

from __future__ import annotations

import asyncio
import re
import threading

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.db import connections
from django.test import AsyncClient, Client
from django.utils import timezone

from games import live, notifications, services
from games.engine import seats_to_act
from games.models import Game
from tests.games.pages.conftest import act

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.embedded]

# Everything a stream may ever say: numbers and fixed words, nothing of the game.
ALLOWED = re.compile(
    r"(retry: \d+\n)?event: hello\ndata: \d+\n\n|event: changed\ndata: \d+\n\n|: heartbeat\n\n"
)


def run(scenario):
    """Run ``scenario`` in an event loop of its own, in a thread of its own, and drop the
    hub's subscription of that loop afterwards.  (The browser tests' Playwright keeps an
    event loop running in the main thread for the rest of the session, where
    ``async_to_sync`` refuses to start another.)"""

    async def wrapped():
        try:
            return await scenario()
        finally:
            await live.hub.aclose()

    return in_thread(async_to_sync(wrapped))


def in_thread(call):
    """``call()`` in a thread of its own, where no event loop runs: an async view (the
    stream) is called through ``async_to_sync`` there, even by the sync test client."""
    outcome: dict = {}

    def target() -> None:
        try:
            outcome["value"] = call()
        except BaseException as error:  # re-raised in the test's thread
            outcome["error"] = error
        finally:
            # The views' database connections are this thread's: closed with it, or the
            # test database could not be dropped at the end of the run.
            connections.close_all()

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")


async def stream_opened(user, game: Game):
    """``user``'s stream of ``game``, opened from the address its board page gives."""
    client = AsyncClient()
    await client.aforce_login(user)
    response = await client.get(await stream_url(client, game))
    assert response.status_code == 200
    return response


async def stream_url(client: AsyncClient, game: Game) -> str:
    """The stream's address as the board page gives it."""
    html = (await client.get(f"/games/{game.pk}/")).content.decode()
    return html.split('sse-connect="', 1)[1].split('"', 1)[0].replace("&amp;", "&")


class Reader:
    """Reads a streaming response in a task of its own, as the ASGI server does; ``close``
    cancels it, as a browser that goes away makes Django do."""

    def __init__(self, response):
        self.chunks: asyncio.Queue = asyncio.Queue()
        self.task = asyncio.ensure_future(self._read(response.streaming_content))

    async def _read(self, content):
        async for chunk in content:
            await self.chunks.put(chunk.decode())

    async def next(self, wait: float = 5.0) -> str:
        return await asyncio.wait_for(self.chunks.get(), wait)

    async def close(self) -> None:
        self.task.cancel()
        try:
            await self.task
        except asyncio.CancelledError:
            pass


def test_a_move_reaches_an_open_stream(table, alice, bob):
    async def scenario():
        response = await stream_opened(bob, table)
        assert response["Content-Type"] == "text/event-stream"
        assert response["Cache-Control"] == "no-cache"
        assert response["X-Accel-Buffering"] == "no"
        chunks = Reader(response)
        try:
            hello = await chunks.next()
            assert hello == f"retry: 3000\nevent: hello\ndata: {table.pk}\n\n"
            await sync_to_async(act)(table, alice, type="pass")
            assert await chunks.next() == "event: changed\ndata: 1\n\n"
            await sync_to_async(services.game_resign)(game=table, user=alice)
            assert await chunks.next() == "event: changed\ndata: 1\n\n"
        finally:
            await chunks.close()
        assert live.hub.streams() == 0

    run(scenario)


def test_a_board_behind_the_table_hears_it_at_once(table, alice, bob):
    async def scenario():
        client = AsyncClient()
        await client.aforce_login(bob)
        url = await stream_url(client, table)
        await sync_to_async(act)(table, alice, type="pass")  # between the page and its stream
        response = await client.get(url)
        chunks = Reader(response)
        try:
            assert "event: hello" in await chunks.next()
            assert await chunks.next() == "event: changed\ndata: 1\n\n"
        finally:
            await chunks.close()

    run(scenario)


def test_heartbeats_keep_the_player_at_the_table_and_the_stream_ends(
    table, alice, bob, settings, monkeypatch
):
    settings.LIVE_HEARTBEAT_SECONDS = 1
    settings.LIVE_STREAM_SECONDS = 4
    monkeypatch.setattr(live, "PRESENCE_EVERY", 1.5)  # every other heartbeat here
    marks = []
    mark = notifications.seat_seen_id

    def counted(**fields):
        marks.append(fields)
        mark(**fields)

    monkeypatch.setattr(notifications, "seat_seen_id", counted)

    async def scenario():
        client = AsyncClient()
        await client.aforce_login(bob)
        response = await client.get(await stream_url(client, table))
        received = []
        async for chunk in response.streaming_content:  # until the stream's lifetime ends
            received.append(chunk.decode())
        return received

    received = run(scenario)
    assert received[0].startswith("retry: 3000\nevent: hello")
    assert received[1:] and all(chunk == ": heartbeat\n\n" for chunk in received[1:])
    # Marked as the stream opened, then on the heartbeats 1.5 s or more after the last mark.
    assert marks[0] == {"game_id": table.pk, "user_id": bob.pk}
    assert 2 <= len(marks) < 1 + len(received[1:])
    assert notifications.seat_online(game_id=table.pk, user_id=bob.pk, now=timezone.now())
    assert not notifications.seat_online(game_id=table.pk, user_id=alice.pk, now=timezone.now())


def test_a_stream_says_nothing_of_the_game_but_its_version(table, alice, bob, carol):
    async def scenario():
        client = AsyncClient()
        await client.aforce_login(carol)
        response = await client.get(await stream_url(client, table))
        chunks = Reader(response)
        said = [await chunks.next()]
        try:
            for user in (alice, bob, carol) * 2:
                game = await Game.objects.aget(pk=table.pk)
                seats = await sync_to_async(list)(game.seats.all())
                seat = next(s for s in seats if s.user_id == user.pk)
                if seat.position not in seats_to_act(game.engine_state()):
                    continue
                await sync_to_async(act)(table, user, type="pass")
                said.append(await chunks.next())
        finally:
            await chunks.close()
        return said

    said = run(scenario)
    assert len(said) > 2
    assert all(ALLOWED.fullmatch(chunk) for chunk in said), said


@pytest.mark.parametrize(
    "who, path, status",
    [
        (None, "/games/{id}/stream/", 403),
        ("dave", "/games/999999/stream/", 404),
        ("dave", "/games/99999999999999999999999/stream/", 404),
    ],
)
def test_who_may_open_a_stream(table, dave, who, path, status):
    async def scenario():
        client = AsyncClient()
        if who:
            await client.aforce_login(dave)
        response = await client.get(path.format(id=table.pk))
        return response.status_code

    assert run(scenario) == status


def test_a_signed_in_spectator_may_follow_a_running_table(table, dave):
    async def scenario():
        client = AsyncClient()
        await client.aforce_login(dave)
        response = await client.get(f"/games/{table.pk}/stream/?version=x&t=%00")  # bad input
        chunks = Reader(response)
        try:
            first = await chunks.next()
            second = await chunks.next()  # the board is behind: it shows no version
        finally:
            await chunks.close()
        return response.status_code, first, second

    status, first, second = run(scenario)
    assert status == 200 and "event: hello" in first and second == "event: changed\ndata: 0\n\n"


def test_an_abandoned_table_has_no_stream_for_others_and_none_at_all_for_its_people(
    host, bob, dave
):
    open_table = services.game_create(creator=host, players=3, seats=[{"open": True}] * 2)
    services.game_leave(game=open_table, user=host)  # abandoned

    async def scenario():
        client = AsyncClient()
        await client.aforce_login(dave)
        stranger = (await client.get(f"/games/{open_table.pk}/stream/")).status_code
        await client.aforce_login(host)
        creator = (await client.get(f"/games/{open_table.pk}/stream/")).status_code
        return stranger, creator

    assert run(scenario) == (404, 204)


def test_a_finished_tables_stream_tells_its_players_of_the_rematch(alice, bob, carol):
    """After the end the players' boards still listen: the chat goes on and a rematch
    opens (its link appears on every open end screen)."""
    import random

    from tests.games.factories import people_game, people_play

    game = people_play(people_game(alice, bob, carol), random.Random(3))
    assert game.status == Game.Status.FINISHED

    async def scenario():
        chunks = Reader(await stream_opened(bob, game))
        try:
            assert "event: hello" in await chunks.next()
            await sync_to_async(services.game_rematch)(game=game, user=alice)
            assert await chunks.next() == f"event: changed\ndata: {game.version}\n\n"
        finally:
            await chunks.close()

    run(scenario)


def test_under_wsgi_and_for_other_methods_the_board_polls(table, bob):
    client = Client()
    client.force_login(bob)
    url = f"/games/{table.pk}/stream/"
    assert in_thread(lambda: client.get(url)).status_code == 204  # no stream: poll
    assert in_thread(lambda: client.post(url)).status_code == 405
    assert in_thread(lambda: client.head(url)).status_code == 405


def test_the_board_page_connects_signed_in_players_only(table, bob, settings):
    client = Client()
    html = client.get(f"/games/{table.pk}/").content.decode()
    assert "sse-connect" not in html and 'hx-trigger="every 3s"' in html
    client.force_login(bob)
    html = client.get(f"/games/{table.pk}/").content.decode()
    assert f'sse-connect="/games/{table.pk}/stream/?version=0&amp;t=' in html
    assert "js/live.js" in html and "vendor/htmx-ext-sse.min.js" in html
    settings.LIVE_STREAM = False
    html = client.get(f"/games/{table.pk}/").content.decode()
    assert "sse-connect" not in html and 'hx-trigger="every 3s"' in html


def test_without_its_channel_a_stream_is_refused_for_now(table, bob, settings):
    """Redis unreachable: 503 with Retry-After (the browser tries again; the board polls)."""
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there

    async def scenario():
        client = AsyncClient()
        await client.aforce_login(bob)
        return await client.get(f"/games/{table.pk}/stream/")

    response = run(scenario)
    assert response.status_code == 503 and response["Retry-After"] == "5"


def test_a_spectators_stream_says_nothing_of_the_chat(table, alice, bob, dave):
    """The chat is the players': a message changes their boards (bob hears it), not a
    spectator's, whose stream would tell when the players chatted; a move reaches both."""
    from games.chat import chat_post

    async def scenario():
        spectator = Reader(await stream_opened(dave, table))
        player = Reader(await stream_opened(bob, table))
        try:
            assert "event: hello" in await spectator.next()
            assert "event: hello" in await player.next()
            await sync_to_async(chat_post)(game=table, user=alice, text="hello")
            assert await player.next() == "event: changed\ndata: 0\n\n"
            got = None
            try:
                got = await spectator.next(wait=1.5)
            except TimeoutError:
                pass
            assert got is None, got
            await sync_to_async(act)(table, alice, type="pass")
            assert await spectator.next() == "event: changed\ndata: 1\n\n"
        finally:
            await spectator.close()
            await player.close()

    run(scenario)


def test_a_player_holds_a_few_streams_and_further_boards_poll(table, alice, bob, settings):
    """Past LIVE_STREAMS_PER_USER open at once in this process, the next board is
    answered 204 (it polls, as under WSGI); once one closes, a new one opens again.
    Another player is not held back by Bob's count."""
    settings.LIVE_STREAMS_PER_USER = 2

    async def scenario():
        client = AsyncClient()
        await client.aforce_login(bob)
        url = await stream_url(client, table)
        readers = []
        try:
            for _ in range(2):
                response = await client.get(url)
                assert response.status_code == 200
                readers.append(Reader(response))
                await readers[-1].next()  # hello: the stream stands
            assert live.hub.streams_of(bob.pk) == 2
            assert (await client.get(url)).status_code == 204
            others = AsyncClient()
            await others.aforce_login(alice)
            opened = await others.get(await stream_url(others, table))
            assert opened.status_code == 200
            readers.append(Reader(opened))
            await readers[-1].next()
            await readers.pop(0).close()
            again = await client.get(url)
            assert again.status_code == 200
            readers.append(Reader(again))
            await readers[-1].next()
        finally:
            for reader in readers:
                await reader.close()
        assert live.hub.streams_of(bob.pk) == 0

    run(scenario)


def test_a_stream_ends_once_its_player_signed_out_everywhere(table, bob, settings, monkeypatch):
    """ "Sign out everywhere" (as a deletion or a suspension) ends the streams already
    open too, at their next presence mark: they no longer tell when the table moves."""
    from django.db.models import F

    from accounts.models import User

    settings.LIVE_HEARTBEAT_SECONDS = 1
    settings.LIVE_STREAM_SECONDS = 60
    monkeypatch.setattr(live, "PRESENCE_EVERY", 1.5)

    async def scenario():
        client = AsyncClient()
        await client.aforce_login(bob)
        response = await client.get(await stream_url(client, table))
        chunks = Reader(response)
        try:
            assert (await chunks.next()).startswith("retry:")
            await User.objects.filter(pk=bob.pk).aupdate(
                session_generation=F("session_generation") + 1
            )
            await asyncio.wait_for(chunks.task, 10)  # ended, well before its minute
        finally:
            await chunks.close()
        assert live.hub.streams_of(bob.pk) == 0

    run(scenario)
