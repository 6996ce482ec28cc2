"""Every status card's name stays inside its frame, at every size and in every
language ("Excursions", "Glücksspiel", "Jeux d'argent" on the smallest cards of the
scores, the players' panels and a profile)."""

from __future__ import annotations

import pytest
from django.templatetags.static import static
from django.utils import translation

from games.engine.cards import ADVANCED_CARDS
from games.templatetags.game_cards import status_card

pytestmark = pytest.mark.django_db(transaction=True)

CODES = (
    "lux1",
    "lux10",
    "prestige",
    "scandal",
    "debt",
    "theft",
    *ADVANCED_CARDS,
)

# The name's drawn extent (a Range's box: the text itself, after any scaling) against
# the card's inner frame (its inset and border: static/css/game.css, .hs-card::before).
OUTSIDE = """() => Array.from(document.querySelectorAll(".hs-card")).flatMap((card) => {
  const name = card.querySelector(".hs-card__name");
  const range = document.createRange();
  range.selectNodeContents(name);
  const text = range.getBoundingClientRect();
  const box = card.getBoundingClientRect();
  const inset = box.width * 0.06 + Math.max(2, box.width * 0.035);
  const out = text.left < box.left + inset - 0.5 || text.right > box.right - inset + 0.5;
  return out ? [card.className + ": " + name.textContent] : [];
})"""


def test_no_card_name_runs_past_its_frame(live_server, new_page):
    rows = []
    for language in ("en", "de", "fr"):
        with translation.override(language):
            for size in ("xs", "sm", "md", "lg"):
                cards = "".join(status_card(code, size) for code in CODES)
                rows.append(f'<p lang="{language}">{cards}</p>')
    page = new_page()
    page.goto(f"{live_server.url}/rules/")  # the site's origin, its style sheets allowed
    sheets = "".join(
        f'<link rel="stylesheet" href="{live_server.url}{static(name)}">'
        for name in ("css/site.css", "css/game.css")
    )
    page.set_content(
        f"<!doctype html><html><head>{sheets}</head><body>{''.join(rows)}</body></html>"
    )
    page.wait_for_load_state()
    assert page.locator(".hs-card").count() == 3 * 4 * len(CODES)
    outside = page.evaluate(OUTSIDE)
    assert outside == [], "\n".join(outside)
