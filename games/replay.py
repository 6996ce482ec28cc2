"""Replays of finished games and their exported record.

A finished game is replayed from its set-up (the deck and first player kept in the
stored state) and its ``Move`` rows.  Every frame is what a spectator saw after that
many moves: the table's read model for a spectator (``selectors.replay_frame``), so
the deck is revealed card by card and a Yacht Club choice appears only when all are
in.  Frame 0 is the board after the set-up (the first card revealed); frame N the board
after move N.

Only finished games are replayed or exported: while a game runs its moves are not all
public (sealed choices) and the deck is secret.

**The exported record** (``game_record``): the table's options, the players, every
move (all public once the game is over: Yacht Club choices were revealed when all were
in), the public log, the result and its breakdown.  The deck: only the cards that were
revealed, in order (``deck_revealed``); the rest of the deck was never revealed and is
not exported: the deck order stays secret until revealed (docs/rules.md).  The game never
drew those cards, so any deck that starts with ``deck_revealed`` replays the record to
the same end (a test proves it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from games.engine import State, apply_action, event_json, new_game, score_details
from games.models import Game, Move, Seat
from games.presenter import move_caption, mover_names
from games.read_model import TableView
from games.selectors import replay_frame, resignations, seat_names

RECORD_FORMAT = 1


class NotReplayable(Exception):
    """The game is not finished: its replay and record are not public yet."""


@dataclass(frozen=True)
class Replay:
    game: Game
    seats: list[Seat]
    names: tuple[str, ...]
    moves: list[dict[str, Any]]  # number, seat, action, actor, created_at
    states: list[State]  # states[n]: after n moves; states[-1] is the end

    @property
    def total(self) -> int:
        return len(self.moves)


def replay_load(game: Game) -> Replay:
    """Replay a finished game from its set-up and its moves (two queries).

    Raises ``NotReplayable`` for a game that is not finished, and ``ValueError`` when
    the moves do not lead to the stored state (a corrupt log).
    """
    if game.status == Game.Status.ABANDONED:
        raise NotReplayable(_("This table was closed before its game ended: there is no replay."))
    if game.status != Game.Status.FINISHED or game.state is None:
        raise NotReplayable(_("This game is not over yet: its replay opens when it ends."))
    seats = list(Seat.objects.filter(game=game).select_related("user").order_by("position"))
    moves, states = _replayed(game)
    if states[-1] != State.from_json(game.state):
        raise ValueError(f"Game {game.pk}: the moves do not lead to the stored state.")
    return Replay(
        game=game, seats=seats, names=tuple(seat_names(seats)), moves=moves, states=states
    )


def replayed_state(game: Game) -> State:
    """The state rebuilt from the set-up kept in the stored state and the Move rows, for
    any started game (the stored state must equal it: tests and benches check)."""
    if game.state is None:
        raise ValueError(f"Game {game.pk} has not started: there is nothing to replay.")
    return _replayed(game)[1][-1]


def _replayed(game: Game) -> tuple[list[dict[str, Any]], list[State]]:
    """The moves and the states after each (``states[n]``: after n moves)."""
    stored = State.from_json(game.state)
    moves = list(
        Move.objects.filter(game=game)
        .order_by("number")
        .values("number", "seat", "action", "actor", "created_at")
    )
    state = new_game(
        players=stored.players,
        deck=list(stored.setup_deck),
        first_player=stored.first_player,
        advanced=stored.advanced,
    )
    states = [state]
    for expected, move in enumerate(moves):
        if move["number"] != expected:
            raise ValueError(f"Game {game.pk}: move {expected} is missing from the log.")
        state = apply_action(state, move["action"])
        states.append(state)
    return moves, states


def move_lines(replay: Replay) -> list[dict[str, Any]]:
    """Each move in words (from the public events it caused), for the move list.

    Entry 0 is the set-up; entry n is move n.  A Yacht Club choice that is not the
    last one caused no public event: it reads "makes a sealed choice" without the card.
    """
    lines = []
    previous = 0
    takeovers = resignations(replay.seats)  # a bot took a seat after move n
    for n, state in enumerate(replay.states):
        events = [event_json(e) for e in state.events[previous:]]
        previous = len(state.events)
        move = replay.moves[n - 1] if n else None
        # The names as they read then: a player's own moves before resigning are theirs,
        # and the set-up (n = 0, before any move) is everybody's own.
        names = tuple(seat_names(replay.seats, moves=n - 1))
        lines.append(
            {
                "number": n,
                "who": names[move["seat"]] if move else None,
                "actor": move["actor"] if move else None,
                "text": " ".join(
                    [
                        move_caption(
                            events,
                            mover_names(names, move, replay.seats[move["seat"]]) if move else names,
                            move,
                            names,
                        ),
                        *takeovers.get(n, ()),
                    ]
                ),
            }
        )
    return lines


def replay_view(replay: Replay, n: int) -> TableView:
    """The spectator's read model after ``n`` moves, which the board draws."""
    missed = [0] * len(replay.seats)  # the deadlines each seat had missed by move n
    for move in replay.moves[:n]:
        if move["actor"] == "deadline":
            missed[move["seat"]] += 1
    return replay_frame(
        game=replay.game, seats=replay.seats, state=replay.states[n], number=n, timeouts=missed
    )


def game_record(replay: Replay) -> dict[str, Any]:
    """The exported record of a finished game (see the module's docstring).  One file
    whoever reads it: the players' names are written in the site's default language
    (a bot's "Bot (easy)"), never marked resigned: resigning and handing over are the
    ``resigned`` and ``handed_over`` flags beside them."""
    game = replay.game
    end = replay.states[-1]
    with translation.override(settings.LANGUAGE_CODE):
        names = seat_names(replay.seats, plain=True)
    return {
        "format": RECORD_FORMAT,
        "game": game.pk,
        "status": game.status,
        "options": {
            "players": game.players,
            "advanced": list(game.advanced or ()),
            "memory_aid": game.memory_aid,
            "move_deadline_hours": game.move_deadline_hours,
        },
        "first_player": end.first_player,
        "deck_revealed": list(end.setup_deck[: end.deck_pos]),
        "deck_unrevealed": len(end.setup_deck) - end.deck_pos,
        "players": [
            {
                "seat": seat.position,
                "name": names[seat.position],
                "username": seat.user.public_username if seat.user_id is not None else None,
                "bot": seat.ai_level if seat.user_id is None else None,
                "resigned": seat.resigned,
                "handed_over": seat.handed_over,
            }
            for seat in replay.seats
        ],
        "started_at": game.started_at.isoformat() if game.started_at else None,
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
        "moves": [
            {
                "number": move["number"],
                "seat": move["seat"],
                "action": move["action"],
                "actor": move["actor"],
                "at": move["created_at"].isoformat() if move["created_at"] else None,
            }
            for move in replay.moves
        ],
        "log": [event_json(e) for e in end.events],
        "result": game.result,
        "score_details": score_details(end),
    }
