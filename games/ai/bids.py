"""Money arithmetic for bots: cheapest sets of cards that reach a total, on 11-bit masks.

Bots never list all 2,048 bids.  They ask for the cheapest set of hand cards whose sum
exceeds a number; among sets of the same sum they keep the hand that can still make the
most different totals afterwards (small cards are what make exact bids possible later).
"""

from __future__ import annotations

from bisect import bisect_right

from games.engine.cards import BIT, FULL_HAND, MASK_SUM, MONEY

_UNITS = tuple(v // 1000 for v in MONEY)  # every money card is a whole number of thousands


def _flexibility_table() -> tuple[int, ...]:
    """For every mask, how many different totals (empty set included) its cards can make."""
    reach = [1] * (FULL_HAND + 1)  # bit k set: a total of k thousands is reachable
    for mask in range(1, FULL_HAND + 1):
        low = mask & -mask
        rest = reach[mask ^ low]
        reach[mask] = rest | rest << _UNITS[low.bit_length() - 1]
    return tuple(r.bit_count() for r in reach)


FLEX: tuple[int, ...] = _flexibility_table()

# hand mask -> (sums, submasks): every non-empty submask of the hand, ordered by sum and,
# for equal sums, by how flexible the rest of the hand stays.  Filled on first use.
_SUBSETS: dict[int, tuple[list[int], list[int]]] = {}


def _subsets(hand: int) -> tuple[list[int], list[int]]:
    found = _SUBSETS.get(hand)
    if found is None:
        subs = []
        sub = hand
        while sub:
            subs.append(sub)
            sub = (sub - 1) & hand
        subs.sort(key=lambda m: (MASK_SUM[m], -FLEX[hand ^ m], m))
        found = ([MASK_SUM[m] for m in subs], subs)
        _SUBSETS[hand] = found
    return found


def cheapest_over(hand: int, amount: int) -> int:
    """The cheapest set of cards of ``hand`` whose sum is more than ``amount`` (0: none)."""
    if MASK_SUM[hand] <= amount:
        return 0
    if amount < 0:
        amount = 0
    sums, subs = _subsets(hand)
    return subs[bisect_right(sums, amount)]


def cheapest_at_least(hand: int, amount: int) -> int:
    """The cheapest set of cards of ``hand`` whose sum is at least ``amount`` (0: none)."""
    return cheapest_over(hand, amount - 1)


def mask_of(cards: list[int] | tuple[int, ...]) -> int:
    """The mask of a list of money values (each value once)."""
    mask = 0
    for value in cards:
        mask |= BIT[value]
    return mask
