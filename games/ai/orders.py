"""Standing orders: what a player told the server to do for them while they are away.

An order answers for its owner's seat from that seat's view only (``PlayerView``), like
a bot, but it follows the owner's instructions instead of thinking:

- ``pass``: pass when my turn comes (in a misfortune auction: take the card);
- ``bid`` up to ``maximum``: when my turn comes and my whole face-up bid can beat the
  high bid at a total of at most ``maximum``, raise with the cheapest set of my cards
  that does (only from ``cards`` when given); otherwise pass.  In a misfortune auction
  this is "pay up to ``maximum`` to avoid it";
- ``seal``: give this money card to the Yacht Club;
- ``discard``: when Theft makes me choose, discard my lowest luxury (``"lowest"``) or the
  named one.

Orders for a card end with its auction (the caller drops them when the next card is
revealed).  ``Defaults`` stand for the coming auctions: pass on luxuries below a value,
pay at most so much to avoid a misfortune.  An order for the card up for auction goes
before the defaults.

``order_action`` is pure: the game service calls it inside the transaction of the move
that made the turn come round, and plays its answer as a move of the order.
``order_problem`` says why an order could never act (the pages and the API refuse it).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from games.engine.cards import (
    LUXURY_VALUE,
    MASK_CARDS,
    MASK_SUM,
    MONEY,
    THEFT,
)
from games.engine.messages import Card, Message, Money, gettext_noop
from games.engine.redaction import PlayerView
from games.engine.state import AUCTION, SEALED, THEFT_CHOICE

from .bids import cheapest_over, mask_of

KINDS = ("pass", "bid", "seal")
LOWEST = "lowest"
ALL_MONEY = sum(MONEY)
# "Pass on luxuries below N": a luxury's value is 1 to 10, Excursions 12.
LUXURY_BELOW_RANGE = (2, 12)


@dataclass(frozen=True, slots=True)
class Order:
    """An order for the card up for auction now (``kind`` empty: none) and, for the
    Theft card, the luxury to give up if the seat takes it (``discard``)."""

    kind: str = ""
    maximum: int | None = None
    cards: tuple[int, ...] | None = None  # bid only from these cards (None: any)
    seal: int | None = None
    discard: str = ""  # "", "lowest" or a luxury card's code

    @property
    def empty(self) -> bool:
        return not self.kind and not self.discard


@dataclass(frozen=True, slots=True)
class Defaults:
    """Standing instructions for every coming auction (None: not set)."""

    luxury_below: int | None = None
    misfortune_max: int | None = None

    @property
    def empty(self) -> bool:
        return self.luxury_below is None and self.misfortune_max is None


def order_action(
    view: PlayerView, order: Order | None = None, defaults: Defaults | None = None
) -> dict[str, Any] | None:
    """The action ``order`` (else ``defaults``) makes for the viewing seat now, or
    ``None`` when it is not the seat's turn or the orders say nothing about it."""
    legal, seat = view.legal, view.seat
    if legal is None or seat is None:
        return None
    order = order or Order()
    if view.phase == AUCTION:
        if order.kind == "pass":
            return {"seat": seat, "type": "pass"}
        if order.kind == "bid" and order.maximum is not None:
            return _proxy(view, order.maximum, order.cards)
        if defaults is None:
            return None
        if view.auction == "misfortune" and defaults.misfortune_max is not None:
            return _proxy(view, defaults.misfortune_max, None)
        value = LUXURY_VALUE.get(view.card or "")
        if (
            view.auction == "normal"
            and defaults.luxury_below is not None
            and value is not None
            and value < defaults.luxury_below
        ):
            return {"seat": seat, "type": "pass"}
        return None
    if view.phase == THEFT_CHOICE and order.discard and legal.discard_choices:
        choices = legal.discard_choices  # lowest first
        if order.discard == LOWEST:
            return {"seat": seat, "type": "discard", "card": choices[0]}
        if order.discard in choices:
            return {"seat": seat, "type": "discard", "card": order.discard}
        return None
    if view.phase == SEALED and order.kind == "seal" and order.seal in legal.sealed_choices:
        return {"seat": seat, "type": "sealed_bid", "card": order.seal}
    return None


def proxy_bid(
    view: PlayerView, maximum: int, cards: Iterable[int] | None = None
) -> tuple[int, ...]:
    """The cards a proxy bid up to ``maximum`` adds now (empty: it would pass)."""
    legal = view.legal
    if legal is None or not legal.can_bid:
        return ()
    allowed = mask_of(tuple(c for c in legal.hand if cards is None or c in set(cards)))
    added = cheapest_over(allowed, legal.to_beat - legal.current_bid)
    if not added or legal.current_bid + MASK_SUM[added] > maximum:
        return ()
    return MASK_CARDS[added]


def _proxy(view: PlayerView, maximum: int, cards: tuple[int, ...] | None) -> dict[str, Any]:
    added = proxy_bid(view, maximum, cards)
    if added:
        return {"seat": view.seat, "type": "bid", "cards": list(added)}
    return {"seat": view.seat, "type": "pass"}


def _discard_problem(view: PlayerView, order: Order) -> str | None:
    """Why the Theft part of an order could never act, or ``None``."""
    theft_now = view.card == THEFT and view.phase in (AUCTION, THEFT_CHOICE)
    if not theft_now:
        return Message(gettext_noop("A discard order is only for the Theft card, while it is up."))
    if order.discard == LOWEST:
        return None
    owned = [c for c in view.seats[view.seat].cards if c in LUXURY_VALUE]
    if order.discard in owned:
        return None
    if order.discard in LUXURY_VALUE:
        return Message(
            gettext_noop("You do not own %(card)s: choose one of your luxuries."),
            card=Card(order.discard),
        )
    return Message(  # the input itself is not echoed back
        gettext_noop('That is not a luxury: discard "lowest" or one of your luxuries, by its code.')
    )


# The problems that are about the order's maximum (the form marks that field).
NO_MAXIMUM = gettext_noop("Give the most your bid may total, in money.")
MAXIMUM_OVER_ALL = gettext_noop(
    "You have %(money)s in all, your bid included: an order can bid at most that."
)
MAXIMUM_TOO_LOW = gettext_noop(
    "A bid of at most %(maximum)s cannot beat the high bid of %(to_beat)s: "
    "the order could never bid."
)
MAXIMUM_UNREACHABLE = gettext_noop(
    "No set of your cards brings your bid above %(to_beat)s without going over %(maximum)s."
)
MAXIMUM_PROBLEMS = frozenset({NO_MAXIMUM, MAXIMUM_OVER_ALL, MAXIMUM_TOO_LOW, MAXIMUM_UNREACHABLE})


def order_problem(view: PlayerView, order: Order) -> str | None:
    """Why ``order`` could never act for the viewing seat (a sentence for its owner),
    or ``None``.  The caller has checked that the order is for the card up now."""
    seat = view.seat
    if seat is None:
        return Message(gettext_noop("Only a player at the table can leave orders."))
    me = view.seats[seat]
    if order.discard and (problem := _discard_problem(view, order)):
        return problem  # first: a discard named wrongly is named, whatever the rest
    if order.kind in ("pass", "bid"):
        if view.phase == SEALED:  # a choice made by all at once, not an auction
            if order.kind == "pass":
                return Message(
                    gettext_noop(
                        "You cannot order a pass now: the Yacht Club is auctioned by sealed choice."
                    )
                )
            return Message(
                gettext_noop(
                    "You cannot order a bid now: the Yacht Club is auctioned by sealed choice."
                )
            )
        if view.phase != AUCTION:
            return Message(gettext_noop("There is no auction to bid in now."))
        if me.passed:
            return Message(
                gettext_noop("You have passed in this auction: there is nothing left to order.")
            )
    if order.kind == "bid":
        if order.maximum is None or order.maximum <= 0:
            return Message(NO_MAXIMUM)
        hand = view.hand or ()
        if order.cards is not None:
            if not order.cards:
                return Message(
                    gettext_noop(
                        "Tick at least one card for the order to bid with, or allow them all."
                    )
                )
            twice = [c for c in set(order.cards) if order.cards.count(c) > 1]
            if twice:
                return Message(
                    gettext_noop("You listed the %(money)s card twice."), money=Money(max(twice))
                )
            missing = [c for c in order.cards if c not in hand]
            if missing:
                return Message(gettext_noop("You do not hold %(money)s."), money=Money(missing[0]))
        everything = me.bid_total + sum(hand)
        if order.maximum > everything:  # a slip of a zero would read as "no limit"
            return Message(MAXIMUM_OVER_ALL, money=Money(everything))
        usable = [c for c in hand if order.cards is None or c in order.cards]
        to_beat = _others_high(view)
        reach = me.bid_total + sum(usable)
        best = min(order.maximum, reach)
        if best <= to_beat:
            if reach <= to_beat:
                return Message(
                    gettext_noop(
                        "Your cards cannot beat the high bid of %(to_beat)s: the order could never bid."
                    ),
                    to_beat=Money(to_beat),
                )
            return Message(MAXIMUM_TOO_LOW, maximum=Money(order.maximum), to_beat=Money(to_beat))
        if not _reachable(me.bid_total, usable, to_beat, order.maximum):
            return Message(
                MAXIMUM_UNREACHABLE, to_beat=Money(to_beat), maximum=Money(order.maximum)
            )
    if order.kind == "seal":
        if view.phase != SEALED:
            return Message(gettext_noop("There is no Yacht Club auction now."))
        if view.legal is None or not view.legal.sealed_choices:
            return Message(gettext_noop("You have no Yacht Club choice to make."))
        if order.seal not in view.legal.sealed_choices:
            return Message(
                gettext_noop("Choose one of the money cards in your hand for the Yacht Club.")
            )
    return None


def defaults_problem(defaults: Defaults) -> str | None:
    """Why standing defaults could never act, or ``None``."""
    low, high = LUXURY_BELOW_RANGE
    if defaults.luxury_below is not None and not low <= defaults.luxury_below <= high:
        return Message(
            gettext_noop("Pass on luxuries below a value from %(low)s to %(high)s."),
            low=low,
            high=high,
        )
    if defaults.misfortune_max is not None and not 0 <= defaults.misfortune_max <= ALL_MONEY:
        return Message(
            gettext_noop("The most to pay against a misfortune is from 0 to %(most)s."),
            most=Money(ALL_MONEY),
        )
    return None


def _others_high(view: PlayerView) -> int:
    seat = view.seat
    return max((s.bid_total for s in view.seats if s.seat != seat), default=0)


def _reachable(current: int, usable: list[int], to_beat: int, maximum: int) -> bool:
    """Whether some set of ``usable`` cards brings ``current`` above ``to_beat`` at a
    total of at most ``maximum`` (the high bid only rises: if not now, never)."""
    added = cheapest_over(mask_of(tuple(usable)), to_beat - current)
    return bool(added) and current + MASK_SUM[added] <= maximum
