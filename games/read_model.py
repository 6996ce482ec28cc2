"""The read model of a table: what one viewer may see of it, typed and frozen.

``games.selectors.table_view`` builds a ``TableView`` from the database (and
``replay_frame`` one per replay step); the board, the API, the e-mails and the replay
read it, and ``games.presenter`` turns it into sentences.  Only data here: no queries,
no sentences.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from games.ai.orders import Defaults, Order
from games.engine import LegalSummary, PlayerView, StatusStep, final_ranking

FINISHED = "finished"


@dataclass(frozen=True, slots=True)
class TableOptions:
    players: int
    advanced: tuple[str, ...]
    memory_aid: bool
    move_deadline_hours: int | None
    created_by_id: int

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "advanced": list(self.advanced),
            "memory_aid": self.memory_aid,
            "move_deadline_hours": self.move_deadline_hours,
        }


@dataclass(frozen=True, slots=True)
class TableSeat:
    """A place at the table, public: who sits there (named so that no two people or
    bots read the same; empty seats read alike, told apart by their numbers), whether
    they are a bot, invited, resigned, away."""

    position: int
    display_name: str
    is_bot: bool
    ai_level: str
    is_open: bool
    invited: bool
    held: bool  # declined: waits for the host's choice, open to nobody meanwhile
    user_id: int | None
    username: str | None
    accepted: bool
    resigned: bool
    is_you: bool
    vacation_until: datetime | None  # for the players at the table: why one is slow
    timeouts: int
    # Who declined an invitation to this open seat: for the host of a waiting table only.
    declined_by: str | None = None
    declined_by_name: str | None = None
    # Held because its player accepted and then left it (public: all saw them seated).
    left: bool = False
    # The host handed the seat to a bot after missed deadlines, or after days without a
    # move at a table without deadlines (``resigned`` is set too).
    handed_over: bool = False
    # At a running table without move deadlines, for the players at the table: since
    # when this person to act has kept it waiting (games.clock.idle_since), else None.
    idle_since: datetime | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "position": self.position,
            "display_name": self.display_name,
            "is_bot": self.is_bot,
            "ai_level": self.ai_level,
            "is_open": self.is_open,
            "invited": self.invited,
            "held": self.held,
            # A deleted account's seat (its username withheld: None) shows no account at
            # all: its id, the same in every game, would tie its games together as well.
            "user_id": self.user_id if self.username is not None else None,
            "username": self.username,
            "user": (
                {"id": self.user_id, "username": self.username}
                if self.user_id is not None and self.username is not None
                else None
            ),
            "accepted": self.accepted,
            "resigned": self.resigned,
            "handed_over": self.handed_over,
            "is_you": self.is_you,
            "vacation_until": self.vacation_until,
            "timeouts": self.timeouts,
            "idle_since": self.idle_since,
            "declined_by": self.declined_by,
        }


@dataclass(frozen=True, slots=True)
class ScoreRow:
    """One seat's final score, with the steps that lead to its status."""

    seat: int
    details: dict[str, Any]  # score_details' row (luxuries, money, winner, decided_by …)
    steps: tuple[StatusStep, ...]


@dataclass(frozen=True, slots=True)
class TableView:
    """Everything one user (or a visitor) may see of one table: the one read model that
    the board, the API, the e-mails and the replay's frames read.

    ``state`` is the engine's redacted ``PlayerView`` (None before the start).  "Who is
    to act", whether it is the viewer's turn, what they may do and the scores are worked
    out here, once; the sentences players read are the presenter's (games.presenter).
    """

    id: int
    version: int
    status: str
    options: TableOptions
    seats_info: tuple[TableSeat, ...]
    your_seat: int | None  # the viewer's seat (accepted, or invited before the start)
    deadline_at: datetime | None
    updated_at: datetime | None
    state: PlayerView | None
    legal: LegalSummary | None  # what the viewer may do now (None: nothing)
    score: tuple[ScoreRow, ...] | None  # once the game is over
    result: dict[str, Any] | None  # once the game is over
    log_text: tuple[str, ...] = ()  # the public log in words (games.presenter)
    rematch_of: int | None = None  # the finished table this one is the rematch of
    rematch: int | None = None  # once over: the table opened as its rematch, if any

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(seat.display_name for seat in self.seats_info)

    @property
    def places(self) -> list[int]:
        """Each seat's place once the game is over (seat order; ties share a place, the
        next place skips), as the records count them (``games.ratings`` ranks the same
        state with the same ``final_ranking``); empty before the end.  The end screen and
        the API's ``ending`` read it here."""
        return final_ranking([dict(row.details) for row in self.score or ()])

    @property
    def to_act(self) -> tuple[int, ...]:
        return self.state.to_act if self.state is not None else ()

    @property
    def my_turn(self) -> bool:
        return self.legal is not None

    @property
    def you(self) -> TableSeat | None:
        return next((seat for seat in self.seats_info if seat.is_you), None)

    @property
    def finished(self) -> bool:
        return self.status == FINISHED

    def to_json(self) -> dict[str, Any]:
        """The JSON-ready form (the API's game view; its times stay datetimes)."""
        table = {
            "id": self.id,
            "version": self.version,
            "status": self.status,
            "options": self.options.to_json(),
            "seats_info": [seat.to_json() for seat in self.seats_info],
            "your_seat": self.your_seat,
            "deadline_at": self.deadline_at,
            "rematch_of": self.rematch_of,
            "rematch": self.rematch,
        }
        if self.state is None:
            return {
                **table,
                "state": None,
                "players": self.options.players,
                "legal_actions": [],
                "log_text": [],
                "result": None,
                "score_details": None,
            }
        return {
            **self.state.to_json(),
            **table,
            "legal_actions": self.legal.to_json() if self.legal is not None else [],
            "log_text": list(self.log_text),
            "result": self.result,
            "score_details": [row.details for row in self.score] if self.score else None,
        }


@dataclass(frozen=True, slots=True)
class ChatLine:
    """One chat message as a player at the table sees it (``selectors.chat_lines``)."""

    id: int
    author: str  # the author's public name
    username: str
    text: str
    at: datetime
    is_you: bool
    reported: bool = False  # the viewer reported it to the staff (it waits for them)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "author": self.author,
            "username": self.username,
            "text": self.text,
            "at": self.at,
            "reported": self.reported,
        }


@dataclass(frozen=True, slots=True)
class MutedPlayer:
    """A player at this table whose chat messages the viewer has muted: the board says
    so and offers to show them again."""

    name: str  # the public name
    username: str


@dataclass(frozen=True, slots=True)
class TableChat:
    """The chat as the board shows it to a player at the table (``selectors.table_chat``)."""

    lines: tuple[ChatLine, ...]
    muted: tuple[MutedPlayer, ...]


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One move of the public log as the board lists it: ``number`` as the replay and
    the error messages count (move 1 is the first; 0 is the set-up), when it was made,
    what it did in words."""

    number: int
    at: datetime | None
    actor: str | None  # player, bot, forced, deadline, order, takeover (None: the set-up)
    text: str
    seat: int | None = None  # whose move it was (None: the set-up, a takeover's line)


def orders_stamp(orders: Order | Defaults | None) -> str:
    """A short digest of a seat's order for the card up, or of its defaults, for its
    owner's forms (``seen``): a form drawn before they changed in another window is
    refused, rather than overwriting what the player no longer sees.  One-way: it
    names no order."""
    return hashlib.sha256(repr(orders).encode()).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class OrdersView:
    """The viewer's own standing orders at a table (``selectors.orders_view``): hidden
    information, built for its owner only and shown to nobody else.

    ``card``: the card up for auction, the one an order is for; ``may_bid``: a pass or
    bid order may be left now (the seat is in the auction and has not passed);
    ``may_discard``: Theft is up, so the luxury it takes may be ordered; ``may_seal``:
    the seat still makes its Yacht Club choice.  ``order`` is the order for ``card``.
    ``number``: which auction this is (the cards revealed so far, public): an order
    form carries it, so that a form left open from an earlier auction of the same card
    (there are three Prestige cards) is refused rather than taken for this one.
    """

    card: str | None
    auction: str | None  # normal, misfortune, sealed (None: no auction)
    number: int
    may_bid: bool
    may_discard: bool
    may_seal: bool
    luxuries: tuple[str, ...]  # the viewer's own luxuries, lowest first (for Theft)
    order: Order | None
    defaults: Defaults

    @property
    def order_stamp(self) -> str:
        return orders_stamp(self.order)

    @property
    def defaults_stamp(self) -> str:
        return orders_stamp(self.defaults)

    def to_json(self) -> dict[str, Any]:
        order = self.order
        return {
            "card": self.card,
            "auction": self.auction,
            "auction_number": self.number,
            "may_bid": self.may_bid,
            "may_discard": self.may_discard,
            "may_seal": self.may_seal,
            "order": None
            if order is None
            else {
                "type": order.kind or None,
                "max": order.maximum,
                "cards": list(order.cards) if order.cards is not None else None,
                "card": order.seal,
                "discard": order.discard or None,
            },
            "defaults": {
                "luxury_below": self.defaults.luxury_below,
                "misfortune_max": self.defaults.misfortune_max,
            },
        }
