"""The heuristic players (random, easy, medium), working on masks, not action dicts.

Each policy is ``policy(state, seat, rng) -> Move`` and reads only what ``seat`` may see:
public fields, its own hand, everyone's money (public through the log), and the unseen
cards as a multiset (the full set minus the revealed ones), never their order nor others'
hidden Yacht Club choices.  ``choose_from_view`` hands them a state rebuilt from the view
with a placeholder deck order, and the search plays them inside determinised states.

A ``Move`` is a pair: ``(PASS, 0)``, ``(BID, added_mask)``, ``(DISCARD, card)`` or
``(SEAL, value)``; ``apply_move`` plays it with the engine's unchecked transitions.
"""

from __future__ import annotations

import math
import random
from typing import Any

from games.engine import rules
from games.engine.cards import (
    DEBT,
    GAMBLING,
    GAME_END_COUNT,
    LUXURY_VALUE,
    MASK_CARDS,
    MASK_SUM,
    MISFORTUNES,
    PRESTIGE,
    SCANDAL,
    THEFT,
    YACHT,
)
from games.engine.state import AUCTION, SEALED, THEFT_CHOICE, WAITING, State

from .bids import cheapest_over

FULL_MONEY = MASK_SUM[-1]

PASS, BID, DISCARD, SEAL = 0, 1, 2, 3
Move = tuple[int, Any]


def apply_move(state: State, seat: int, move: Move) -> State:
    """Play a legal move with the engine's unchecked transitions (no dicts, no checks)."""
    kind, arg = move
    if kind == BID:
        return rules.bid(state, seat, arg)
    if kind == PASS:
        return rules.pass_(state, seat)
    if kind == DISCARD:
        return rules.discard(state, seat, arg)
    return rules.seal(state, seat, arg)


def move_to_action(move: Move, seat: int) -> dict[str, Any]:
    """The engine's action dict for a move (docs/api.md)."""
    kind, arg = move
    if kind == BID:
        return {"seat": seat, "type": "bid", "cards": list(MASK_CARDS[arg])}
    if kind == PASS:
        return {"seat": seat, "type": "pass"}
    if kind == DISCARD:
        return {"seat": seat, "type": "discard", "card": arg}
    return {"seat": seat, "type": "sealed_bid", "card": arg}


def need_to_beat(state: State, seat: int) -> int:
    """The added cards must total more than this for a legal bid."""
    bids = state.bids
    high = 0
    for other, b in enumerate(bids):
        if other != seat and MASK_SUM[b] > high:
            high = MASK_SUM[b]
    return high - MASK_SUM[bids[seat]]


def lowest_luxury(owned: tuple[str, ...]) -> str:
    """The luxury a Theft should take: the lowest (keeping a higher one never hurts)."""
    return min((c for c in owned if c in LUXURY_VALUE), key=LUXURY_VALUE.__getitem__)


# --------------------------------------------------------------------------- random


def random_move(state: State, seat: int, rng: random.Random) -> Move:
    """Pass half the time, else a uniformly drawn legal bid; random Theft and Yacht choices.

    Passing gets half the weight: uniform over every action would almost never pass
    (one action against up to 2,047 bids), and such a player is gone after one round.
    """
    phase = state.phase
    if phase == AUCTION:
        hand = state.hands[seat]
        need = need_to_beat(state, seat)
        if MASK_SUM[hand] <= need or rng.random() < 0.5:
            return (PASS, 0)
        # Each card in or out with even odds is a uniform subset; keep the first legal one.
        for _ in range(64):
            mask = rng.getrandbits(11) & hand
            if MASK_SUM[mask] > need:
                return (BID, mask)
        return (BID, cheapest_over(hand, need))
    if phase == THEFT_CHOICE:
        luxuries = sorted(
            {c for c in state.owned[seat] if c in LUXURY_VALUE}, key=LUXURY_VALUE.__getitem__
        )
        return (DISCARD, rng.choice(luxuries))
    return (SEAL, rng.choice(MASK_CARDS[state.hands[seat]]))


# --------------------------------------------------------------------------- easy


def easy_move(state: State, seat: int, rng: random.Random) -> Move:
    """Fixed price lists: luxuries by face value, Prestige by what it doubles; dodge
    misfortunes cheaply; keep within reach of the poorest opponent late in the game."""
    phase = state.phase
    if phase == THEFT_CHOICE:
        return (DISCARD, lowest_luxury(state.owned[seat]))
    hand = state.hands[seat]
    if phase == SEALED:
        return (SEAL, MASK_CARDS[hand][0])
    need = need_to_beat(state, seat)
    if MASK_SUM[hand] <= need:
        return (PASS, 0)
    card = state.card
    owned = state.owned[seat]
    luxury = sum(LUXURY_VALUE.get(c, 0) for c in owned)
    if card in MISFORTUNES:
        if card == DEBT:
            limit = 3000
        elif card == THEFT:
            limit = 1000 + 1000 * LUXURY_VALUE[lowest_luxury(owned)] if luxury else 2000
        else:
            limit = 1000 + 600 * max(luxury, 0) * 2 ** owned.count(PRESTIGE)
    elif card == PRESTIGE:
        limit = 12000 + 1000 * luxury
    elif card == GAMBLING:
        limit = 8000
    else:
        limit = 1800 * LUXURY_VALUE[card]
    money = MASK_SUM[hand | state.bids[seat]]
    poorest = min(
        MASK_SUM[state.hands[o] | state.bids[o]] for o in range(state.players) if o != seat
    )
    floor = poorest - 24000 + 6000 * state.game_end_seen
    mask = cheapest_over(hand, need)
    total = MASK_SUM[state.bids[seat] | mask]
    if total <= limit and money - total >= floor:
        return (BID, mask)
    return (PASS, 0)


# --------------------------------------------------------------------------- medium


class Params:
    """Tunable weights of the medium heuristic (shared with the search's playouts)."""

    prior_price = 8000.0  # money paid per auction (by the whole table) before any is seen
    prior_rounds = 3.0  # weight of that prior, in auctions
    caution = 10.0  # exponent on one's own chance not to be cast out
    rate_factor = 0.8  # share of its pace so far that a seat keeps up
    spread_base = 3000.0  # uncertainty of final money gaps at the end...
    spread_factor = 0.3  # ... plus this many typical prices times sqrt(auctions to come)
    buffer_factor = 0.2  # money anyone may still spend, in typical prices per auction to come
    status_base = 2.0  # uncertainty of final statuses, at the end...
    status_future = 0.5  # ... plus this share of the points still to come
    gambling = 0.3  # Gambling is worth at most this share of one's money


DEFAULT = Params()


class Sharp(Params):
    """The weights the searching bots play their own seat with: the medium heuristic
    tuned by self-play (a hill climb over these weights, each step scored by 4,000
    games of one seat against three default ones; ``docs/benchmarks.md``).  It guards
    its money harder (``caution``), expects the others to keep spending at half their
    pace, and values Gambling more.  Against three default medium players it wins about
    half the games."""

    prior_rounds = 5.8
    caution = 23.5
    rate_factor = 0.49
    spread_base = 1870.0
    spread_factor = 0.156
    buffer_factor = 0.123
    status_base = 2.18
    gambling = 0.77


SHARP = Sharp()


def medium_move(
    state: State,
    seat: int,
    rng: random.Random,
    p: Params = DEFAULT,
    outlook: Outlook | None = None,
) -> Move:
    """One-step look-ahead on a static evaluation of the position.

    The evaluation (``Outlook``) estimates a seat's chance to win: the chance it is not
    the poorest at the end (its money against the others', each projected at the pace
    it has spent so far, the uncertainty shrinking as game-end cards come out) times the
    chance its projected status beats each opponent that survives.  Projected status
    counts the cards owned with their Prestige multiplier, Debt, Scandal and pending
    Theft, plus a share of the luxuries and Prestige still to come that grows with the
    money one has to spare, so money is worth both safety and future buying power.  The
    bot raises with the cheapest, most flexible card set that beats the high bid
    whenever winning the card at that total evaluates better than letting it go (in a
    misfortune auction: whenever losing that total to dodge the card beats taking it),
    and picks its Yacht Club card by its chance of being the highest unique value.
    ``outlook``: the evaluation of this round, when the caller keeps one (playouts).
    """
    phase = state.phase
    if phase == THEFT_CHOICE:
        return (DISCARD, lowest_luxury(state.owned[seat]))
    hand = state.hands[seat]
    o = outlook or Outlook(state, p)
    if phase == AUCTION:
        need = need_to_beat(state, seat)
        if MASK_SUM[hand] <= need:
            return (PASS, 0)
        mask = cheapest_over(hand, need)
        total = MASK_SUM[state.bids[seat] | mask]
        return (BID, mask) if _worth(o, seat, state.card, total, p) else (PASS, 0)
    return (SEAL, _yacht_choice(state, seat, o))


def _worth(o: Outlook, seat: int, card: str | None, total: int, p: Params) -> bool:
    """Whether winning ``card`` with a whole bid of ``total`` evaluates better than
    letting it go (for a misfortune: whether losing ``total`` beats taking it)."""
    if card in MISFORTUNES:
        return o.utility(seat, o.traits(seat, None), total) > o.baseline(seat, card)
    if card == GAMBLING:
        # Valued in money: a share of one's money, if one is richer than the poorest
        # opponent by that much (the evaluation overrates the safety it brings).
        return total <= min(o.real[seat] * p.gambling, o.spare(seat))
    return o.utility(seat, o.traits(seat, card), total) > o.baseline(seat, None)


def medium_limit(state: State, seat: int, card: str | None = None, p: Params = DEFAULT) -> int:
    """The most the medium heuristic would let its whole face-up bid total for ``card``
    (default: the card up for auction) in this round: a valuation a player may leave as
    a standing order ("bid up to …", "pay up to … to avoid it").  0: it would not bid.
    The evaluation does not change within a round, so this is the limit at which
    ``medium_move`` itself stops raising."""
    card = state.card if card is None else card
    o = Outlook(state, p)
    reach = MASK_SUM[state.hands[seat] | state.bids[seat]]
    best = 0
    for total in range(1000, reach + 1, 1000):
        if not _worth(o, seat, card, total, p):
            break
        best = total
    return best


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


class Outlook:
    """A static evaluation of one round's position, from public information only.

    Within an auction round nothing it reads changes (bids only move cards between a
    hand and the table), so playouts keep one per round.
    """

    __slots__ = (
        "n",
        "more",
        "fl",
        "fp",
        "avg_lux",
        "money",
        "real",
        "gambling",
        "final",
        "my_drain",
        "traits_of",
        "spread",
        "temp",
        "bias",
        "caution",
        "buffer",
        "low",
        "cache",
    )

    def __init__(self, state: State, p: Params = DEFAULT) -> None:
        unseen = state.setup_deck[state.deck_pos :]
        n = self.n = state.players
        ends = GAME_END_COUNT - state.game_end_seen
        left = len(unseen)
        if ends > 0:
            # The game ends when the last unseen game-end card shows: the cards before it
            # are auctioned.  E[position of the last of `ends` among `left`] = ends(left+1)/(ends+1).
            more = max(ends * (left + 1) / (ends + 1) - 1, 0.0)
            p_card = ends / (ends + 1)
            p_end = (ends - 1) / ends
        else:
            more, p_card, p_end = 0.0, 0.0, 0.0
        self.more = more
        lux_left = 0
        lux_count = 0
        pres_left = 0
        for c in unseen:
            v = LUXURY_VALUE.get(c)
            if v is not None:
                lux_left += v
                lux_count += 1
            elif c == PRESTIGE:
                pres_left += 1
        self.avg_lux = lux_left / lux_count if lux_count else 0.0
        self.fl = lux_left * p_card / n  # luxury points to come, per seat
        self.fp = pres_left * p_end / n  # Prestige cards to come, per seat
        hands, bids = state.hands, state.bids
        real = self.real = [MASK_SUM[hands[s] | bids[s]] for s in range(n)]
        gambling = self.gambling = [GAMBLING in owned for owned in state.owned]
        money = self.money = [m * 2 if g else m for m, g in zip(real, gambling, strict=True)]
        rounds = max(state.deck_pos - 1, 0)
        spent = n * FULL_MONEY - sum(real)
        price = (spent + p.prior_price * p.prior_rounds) / (rounds + p.prior_rounds)
        self.buffer = p.buffer_factor * price * more + 1000
        self.spread = p.spread_base + p.spread_factor * price * math.sqrt(more)
        self.temp = p.status_base + p.status_future * self.fl * (1 + self.fp)
        self.bias = math.log(n - 1)  # with equal money, each seat is the poorest one time in n
        self.caution = p.caution
        # Each seat's money at the end if it goes on at its pace so far (blended with a
        # prior): stingy opponents keep their money, so the poorest at the end too.  A
        # seat judging its own move assumes it will spend like the others from now on.
        drains = []
        for s in range(n):
            rate = (FULL_MONEY - real[s] + p.prior_price / n * p.prior_rounds) / (
                rounds + p.prior_rounds
            )
            drains.append(rate * more * p.rate_factor * (2 if gambling[s] else 1))
        self.final = [m - d for m, d in zip(money, drains, strict=True)]
        total_drain = sum(drains)
        self.my_drain = [(total_drain - d) / (n - 1) for d in drains]
        self.low = []
        self.traits_of = []
        for owned in state.owned:
            lux = 0
            low = 0
            for c in owned:
                v = LUXURY_VALUE.get(c)
                if v is not None:
                    lux += v
                    if not low or v < low:
                        low = v
            self.low.append(low)
            mult = 2 ** owned.count(PRESTIGE) * (0.5 if SCANDAL in owned else 1.0)
            self.traits_of.append((lux - (5 if DEBT in owned else 0), mult, THEFT in owned))
        self.cache: dict[tuple[int, str | None], float] = {}

    def traits(self, s: int, card: str | None) -> tuple[float, float, bool]:
        """(luxury points net of Debt, multiplier, Theft pending) if ``s`` gets ``card``."""
        base, mult, theft = self.traits_of[s]
        if card is None:
            return base, mult, theft
        v = LUXURY_VALUE.get(card)
        if v is not None:
            if theft:
                return base, mult, False  # the pending Theft takes this card and is gone
            return base + v, mult, theft
        if card == PRESTIGE:
            return base, mult * 2, theft
        if card == SCANDAL:
            return base, mult * 0.5, theft
        if card == DEBT:
            return base - 5, mult, theft
        if card == THEFT:
            if self.low[s]:
                return base - self.low[s], mult, theft
            return base, mult, True
        return base, mult, theft

    def baseline(self, seat: int, card: str | None) -> float:
        """The utility of getting ``card`` (``None``: nothing) for free, kept per round."""
        key = (seat, card)
        value = self.cache.get(key)
        if value is None:
            value = self.cache[key] = self.utility(seat, self.traits(seat, card), 0)
        return value

    def utility(self, seat: int, traits: tuple[float, float, bool], pay: float) -> float:
        """A chance-like score that ``seat`` wins with ``traits`` after paying ``pay``.

        Money counts twice: the poorest at the end is cast out, and the cards to come
        go to those with money to spare (above the poorest, plus what anyone may still
        spend).
        """
        n = self.n
        money = self.real[:]  # buying power: the cards themselves
        mine = money[seat] = money[seat] - pay
        if self.gambling[seat]:
            mine *= 2  # what counts at the end
        final = self.final[:]
        final[seat] = mine - self.my_drain[seat]
        low1 = low2 = float("inf")
        lowest = -1
        for s in range(n):
            f = final[s]
            if f < low1:
                low1, low2, lowest = f, low1, s
            elif f < low2:
                low2 = f
        floor = min(money) - self.buffer
        spare_share = n / (sum(money) - n * floor)
        spread, bias, temp = self.spread, self.bias, self.temp
        fl, fp, avg = self.fl, self.fp, self.avg_lux
        win = 1.0
        mine_status = 0.0
        others = []
        for s in range(n):
            survive = _sigmoid((final[s] - (low2 if s == lowest else low1)) / spread + bias)
            share = (money[s] - floor) * spare_share
            base, mult, theft = traits if s == seat else self.traits_of[s]
            future = fl * share
            if theft:
                base -= avg if avg < future else future
            status = (base + future) * mult * (1 + fp * share)
            if s == seat:
                win = survive**self.caution
                mine_status = status
            else:
                others.append((survive, status))
        for survive, status in others:
            win *= 1 - survive * _sigmoid((status - mine_status) / temp)
        return win

    def spare(self, seat: int) -> float:
        """Money above the poorest opponent's, in real cards."""
        poorest = min(m for s, m in enumerate(self.money) if s != seat)
        spare = self.money[seat] - poorest
        return spare / 2 if self.gambling[seat] else spare


def _yacht_choice(state: State, seat: int, o: Outlook) -> int:
    """The card for the Yacht Club: chance to be the highest unique value, weighed by
    how the position evaluates with and without the Yacht Club after giving the card up
    (every choice is discarded, the winner's too)."""
    cards = MASK_CARDS[state.hands[seat]]
    # Others: each plays its lowest card with 40% chance, else any card evenly.
    dists = []
    for other in range(state.players):
        if other != seat and state.sealed[other] != -1:
            other_cards = MASK_CARDS[state.hands[other]]
            even = 0.6 / len(other_cards)
            dist = dict.fromkeys(other_cards, even)
            dist[other_cards[0]] += 0.4
            dists.append(dist)
    values = sorted({v for d in dists for v in d} | set(cards), reverse=True)
    unique_above = 1.0  # chance that no value above the current one is unique among others
    chances: dict[int, float] = {}
    for value in values:
        qs = [d.get(value, 0.0) for d in dists]
        nobody = 1.0
        for q in qs:
            nobody *= 1 - q
        if value in cards:
            chances[value] = nobody * unique_above
        one = 0.0
        for i, q in enumerate(qs):
            if q:
                rest = q
                for j, r in enumerate(qs):
                    if j != i:
                        rest *= 1 - r
                one += rest
        unique_above *= 1 - one
    with_yacht = o.traits(seat, YACHT)
    without = o.traits(seat, None)
    best = cards[0]
    best_score = float("-inf")
    for value in cards:
        chance = chances[value]
        score = chance * o.utility(seat, with_yacht, value) + (1 - chance) * o.utility(
            seat, without, value
        )
        if score > best_score:
            best, best_score = value, score
    return best


POLICIES = {"random": random_move, "easy": easy_move, "medium": medium_move}


def play_policy(
    state: State,
    rng: random.Random,
    policy: Any = None,
    p: Params = DEFAULT,
    weights: tuple[Params, ...] | None = None,
) -> State:
    """Play ``state`` to the end with ``policy`` for every seat (default: medium with the
    weights ``p``, keeping one evaluation per round and weights, as the search's
    playouts do); ``weights``: each seat's own medium weights instead."""
    outlooks: dict[Params, Outlook] = {}
    outlook_pos = -1
    while True:
        phase = state.phase
        if phase == AUCTION or phase == THEFT_CHOICE:
            seat = state.turn
        elif phase == SEALED:
            seat = state.sealed.index(WAITING)
        else:
            return state
        if policy is None:
            mine = p if weights is None else weights[seat]
            outlook = None
            if phase != THEFT_CHOICE:
                if state.deck_pos != outlook_pos:
                    outlooks = {}
                    outlook_pos = state.deck_pos
                outlook = outlooks.get(mine)
                if outlook is None:
                    outlook = outlooks[mine] = Outlook(state, mine)
            move = medium_move(state, seat, rng, mine, outlook)
        else:
            move = policy(state, seat, rng)
        state = apply_move(state, seat, move)
