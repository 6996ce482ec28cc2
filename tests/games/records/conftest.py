"""Helpers for the profile, rating, history and replay tests.

Finished games are made two ways, both ending in the same ``record_finished_game``
call that the services make when a game ends:

- ``played_game``: a real game, played in memory by the engine with random legal
  moves, stored with its ``Move`` rows (replays work on it);
- ``scored_game``: a final position written by hand (who owns which cards and how much
  money), for results checked by hand; it has no moves.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.engine import OVER, apply_action, new_game, random_action, result
from games.engine.cards import BIT
from games.engine.state import State
from games.models import Game, Move, Seat
from games.ratings import record_finished_game

# A seat is a User, a bot level ("easy"), or ("resigned", user).
SeatSpec = Any

_clock = {"t": timezone.now() - timedelta(days=2)}


def _next_time() -> Any:
    _clock["t"] += timedelta(minutes=5)
    return _clock["t"]


def store_game(
    seats: Sequence[SeatSpec],
    state: State,
    *,
    actions: Sequence[dict] = (),
    actors: dict[int, str] | None = None,
    scenario: bool = False,
    record: bool = True,
    log_ends: Sequence[int] | None = None,
) -> Game:
    """Store a finished game (game, seats, moves) and record it as the services do.
    ``log_ends``: each move's ``log_end`` (how many public events after it), if kept."""
    assert state.phase == OVER
    people = [s[1] if isinstance(s, tuple) else s for s in seats if not isinstance(s, str)]
    finished_at = _next_time()
    with transaction.atomic():
        game = Game.objects.create(
            status=Game.Status.FINISHED,
            created_by=people[0],
            players=len(seats),
            advanced=list(state.advanced),
            state=state.to_json(),
            version=len(actions),
            result=result(state),
            started_at=finished_at - timedelta(minutes=5),
            finished_at=finished_at,
            scenario_deck=list(state.setup_deck) if scenario else None,
        )
        rows = []
        for position, spec in enumerate(seats):
            seat = Seat(game=game, position=position, accepted=True, joined_at=finished_at)
            if isinstance(spec, str):
                seat.ai_level = spec
            elif isinstance(spec, tuple):
                seat.user, seat.ai_level, seat.resigned = spec[1], "medium", True
                seat.handed_over = spec[0] == "handed_over"
                seat.resigned_after = spec[2] if len(spec) > 2 else None
            else:
                seat.user = spec
            rows.append(seat)
        Seat.objects.bulk_create(rows)
        Move.objects.bulk_create(
            Move(
                game=game,
                number=n,
                seat=act["seat"],
                action=act,
                actor=(actors or {}).get(n, Move.Actor.PLAYER),
                log_end=log_ends[n] if log_ends else None,
            )
            for n, act in enumerate(actions)
        )
        if record:
            record_finished_game(game)
    return game


def play_random(players: int, seed: int, advanced: Sequence[str] = ()) -> tuple[State, list[dict]]:
    """A whole game of random legal moves, in memory."""
    rng = random.Random(seed)
    state = new_game(players=players, seed=seed, advanced=advanced)
    actions = []
    while state.phase != OVER:
        act = random_action(state, rng, pass_chance=0.4)
        state = apply_action(state, act)
        actions.append(act)
    return state, actions


def played_game(seats: Sequence[SeatSpec], seed: int, **options: Any) -> Game:
    advanced = options.pop("advanced", ())
    state, actions = play_random(len(seats), seed, advanced)
    return store_game(seats, state, actions=actions, **options)


def final_state(rows: Sequence[dict]) -> State:
    """A finished game's state from rows per seat: ``cards`` (status cards owned),
    ``money`` (money cards in hand) and ``won`` (cards won at auction, for the log)."""
    base = new_game(players=len(rows), seed=1)
    events = [
        ("win", seat, card, ()) for seat, row in enumerate(rows) for card in row.get("won", ())
    ]
    return base._replace(
        phase=OVER,
        card=None,
        owned=tuple(tuple(row.get("cards", ())) for row in rows),
        hands=tuple(sum(BIT[v] for v in row.get("money", ())) for row in rows),
        bids=(0,) * len(rows),
        events=tuple(events),
    )


def scored_game(seats: Sequence[SeatSpec], rows: Sequence[dict], **options: Any) -> Game:
    return store_game(seats, final_state(rows), **options)


def rating_cells(html: str) -> list[str]:
    """The last cell of each row of a page's final scores: the rating column."""
    table = html.split('class="scores', 1)[1].split("</table>", 1)[0]
    # A negative change is written with a minus sign: read as "-" to compare with Python's.
    return [
        row.rsplit('<td class="num"', 1)[1].replace("\u2212", "-") for row in table.split("<tr")[2:]
    ]
