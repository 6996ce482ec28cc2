"""Reads of games for pages, the API and e-mails.

``game_view_for_user`` is the only form of a game that is rendered: it is built from
the engine's redacted ``player_view`` (RULES.md, "What each player may see") and the
public seat list, never from the raw state.  It runs a constant number of queries
whatever the length of the game (one, for the seats, unless they are prefetched): the
log comes from the public events inside the state, not from the Move rows.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from typing import TYPE_CHECKING, Any

from django.core.paginator import Page
from django.db.models import (
    Case,
    Exists,
    F,
    OuterRef,
    Prefetch,
    QuerySet,
    When,
    prefetch_related_objects,
)
from django.db.models.fields.json import KT
from django.utils import timezone

from accounts.charts import rating_chart
from accounts.models import PlayerResult
from accounts.selectors import head_to_head_for_user, stats_for_user
from games.engine import (
    LUXURY_VALUE,
    MONEY,
    can_bid,
    describe_event,
    high_bid,
    player_view,
    score_details,
    seats_to_act,
)
from games.engine.state import AUCTION, SEALED, THEFT_CHOICE, WAITING
from games.models import Game, Seat

if TYPE_CHECKING:
    from accounts.models import User

RECENT_FINISHED = 10


def _seats_prefetch() -> Prefetch:
    return Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("position"))


def _user_known(user) -> bool:
    return user is not None and getattr(user, "is_authenticated", False)


def games_open(*, user: User | None = None) -> QuerySet[Game]:
    """Tables waiting for players with an open seat, newest first; without the tables
    ``user`` already sits at (or is invited to).  Seats and their users are prefetched."""
    open_seat = Seat.objects.filter(game=OuterRef("pk"), user__isnull=True, ai_level="")
    games = Game.objects.filter(Exists(open_seat), status=Game.Status.OPEN)
    if _user_known(user):
        games = games.exclude(Exists(Seat.objects.filter(game=OuterRef("pk"), user=user)))
    return (
        games.select_related("created_by")
        .prefetch_related(_seats_prefetch())
        .defer("state", "scenario_deck", "result")
        .order_by("-created_at", "-id")
    )


def games_for_user(*, user: User | None) -> list[Game]:
    """The user's tables: open ones (joined or invited to), active ones and the most
    recently finished ones.  Each game gets ``your_seat`` (Seat) and ``your_turn``
    (bool); active games where it is the user's turn come first (nearest deadline
    first), then other active games, open tables (invitations first), finished games.
    Three queries; the states themselves are not loaded."""
    if not _user_known(user):
        return []
    games = games_with_turn_fields(
        Game.objects.filter(Exists(Seat.objects.filter(game=OuterRef("pk"), user=user)))
    )
    live = list(games.filter(status__in=[Game.Status.OPEN, Game.Status.ACTIVE]))
    finished = list(
        games.filter(status=Game.Status.FINISHED).order_by("-finished_at", "-id")[:RECENT_FINISHED]
    )
    result = live + finished
    prefetch_related_objects(result, _seats_prefetch())
    for game in result:
        seat = next(s for s in game.seats.all() if s.user_id == user.pk)
        game.your_seat = seat
        game.your_turn = (
            game.status == Game.Status.ACTIVE
            and seat.accepted
            and not seat.is_bot
            and game_seat_is_to_act(game, seat.position)
        )
    result.sort(key=_for_user_order)
    return result


def games_with_turn_fields(games: QuerySet[Game]) -> QuerySet[Game]:
    """Games without their (large) state, annotated with just the state's fields that
    say who is to act, for ``game_seat_is_to_act`` on lists of games."""
    return games.defer("state", "scenario_deck", "result").annotate(
        state_phase=KT("state__phase"),
        state_turn=KT("state__turn"),
        state_sealed=KT("state__sealed"),
    )


def game_seat_is_to_act(game: Game, position: int) -> bool:
    """Whether ``position`` is to act, from a game of ``games_with_turn_fields``."""
    if game.status != Game.Status.ACTIVE:
        return False
    phase = game.state_phase
    if phase in (AUCTION, THEFT_CHOICE):
        return game.state_turn is not None and int(game.state_turn) == position
    if phase == SEALED and game.state_sealed:
        sealed = json.loads(game.state_sealed)
        return sealed[position] == WAITING
    return False


def _ts(moment) -> float:
    return moment.timestamp() if moment is not None else math.inf


def _for_user_order(game: Game) -> tuple:
    if game.your_turn:
        return (0, 0, _ts(game.deadline_at), _ts(game.turn_started_at))
    if game.status == Game.Status.ACTIVE:
        return (1, 0, -_ts(game.updated_at), 0)
    if game.status == Game.Status.OPEN:
        return (2, 0 if game.your_seat.invited else 1, -_ts(game.created_at), 0)
    return (3, 0, -_ts(game.finished_at), 0)


def game_seat_for_user(*, game: Game, user: User | None) -> Seat | None:
    """The user's seat at this table (accepted or invited), or None."""
    if not _user_known(user):
        return None
    return next((seat for seat in game.seats.all() if seat.user_id == user.pk), None)


def _seats_for_view(game: Game) -> list[Seat]:
    """The seats with their users: from the caller's prefetch when it made one (no
    query), else in one query."""
    prefetch_related_objects([game], seats_prefetch())
    return sorted(game.seats.all(), key=lambda seat: seat.position)


def seats_prefetch() -> Prefetch:
    """A game's seats with their users, in seat order (for ``prefetch_related``)."""
    return Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("position"))


def _seat_names(seats: list[Seat]) -> list[str]:
    """Display names, with the seat number added where two seats would read the same
    (two medium bots, two players called Alex)."""
    names = [seat.display_name for seat in seats]
    counts = Counter(names)
    return [
        f"{name} #{seat.position + 1}" if counts[name] > 1 else name
        for name, seat in zip(names, seats, strict=True)
    ]


def _vacation_until(seat: Seat) -> str | None:
    """When the seat's player comes back from vacation (ISO 8601), if they are away."""
    user = seat.user if seat.user_id is not None else None
    until = getattr(user, "vacation_until", None)
    if until is None or until <= timezone.now():
        return None
    return until.isoformat()


def game_view_for_user(*, game: Game, user: User | None) -> dict[str, Any]:
    """Everything the user may see of the game, JSON-ready except ``deadline_at``
    (a datetime or None).

    A started game: ``player_view`` of the user's seat (a spectator's view for
    everybody else) plus id, version, status, options, seats_info, your_seat,
    legal_actions (a summary, ``[]`` when the user has nothing to do), deadline_at,
    log_text, result and score_details (both None until the end).  A table that has
    not started has no engine state: ``"state": None`` and the same table keys.
    """
    seats = _seats_for_view(game)
    names = _seat_names(seats)
    me = next((s for s in seats if s.user_id == user.pk), None) if _user_known(user) else None
    seats_info = [
        {
            "position": seat.position,
            "display_name": names[seat.position],
            "is_bot": seat.is_bot,
            "ai_level": seat.ai_level,
            "is_open": seat.is_open,
            "invited": seat.invited,
            "user_id": seat.user_id,
            "username": seat.user.username if seat.user_id is not None else None,
            "user": (
                {"id": seat.user_id, "username": seat.user.username}
                if seat.user_id is not None
                else None
            ),
            "accepted": seat.accepted,
            "resigned": seat.resigned,
            "is_you": seat is me,
            # Async play: public, so the others know why a player is slow to move.
            "vacation_until": _vacation_until(seat),
            "timeouts": seat.timeouts,
        }
        for seat in seats
    ]
    table = {
        "id": game.pk,
        "version": game.version,
        "status": game.status,
        "options": {
            "players": game.players,
            "advanced": list(game.advanced),
            "memory_aid": game.memory_aid,
            "move_deadline_hours": game.move_deadline_hours,
        },
        "seats_info": seats_info,
        "your_seat": me.position if me is not None else None,
        "deadline_at": game.deadline_at,
    }
    state = game.engine_state()
    if state is None:
        return {
            **table,
            "state": None,
            "players": game.players,
            "legal_actions": [],
            "log_text": [],
            "result": None,
            "score_details": None,
        }

    # Only a seated player who accepted sees their own seat's secrets.
    position = me.position if me is not None and me.accepted else None
    view = player_view(state, position, memory_aid=game.memory_aid)
    view.update(table)
    view["your_seat"] = position
    view["legal_actions"] = _legal_summary(game, state, me) if position is not None else []
    view["log_text"] = [describe_event(event, names) for event in view["log"]]
    finished = game.status == Game.Status.FINISHED
    view["result"] = game.result if finished else None
    view["score_details"] = score_details(state) if finished else None
    return view


def _legal_summary(game: Game, state, seat: Seat) -> dict[str, Any] | list:
    """What the seat may do now, summarised (an opening bid has 2,047 card sets):
    ``to_beat`` is the amount the seat's whole face-up bid must exceed."""
    if game.status != Game.Status.ACTIVE or seat.is_bot or seat.position not in seats_to_act(state):
        return []
    position = seat.position
    hand = [value for i, value in enumerate(MONEY) if state.hands[position] >> i & 1]
    summary: dict[str, Any] = {
        "can_pass": False,
        "can_bid": False,
        "to_beat": 0,
        "current_bid": 0,
        "hand": hand,
        "discard_choices": [],
        "sealed_choices": [],
    }
    if state.phase == AUCTION:
        current = sum(value for i, value in enumerate(MONEY) if state.bids[position] >> i & 1)
        summary.update(
            can_pass=True,
            can_bid=can_bid(state, position),
            to_beat=high_bid(state, position),
            current_bid=current,
        )
    elif state.phase == THEFT_CHOICE:
        summary["discard_choices"] = sorted(
            {card for card in state.owned[position] if card in LUXURY_VALUE},
            key=LUXURY_VALUE.__getitem__,
        )
    elif state.phase == SEALED:
        summary["sealed_choices"] = list(hand)
    return summary


# --------------------------------------------------------------------------- records
# A player's public profile and game history: the stored stats (accounts) beside the
# games they were played in.

CHART_GAMES = 50  # the chart shows the last 50 rated games
RECENT_GAMES = 10
HISTORY_PAGE = 20


def player_profile(*, user: User) -> dict[str, Any]:
    """Everything the public profile shows; six queries whatever the number of games."""
    stats = stats_for_user(user)
    history = list(
        PlayerResult.objects.filter(user=user, rated=True)
        .order_by("-finished_at", "-game_id")
        .values("game_id", "rating_before", "rating_after", "finished_at")[:CHART_GAMES]
    )
    history.reverse()
    recent = list(
        PlayerResult.objects.filter(user=user)
        .select_related("game")
        .defer("game__state", "game__scenario_deck", "game__result")
        .prefetch_related(
            Prefetch(
                "game__seats",
                queryset=Seat.objects.select_related("user").order_by("position"),
            )
        )
        .order_by("-finished_at", "-game_id")[:RECENT_GAMES]
    )
    return {
        "player": user,
        "stats": stats,
        "most_won_cards": stats.most_won_cards(),
        "chart": rating_chart(user.public_name, history),
        "recent": [_recent_row(result) for result in recent],
        "head_to_head": head_to_head_for_user(user),
    }


def _recent_row(result: PlayerResult) -> dict[str, Any]:
    seats = list(result.game.seats.all())
    return {
        "result": result,
        "game": result.game,
        "players": [_seat_label(seat, seats) for seat in seats if seat.position != result.seat],
    }


def _seat_label(seat: Seat, seats: list[Seat]) -> dict[str, Any]:
    """A seat as a name to show, with the username to link to a person's profile."""
    names = Counter(s.display_name for s in seats)
    name = seat.display_name
    if names[name] > 1:
        name = f"{name} #{seat.position + 1}"
    username = seat.user.username if seat.user_id is not None else None
    return {"name": name, "username": username, "bot": bool(seat.ai_level and not seat.user_id)}


# --------------------------------------------------------------------------- history

HISTORY_SHOW = {
    "all": "All my games",
    "finished": "Finished",
    "active": "Being played",
    "won": "Won",
    "lost": "Lost",
}


def games_history(*, user: User, show: str = "all", opponent: User | None = None) -> QuerySet[Game]:
    """``user``'s games (open tables, running and finished games; abandoned tables
    left out), newest first, filtered by ``show`` (a key of ``HISTORY_SHOW``) and by an
    opponent who sat at the same table.  Seats (with users) and the user's own
    ``PlayerResult`` (as ``my_results``) are prefetched."""
    if show not in HISTORY_SHOW:
        raise ValueError(f"Unknown filter {show!r}.")
    games = Game.objects.filter(
        Exists(Seat.objects.filter(game=OuterRef("pk"), user=user))
    ).exclude(status=Game.Status.ABANDONED)
    if show == "finished":
        games = games.filter(status=Game.Status.FINISHED)
    elif show == "active":
        games = games.filter(status__in=[Game.Status.OPEN, Game.Status.ACTIVE])
    elif show in ("won", "lost"):
        mine = PlayerResult.objects.filter(game=OuterRef("pk"), user=user, won=show == "won")
        games = games.filter(Exists(mine))
    if opponent is not None:
        games = games.filter(Exists(Seat.objects.filter(game=OuterRef("pk"), user=opponent)))
    return (
        games.defer("state", "scenario_deck", "result")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("position")),
            Prefetch(
                "player_results",
                queryset=PlayerResult.objects.filter(user=user),
                to_attr="my_results",
            ),
        )
        .order_by(
            # Running games first, then the most recently finished.
            Case(When(status=Game.Status.FINISHED, then=1), default=0),
            F("finished_at").desc(nulls_first=True),
            "-created_at",
            "-id",
        )
    )


def history_rows(page: Page, user: User) -> list[dict[str, Any]]:
    """What the history table draws for each game of ``page``."""
    rows = []
    for game in page.object_list:
        seats = list(game.seats.all())
        mine = game.my_results[0] if game.my_results else None
        rows.append(
            {
                "game": game,
                "result": mine,
                "players": [_seat_label(seat, seats) for seat in seats if seat.user_id != user.pk],
            }
        )
    return rows
