"""Redaction: what one seat (or a spectator) may see (docs/rules.md, "What each
player may see").

``player_view`` is the only form of a game that leaves the server: pages, the API,
e-mails and bots all receive it, as a frozen ``PlayerView`` (``to_json()`` gives the
JSON form the API sends and the bots read).  It never holds the deck order, the set-up
deck or a Yacht Club choice before all choices are in.  It also says what the viewing
seat may do now (``legal``, a summary: an opening bid alone has 2,047 card sets), so
pages, the API and e-mails never work out bid legality themselves.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .cards import GAME_END_CARDS, LUXURY_VALUE, MASK_CARDS, MASK_SUM, MISFORTUNES, MONEY, THEFT
from .rules import can_bid, high_bid, seats_to_act
from .scoring import result
from .state import AUCTION, NOT_BIDDING, OVER, SEALED, THEFT_CHOICE, WAITING, State


def auction_kind(state: State) -> str | None:
    """``normal``, ``misfortune`` or ``sealed`` for the running auction, else ``None``."""
    if state.phase == SEALED:
        return "sealed"
    if state.phase == AUCTION:
        return "misfortune" if state.card in MISFORTUNES else "normal"
    return None


def event_json(event: tuple[Any, ...]) -> dict[str, Any]:
    """One public log entry as a JSON-ready dict."""
    kind = event[0]
    if kind == "reveal":
        return {"type": "reveal", "seat": event[1], "card": event[2]}
    if kind == "bid":
        return {"type": "bid", "seat": event[1], "cards": list(event[2]), "total": event[3]}
    if kind == "pass":
        return {"type": "pass", "seat": event[1]}
    if kind == "win":
        return {"type": "win", "seat": event[1], "card": event[2], "paid": list(event[3])}
    if kind == "take":
        return {
            "type": "take",
            "seat": event[1],
            "card": event[2],
            "payments": [{"seat": s, "cards": list(c)} for s, c in event[3]],
        }
    if kind == "return":
        return {"type": "return", "seat": event[1], "card": event[2]}
    if kind == "theft":
        return {"type": "theft", "seat": event[1], "card": event[2], "automatic": event[3]}
    if kind == "sealed":
        return {
            "type": "sealed",
            "choices": [{"seat": s, "card": v} for s, v in event[1]],
            "winner": None if event[2] < 0 else event[2],
        }
    if kind == "end":
        return {"type": "end", "card": event[1]}
    raise ValueError(f"Unknown event {kind!r}.")


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat as the viewer may see it.  ``hand``, ``money`` and ``discards`` only for
    the viewer's own seat, or for every seat with the memory aid (public anyway: every
    bid is face up)."""

    seat: int
    cards: tuple[str, ...]
    theft_pending: bool
    bid: tuple[int, ...]
    bid_total: int
    passed: bool
    hand_count: int
    sealed: str | None  # "waiting" / "chosen" during the Yacht Club's choices
    hand: tuple[int, ...] | None = None
    money: int | None = None
    discards: tuple[int, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        row: dict[str, Any] = {
            "seat": self.seat,
            "cards": list(self.cards),
            "theft_pending": self.theft_pending,
            "bid": list(self.bid),
            "bid_total": self.bid_total,
            "passed": self.passed,
            "hand_count": self.hand_count,
            "sealed": self.sealed,
        }
        if self.hand is not None:
            row["hand"] = list(self.hand)
            row["money"] = self.money
            row["discards"] = list(self.discards or ())
        return row


@dataclass(frozen=True, slots=True)
class LegalSummary:
    """What the viewing seat may do now.  ``to_beat``: the amount the seat's whole
    face-up bid must exceed; ``current_bid``: what it has out already."""

    can_pass: bool = False
    can_bid: bool = False
    to_beat: int = 0
    current_bid: int = 0
    hand: tuple[int, ...] = ()
    discard_choices: tuple[str, ...] = ()
    sealed_choices: tuple[int, ...] = ()

    @property
    def types(self) -> tuple[str, ...]:
        """The action types open to the seat, as the API names them."""
        return tuple(
            kind
            for kind, open_ in (
                ("bid", self.can_bid),
                ("pass", self.can_pass),
                ("discard", bool(self.discard_choices)),
                ("sealed_bid", bool(self.sealed_choices)),
            )
            if open_
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "can_pass": self.can_pass,
            "can_bid": self.can_bid,
            "to_beat": self.to_beat,
            "current_bid": self.current_bid,
            "hand": list(self.hand),
            "discard_choices": list(self.discard_choices),
            "sealed_choices": list(self.sealed_choices),
        }


def legal_summary(state: State, seat: int) -> LegalSummary | None:
    """What ``seat`` may do now, or ``None`` when it is not to act."""
    if seat not in seats_to_act(state):
        return None
    hand = tuple(value for i, value in enumerate(MONEY) if state.hands[seat] >> i & 1)
    if state.phase == AUCTION:
        current = sum(value for i, value in enumerate(MONEY) if state.bids[seat] >> i & 1)
        return LegalSummary(
            can_pass=True,
            can_bid=can_bid(state, seat),
            to_beat=high_bid(state, seat),
            current_bid=current,
            hand=hand,
        )
    if state.phase == THEFT_CHOICE:
        choices = sorted(
            {card for card in state.owned[seat] if card in LUXURY_VALUE},
            key=LUXURY_VALUE.__getitem__,
        )
        return LegalSummary(hand=hand, discard_choices=tuple(choices))
    if state.phase == SEALED:
        return LegalSummary(hand=hand, sealed_choices=hand)
    return LegalSummary(hand=hand)


@dataclass(frozen=True, slots=True)
class PlayerView:
    """Everything ``seat`` (``None``: a spectator) may see of a game."""

    players: int
    seat: int | None
    memory_aid: bool
    advanced: tuple[str, ...]
    phase: str
    card: str | None
    auction: str | None  # "normal", "misfortune", "sealed" or None
    leader: int | None
    first_player: int
    turn: int | None
    to_act: tuple[int, ...]
    high_bid: int
    deck_remaining: int
    game_end_revealed: int
    game_end_total: int
    revealed: tuple[str, ...]
    game_end_cards: tuple[str, ...]
    removed: tuple[str, ...]
    seats: tuple[SeatView, ...]
    hand: tuple[int, ...] | None
    discards: tuple[int, ...] | None
    sealed_choice: int | None
    moves: int
    log: tuple[dict[str, Any], ...] = field(repr=False)
    result: dict[str, Any] | None
    legal: LegalSummary | None  # what the viewing seat may do now (None: nothing)

    def to_json(self) -> dict[str, Any]:
        """The JSON form (the API's game view, what the bots read)."""
        return {
            "players": self.players,
            "seat": self.seat,
            "memory_aid": self.memory_aid,
            "advanced": list(self.advanced),
            "phase": self.phase,
            "card": self.card,
            "auction": self.auction,
            "leader": self.leader,
            "first_player": self.first_player,
            "turn": self.turn,
            "to_act": list(self.to_act),
            "high_bid": self.high_bid,
            "deck_remaining": self.deck_remaining,
            "game_end_revealed": self.game_end_revealed,
            "game_end_total": self.game_end_total,
            "revealed": list(self.revealed),
            "game_end_cards": list(self.game_end_cards),
            "removed": list(self.removed),
            "seats": [row.to_json() for row in self.seats],
            "hand": list(self.hand) if self.hand is not None else None,
            "discards": list(self.discards) if self.discards is not None else None,
            "sealed_choice": self.sealed_choice,
            "moves": self.moves,
            "log": [dict(entry) for entry in self.log],
            "result": self.result,
        }


def player_view(state: State, seat: int | None, memory_aid: bool = False) -> PlayerView:
    """The view of ``seat`` (``None``: a spectator).

    Public: revealed cards and owners, pending Theft, face-up bids, who passed, hand
    sizes, cards left, game-end cards seen, the log.  Own only: hand, discard pile, own
    sealed choice, what the seat may do now.  ``memory_aid`` also shows every player's
    remaining money cards and discards, which anyone could work out from the public log
    (all bids are face up).
    """
    if seat is not None and not 0 <= seat < state.players:
        raise ValueError(f"No seat {seat} at this table.")
    sealed_phase = state.phase == SEALED
    seats = []
    for s in range(state.players):
        hand = state.hands[s]
        shown = s == seat or memory_aid
        seats.append(
            SeatView(
                seat=s,
                cards=tuple(state.owned[s]),
                theft_pending=THEFT in state.owned[s]
                and not (state.phase == THEFT_CHOICE and state.turn == s),
                bid=tuple(MASK_CARDS[state.bids[s]]),
                bid_total=MASK_SUM[state.bids[s]],
                passed=bool(state.passed >> s & 1) and state.phase == AUCTION,
                hand_count=len(MASK_CARDS[hand]),
                sealed=(
                    None
                    if not sealed_phase or state.sealed[s] == NOT_BIDDING
                    else ("waiting" if state.sealed[s] == WAITING else "chosen")
                ),
                hand=tuple(MASK_CARDS[hand]) if shown else None,
                money=MASK_SUM[hand] if shown else None,
                discards=tuple(MASK_CARDS[state.discards[s]]) if shown else None,
            )
        )
    return PlayerView(
        players=state.players,
        seat=seat,
        memory_aid=memory_aid,
        advanced=tuple(state.advanced),
        phase=state.phase,
        card=state.card,
        auction=auction_kind(state),
        leader=state.leader,
        first_player=state.first_player,
        turn=state.turn if state.phase in (AUCTION, THEFT_CHOICE) else None,
        to_act=tuple(seats_to_act(state)),
        high_bid=max((MASK_SUM[b] for b in state.bids), default=0),
        deck_remaining=len(state.setup_deck) - state.deck_pos,
        game_end_revealed=state.game_end_seen,
        game_end_total=4,
        revealed=tuple(e[2] for e in state.events if e[0] == "reveal"),
        game_end_cards=tuple(sorted(GAME_END_CARDS)),
        removed=tuple(state.removed),
        seats=tuple(seats),
        hand=tuple(MASK_CARDS[state.hands[seat]]) if seat is not None else None,
        discards=tuple(MASK_CARDS[state.discards[seat]]) if seat is not None else None,
        sealed_choice=(
            state.sealed[seat]
            if seat is not None and sealed_phase and state.sealed[seat] > 0
            else None
        ),
        moves=state.moves,
        log=tuple(event_json(e) for e in state.events),
        result=result(state) if state.phase == OVER else None,
        legal=legal_summary(state, seat) if seat is not None else None,
    )
