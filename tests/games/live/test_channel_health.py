"""The hub's one subscription finds a connection that died without a word (a NAT or
load balancer that forgot it, a vanished host): it asks for a PONG after a silence,
ends the local streams when none comes, and subscribes again (games/live.py)."""

from __future__ import annotations

import asyncio
from urllib.parse import urlsplit, urlunsplit

import pytest
import redis
from django.conf import settings

from games import live
from tests.games.live.test_stream import run
from tests.ports import free_port

pytestmark = pytest.mark.skipif(not settings.REDIS_URL, reason="REDIS_URL is not set")


class FreezingProxy:
    """A TCP relay to Redis that can go silent: while frozen, it carries nothing either
    way and closes nothing, as a connection dropped somewhere on the way looks."""

    def __init__(self, target: str) -> None:
        parts = urlsplit(target)
        self.target = (parts.hostname, parts.port or 6379)
        self.frozen = False
        self.port = free_port()
        self.url = urlunsplit(parts._replace(netloc=f"127.0.0.1:{self.port}"))
        self.server: asyncio.Server | None = None
        self.writers: list[asyncio.StreamWriter] = []

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._relay, "127.0.0.1", self.port)

    async def stop(self) -> None:
        self.server.close()
        for writer in self.writers:
            writer.close()

    async def _relay(self, reader, writer) -> None:
        up_reader, up_writer = await asyncio.open_connection(*self.target)
        self.writers += [writer, up_writer]

        async def pump(source, sink):
            try:
                while data := await source.read(4096):
                    while self.frozen:
                        await asyncio.sleep(0.05)  # held, never delivered in time
                    sink.write(data)
                    await sink.drain()
            except (ConnectionError, asyncio.CancelledError):
                pass
            finally:
                sink.close()

        try:
            await asyncio.gather(pump(reader, up_writer), pump(up_reader, writer))
        except asyncio.CancelledError:
            pass  # the test's event loop ends


def test_a_silently_dead_subscription_is_found_and_made_again(settings, monkeypatch):
    monkeypatch.setattr(live, "QUIET_PING", 0.3)
    monkeypatch.setattr(live, "PONG_WAIT", 0.3)
    monkeypatch.setattr(live, "LISTEN_TICK", 0.1)
    publisher = redis.Redis.from_url(settings.REDIS_URL)  # straight to Redis, never frozen
    proxy = FreezingProxy(settings.REDIS_URL)
    settings.REDIS_URL = proxy.url
    game_id = 10**9

    async def scenario():
        await proxy.start()
        try:
            async with live.hub.subscription(game_id) as inbox:
                assert await live.hub.ready()
                await asyncio.to_thread(
                    publisher.publish,
                    live.channel_prefix() + str(game_id),
                    live.message_encode(game_id, 3),
                )
                assert await asyncio.wait_for(inbox.get(), 2) == 3
                proxy.frozen = True  # the connection dies without a word
                lost = await asyncio.wait_for(inbox.get(), 3)
            # Found dead within a few seconds: the stream was told to end.
            assert lost is None
            proxy.frozen = False  # the way is clear again (for new connections)
            async with live.hub.subscription(game_id) as inbox:
                assert await live.hub.ready(timeout=5)
                await asyncio.to_thread(
                    publisher.publish,
                    live.channel_prefix() + str(game_id),
                    live.message_encode(game_id, 4),
                )
                return await asyncio.wait_for(inbox.get(), 2)
        finally:
            await proxy.stop()

    try:
        assert run(scenario) == 4
    finally:
        publisher.close()
