"""The push half of the board: every open board of a game hears "game N changed to
version V" as soon as the change is committed, and then fetches its partial as a poll
would (docs/architecture.md, "The board's stream").

**Publish** (sync, after the commit): the listener of ``events.board_changed``
publishes ``{"game": N, "version": V}`` on the game's Redis channel
(``<cache key prefix>:<Redis database>:board:<N>``) when ``REDIS_URL`` is set, so the
boards open on any web process of any machine hear it.  Nothing else is ever sent: not
the state, not a hand, not a sealed choice.  Without Redis (``make run``: one process
serves everything) the change goes straight to this process's hub: an in-process
channel.

**Subscribe** (async, in the ASGI server's event loop): one ``Hub`` per process holds
ONE Redis pub/sub connection, subscribed to the pattern of every game's channel, and
fans each message out to the streams of that game open in this process (one small
queue per stream).  5,000 open boards are 5,000 queues, not 5,000 Redis connections.
When that connection is lost (or stays silent past a PING: ``Hub._hear``), every local
stream ends (the browsers reconnect, or poll while the hub cannot subscribe again); when
it is back, nothing published meanwhile is replayed: each new stream starts by
comparing the board's version with the table's.

The stream itself (``board_events``) sends ``hello`` at once, ``changed`` whenever the
game changes, a comment line as a heartbeat (which also keeps the player "at the
table", ``notifications.seat_seen_id``, at least every ``PRESENCE_EVERY`` seconds), and
ends after ``LIVE_STREAM_SECONDS``.  An
open stream holds no database connection.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import redis
import redis.asyncio as aioredis
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connections

from games import events, notifications

logger = logging.getLogger(__name__)

RETRY_MS = 3000  # the browser opens a new stream this long after one ended
# The "at the table" mark lasts notifications.ONLINE_SECONDS: a stream refreshes it on
# the first heartbeat past half that, not on every one (each is a write to the cache
# through a thread: most of an idle stream's CPU).
PRESENCE_EVERY = notifications.ONLINE_SECONDS / 2
REDIS_ERRORS = (redis.RedisError, OSError)
# The subscription's health: after QUIET_PING seconds without a message it sends PING,
# and no answer within PONG_WAIT ends it (a silently dead connection is found in
# seconds, not at the 30-second safety poll or TCP's minutes); LISTEN_TICK is how long
# one read waits.
QUIET_PING = 10.0
PONG_WAIT = 5.0
LISTEN_TICK = 1.0


def channel_prefix() -> str:
    """The games' channels share Redis with the cache: the same prefix keeps two sites
    (or two test runs) on one Redis apart.  Pub/sub ignores the database number, so it
    is part of the name too: two sites on databases 1 and 2 of one Redis never hear
    each other, whatever their prefixes."""
    prefix = settings.CACHES["default"].get("KEY_PREFIX") or "hs"
    url = settings.REDIS_URL
    database = redis.ConnectionPool.from_url(url).connection_kwargs.get("db", 0) if url else 0
    return f"{prefix}:{database}:board:"


def message_encode(game_id: int, version: int) -> str:
    return json.dumps({"game": int(game_id), "version": int(version)})


def message_decode(raw: Any) -> tuple[int, int] | None:
    """``(game_id, version)`` from a channel's message; None for anything else."""
    try:
        data = json.loads(raw)
        game_id, version = data["game"], data["version"]
    except (TypeError, ValueError, KeyError):
        return None
    if not isinstance(game_id, int) or not isinstance(version, int):
        return None
    return game_id, version


# --------------------------------------------------------------------------- publish

_publisher_lock = threading.Lock()
_publisher_client: redis.Redis | None = None


def _publisher() -> redis.Redis:
    """This process's Redis client for publishing (a connection pool, shared by threads)."""
    global _publisher_client
    with _publisher_lock:
        if _publisher_client is None:
            _publisher_client = redis.Redis.from_url(
                settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2
            )
        return _publisher_client


def board_changed(*, game_id: int, version: int, **_: Any) -> None:
    """Listener of ``events.board_changed`` (after the commit).  Never raises: with Redis
    down the change is committed all the same, and the boards see it when they poll or
    open their next stream."""
    if settings.REDIS_URL:
        try:
            _publisher().publish(channel_prefix() + str(game_id), message_encode(game_id, version))
        except REDIS_ERRORS:
            logger.warning("game %s changed; open boards not told: Redis is unavailable", game_id)
    else:
        hub.deliver_threadsafe(game_id, version)


events.board_changed.connect(board_changed, dispatch_uid="games.live.board_changed")


# --------------------------------------------------------------------------- the hub


def _offer(inbox: asyncio.Queue, version: int | None) -> None:
    """Only the latest news matters (the board fetches what is current): a full inbox
    drops its older message."""
    if inbox.full():
        try:
            inbox.get_nowait()
        except asyncio.QueueEmpty:
            pass
    inbox.put_nowait(version)


class Hub:
    """The streams open in this process, by game, and (with Redis) its one subscription."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._boards: dict[int, set[asyncio.Queue]] = {}
        self._users: dict[int, int] = {}  # streams open in this process, per user
        self._listener: asyncio.Task | None = None
        self._connected = threading.Event()

    def _bind(self) -> None:
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # the first stream, or a new event loop (the tests')
            self._loop, self._boards, self._users, self._listener = loop, {}, {}, None
            self._connected.clear()

    def streams(self) -> int:
        """How many streams are open in this process."""
        return sum(len(inboxes) for inboxes in self._boards.values())

    def streams_of(self, user_id: int) -> int:
        """How many streams ``user_id`` has open in this process."""
        return self._users.get(user_id, 0)

    async def ready(self, *, timeout: float = 2.0) -> bool:
        """Can this process hear changes?  With Redis: once its subscription stands
        (started by the first stream; ``timeout`` seconds at most to wait for it)."""
        self._bind()
        if not settings.REDIS_URL:
            return True
        if self._listener is None or self._listener.done():
            self._listener = asyncio.get_running_loop().create_task(
                self._listen(settings.REDIS_URL, channel_prefix())
            )
        waited = 0.0
        while not self._connected.is_set() and waited < timeout:
            await asyncio.sleep(0.02)
            waited += 0.02
        return self._connected.is_set()

    @asynccontextmanager
    async def subscription(
        self, game_id: int, user_id: int | None = None
    ) -> AsyncIterator[asyncio.Queue]:
        """An inbox for the changes of ``game_id`` while the block runs: a version, or
        None when the stream must end (the channel was lost).  Counted for ``user_id``
        (``streams_of``) while it runs."""
        self._bind()
        users = self._users
        inbox: asyncio.Queue = asyncio.Queue(maxsize=1)
        self._boards.setdefault(game_id, set()).add(inbox)
        if user_id is not None:
            users[user_id] = users.get(user_id, 0) + 1
        try:
            yield inbox
        finally:
            inboxes = self._boards.get(game_id)
            if inboxes is not None:
                inboxes.discard(inbox)
                if not inboxes:
                    del self._boards[game_id]
            if user_id is not None and users.get(user_id, 0) > 0:
                users[user_id] -= 1
                if not users[user_id]:
                    del users[user_id]

    async def aclose(self) -> None:
        """Drop the subscription of this loop (the tests' loops end with each test)."""
        listener, self._listener = self._listener, None
        if listener is not None and not listener.done():
            listener.cancel()
            try:
                await listener
            except asyncio.CancelledError:
                pass
        self._connected.clear()

    def deliver(self, game_id: int, version: int | None) -> None:
        """In the event loop: tell every local stream of ``game_id``."""
        for inbox in list(self._boards.get(game_id, ())):
            _offer(inbox, version)

    def deliver_threadsafe(self, game_id: int, version: int) -> None:
        """From any thread (the in-process channel): hand the change to the loop."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return  # no stream was ever opened in this process
        try:
            loop.call_soon_threadsafe(self.deliver, game_id, version)
        except RuntimeError:  # the loop closed meanwhile
            pass

    def _end_all(self) -> None:
        for game_id in list(self._boards):
            self.deliver(game_id, None)

    async def _listen(self, url: str, prefix: str) -> None:
        """The process's one subscription: every game's channel, fanned out locally.
        Lost, it ends the local streams and subscribes again (0.5 s, 1 s, … 10 s)."""
        client = aioredis.Redis.from_url(url, socket_connect_timeout=2)
        pause = 0.5
        try:
            while True:
                pubsub = client.pubsub(ignore_subscribe_messages=True)
                try:
                    await pubsub.psubscribe(prefix + "*")
                    self._connected.set()
                    pause = 0.5
                    await self._hear(pubsub)
                except REDIS_ERRORS as error:
                    logger.warning(
                        "the boards' channel is unavailable (%s); open streams end",
                        type(error).__name__,
                    )
                finally:
                    self._connected.clear()
                    self._end_all()
                    try:
                        await pubsub.aclose()
                    except REDIS_ERRORS:
                        pass
                await asyncio.sleep(pause)
                pause = min(pause * 2, 10.0)
        finally:
            try:
                await client.aclose()
            except REDIS_ERRORS:
                pass

    async def _hear(self, pubsub: Any) -> None:
        """Fan out what the subscription hears until it fails.  A connection can die
        without a word (a NAT or load balancer forgets it, a host vanishes): after
        ``QUIET_PING`` seconds of silence it is asked for a PONG, and one not heard
        within ``PONG_WAIT`` seconds counts as the connection lost."""
        loop = asyncio.get_running_loop()
        heard = loop.time()
        pinged: float | None = None
        while True:
            message = await pubsub.get_message(timeout=LISTEN_TICK)
            now = loop.time()
            if message is not None:
                heard, pinged = now, None
                if message.get("type") == "pmessage":
                    decoded = message_decode(message.get("data"))
                    if decoded is not None:
                        self.deliver(*decoded)
            elif pinged is not None:
                if now - pinged >= PONG_WAIT:
                    raise redis.ConnectionError("no answer to PING")
            elif now - heard >= QUIET_PING:
                await pubsub.ping()
                pinged = now


hub = Hub()


# --------------------------------------------------------------------------- a stream


def _event(name: str, data: Any) -> str:
    return f"event: {name}\ndata: {data}\n\n"


def _check_then_release(moved_on: Callable[[], int | None]) -> int | None:
    """Compare the board with the table (one query), then close this thread's database
    connection: an open stream must hold none (thousands are open at once)."""
    try:
        return moved_on()
    finally:
        connections.close_all()


async def board_events(
    *,
    game_id: int,
    user_id: int,
    moved_on: Callable[[], int | None],
    heartbeat: float,
    lifetime: float,
    recheck: bool = False,
    signed_in: Callable[[], bool] | None = None,
) -> AsyncIterator[str]:
    """The text of one board's stream.  ``moved_on`` (sync) tells the table's version
    when the board is behind it, else None: it is asked once the subscription stands,
    so that no change can slip between the page and its stream.  ``recheck``: it is
    asked again at each news (one query), which is passed on only when it says the
    board is behind: a spectator's board does not change with the players' chat.
    ``signed_in`` (sync) is asked as often as the player is marked at the table: once
    it says no (signed out everywhere, deleted, suspended), the stream ends, and the
    browser's next one is refused."""
    async with hub.subscription(game_id, user_id) as inbox:
        version = await sync_to_async(_check_then_release)(moved_on)
        await sync_to_async(notifications.seat_seen_id)(game_id=game_id, user_id=user_id)
        yield f"retry: {RETRY_MS}\n" + _event("hello", game_id)
        if version is not None:
            yield _event("changed", version)
        loop = asyncio.get_running_loop()
        end = seen = loop.time()
        end += lifetime
        while (left := end - loop.time()) > 0:
            try:
                async with asyncio.timeout(min(heartbeat, left)):
                    news = await inbox.get()
            except TimeoutError:
                if loop.time() >= end:
                    break
                if loop.time() - seen >= PRESENCE_EVERY:
                    if signed_in is not None and not await sync_to_async(signed_in)():
                        break
                    await sync_to_async(notifications.seat_seen_id)(
                        game_id=game_id, user_id=user_id
                    )
                    seen = loop.time()
                yield ": heartbeat\n\n"
                continue
            if news is None:
                break  # the channel was lost: the browser reconnects, or polls
            if recheck:
                news = await sync_to_async(_check_then_release)(moved_on)
                if news is None:
                    continue
            yield _event("changed", news)
