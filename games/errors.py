"""Errors of the game services.  ``str(error)`` is a sentence meant for the player; it
never carries hidden information (the deck order, a hand, a sealed choice)."""

from __future__ import annotations


class GameError(Exception):
    """Bad input or a refused request: nothing was changed.  ``field``, when set: the
    part of the input the error is about, written as the API writes paths
    (``seats[1].user``)."""

    field: str | None = None

    def about(self, field: str) -> GameError:
        """This error, said to be about ``field`` (``raise error.about("user")``)."""
        self.field = field
        return self


class IllegalMove(GameError):
    """The rules do not allow this action now (the engine's ``IllegalAction`` sentence)."""


class VersionConflict(GameError):
    """The move was made against an old version of the game (stale or repeated).
    ``version`` is the game's current version, when known."""

    def __init__(self, message: str, *, version: int | None = None):
        super().__init__(message)
        self.version = version


class NoSuchSeat(GameError):
    """A seat number the table does not have.  ``position`` counts from 0 (the API's
    path); the sentence counts from 1, as the pages do."""

    def __init__(self, message: str, *, position: int, seats: int):
        super().__init__(message)
        self.position, self.seats = position, seats


class NotYourSeat(GameError):
    """The user has no seat at this table, or it is not their turn to act."""


class NotAllowed(GameError):
    """The request is not allowed in the table's situation (full, started, over, …)."""


class AlreadySeated(NotAllowed):
    """A join (or an invitation's acceptance) sent again: the user sits at this table
    already, so what was asked holds; the API answers it as done."""


class TableOpenedAlready(GameError):
    """The same request to open a table came again (a form sent twice, a retried API
    call with the same ``Idempotency-Key``): ``game`` is the table it opened."""

    def __init__(self, message: str, *, game):
        super().__init__(message)
        self.game = game


class InvalidOrder(GameError):
    """A standing order that could never act (a maximum below the high bid, …)."""


class OrdersChanged(GameError):
    """A standing-order form drawn before the player's orders changed elsewhere (in
    another window, on another device, through the API): it would overwrite them."""


class AuctionOver(GameError):
    """A standing order for an auction that has ended (or a game that is over)."""


class TooSoon(GameError):
    """Too many requests of one kind in a short time (chat messages at one table):
    ``retry_after`` is how many seconds until the next is taken."""

    def __init__(self, message: str, *, retry_after: int):
        super().__init__(message)
        self.retry_after = max(1, retry_after)
