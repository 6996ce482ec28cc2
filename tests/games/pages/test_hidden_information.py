"""Hidden information never reaches a page (docs/rules.md, "What each player may see";
docs/architecture.md).  Two tables equal in everything a viewer may see but different in what
they may not (the unrevealed deck order, another player's sealed choice) must give
that viewer byte-identical pages, ids and tokens aside."""

from __future__ import annotations

import pytest

from games.models import Game
from tests.games.pages.conftest import DECK, act, normalise, play_passing, table_make

pytestmark = [pytest.mark.django_db, pytest.mark.slow]  # twin games played through every layer

HX = {"HTTP_HX_REQUEST": "true"}


# A stretch of play of host (0), Bob (1) and Carol (2) over DECK's first cards.
TWIN_SCRIPT = [
    (0, {"type": "bid", "cards": [1000]}),
    (1, {"type": "bid", "cards": [2000, 3000]}),
    (2, {"type": "pass"}),
    (0, {"type": "pass"}),  # Bob wins Luxury 3 and reveals Luxury 7
    (1, {"type": "pass"}),
    (2, {"type": "bid", "cards": [4000]}),
    (0, {"type": "pass"}),  # Carol wins Luxury 7 and reveals Debt
    (2, {"type": "bid", "cards": [1000]}),
    (0, {"type": "bid", "cards": [2000]}),
]


def _pages(client, game, viewer):
    """Everything a viewer can fetch about a table: the board, its partial, the poll
    with an old version, and a bid preview."""
    client.logout()
    if viewer is not None:
        client.force_login(viewer)
    paths = [
        (f"/games/{game.pk}/", {}),
        (f"/games/{game.pk}/", HX),
        (f"/games/{game.pk}/board/?version=-1", HX),
        (f"/games/{game.pk}/bid-preview/?cards=1000&cards=25000", HX),
    ]
    out = []
    for path, extra in paths:
        response = client.get(path, **extra)
        assert response.status_code == 200, path
        out.append(normalise(response.content.decode()))
    return out


def _assert_same_for(client, one, other, viewers):
    for viewer in viewers:
        assert _pages(client, one, viewer) == _pages(client, other, viewer), viewer


def test_unrevealed_deck_order_never_shows_during_a_game(client, host, bob, carol, dave):
    # The same first four cards; the rest of the deck in another order.
    tail = DECK[4:]
    one = table_make(host, [bob, carol], deck=DECK[:4] + tail)
    other = table_make(host, [bob, carol], deck=DECK[:4] + tail[::-1])
    users = {0: host, 1: bob, 2: carol}
    script = TWIN_SCRIPT
    viewers = [host, bob, carol, dave, None]
    _assert_same_for(client, one, other, viewers)
    for seat, action in script:
        act(one, users[seat], **action)
        act(other, users[seat], **action)
        _assert_same_for(client, one, other, viewers)
    # The remaining deck order is really different (the test would prove nothing else).
    assert (
        Game.objects.get(pk=one.pk).state["setup_deck"]
        != Game.objects.get(pk=other.pk).state["setup_deck"]
    )


def test_the_rest_of_the_deck_stays_hidden_after_the_end(client, host, bob, carol, dave):
    # The fourth game-end card comes seventh: the nine cards after it are never revealed.
    head = ["lux3", "prestige", "lux5", "scandal", "prestige", "lux1", "prestige"]
    rest = list(DECK)
    for card in head:
        rest.remove(card)
    one = table_make(host, [bob, carol], deck=head + rest)
    other = table_make(host, [bob, carol], deck=head + rest[::-1])
    users = {0: host, 1: bob, 2: carol}
    one, other = play_passing(one, users), play_passing(other, users)
    assert one.status == other.status == Game.Status.FINISHED
    _assert_same_for(client, one, other, [host, bob, carol, dave, None])


def test_sealed_choices_stay_sealed_until_all_are_in(client, host, bob, carol, dave):
    deck = ["yacht", *DECK]
    one = table_make(host, [bob, carol], deck=deck, advanced=["yacht"])
    other = table_make(host, [bob, carol], deck=deck, advanced=["yacht"])
    act(one, bob, type="sealed_bid", card=1000)
    act(other, bob, type="sealed_bid", card=25000)
    # Everybody but Bob sees the same pages: only "has chosen", never the card.
    _assert_same_for(client, one, other, [host, carol, dave, None])
    act(one, host, type="sealed_bid", card=8000)
    act(other, host, type="sealed_bid", card=8000)
    _assert_same_for(client, one, other, [carol, dave, None])
    # Bob sees his own choice, and nobody else's.
    client.force_login(bob)
    html = client.get(f"/games/{one.pk}/").content.decode()
    assert "You chose 1,000." in html and "Waiting for Carol to choose." in html
    act(one, carol, type="sealed_bid", card=2000)
    html = client.get(f"/games/{one.pk}/").content.decode()
    assert (
        "Yacht Club choices: Alice 8,000, Bob 1,000, Carol 2,000. Alice wins the Yacht Club."
        in html
    )


def test_pages_never_carry_the_state(client, table, alice):
    client.force_login(alice)
    html = client.get(f"/games/{table.pk}/").content.decode()
    for secret in ("setup_deck", "deck_pos", "sealed_choice", "lux10", "scenario"):
        assert secret not in html, secret
