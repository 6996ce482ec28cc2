"""The rules of High Society as docs/rules.md states them: set-up, legality and transitions.

``apply_action`` validates an action dict and returns a new ``State``; the old one stays
usable.  Validation and ``legal_actions`` share the same predicates, and every refusal
is an ``IllegalAction`` whose message a player can read.  The engine never plays an
action by itself: ``forced_action`` tells the caller when passing is the only choice.
"""

from __future__ import annotations

import random
import secrets
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from typing import Any

from .cards import (
    ADVANCED_CARDS,
    BID_ORDER,
    BID_ORDER_SUMS,
    BIT,
    EXCURSIONS,
    FULL_HAND,
    GAME_END_CARDS,
    GAME_END_COUNT,
    LUXURY_VALUE,
    MASK_CARDS,
    MASK_SUM,
    MASK_TOP,
    MISFORTUNES,
    MONEY,
    THEFT,
    YACHT,
    deck_cards,
    money_text,
    same_cards,
)
from .messages import Card, Message, Money, gettext_noop
from .state import AUCTION, NOT_BIDDING, OVER, SEALED, THEFT_CHOICE, WAITING, State

MIN_PLAYERS = 3
MAX_PLAYERS = 5
ACTION_TYPES = ("bid", "pass", "discard", "sealed_bid")


class IllegalAction(ValueError):
    """An action that the rules do not allow now; the message is meant for the player:
    ``args[0]`` is a ``messages.Message``, English as ``str`` and translatable."""


# --------------------------------------------------------------------------- set-up


def new_game(
    players: int = 4,
    seed: int | str | None = None,
    deck: Sequence[str] | None = None,
    first_player: int | None = None,
    advanced: Iterable[str] = (),
) -> State:
    """Set up a game (docs/rules.md, "Setup") and reveal the first card.

    ``deck`` is used as given, top card first, and must hold exactly the cards of the
    chosen set.  Without it the deck is shuffled by the operating system's secure
    generator, or by ``random.Random(seed)`` when a seed is given (reproducible bot
    runs; never for real games).  ``first_player`` ``None`` draws one the same way.
    """
    if isinstance(players, bool) or not isinstance(players, int):
        raise ValueError("The number of players must be a whole number from 3 to 5.")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"High Society is played by 3 to 5 players, not {players}.")
    advanced = tuple(advanced)
    unknown = [a for a in advanced if a not in ADVANCED_CARDS]
    if unknown:
        raise ValueError(
            f"Unknown advanced card {unknown[0]!r}; choose from {', '.join(ADVANCED_CARDS)}."
        )
    if len(set(advanced)) != len(advanced):
        raise ValueError("Each advanced card can be added once.")
    advanced = tuple(a for a in ADVANCED_CARDS if a in advanced)
    cards = deck_cards(advanced)
    rng: random.Random = random.Random(seed) if seed is not None else secrets.SystemRandom()
    if deck is None:
        order = list(cards)
        rng.shuffle(order)
    else:
        order = list(deck)
        if not same_cards(order, cards):
            raise ValueError("The deck must hold exactly the cards of the chosen set.")
    if first_player is None:
        first_player = rng.randrange(players)
    elif (
        isinstance(first_player, bool)
        or not isinstance(first_player, int)
        or not 0 <= first_player < players
    ):
        raise ValueError(f"The first player must be a seat from 0 to {players - 1}.")
    state = State(
        players=players,
        advanced=advanced,
        setup_deck=tuple(order),
        first_player=first_player,
        deck_pos=0,
        hands=(FULL_HAND,) * players,
        bids=(0,) * players,
        discards=(0,) * players,
        owned=((),) * players,
        removed=(),
        phase=AUCTION,
        card=None,
        leader=first_player,
        turn=first_player,
        passed=0,
        sealed=(NOT_BIDDING,) * players,
        game_end_seen=0,
        moves=0,
        events=(),
    )
    work = _Work(state)
    work.start_round(first_player)
    return work.freeze(moves=0)


# --------------------------------------------------------------------------- queries


def is_misfortune_auction(state: State) -> bool:
    return state.phase == AUCTION and state.card in MISFORTUNES


def seats_to_act(state: State) -> list[int]:
    """The seats that may act now (several only in the sealed Yacht Club auction)."""
    return seats_to_act_in(state.phase, state.turn, state.sealed)


def seats_to_act_in(phase: str, turn: int | None, sealed: Sequence[int] | None) -> list[int]:
    """``seats_to_act`` from the three fields of a state it reads, for lists that read
    only those fields of each stored state (``State.to_json`` names them alike)."""
    if phase == SEALED:
        return [seat for seat, choice in enumerate(sealed or ()) if choice == WAITING]
    if phase in (AUCTION, THEFT_CHOICE) and turn is not None:
        return [turn]
    return []


def high_bid(state: State, excluding: int | None = None) -> int:
    """The highest face-up bid total (of the other players when ``excluding`` is given)."""
    return max((MASK_SUM[b] for seat, b in enumerate(state.bids) if seat != excluding), default=0)


def can_bid(state: State, seat: int) -> bool:
    """Whether ``seat`` holds any set of cards that would make a legal bid now."""
    return MASK_SUM[state.bids[seat] | state.hands[seat]] > high_bid(state, seat)


def forced_action(state: State) -> dict[str, Any] | None:
    """The pass that the server must play at once when it is the only legal action."""
    if state.phase == AUCTION and not can_bid(state, state.turn):
        return {"seat": state.turn, "type": "pass"}
    return None


def legal_actions(state: State) -> list[dict[str, Any]]:
    """Every legal action of every seat that may act now, in a fixed order.

    Per seat: pass first, then every distinct set of hand cards that makes a legal bid,
    ordered by the cards' total and then the cards; Theft choices and Yacht Club
    choices by value.
    """
    phase = state.phase
    if phase == AUCTION:
        seat = state.turn
        hand = state.hands[seat]
        actions: list[dict[str, Any]] = [{"seat": seat, "type": "pass"}]
        need = high_bid(state, seat) - MASK_SUM[state.bids[seat]]  # added cards must exceed this
        not_hand = ~hand
        for i in range(bisect_right(BID_ORDER_SUMS, need), len(BID_ORDER)):
            mask = BID_ORDER[i]
            if not mask & not_hand:
                actions.append({"seat": seat, "type": "bid", "cards": list(MASK_CARDS[mask])})
        return actions
    if phase == THEFT_CHOICE:
        seat = state.turn
        choices = sorted(
            (c for c in set(state.owned[seat]) if c in LUXURY_VALUE), key=LUXURY_VALUE.__getitem__
        )
        return [{"seat": seat, "type": "discard", "card": c} for c in choices]
    if phase == SEALED:
        return [
            {"seat": seat, "type": "sealed_bid", "card": value}
            for seat, choice in enumerate(state.sealed)
            if choice == WAITING
            for value in MASK_CARDS[state.hands[seat]]
        ]
    return []


# --------------------------------------------------------------------------- actions


def apply_action(state: State, action: dict[str, Any]) -> State:
    """Apply one action dict (docs/api.md) and return the new state, or raise ``IllegalAction``."""
    if not isinstance(action, dict):
        raise IllegalAction(
            Message(gettext_noop("An action must be an object with a seat and a type."))
        )
    seat = action.get("seat")
    kind = action.get("type")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players:
        raise IllegalAction(
            Message(
                gettext_noop("The seat must be a number from 0 to %(last)s."),
                last=state.players - 1,
            )
        )
    if kind not in ACTION_TYPES:
        raise IllegalAction(
            Message(
                gettext_noop("Unknown action type %(kind)s; use one of %(types)s."),
                kind=repr(str(kind)[:40]),
                types=", ".join(ACTION_TYPES),
            )
        )
    if state.phase == OVER:
        raise IllegalAction(Message(gettext_noop("The game is over.")))
    if kind == "bid":
        _check_turn(state, seat, "bid")
        cards = action.get("cards")
        problem = bid_problem(
            MASK_CARDS[state.hands[seat]], MASK_SUM[state.bids[seat]], high_bid(state, seat), cards
        )
        if problem is not None:
            raise IllegalAction(problem)
        return bid(state, seat, _cards_mask(cards))
    if kind == "pass":
        _check_turn(state, seat, "pass")
        return pass_(state, seat)
    if kind == "discard":
        if state.phase != THEFT_CHOICE or state.turn != seat:
            raise IllegalAction(Message(gettext_noop("There is no Theft for you to resolve now.")))
        card = action.get("card")
        if not isinstance(card, str) or card not in LUXURY_VALUE:
            raise IllegalAction(
                Message(gettext_noop("Choose one of your own luxury cards for Theft to remove."))
            )
        if card not in state.owned[seat]:
            raise IllegalAction(
                Message(
                    gettext_noop("You do not own %(card)s; choose one of your own luxury cards."),
                    card=Card(card),
                )
            )
        return discard(state, seat, card)
    # sealed_bid
    if state.phase != SEALED:
        raise IllegalAction(Message(gettext_noop("There is no Yacht Club auction now.")))
    choice = state.sealed[seat]
    if choice == NOT_BIDDING:
        raise IllegalAction(
            Message(gettext_noop("You have no money and take no part in this Yacht Club auction."))
        )
    if choice != WAITING:
        raise IllegalAction(
            Message(gettext_noop("You have already chosen your card for the Yacht Club."))
        )
    value = action.get("card")
    if isinstance(value, bool) or not isinstance(value, int) or value not in BIT:
        raise IllegalAction(
            Message(
                gettext_noop("Choose exactly one money card from your hand for the Yacht Club.")
            )
        )
    if not state.hands[seat] & BIT[value]:
        raise IllegalAction(
            Message(gettext_noop("You do not hold the %(money)s card."), money=Money(value))
        )
    return seal(state, seat, value)


def _check_turn(state: State, seat: int, verb: str) -> None:
    if state.phase == THEFT_CHOICE:
        raise IllegalAction(
            Message(
                gettext_noop(
                    "You cannot bid now: Theft's owner must first choose a luxury to remove."
                )
            )
            if verb == "bid"
            else Message(
                gettext_noop(
                    "You cannot pass now: Theft's owner must first choose a luxury to remove."
                )
            )
        )
    if state.phase == SEALED:
        raise IllegalAction(
            Message(
                gettext_noop("You cannot bid now: the Yacht Club is auctioned by sealed choice.")
            )
            if verb == "bid"
            else Message(
                gettext_noop("You cannot pass now: the Yacht Club is auctioned by sealed choice.")
            )
        )
    if state.passed >> seat & 1:
        raise IllegalAction(Message(gettext_noop("You have already passed this round.")))
    if state.turn != seat:
        raise IllegalAction(Message(gettext_noop("It is not your turn.")))


def bid_problem(hand: Iterable[int], current: int, to_beat: int, cards: Any) -> str | None:
    """Why adding ``cards`` to a face-up bid worth ``current`` is refused for a seat
    holding ``hand`` when the bid to beat is ``to_beat``; ``None`` when it is allowed.
    The one place of these checks: ``apply_action`` and the board's preview of a bid
    (from a ``LegalSummary``) both use it."""
    if not isinstance(cards, list) or not cards:
        return Message(gettext_noop("Choose at least one money card to bid."))
    held, seen, total = set(hand), set(), current
    for value in cards:
        if isinstance(value, bool) or not isinstance(value, int) or value not in BIT:
            if isinstance(value, int) and not isinstance(value, bool):
                return Message(
                    gettext_noop("%(money)s is not a money card; the cards are %(cards)s."),
                    money=Money(value),
                    cards=", ".join(map(money_text, MONEY)),
                )
            return Message(
                gettext_noop("%(value)s is not a money card; the cards are %(cards)s."),
                value=repr(value)[:20],
                cards=", ".join(map(money_text, MONEY)),
            )
        if value in seen:
            return Message(gettext_noop("You listed the %(money)s card twice."), money=Money(value))
        if value not in held:
            return Message(gettext_noop("You do not hold the %(money)s card."), money=Money(value))
        seen.add(value)
        total += value
    if total <= to_beat:
        return Message(
            gettext_noop("Your bid must total more than %(to_beat)s; yours would be %(total)s."),
            to_beat=Money(to_beat),
            total=Money(total),
        )
    return None


def _cards_mask(cards: list[int]) -> int:
    """The bitmask of money cards already checked by ``bid_problem``."""
    mask = 0
    for value in cards:
        mask |= BIT[value]
    return mask


# Unchecked transitions: the caller guarantees legality (``apply_action`` checks, bots
# and playouts build legal moves directly).  Each returns a new state.


def bid(state: State, seat: int, mask: int) -> State:
    work = _Work(state)
    work.bids[seat] |= mask
    work.hands[seat] &= ~mask
    work.events.append(("bid", seat, MASK_CARDS[mask], MASK_SUM[work.bids[seat]]))
    work.turn = work.next_active(seat)
    return work.freeze()


def pass_(state: State, seat: int) -> State:
    work = _Work(state)
    work.events.append(("pass", seat))
    if state.card in MISFORTUNES:
        # The first to pass takes the misfortune and keeps their money; the others pay.
        work.hands[seat] |= work.bids[seat]
        work.bids[seat] = 0
        payments = []
        for other in range(state.players):
            if work.bids[other]:
                payments.append((other, MASK_CARDS[work.bids[other]]))
                work.discards[other] |= work.bids[other]
                work.bids[other] = 0
        work.events.append(("take", seat, state.card, tuple(payments)))
        work.claim(seat, state.card)
        return work.freeze()
    work.hands[seat] |= work.bids[seat]
    work.bids[seat] = 0
    work.passed |= 1 << seat
    remaining = [s for s in range(state.players) if not work.passed >> s & 1]
    if len(remaining) == 1:
        winner = remaining[0]
        paid = work.bids[winner]
        work.discards[winner] |= paid
        work.bids[winner] = 0
        work.events.append(("win", winner, state.card, MASK_CARDS[paid]))
        work.claim(winner, state.card)
    else:
        work.turn = work.next_active(seat)
    return work.freeze()


def discard(state: State, seat: int, card: str) -> State:
    work = _Work(state)
    owned = list(work.owned[seat])
    owned.remove(card)
    owned.remove(THEFT)
    work.owned[seat] = tuple(owned)
    work.removed.extend((THEFT, card))
    work.events.append(("theft", seat, card, False))
    work.start_round(seat)
    return work.freeze()


def seal(state: State, seat: int, value: int) -> State:
    work = _Work(state)
    work.sealed[seat] = value
    if WAITING not in work.sealed:
        work.reveal_sealed()
    return work.freeze()


class _Work:
    """A mutable scratch copy of a state for one transition."""

    __slots__ = (
        "s",
        "deck_pos",
        "hands",
        "bids",
        "discards",
        "owned",
        "removed",
        "phase",
        "card",
        "leader",
        "turn",
        "passed",
        "sealed",
        "game_end_seen",
        "events",
    )

    def __init__(self, s: State) -> None:
        self.s = s
        self.deck_pos = s.deck_pos
        self.hands = list(s.hands)
        self.bids = list(s.bids)
        self.discards = list(s.discards)
        self.owned = list(s.owned)
        self.removed = list(s.removed)
        self.phase = s.phase
        self.card = s.card
        self.leader = s.leader
        self.turn = s.turn
        self.passed = s.passed
        self.sealed = list(s.sealed)
        self.game_end_seen = s.game_end_seen
        self.events: list[tuple[Any, ...]] = []

    def freeze(self, moves: int | None = None) -> State:
        s = self.s
        return State(
            s.players,
            s.advanced,
            s.setup_deck,
            s.first_player,
            self.deck_pos,
            tuple(self.hands),
            tuple(self.bids),
            tuple(self.discards),
            tuple(self.owned),
            tuple(self.removed),
            self.phase,
            self.card,
            self.leader,
            self.turn,
            self.passed,
            tuple(self.sealed),
            self.game_end_seen,
            s.moves + 1 if moves is None else moves,
            s.events + tuple(self.events),
        )

    def next_active(self, seat: int) -> int:
        n = self.s.players
        for step in range(1, n):
            other = (seat + step) % n
            if not self.passed >> other & 1:
                return other
        return seat

    def claim(self, seat: int, card: str) -> None:
        """Give ``card`` to ``seat`` with its immediate effects, then go on (docs/rules.md)."""
        if card == EXCURSIONS:
            for other in range(self.s.players):
                top = MASK_TOP[self.discards[other]]
                if other != seat and top:
                    self.discards[other] &= ~top
                    self.hands[other] |= top
                    self.events.append(("return", other, MASK_SUM[top]))
        owned = self.owned[seat]
        if card in LUXURY_VALUE and THEFT in owned:
            # A pending Theft takes this luxury at once, with no choice.
            pending = list(owned)
            pending.remove(THEFT)
            self.owned[seat] = tuple(pending)
            self.removed.extend((THEFT, card))
            self.events.append(("theft", seat, card, True))
        elif card == THEFT and any(c in LUXURY_VALUE for c in owned):
            self.owned[seat] = (*owned, THEFT)
            self.phase = THEFT_CHOICE
            self.card = None
            self.turn = seat
            self.passed = 0
            return
        else:
            self.owned[seat] = (*owned, card)
        self.start_round(seat)

    def start_round(self, leader: int) -> None:
        """The leader reveals the top card; the fourth game-end card ends the game."""
        setup_deck = self.s.setup_deck
        while True:
            card = setup_deck[self.deck_pos]
            self.deck_pos += 1
            self.events.append(("reveal", leader, card))
            self.leader = leader
            self.passed = 0
            if card in GAME_END_CARDS:
                self.game_end_seen += 1
                if self.game_end_seen == GAME_END_COUNT:
                    self.phase = OVER
                    self.card = None
                    self.turn = -1
                    self.events.append(("end", card))
                    return
            if card == YACHT:
                self.sealed = [WAITING if hand else NOT_BIDDING for hand in self.hands]
                if WAITING not in self.sealed:
                    # Nobody can bid: the Yacht Club leaves the game, the same leader goes on.
                    self.sealed = [NOT_BIDDING] * self.s.players
                    self.removed.append(YACHT)
                    self.events.append(("sealed", (), -1))
                    continue
                self.phase = SEALED
                self.card = YACHT
                self.turn = -1
                return
            self.phase = AUCTION
            self.card = card
            self.turn = leader
            return

    def reveal_sealed(self) -> None:
        """All choices are in: the highest value chosen by exactly one player wins."""
        choices = [(seat, v) for seat, v in enumerate(self.sealed) if v > 0]
        counts: dict[int, int] = {}
        for seat, value in choices:
            counts[value] = counts.get(value, 0) + 1
            self.hands[seat] &= ~BIT[value]
            self.discards[seat] |= BIT[value]
        unique = [value for value, count in counts.items() if count == 1]
        self.sealed = [NOT_BIDDING] * self.s.players
        if unique:
            best = max(unique)
            winner = next(seat for seat, value in choices if value == best)
            self.events.append(("sealed", tuple(choices), winner))
            self.claim(winner, YACHT)
        else:
            self.removed.append(YACHT)
            self.events.append(("sealed", tuple(choices), -1))
            self.start_round(self.leader)


def random_action(
    state: State, rng: random.Random, pass_chance: float = 0.5
) -> dict[str, Any] | None:
    """A uniformly cheap random legal action, without listing every bid (for playouts).

    In an auction: pass with ``pass_chance`` (always when no bid is possible), else a
    random legal set of hand cards.  ``None`` once the game is over.
    """
    phase = state.phase
    if phase == AUCTION:
        seat = state.turn
        if not can_bid(state, seat) or rng.random() < pass_chance:
            return {"seat": seat, "type": "pass"}
        hand = state.hands[seat]
        need = high_bid(state, seat) - MASK_SUM[state.bids[seat]]
        for _ in range(8):
            mask = rng.getrandbits(11) & hand
            if MASK_SUM[mask] > need:
                return {"seat": seat, "type": "bid", "cards": list(MASK_CARDS[mask])}
        # Few subsets are enough: add the hand's cards from the highest down until it is.
        mask = 0
        for value in reversed(MASK_CARDS[hand]):
            mask |= BIT[value]
            if MASK_SUM[mask] > need:
                break
        return {"seat": seat, "type": "bid", "cards": list(MASK_CARDS[mask])}
    if phase == THEFT_CHOICE:
        choices = [c for c in state.owned[state.turn] if c in LUXURY_VALUE]
        return {"seat": state.turn, "type": "discard", "card": rng.choice(choices)}
    if phase == SEALED:
        seat = rng.choice([s for s, choice in enumerate(state.sealed) if choice == WAITING])
        return {
            "seat": seat,
            "type": "sealed_bid",
            "card": rng.choice(MASK_CARDS[state.hands[seat]]),
        }
    return None
