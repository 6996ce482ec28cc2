"""Cards drawn in HTML: ``{% status_card code %}``, ``{% money_card value %}``, and filters.

Each card is a constant, so its HTML is built once and cached: the board draws dozens of
cards per page, and a tag that returns a cached string costs far less than an
``{% include %}`` per card (docs/architecture.md).  Every card carries its name
as text; the big glyph is decoration (``aria-hidden``).
"""

from __future__ import annotations

from functools import cache

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from games.engine import LUXURY_VALUE, card_name, money_text

register = template.Library()

# code -> (glyph, short name, css kind, effect in words)
_FACES: dict[str, tuple[str, str, str, str]] = {
    **{f"lux{i}": (str(i), "Luxury", "luxury", f"Luxury worth {i} status.") for i in range(1, 11)},
    "prestige": ("×2", "Prestige", "prestige", "Doubles its owner's status."),
    "scandal": ("½", "Scandal", "scandal", "Halves its owner's status at the end."),
    "debt": ("−5", "Debt", "misfortune", "Takes 5 from its owner's status."),
    "theft": ("✂", "Theft", "misfortune", "Its owner discards one luxury."),
    "gambling": ("×2", "Gambling", "special", "Its owner's money counts double at the end."),
    "excursions": (
        "12",
        "Excursions",
        "special",
        "Luxury worth 12; when claimed, every other player takes their best spent card back.",
    ),
    "yacht": ("5", "Yacht Club", "special", "Luxury worth 5, auctioned by sealed choice."),
}

# The words for the kind of auction each card gets (the board's headline).
KIND_WORDS = {
    "luxury": "Luxury",
    "prestige": "Prestige",
    "misfortune": "Misfortune",
    "special": "Special",
}


def card_face(code: str) -> tuple[str, str, str, str]:
    """(glyph, short name, css kind, effect) of a status card code; unknown codes are shown as such."""
    return _FACES.get(code, ("?", str(code), "special", "An unknown card."))


def card_kind_word(code: str) -> str:
    """Luxury, Prestige, Misfortune or Special: how the card is auctioned, in words."""
    if code == "yacht":
        return "Yacht Club"
    kind = card_face(code)[2]
    if kind == "scandal":
        kind = "misfortune"
    if code == "excursions":
        kind = "luxury"
    return KIND_WORDS.get(kind, "Special")


@cache
def _status_card_html(code: str, size: str) -> SafeString:
    glyph, short, kind, effect = card_face(code)
    game_end = " hs-card--game-end" if code in ("prestige", "scandal") else ""
    if len(short) > 8:  # Excursions, Yacht Club: a smaller name so that it fits the card
        game_end += " hs-card--long"
    sub = f"Luxury {LUXURY_VALUE[code]}" if code in ("excursions", "yacht") else ""
    return format_html(
        '<span class="hs-card hs-card--{} hs-card--{}{}" title="{}">'
        '<span class="hs-card__corner" aria-hidden="true">{}</span>'
        '<span class="hs-card__glyph" aria-hidden="true">{}</span>'
        '<span class="hs-card__name">{}</span>{}'
        "</span>",
        kind,
        size,
        game_end,
        f"{card_name(code) if code in _FACES else code}: {effect}",
        glyph,
        glyph,
        short,
        format_html('<span class="hs-card__sub">{}</span>', sub) if sub else "",
    )


@register.simple_tag
def status_card(code: str, size: str = "md") -> SafeString:
    """A status card (luxury, prestige, misfortune, special) in size sm, md or lg."""
    return _status_card_html(str(code), size if size in ("xs", "sm", "md", "lg") else "md")


@cache
def _money_card_html(value: int, size: str) -> SafeString:
    thousands, rest = divmod(value, 1000)
    big, small = (str(thousands), f",{rest:03d}") if thousands else (str(value), "")
    # No white space between the spans: the card reads as "12,000" to a screen reader;
    # the corner figure is decoration.
    return format_html(
        '<span class="hs-money hs-money--{}"><span class="hs-money__corner" aria-hidden="true">{}</span>'
        '<span class="hs-money__big">{}</span><span class="hs-money__small">{}</span></span>',
        size,
        big,
        big,
        small,
    )


@register.simple_tag
def money_card(value: int, size: str = "md") -> SafeString:
    """A money card showing its value (12,000 as a large 12 and a small ,000)."""
    try:
        value = int(value)
    except (TypeError, ValueError):
        return SafeString("")
    return _money_card_html(value, size if size in ("xs", "sm", "md", "lg") else "md")


@register.filter
def money(value: int) -> str:
    """12000 -> 12,000."""
    try:
        return money_text(int(value))
    except (TypeError, ValueError):
        return ""


@register.filter(name="card_name")
def card_name_filter(code: str) -> str:
    """lux7 -> Luxury 7, debt -> Debt (−5)."""
    try:
        return card_name(code)
    except KeyError:
        return str(code)


_DEADLINES = {24: "1 day", 48: "2 days", 72: "3 days", 168: "7 days"}


@register.filter
def deadline_words(hours: int | None) -> str:
    """48 -> 2 days; None -> no deadline."""
    if not hours:
        return "no deadline"
    return _DEADLINES.get(hours, f"{hours} hours")
