"""Each card's face tells it apart: no two cards that do different things share a
glyph (the big sign in the middle and the corner), except a luxury and a special card
worth the same (the Yacht Club is a luxury 5, and says so under its name)."""

from __future__ import annotations

from itertools import combinations

from games.engine.cards import LUXURY_VALUE
from games.templatetags.game_cards import _FACES, card_face


def test_cards_that_do_different_things_have_different_glyphs():
    for one, other in combinations(_FACES, 2):
        if card_face(one)[0] != card_face(other)[0]:
            continue
        same_worth = LUXURY_VALUE.get(one) == LUXURY_VALUE.get(other) is not None
        assert same_worth, f"{one} and {other} share the glyph {card_face(one)[0]!r}"
