"""The bid preview: the total of the ticked cards, judged before the player confirms."""

from __future__ import annotations

import random

import pytest

from games.engine import (
    IllegalAction,
    apply_action,
    legal_actions,
    legal_summary,
    new_game,
    random_action,
)
from games.engine.cards import MASK_CARDS
from games.engine.state import AUCTION
from games.forms import parse_cards
from games.presenter import bid_preview
from tests.games.pages.conftest import act

HX = {"HTTP_HX_REQUEST": "true"}


def preview(client, game, *cards, **extra):
    query = "&".join(f"cards={c}" for c in cards)
    return client.get(f"/games/{game.pk}/bid-preview/?{query}", **extra)


@pytest.mark.django_db
def test_preview_totals_and_beats(client, table, alice, bob):
    client.force_login(alice)
    html = preview(client, table, 3000, 1000, **HX).content.decode()
    assert html.strip().startswith('<p id="bid-preview" class="preview preview--ok"')
    assert "Your bid would total 4,000 — the opening bid." in html
    act(table, alice, type="bid", cards=[12000])
    client.force_login(bob)
    html = preview(client, table, 10000, 4000, **HX).content.decode()
    assert "Your bid would total 14,000 — beats 12,000." in html
    html = preview(client, table, 10000, 2000, **HX).content.decode()
    assert "preview--no" in html
    assert "Your bid must total more than 12,000; yours would be 12,000." in html


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ((), "Choose at least one money card to bid."),
        (("abc",), "“abc” is not a money card."),
        ((7000,), "7,000 is not a money card."),
        ((1000, 1000), "You listed the 1,000 card twice."),
        (("<script>",), "is not a money card."),
    ],
)
def test_preview_explains_bad_selections(client, table, alice, cards, message):
    client.force_login(alice)
    html = preview(client, table, *cards, **HX).content.decode()
    assert message in html and "<script>" not in html


@pytest.mark.django_db
def test_preview_of_a_card_already_spent(client, table, alice, bob, carol):
    act(table, alice, type="bid", cards=[1000])
    act(table, bob, type="bid", cards=[2000])
    act(table, carol, type="pass")
    client.force_login(alice)
    html = preview(client, table, 1000, **HX).content.decode()
    assert "You do not hold the 1,000 card." in html


@pytest.mark.django_db
def test_preview_for_someone_not_on_turn(client, table, bob):
    for logged_in in (False, True):
        if logged_in:
            client.force_login(bob)
        html = preview(client, table, 1000, **HX).content.decode()
        assert "It is not your turn to bid." in html


@pytest.mark.django_db
def test_plain_preview_is_the_board_with_the_cards_ticked(client, table, alice):
    client.force_login(alice)
    response = preview(client, table, 2000, 6000)
    html = response.content.decode()
    assert response.status_code == 200 and "<html" in html
    assert (
        'value="2000" id="hand-2000" checked' in html
        and 'value="6000" id="hand-6000" checked' in html
    )
    assert "Your bid would total 8,000" in html


@pytest.mark.django_db
def test_preview_of_unknown_game_is_404(client):
    assert client.get("/games/424242/bid-preview/?cards=1000").status_code == 404


def test_parse_cards():
    assert parse_cards(["1000", "25000"]) == ([1000, 25000], None)
    assert parse_cards([]) == ([], None)
    assert parse_cards(["1e3"])[1] == "“1e3” is not a money card."
    assert parse_cards(["1000"] * 30)[1] == "You listed the 1,000 card twice."


def _summary(state, seat):
    """The engine's own summary of what the seat may do (the board's preview reads it)."""
    return legal_summary(state, seat)


def test_preview_agrees_with_the_engine():
    """For many reachable auction states and card choices, the preview accepts exactly
    the bids the engine accepts and gives the engine's sentence when it refuses."""
    rng = random.Random(11)
    checked = 0
    for game in range(60):
        state = new_game(players=3 + game % 3, seed=game)
        while state.phase != "over" and checked < 3000:
            if state.phase == AUCTION:
                seat = state.turn
                hand = list(MASK_CARDS[state.hands[seat]])
                for _ in range(4):
                    cards = rng.sample(hand, rng.randint(0, min(4, len(hand))))
                    if rng.random() < 0.1:
                        cards.append(rng.choice([1000, 3000, 25000]))  # maybe not held
                    ok, text = bid_preview(_summary(state, seat), cards)
                    try:
                        apply_action(state, {"seat": seat, "type": "bid", "cards": cards})
                        accepted, sentence = True, None
                    except IllegalAction as error:
                        accepted, sentence = False, str(error)
                    assert ok == accepted, (cards, text, sentence)
                    if not accepted:
                        assert text == sentence
                    checked += 1
            action = random_action(state, rng) or legal_actions(state)[0]
            state = apply_action(state, action)
    assert checked > 1000


@pytest.mark.django_db
def test_before_any_card_is_ticked_the_preview_says_to_tick_them(client, table, alice, bob):
    """The sentence read out when Bid is pressed with no card ticked said only "Nobody
    has bid yet: any card opens.", not that no card was ticked."""
    client.force_login(alice)
    board = client.get(f"/games/{table.pk}/").content.decode()
    assert "Tick the cards of your bid: nobody has bid yet, so any card opens." in board
    act(table, alice, type="bid", cards=[12000])
    client.force_login(bob)
    board = client.get(f"/games/{table.pk}/").content.decode()
    assert "Tick the cards of your bid: it must total more than 12,000." in board
