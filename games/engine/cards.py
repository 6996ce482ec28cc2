"""Cards of High Society (docs/rules.md, "Components") and the money bitmask tables.

Money hands are 11-bit masks: bit ``i`` stands for ``MONEY[i]``.  Sums and card lists
of every mask are precomputed once, so bids, legality and scoring are table look-ups.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

MONEY: tuple[int, ...] = (1000, 2000, 3000, 4000, 6000, 8000, 10000, 12000, 15000, 20000, 25000)
FULL_HAND: int = (1 << len(MONEY)) - 1
BIT: dict[int, int] = {value: 1 << i for i, value in enumerate(MONEY)}
MASK_SUM: tuple[int, ...] = tuple(
    sum(v for i, v in enumerate(MONEY) if m >> i & 1) for m in range(FULL_HAND + 1)
)
MASK_CARDS: tuple[tuple[int, ...], ...] = tuple(
    tuple(v for i, v in enumerate(MONEY) if m >> i & 1) for m in range(FULL_HAND + 1)
)
MASK_COUNT: tuple[int, ...] = tuple(bin(m).count("1") for m in range(FULL_HAND + 1))
# The highest card of a mask, as a mask (0 for the empty mask): Excursions returns it.
MASK_TOP: tuple[int, ...] = tuple(
    (1 << (m.bit_length() - 1)) if m else 0 for m in range(FULL_HAND + 1)
)
# Every non-empty mask, ordered by total then by cards: the order of listed bids.
BID_ORDER: tuple[int, ...] = tuple(
    sorted(range(1, FULL_HAND + 1), key=lambda m: (MASK_SUM[m], MASK_CARDS[m]))
)
BID_ORDER_SUMS: tuple[int, ...] = tuple(MASK_SUM[m] for m in BID_ORDER)

PRESTIGE = "prestige"
SCANDAL = "scandal"
DEBT = "debt"
THEFT = "theft"
GAMBLING = "gambling"
EXCURSIONS = "excursions"
YACHT = "yacht"

LUXURY_VALUE: dict[str, int] = {f"lux{i}": i for i in range(1, 11)}
LUXURY_VALUE[EXCURSIONS] = 12
LUXURY_VALUE[YACHT] = 5

MISFORTUNES = frozenset({SCANDAL, DEBT, THEFT})
GAME_END_CARDS = frozenset({PRESTIGE, SCANDAL})
GAME_END_COUNT = 4  # the fourth game-end card revealed ends the game

BASE_CARDS: tuple[str, ...] = (
    *(f"lux{i}" for i in range(1, 11)),
    PRESTIGE,
    PRESTIGE,
    PRESTIGE,
    SCANDAL,
    DEBT,
    THEFT,
)
ADVANCED_CARDS: tuple[str, ...] = (GAMBLING, EXCURSIONS, YACHT)

NAMES: dict[str, str] = {
    **{f"lux{i}": f"Luxury {i}" for i in range(1, 11)},
    PRESTIGE: "Prestige",
    SCANDAL: "Scandal (½)",
    DEBT: "Debt (−5)",
    THEFT: "Theft",
    GAMBLING: "Gambling",
    EXCURSIONS: "Excursions",
    YACHT: "Yacht Club",
}


def is_luxury(card: str) -> bool:
    return card in LUXURY_VALUE


def card_kind(card: str) -> str:
    """``luxury``, ``prestige``, ``misfortune`` or ``special`` (Gambling)."""
    if card in LUXURY_VALUE:
        return "luxury"
    if card == PRESTIGE:
        return "prestige"
    if card in MISFORTUNES:
        return "misfortune"
    if card == GAMBLING:
        return "special"
    raise ValueError(f"Unknown card {card!r}.")


def card_name(card: str) -> str:
    return NAMES[card]


def deck_cards(advanced: Iterable[str] = ()) -> tuple[str, ...]:
    """The cards of the deck for a set of advanced cards, in a canonical order."""
    return BASE_CARDS + tuple(c for c in ADVANCED_CARDS if c in set(advanced))


def same_cards(a: Iterable[str], b: Iterable[str]) -> bool:
    return Counter(a) == Counter(b)


def money_text(value: int) -> str:
    """12000 -> '12,000' (how the books print money)."""
    return f"{value:,}"
