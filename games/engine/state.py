"""The game state: an immutable value that serialises to JSON and back without loss."""

from __future__ import annotations

from typing import Any, NamedTuple

# Phases of a game.
AUCTION = "auction"  # a normal or misfortune auction: ``turn`` bids or passes
THEFT_CHOICE = "theft"  # ``turn`` must choose the luxury that Theft removes
SEALED = "sealed"  # the Yacht Club: every seat with ``sealed[seat] == WAITING`` chooses
OVER = "over"

# Values of ``State.sealed`` per seat (otherwise the money value chosen, still hidden).
NOT_BIDDING = -1
WAITING = 0

STATE_FORMAT = 1


class State(NamedTuple):
    """Everything about one game, hidden parts included.

    Never show a State to a player: ``player_view`` is the redacted form.  Money hands,
    face-up bids and discard piles are 11-bit masks (see ``cards.MONEY``).  The deck is
    ``setup_deck[deck_pos:]``; the set-up deck and first player make the game replayable
    from its action log.  ``events`` is the public log (see ``views.describe_event``).
    """

    players: int
    advanced: tuple[str, ...]
    setup_deck: tuple[str, ...]
    first_player: int
    deck_pos: int
    hands: tuple[int, ...]
    bids: tuple[int, ...]
    discards: tuple[int, ...]
    owned: tuple[tuple[str, ...], ...]
    removed: tuple[str, ...]
    phase: str
    card: str | None
    leader: int
    turn: int
    passed: int
    sealed: tuple[int, ...]
    game_end_seen: int
    moves: int
    events: tuple[tuple[Any, ...], ...]

    @property
    def auction_number(self) -> int:
        """Which auction the game is at: the number of cards revealed so far."""
        return sum(1 for event in self.events if event[0] == "reveal")

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict; ``State.from_json`` restores an equal state."""
        data = self._asdict()
        data["format"] = STATE_FORMAT
        data["advanced"] = list(self.advanced)
        data["setup_deck"] = list(self.setup_deck)
        for key in ("hands", "bids", "discards", "removed", "sealed"):
            data[key] = list(data[key])
        data["owned"] = [list(cards) for cards in self.owned]
        data["events"] = [_event_to_json(e) for e in self.events]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        if data.get("format") != STATE_FORMAT:
            raise ValueError(f"Unknown state format {data.get('format')!r}.")
        return cls(
            players=int(data["players"]),
            advanced=tuple(data["advanced"]),
            setup_deck=tuple(data["setup_deck"]),
            first_player=int(data["first_player"]),
            deck_pos=int(data["deck_pos"]),
            hands=tuple(int(x) for x in data["hands"]),
            bids=tuple(int(x) for x in data["bids"]),
            discards=tuple(int(x) for x in data["discards"]),
            owned=tuple(tuple(cards) for cards in data["owned"]),
            removed=tuple(data["removed"]),
            phase=data["phase"],
            card=data["card"],
            leader=int(data["leader"]),
            turn=int(data["turn"]),
            passed=int(data["passed"]),
            sealed=tuple(int(x) for x in data["sealed"]),
            game_end_seen=int(data["game_end_seen"]),
            moves=int(data["moves"]),
            events=tuple(_event_from_json(e) for e in data["events"]),
        )


def _event_to_json(event: Any) -> Any:
    if isinstance(event, tuple):
        return [_event_to_json(x) for x in event]
    return event


def _event_from_json(event: Any) -> Any:
    if isinstance(event, list):
        return tuple(_event_from_json(x) for x in event)
    return event
