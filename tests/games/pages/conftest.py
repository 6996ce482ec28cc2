"""Tables for the page tests, made through the services with fixed decks (no bots, so
nothing moves unless a test moves it).  Alice hosts (staff, to fix the deck), Bob and
Carol accept her invitations; Dave is an outsider."""

from __future__ import annotations

import re

import pytest

from games import services
from games.models import Game

# A readable deck: the top card first.
DECK = [
    "lux3",
    "lux7",
    "debt",
    "prestige",
    "lux5",
    "theft",
    "lux10",
    "lux1",
    "scandal",
    "lux2",
    "lux4",
    "prestige",
    "lux6",
    "lux8",
    "lux9",
    "prestige",
]


@pytest.fixture
def host(alice):
    alice.is_staff = True
    alice.save(update_fields=["is_staff"])
    return alice


def table_make(host, guests, *, deck=DECK, first_player=0, advanced=(), memory_aid=False, bots=()):
    """A started table: ``host`` in seat 0, then ``guests`` (who accept), then bots."""
    seats = [{"user": guest.username} for guest in guests] + [{"ai": level} for level in bots]
    game = services.game_create(
        creator=host,
        players=1 + len(seats),
        seats=seats,
        deck=list(deck) if deck is not None else None,
        first_player=first_player,
        advanced=advanced,
        memory_aid=memory_aid,
    )
    for guest in guests:
        services.game_invitation_respond(game=game, user=guest, accept=True)
    return Game.objects.get(pk=game.pk)


def act(game, user, **action):
    """One move through the one door, at the game's current version."""
    game = Game.objects.get(pk=game.pk)
    return services.game_submit_action(
        game=game, user=user, action=action, expected_version=game.version
    )


@pytest.fixture
def table(host, bob, carol):
    """Three people, nobody has moved: Alice (seat 0) is to bid on Luxury 3."""
    return table_make(host, [bob, carol])


def normalise(html: str) -> str:
    """The page without what differs between two renders of equal games: table ids,
    CSRF tokens, the change stamp of the polling URL and the log's times."""
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "CSRF", html)
    html = re.sub(r'"X-CSRFToken": "[^"]+"', "CSRF", html)
    html = re.sub(r"/games/\d+/", "/games/N/", html)
    html = re.sub(r"Table \d+", "Table N", html)
    html = re.sub(r"t=\d+", "t=T", html)
    # When each move was made (the log's times): the twins were played moments apart.
    html = re.sub(r'<time class="log__time" datetime="[^"]+"[^>]*>[^<]*</time>', "TIME", html)
    return html


def passing_move(state) -> dict:
    """The move ``play_passing`` makes for the seat to move: a pass, or, when Theft
    strikes, giving up that seat's cheapest luxury."""
    from games.engine.cards import LUXURY_VALUE

    seat = state.turn
    if state.phase == "theft":
        luxuries = sorted((c for c in state.owned[seat] if c in LUXURY_VALUE), key=LUXURY_VALUE.get)
        return {"type": "discard", "card": luxuries[0]}
    return {"type": "pass"}


def play_passing(game, users, *, until=None, limit=300):
    """Everybody passes (Theft's owner gives up their cheapest luxury) until the game
    ends or ``until(state)`` holds.  ``users`` maps seats to users."""
    for _ in range(limit):
        game = Game.objects.get(pk=game.pk)
        state = game.engine_state()
        if game.status != Game.Status.ACTIVE or (until and until(state)):
            return game
        act(game, users[state.turn], **passing_move(state))
    raise AssertionError("the game did not get there")
