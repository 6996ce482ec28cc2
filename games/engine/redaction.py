"""Redaction: what one seat (or a spectator) may see (RULES.md, "What each player may see").

``player_view`` is the only form of a game that leaves the server: pages, the API,
e-mails and bots all receive it.  It never holds the deck order, the set-up deck or a
Yacht Club choice before all choices are in.
"""

from __future__ import annotations

from typing import Any

from .cards import GAME_END_CARDS, MASK_CARDS, MASK_SUM, MISFORTUNES, THEFT, card_name, money_text
from .rules import seats_to_act
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


def describe_event(event: dict[str, Any], names: list[str] | None = None) -> str:
    """A public log entry in words, e.g. 'Ann bids 3,000 + 1,000 (total 4,000).'"""

    def who(seat: int) -> str:
        return names[seat] if names else f"Seat {seat + 1}"

    def cash(cards: list[int]) -> str:
        return " + ".join(money_text(c) for c in cards)

    kind = event["type"]
    if kind == "reveal":
        return f"{who(event['seat'])} reveals {card_name(event['card'])}."
    if kind == "bid":
        return f"{who(event['seat'])} bids {cash(event['cards'])} (total {money_text(event['total'])})."
    if kind == "pass":
        return f"{who(event['seat'])} passes."
    if kind == "win":
        paid = f"for {cash(event['paid'])}" if event["paid"] else "for free"
        return f"{who(event['seat'])} wins {card_name(event['card'])} {paid}."
    if kind == "take":
        paid = "; ".join(f"{who(p['seat'])} pays {cash(p['cards'])}" for p in event["payments"])
        text = f"{who(event['seat'])} takes {card_name(event['card'])} and keeps their money."
        return f"{text} {paid}." if paid else text
    if kind == "return":
        return f"Excursions: {who(event['seat'])} takes {money_text(event['card'])} back into hand."
    if kind == "theft":
        how = "at once (pending Theft)" if event["automatic"] else "by choice"
        return f"Theft removes {who(event['seat'])}'s {card_name(event['card'])} {how}."
    if kind == "sealed":
        shown = ", ".join(f"{who(c['seat'])} {money_text(c['card'])}" for c in event["choices"])
        if event["winner"] is None:
            return f"Yacht Club choices: {shown or 'nobody could bid'}. No value is unique; the Yacht Club leaves the game."
        return f"Yacht Club choices: {shown}. {who(event['winner'])} wins the Yacht Club."
    if kind == "end":
        return f"{card_name(event['card'])} is the fourth game-end card: the game ends."
    raise ValueError(f"Unknown event {kind!r}.")


def player_view(state: State, seat: int | None, memory_aid: bool = False) -> dict[str, Any]:
    """The JSON-ready view of ``seat`` (``None``: a spectator).

    Public: revealed cards and owners, pending Theft, face-up bids, who passed, hand
    sizes, cards left, game-end cards seen, the log.  Own only: hand, discard pile, own
    sealed choice.  ``memory_aid`` also shows every player's remaining money cards and
    discards, which anyone could work out from the public log (all bids are face up).
    """
    if seat is not None and not 0 <= seat < state.players:
        raise ValueError(f"No seat {seat} at this table.")
    sealed_phase = state.phase == SEALED
    seats = []
    for s in range(state.players):
        hand = state.hands[s]
        own = s == seat
        row: dict[str, Any] = {
            "seat": s,
            "cards": list(state.owned[s]),
            "theft_pending": THEFT in state.owned[s] and not (state.phase == THEFT_CHOICE and state.turn == s),
            "bid": list(MASK_CARDS[state.bids[s]]),
            "bid_total": MASK_SUM[state.bids[s]],
            "passed": bool(state.passed >> s & 1) and state.phase == AUCTION,
            "hand_count": len(MASK_CARDS[hand]),
            "sealed": (
                None
                if not sealed_phase or state.sealed[s] == NOT_BIDDING
                else ("waiting" if state.sealed[s] == WAITING else "chosen")
            ),
        }
        if own or memory_aid:
            row["hand"] = list(MASK_CARDS[hand])
            row["money"] = MASK_SUM[hand]
            row["discards"] = list(MASK_CARDS[state.discards[s]])
        seats.append(row)
    revealed = [e[2] for e in state.events if e[0] == "reveal"]
    view: dict[str, Any] = {
        "players": state.players,
        "seat": seat,
        "memory_aid": memory_aid,
        "advanced": list(state.advanced),
        "phase": state.phase,
        "card": state.card,
        "auction": auction_kind(state),
        "leader": state.leader,
        "first_player": state.first_player,
        "turn": state.turn if state.phase in (AUCTION, THEFT_CHOICE) else None,
        "to_act": seats_to_act(state),
        "high_bid": max((MASK_SUM[b] for b in state.bids), default=0),
        "deck_remaining": len(state.setup_deck) - state.deck_pos,
        "game_end_revealed": state.game_end_seen,
        "game_end_total": 4,
        "revealed": revealed,
        "game_end_cards": sorted(GAME_END_CARDS),
        "removed": list(state.removed),
        "seats": seats,
        "hand": list(MASK_CARDS[state.hands[seat]]) if seat is not None else None,
        "discards": list(MASK_CARDS[state.discards[seat]]) if seat is not None else None,
        "sealed_choice": (
            state.sealed[seat] if seat is not None and sealed_phase and state.sealed[seat] > 0 else None
        ),
        "moves": state.moves,
        "log": [event_json(e) for e in state.events],
        "result": result(state) if state.phase == OVER else None,
    }
    return view
