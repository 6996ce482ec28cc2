"""Errors of the game services.  ``str(error)`` is a sentence meant for the player; it
never carries hidden information (the deck order, a hand, a sealed choice)."""


class GameError(Exception):
    """Bad input or a refused request: nothing was changed."""


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


class InvalidOrder(GameError):
    """A standing order that could never act (a maximum below the high bid, …)."""


class AuctionOver(GameError):
    """A standing order for an auction that has ended (or a game that is over)."""
