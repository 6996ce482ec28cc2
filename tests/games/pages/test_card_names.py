"""What a screen reader hears of the cards: a status card's whole name ("Luxury 7",
not "Luxury"), a money card's value whole ("12,000", not "12 ,000"), in the page's
language; the figures drawn on the card are hidden from it."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from games.templatetags.game_cards import money_card, status_card


def _spoken(html: str) -> str:
    """The text left once everything marked aria-hidden is taken out."""
    without = re.sub(r'<span[^>]*aria-hidden="true"[^>]*>[^<]*</span>', "", str(html))
    return re.sub(r"<[^>]+>", "", without)


@pytest.mark.parametrize(
    "language, card, spoken",
    [
        ("en", "lux7", "Luxury 7"),
        ("de", "lux7", "Luxus 7"),
        ("en", "yacht", "Yacht Club, Luxury 5"),
        ("en", "prestige", "Prestige"),
    ],
)
def test_a_status_card_is_heard_by_its_whole_name(language, card, spoken):
    with translation.override(language):
        assert _spoken(status_card(card, "sm")) == spoken


@pytest.mark.parametrize("language, spoken", [("en", "12,000"), ("de", "12.000")])
def test_a_money_card_is_heard_as_one_number(language, spoken):
    with translation.override(language):
        assert _spoken(money_card(12000)) == spoken
        assert _spoken(money_card(1000, "xs")) == spoken.replace("12", "1")


@pytest.mark.parametrize(
    "language, code, long_word",
    [
        ("de", "debt", True),  # "Schulden"
        ("de", "scandal", True),  # "Skandal"
        ("fr", "gambling", True),  # "Jeux d'argent": "d'argent"
        ("fr", "yacht", False),  # "Yacht-Club" breaks after its hyphen
        ("en", "lux7", False),
    ],
)
def test_a_long_word_gets_the_small_cards_smaller_letter(language, code, long_word):
    """On the small status cards a word of seven letters or more ran past the card's
    frame: such a card is marked for a smaller letter (static/css/game.css)."""
    with translation.override(language):
        html = str(status_card(code, "sm"))
    assert ("hs-card--long-word" in html) is long_word


@pytest.mark.parametrize(
    "language, value, shown",
    [("en", 41.2, "+41"), ("en", -24.3, "\u221224"), ("de", -24.6, "\u221225"), ("en", 0.2, "+0")],
)
def test_a_rating_change_is_signed_with_a_minus_sign(language, value, shown):
    from games.templatetags.game_cards import rating_change

    with translation.override(language):
        assert rating_change(value) == shown
