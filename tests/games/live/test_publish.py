"""A change is published on the game's Redis channel after its commit, never after a
rollback, and the message holds the game's id and version only (games/live.py)."""

from __future__ import annotations

import json
import time

import pytest
import redis
from django.conf import settings
from django.db import transaction

from games import chat, live, services
from games.errors import GameError
from games.models import Game
from tests.games.pages.conftest import act

needs_redis = pytest.mark.skipif(not settings.REDIS_URL, reason="REDIS_URL is not set")


@pytest.fixture
def channel():
    """Every board channel of this test run, as a subscriber sees them."""
    client = redis.Redis.from_url(settings.REDIS_URL)
    pubsub = client.pubsub(ignore_subscribe_messages=True)
    pubsub.psubscribe(live.channel_prefix() + "*")
    deadline = time.monotonic() + 2
    while pubsub.get_message(timeout=0.1) is None and time.monotonic() < deadline:
        if pubsub.subscribed:
            break

    def received(wait: float = 1.0) -> list[tuple[str, dict]]:
        out = []
        end = time.monotonic() + wait
        while time.monotonic() < end:
            message = pubsub.get_message(timeout=0.05)
            if message and message["type"] == "pmessage":
                out.append((message["channel"].decode(), json.loads(message["data"])))
        return out

    yield received
    pubsub.close()
    client.close()


@needs_redis
def test_a_committed_move_is_published_with_its_version_only(table, alice, channel, run_commits):
    with run_commits():
        act(table, alice, type="pass")
    messages = channel()
    assert messages == [
        (f"{live.channel_prefix()}{table.pk}", {"game": table.pk, "version": 1}),
    ]


@needs_redis
def test_a_rolled_back_move_publishes_nothing(table, alice, channel, run_commits):
    with run_commits():
        try:
            with transaction.atomic():
                act(table, alice, type="pass")
                raise RuntimeError("the request failed after the move")
        except RuntimeError:
            pass
    assert channel() == []
    assert Game.objects.get(pk=table.pk).version == 0


@needs_redis
def test_a_refused_move_publishes_nothing(table, bob, channel, run_commits):
    with run_commits(), pytest.raises(GameError):
        act(table, bob, type="pass")  # not Bob's turn
    assert channel() == []


@needs_redis
def test_chat_seats_and_resignations_are_published(host, bob, carol, channel, run_commits):
    with run_commits():
        game = services.game_create(creator=host, players=3, seats=[{"open": True}, {"open": True}])
        services.game_join(game=game, user=bob)
        chat.chat_post(game=game, user=bob, text="hello")
        services.game_join(game=game, user=carol)  # the last seat: the game starts
        services.game_resign(game=Game.objects.get(pk=game.pk), user=carol)
    messages = [data for _, data in channel()]
    # Bob's seat, the chat, the start, the resignation (and the bot then playing Carol's seat).
    assert len(messages) >= 4 and {data["game"] for data in messages} == {game.pk}
    assert all(set(data) == {"game", "version"} for data in messages)


def test_two_sites_on_two_databases_of_one_redis_have_channels_apart(settings):
    """Pub/sub ignores the database number: the channel names carry it."""
    settings.CACHES = {"default": {**settings.CACHES["default"], "KEY_PREFIX": "site"}}
    settings.REDIS_URL = "redis://127.0.0.1:6379/1"
    first = live.channel_prefix()
    settings.REDIS_URL = "redis://127.0.0.1:6379/2"
    assert live.channel_prefix() != first
    settings.REDIS_URL = "redis://127.0.0.1:6379"
    assert live.channel_prefix() == "site:0:board:"


def test_messages_that_are_not_a_change_are_ignored():
    assert live.message_decode(live.message_encode(5, 7)) == (5, 7)
    for raw in (b"", b"{", b"[]", b'{"game": "5", "version": 1}', b'{"game": 5}', None, b"\xff"):
        assert live.message_decode(raw) is None


def test_without_redis_nothing_fails_when_no_stream_is_open(settings, table, alice, run_commits):
    settings.REDIS_URL = None
    with run_commits():
        act(table, alice, type="pass")  # the in-process channel, with nobody listening
    assert Game.objects.get(pk=table.pk).version == 1


def test_redis_down_never_fails_a_move(settings, table, alice, run_commits, monkeypatch, caplog):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    monkeypatch.setattr(live, "_publisher_client", None)
    with run_commits():
        act(table, alice, type="pass")
    monkeypatch.setattr(live, "_publisher_client", None)
    assert Game.objects.get(pk=table.pk).version == 1
    assert "open boards not told" in caplog.text
