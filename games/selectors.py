"""Reads of games for pages, the API and e-mails.

``game_view_for_user`` is the only form of a game that is rendered: it is built from
the engine's redacted ``player_view`` (docs/rules.md, "What each player may see") and the
public seat list, never from the raw state.  It runs a constant number of queries
whatever the length of the game (one, for the seats, unless they are prefetched): the
log comes from the public events inside the state, not from the Move rows.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.core import signing
from django.core.paginator import Page, Paginator
from django.db.models import (
    Case,
    Exists,
    F,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    When,
    prefetch_related_objects,
)
from django.db.models.fields.json import KT
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, gettext_noop, pgettext, pgettext_lazy

from accounts.charts import rating_chart
from accounts.models import GameRecord, PlayerResult, PlayerStats
from accounts.names import name_key
from accounts.selectors import head_to_head_for_user, stats_for_user
from games.ai.orders import Defaults
from games.clock import idle_since
from games.engine import (
    AUCTION,
    OVER,
    SEALED,
    THEFT_CHOICE,
    PlayerView,
    State,
    new_game,
    player_view,
    score_details,
    seats_to_act,
    seats_to_act_in,
    status_steps,
)
from games.engine.cards import LUXURY_VALUE, THEFT
from games.engine.state import WAITING
from games.errors import AuctionOver, GameError, NotAllowed, NotYourSeat
from games.models import (
    MAX_PLAYERS,
    SCENARIO,
    ChatMessage,
    ChatMute,
    ChatReport,
    Game,
    InvitationBlock,
    Move,
    Notification,
    Seat,
    StandingOrder,
)
from games.presenter import event_text, join_names, move_caption, mover_names, takeover_text
from games.read_model import (
    ChatLine,
    LogEntry,
    MutedPlayer,
    OrdersView,
    ScoreRow,
    TableChat,
    TableOptions,
    TableSeat,
    TableView,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from accounts.models import User

RECENT_FINISHED = 10


def _user_known(user) -> bool:
    return user is not None and getattr(user, "is_authenticated", False)


def games_open(*, user: User | None = None) -> QuerySet[Game]:
    """Tables waiting for players with an open seat, newest first; without the tables
    ``user`` already sits at (or is invited to) and without staff scenario tables.
    Seats and their users are prefetched (per page: ``lobby_page``)."""
    open_seat = Seat.objects.filter(
        game=OuterRef("pk"), user__isnull=True, ai_level="", declined_by__isnull=True
    )
    # Staff scenario tables (a known deck or first player) are never listed: they are
    # for those invited.
    games = Game.objects.filter(Exists(open_seat), status=Game.Status.OPEN).exclude(SCENARIO)
    if _user_known(user):
        games = games.exclude(Exists(Seat.objects.filter(game=OuterRef("pk"), user=user)))
    return (
        games.select_related("created_by")
        .prefetch_related(seats_prefetch())
        .defer("state", "scenario_deck", "result")
        .order_by("-created_at", "-id")
    )


LOBBY_PAGE = 20


def lobby_page(*, user: User | None, page: Any = 1) -> Page:
    """One page of ``games_open``: a fixed number of queries whatever the number of
    tables (a count, the page, its seats with their users)."""
    return Paginator(games_open(user=user), LOBBY_PAGE).get_page(page)


LOBBY_WATCH = 8


def games_to_watch(*, user: User | None) -> list[Game]:
    """The running games that moved last, for the lobby's "Being played" list: anyone
    may watch a table (as a spectator), so a visitor sees that the site is alive and
    where to look.  Without ``user``'s own games (they are in "Your games") and staff
    scenario tables; each game gets ``names`` (its seats as the table names them).
    Two queries."""
    games = Game.objects.filter(status=Game.Status.ACTIVE).exclude(SCENARIO)
    return _named_games(_not_theirs(games, user).order_by("-updated_at", "-id"))


def games_just_finished(*, user: User | None) -> list[Game]:
    """The games that ended last, for the lobby's "Just finished" list (each with its
    replay), without ``user``'s own and staff scenario tables; each game gets ``names``
    and ``first`` (who finished first, in words: "" when everyone tied for the least
    money, so nobody won; a resigned player's seat reads as the table names it).
    Two queries."""
    games = Game.objects.filter(status=Game.Status.FINISHED).exclude(SCENARIO)
    finished = _named_games(_not_theirs(games, user).order_by("-finished_at", "-id"))
    for game in finished:
        won = {row["seat"] for row in (game.result or {}).get("players", ()) if row["winner"]}
        game.first = join_names([name for seat, name in game.named if seat.position in won])
    return finished


def _not_theirs(games: QuerySet[Game], user: User | None) -> QuerySet[Game]:
    """Without ``user``'s own games, and without games of an account that is switched
    off (suspended or deactivated: its profile is gone and the leaderboard leaves it
    out, so its name is not shown here either)."""
    gone = Seat.objects.filter(game=OuterRef("pk"), user__is_active=False)
    games = games.exclude(Exists(gone))
    if not _user_known(user):
        return games
    return games.exclude(Exists(Seat.objects.filter(game=OuterRef("pk"), user=user)))


def _named_games(games: QuerySet[Game]) -> list[Game]:
    listed = list(
        games.defer("state", "scenario_deck").prefetch_related(seats_prefetch())[:LOBBY_WATCH]
    )
    for game in listed:
        game.named = _named(list(game.seats.all()))
        game.names = [name for _seat, name in game.named]
    return listed


def games_for_user(*, user: User | None) -> list[Game]:
    """The user's tables: open ones (joined or invited to), active ones and the most
    recently finished ones.  Each game gets ``your_seat`` (Seat) and ``your_turn``
    (bool), a finished one ``your_result`` (their PlayerResult, or None); active games
    where it is the user's turn come first (nearest deadline first), then other active
    games, open tables (invitations first), finished games.  Three queries, a fourth
    for the results when a game is finished, whatever the number of games (the
    per-account limits bound it).

    The states are not loaded: only the three fields of each that say who is to act
    (``_turn_fields``), decided by the engine's ``seats_to_act_in``.  A caller that
    needs a game's state reads it again (``games_waiting``)."""
    if not _user_known(user):
        return []
    games = (
        Game.objects.filter(Exists(Seat.objects.filter(game=OuterRef("pk"), user=user)))
        .defer("state", "scenario_deck", "result")
        .annotate(**_turn_fields("state"))
        .select_related("created_by")
    )
    live = list(games.filter(status__in=[Game.Status.OPEN, Game.Status.ACTIVE]))
    finished = list(
        games.filter(status=Game.Status.FINISHED).order_by("-finished_at", "-id")[:RECENT_FINISHED]
    )
    result = live + finished
    prefetch_related_objects(result, seats_prefetch())
    results = (
        {r.game_id: r for r in PlayerResult.objects.filter(user=user, game__in=finished)}
        if finished
        else {}
    )
    for game in finished:
        game.your_result = results.get(game.pk)
    for game in result:
        seat = next(s for s in game.seats.all() if s.user_id == user.pk)
        game.your_seat = seat
        game.your_turn = (
            game.status == Game.Status.ACTIVE
            and seat.accepted
            and not seat.is_bot
            and seat.position in _to_act(game.turn_phase, game.turn_seat, game.turn_sealed)
        )
    result.sort(key=_for_user_order)
    return result


def games_waiting(*, user: User | None) -> list[Game]:
    """The running games waiting for ``user``'s move, in ``games_for_user``'s order,
    with their states and seats (for e-mails that describe each).  Two queries more."""
    ids = [game.pk for game in games_for_user(user=user) if game.your_turn]
    games = (
        Game.objects.filter(pk__in=ids).defer("scenario_deck").prefetch_related(seats_prefetch())
    )
    by_id = {game.pk: game for game in games}
    return [by_id[pk] for pk in ids if pk in by_id]


def _turn_fields(state: str) -> dict[str, KT]:
    """The three fields of a stored state that say who is to act (as text, from the
    JSON column: a list need not load the whole state, events and all)."""
    return {
        "turn_phase": KT(f"{state}__phase"),
        "turn_seat": KT(f"{state}__turn"),
        "turn_sealed": KT(f"{state}__sealed"),
    }


def _to_act(phase: Any, turn: Any, sealed: Any) -> list[int]:
    """``seats_to_act_in`` from ``_turn_fields``' text (a number may come as a number)."""
    if not phase:
        return []
    if isinstance(sealed, str):
        sealed = json.loads(sealed)
    return seats_to_act_in(str(phase), None if turn in (None, "") else int(turn), sealed)


def games_with_turn_fields(games: QuerySet[Game]) -> QuerySet[Game]:
    """Games for a list that says whose turn it is (``game_seat_is_to_act``): without
    their states (a few kilobytes each, events and all), only the three fields of each
    that say who is to act (``_turn_fields``), as the lobby reads them."""
    return games.defer("state", "scenario_deck", "result").annotate(**_turn_fields("state"))


def game_seat_is_to_act(game: Game, position: int) -> bool:
    """Whether ``position`` is to act in a running game of ``games_with_turn_fields``:
    the engine's ``seats_to_act_in``, the one place that knows, on its turn fields."""
    if game.status != Game.Status.ACTIVE:
        return False
    return position in _to_act(game.turn_phase, game.turn_seat, game.turn_sealed)


def _seat_is_to_act(seats: QuerySet[Seat]) -> Q:
    """In SQL: one of ``seats`` (of the outer game) is to act: its turn in an auction or
    Theft, or its Yacht Club choice still missing; the engine's ``seats_to_act`` in the
    stored state's terms, for lists and sweeps that cannot load every state."""
    condition = Q()
    for position in range(MAX_PLAYERS):
        seat = Exists(seats.filter(game=OuterRef("pk"), position=position))
        condition |= Q(seat, state__phase__in=[AUCTION, THEFT_CHOICE], state__turn=position)
        condition |= Q(seat, **{"state__phase": SEALED, f"state__sealed__{position}": WAITING})
    return condition


def bot_is_to_act() -> Q:
    """In SQL: a bot seat is to act."""
    return _seat_is_to_act(Seat.objects.exclude(ai_level=""))


def seat_is_to_act() -> Q:
    """In SQL, for a seat: its game waits for it (``_seat_is_to_act`` seen from the
    seat), for the sweeps that look at seats."""
    condition = Q()
    for position in range(MAX_PLAYERS):
        condition |= Q(
            position=position,
            game__state__phase__in=[AUCTION, THEFT_CHOICE],
            game__state__turn=position,
        )
        condition |= Q(
            position=position,
            **{"game__state__phase": SEALED, f"game__state__sealed__{position}": WAITING},
        )
    return condition


def turns_waiting_count(user: User | None) -> int:
    """How many running games wait for ``user``'s move (the header's badge, on every
    page).  One small query: the user's seats in running games with the three fields
    of each state that say who is to act, decided as ``games_for_user`` decides them
    (so the badge and the lobby's "Your turn" rows always agree)."""
    if not _user_known(user):
        return 0
    rows = (
        Game.objects.filter(
            status=Game.Status.ACTIVE, seats__user=user, seats__accepted=True, seats__ai_level=""
        )
        .annotate(**_turn_fields("state"))
        .values_list("seats__position", "turn_phase", "turn_seat", "turn_sealed")
    )
    return sum(position in _to_act(*fields) for position, *fields in rows)


def _other_people(owner_field: str) -> Exists:
    """A person other than the table's creator plays a seat (resigned seats are bots)."""
    return Exists(
        Seat.objects.filter(game=OuterRef("pk"), ai_level="").exclude(user_id=OuterRef(owner_field))
    )


def solo_owner(game_id: int) -> int | None:
    """The creator of a table at which no other person plays (one person against bots,
    or bots only after a resignation), else None.  Such tables' bot work is the
    creator's alone, and is served one task at a time per creator (``games.tasks``)."""
    row = (
        Game.objects.filter(pk=game_id)
        .annotate(shared=_other_people("created_by_id"))
        .values_list("created_by_id", "shared")
        .first()
    )
    return None if row is None or row[1] else row[0]


def solo_games_waiting_for_bots(owner_id: int) -> QuerySet[Game]:
    """``owner_id``'s running solo tables where a bot is to act, by id."""
    return (
        Game.objects.filter(bot_is_to_act(), created_by_id=owner_id, status=Game.Status.ACTIVE)
        .exclude(_other_people("created_by_id"))
        .order_by("pk")
    )


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
    return Prefetch(
        "seats", queryset=Seat.objects.select_related("user", "declined_by").order_by("position")
    )


def seat_names(seats: list[Seat], *, moves: int | None = None, plain: bool = False) -> list[str]:
    """Display names, with the seat number added where two seats would read the same
    (two medium bots, two players called Alex; not two open seats).  A player who resigned reads
    "Alex (resigned)": the bot that took the seat plays under that name, never as them.
    ``moves``: the names as they read once that many moves had been made (a move's
    number), so a player's own moves before they resigned carry their plain name;
    None: as they read now.  ``plain``: never marked resigned (the game record, whose
    flags say it)."""
    names = [
        (
            pgettext("seat name", "%(name)s (replaced by a bot)")
            if seat.handed_over
            else pgettext("seat name", "%(name)s (resigned)")
        )
        % {"name": seat.display_name}
        if not plain and _resigned_by(seat, moves)
        else seat.display_name
        for seat in seats
    ]
    counts = Counter(names)
    # A seat nobody plays yet ("Open seat", "Kept for the host") is told apart by its
    # number beside it: "Kept for the host #3" read like a player's name.
    return [
        f"{name} #{seat.position + 1}"
        if counts[name] > 1 and (seat.user_id is not None or seat.is_bot)
        else name
        for name, seat in zip(names, seats, strict=True)
    ]


def resignations(seats: list[Seat]) -> dict[int, list[str]]:
    """The log's words for the seats a bot took over (the player resigned, or the host
    handed the seat on), keyed by how many moves had been made then: the board's log
    gives each a line of its own after that move, the replay's move list adds it to
    that move's line (0: the set-up).  Each names the player as they read before."""
    lines: dict[int, list[str]] = {}
    for seat in seats:
        if seat.resigned and seat.resigned_after is not None:
            name = seat_names(seats, moves=seat.resigned_after - 1)[seat.position]
            lines.setdefault(seat.resigned_after, []).append(takeover_text(seat.ai_level, name))
    return lines


def _resigned_by(seat: Seat, moves: int | None) -> bool:
    """The seat's player had resigned once ``moves`` moves were made (None: by now).  A
    seat resigned before its moment was recorded counts as resigned throughout."""
    if not seat.resigned:
        return False
    return moves is None or seat.resigned_after is None or moves >= seat.resigned_after


def _vacation_until(seat: Seat) -> datetime | None:
    """When the seat's player comes back from vacation, if they are away and it says
    why the table waits (asked of a table waiting or playing, not once it ended), not
    for a seat a bot plays since they resigned."""
    if seat.resigned:
        return None
    user = seat.user if seat.user_id is not None else None
    until = getattr(user, "vacation_until", None)
    if until is None or until <= timezone.now():
        return None
    return until


def _idle_seats(game: Game, seats: list[Seat], state: State | None) -> dict[int, datetime]:
    """At a running table without move deadlines: since when each person to act has
    kept it waiting (from a vacation's end, if later), by seat."""
    if game.status != Game.Status.ACTIVE or game.move_deadline_hours or state is None:
        return {}
    return {
        p: idle_since(game, seats[p].user)
        for p in seats_to_act(state)
        if not seats[p].is_bot and seats[p].user_id is not None
    }


def table_view(*, game: Game, user: User | None) -> TableView:
    """The table as ``user`` may see it: built from the engine's redacted view of their
    seat (a spectator's view for everybody else) and the public seat list, never from
    the raw state.  A constant number of queries whatever the length of the game (one,
    for the seats, unless they are prefetched): the log comes from the public events
    inside the state, not from the Move rows."""
    seats = _seats_for_view(game)
    me = next((s for s in seats if s.user_id == user.pk), None) if _user_known(user) else None
    state = game.engine_state()
    position = me.position if me is not None else None
    legal = None
    if state is not None:
        # Only a seated player who accepted sees their own seat's secrets; one who
        # resigned no longer does while the game runs (the bot playing the seat makes
        # its sealed choices): they watch as any visitor does.
        seated = me is not None and me.accepted
        resigned = me is not None and me.resigned and game.status == Game.Status.ACTIVE
        position = me.position if seated and not resigned else None
    view = player_view(state, position, memory_aid=game.memory_aid) if state is not None else None
    if view is not None and game.status == Game.Status.ACTIVE and position is not None:
        legal = None if me.is_bot else view.legal
    finished = game.status == Game.Status.FINISHED
    # Who is away on vacation, and until when, is for the players at the table (it
    # says why it waits), not for every visitor.
    vacations = game.status in (Game.Status.OPEN, Game.Status.ACTIVE) and me is not None
    host = hosts_waiting(game, user)
    idle = _idle_seats(game, seats, state) if vacations else {}
    rematch = (  # a rematch closed before it started is none (older ones are still linked)
        Game.objects.filter(rematch_of=game)
        .exclude(status=Game.Status.ABANDONED)
        .values_list("pk", flat=True)
        .first()
        if finished
        else None
    )
    return TableView(
        id=game.pk,
        version=game.version,
        status=game.status,
        options=_options(game),
        seats_info=tuple(
            _table_seat(
                seat,
                name,
                is_you=seat is me,
                host=host,
                vacations=vacations,
                idle=idle.get(seat.position),
            )
            for seat, name in _named(seats)
        ),
        your_seat=position,
        deadline_at=game.deadline_at,
        updated_at=game.updated_at,
        state=view,
        legal=legal,
        score=_score(state) if finished else None,
        result=game.result if finished else None,
        log_text=_log_text(view, seats),
        rematch_of=game.rematch_of_id,
        rematch=rematch,
    )


def not_seated(*, invited: bool) -> NotYourSeat:
    """The refusal for a user without an accepted seat: an invitation not answered yet
    says so (it said "you do not have a seat" to a player the view placed there)."""
    if invited:
        return NotYourSeat(
            gettext("Accept your invitation first: your seat here is not taken yet.")
        )
    return NotYourSeat(gettext("You do not have a seat at this table."))


def orders_refusal(
    *, status: str, seated: bool, resigned: bool, invited: bool = False
) -> GameError | None:
    """Why a player may neither read nor leave standing orders at a table (``None``:
    they may), checked in this order: no accepted seat, the game not started, the
    game over, resigned.  Reading and setting orders refuse alike."""
    if not seated:
        return not_seated(invited=invited)
    if status == Game.Status.OPEN:
        return NotAllowed(gettext("The game has not started yet."))
    if status == Game.Status.ABANDONED:  # closed before it started: never "over"
        return NotAllowed(gettext("This table was closed before its game started."))
    if status != Game.Status.ACTIVE:
        return AuctionOver(gettext("The game is over: there is nothing left to order."))
    if resigned:
        return NotAllowed(gettext("You resigned from this game: a bot plays your seat now."))
    return None


def orders_refusal_for(view: TableView) -> GameError | None:
    """``orders_refusal`` for the viewer of a table (their seat as the seat list has it:
    one who resigned has no ``your_seat`` while the game runs)."""
    seat = view.you
    return orders_refusal(
        status=view.status,
        seated=seat is not None and seat.accepted,
        resigned=seat is not None and seat.resigned,
        invited=seat is not None and seat.invited,
    )


def orders_view(*, game: Game, view: TableView) -> OrdersView | None:
    """The viewer's own standing orders (one query), or ``None`` when they may leave
    none (``orders_refusal_for`` says why).  Read for the viewer's own seat only:
    nobody else's orders ever reach a page or an answer."""
    state, position = view.state, view.your_seat
    if state is None or position is None or orders_refusal_for(view) is not None:
        return None
    row = StandingOrder.objects.filter(game_id=game.pk, seat__position=position).first()
    auction = len(state.revealed)
    order = row.order() if row is not None and row.auction == auction else None
    me = state.seats[position]
    return OrdersView(
        card=state.card,
        auction=state.auction,
        number=auction,
        may_bid=state.phase == AUCTION and not me.passed,
        may_discard=state.card == THEFT and state.phase in (AUCTION, THEFT_CHOICE),
        may_seal=state.phase == SEALED and me.sealed == "waiting",
        luxuries=tuple(sorted((c for c in me.cards if c in LUXURY_VALUE), key=LUXURY_VALUE.get)),
        order=order,
        defaults=row.defaults() if row is not None else Defaults(),
    )


def orders_held(*, game: Game, user) -> tuple[bool, bool]:
    """Whether ``user`` has a standing order for the auction on, and defaults for the
    coming auctions: read before a cancel or a clear, so the message after it says
    whether there was anything to cancel."""
    state = game.engine_state() if game.status == Game.Status.ACTIVE else None
    row = StandingOrder.objects.filter(game_id=game.pk, seat__user=user).first()
    if state is None or row is None:
        return False, False
    return (
        row.auction == state.auction_number and row.order() is not None,
        not row.defaults().empty,
    )


def order_moved_since(*, game: Game, user, version: int) -> bool:
    """Whether a standing order of ``user`` made a move at ``game`` from move number
    ``version`` on: an order left on one's own turn answers at once."""
    position = Seat.objects.filter(game_id=game.pk, user=user).values("position")
    return Move.objects.filter(
        game_id=game.pk, number__gte=version, actor=Move.Actor.ORDER, seat__in=position
    ).exists()


def move_made_already(*, game: Game, user, version: int, action: dict[str, Any]) -> bool:
    """Whether ``action`` is the player's first own move from move number ``version``
    on: a move sent twice (a double click without JavaScript, a client's retry after a
    lost answer), of which the first counted.  The second is refused as late (the game
    moved on; for a Yacht Club choice, not your turn), over a move that was made."""
    made = (
        Move.objects.filter(
            game_id=game.pk, number__gte=version, user=user, actor=Move.Actor.PLAYER
        )
        .order_by("number")
        .values_list("action", flat=True)
        .first()
    )
    if made is None or action.get("seat", made.get("seat")) != made.get("seat"):
        return False  # another seat's move: refused as such, never answered as made

    def plain(move: dict[str, Any]) -> dict[str, Any]:
        return {k: sorted(v) if k == "cards" else v for k, v in move.items() if k != "seat"}

    return plain(made) == plain(action)


# Why a game where a person resigned is unrated (games.ratings.unrated_reason), as stored.
RESIGNED_REASON = gettext_noop("A player resigned.")


def game_ending(*, game: Game, view: TableView | None = None) -> dict[str, Any]:
    """What the end screen adds to a finished board: each person's rating change (none at
    all: an unrated game; a bot has none, its level has one rating on the leaderboard);
    why an unrated game is unrated, in the reader's language
    (games.ratings.unrated_reason), to the player who resigned as "You resigned." (their
    ``view``).  One query (two for a game without a rated person); the rematch table is
    the read model's (``TableView.rematch``)."""
    results = list(
        PlayerResult.objects.filter(game=game).only(
            "seat", "rated", "rating_before", "rating_after"
        )
    )
    reason = (
        None  # a rated person's result: the game is rated, no reason to look up
        if any(r.rated for r in results)
        else GameRecord.objects.filter(game=game, rated=False)
        .values_list("unrated_reason", flat=True)
        .first()
    )
    you_resigned = view is not None and any(
        seat.is_you and seat.resigned and not seat.handed_over for seat in view.seats_info
    )
    if reason == RESIGNED_REASON and you_resigned:
        said = gettext("You resigned.")
    else:
        said = gettext(reason) if reason else ""
    return {
        "rating_changes": {r.seat: r.rating_delta for r in results if r.rated},  # the API's
        # As the pages write it: whole, the difference of the whole ratings shown.
        "rating_changes_shown": {r.seat: r.rating_change_shown for r in results if r.rated},
        "unrated_reason": said,
    }


def log_entries(*, game: Game, view: TableView) -> tuple[LogEntry, ...] | None:
    """The board's log, one entry per move, numbered as the replay and the errors count
    them, with its time; the words are the public events each move caused (a bot that
    plays a resigned player's seat is named as that bot; a standing order's move as
    "<name> (standing order)", a pass the rules forced as "<name> (forced)"; a player's
    own moves from before they resigned under their plain name, and a line of its own,
    actor ``takeover``, where a bot took their seat).  One query (two when a player
    resigned).  None for a game whose moves were stored before their log positions were
    kept.  Only the moves of the version the view shows: a move stored since (another
    player's, a bot's, while this page was being drawn) waits for the next refresh,
    with its words."""
    if view.state is None:
        return None
    moves = list(
        Move.objects.filter(game=game, number__lt=view.version)
        .order_by("number")
        .values("number", "seat", "action", "actor", "created_at", "log_end")
    )
    if any(move["log_end"] is None for move in moves):
        return None
    events = list(view.state.log)
    # The set-up's events (the first card revealed …) come before the first move's.
    setup_end = _setup_events(game) if moves else len(events)
    stored_seats = _seats_if_resigned(game, view)
    names_at = _names_at(view, stored_seats)
    seats = view.seats_info
    # The set-up came before any move, so before anyone resigned (-1: no move made yet).
    setup = " ".join(event_text(event, names_at(-1)) for event in events[:setup_end])
    entries = [LogEntry(0, game.started_at, None, setup)]
    start = setup_end
    for move in moves:
        end = move["log_end"]
        seat = seats[move["seat"]] if move["seat"] < len(seats) else None
        names = names_at(move["number"])
        text = move_caption(events[start:end], mover_names(names, move, seat), move, names)
        entries.append(
            LogEntry(move["number"] + 1, move["created_at"], move["actor"], text, move["seat"])
        )
        start = end
    # A bot took a seat for good: a line of its own after the last move before it did
    # (no number: it is no move; no time: the moment is not kept).
    # Entry n is move n (0: the set-up): from the last such line back, the positions
    # of the earlier ones do not move.
    for number, lines in sorted(resignations(stored_seats or []).items(), reverse=True):
        if number < len(entries):
            entries[number + 1 : number + 1] = [
                LogEntry(number, None, "takeover", text) for text in lines
            ]
    return tuple(entries)


def _names_at(view: TableView, seats: list[Seat] | None) -> Callable[[int], tuple[str, ...]]:
    """The seats' names as they read when a move was made (by its number): the view's
    names, unless a player resigned (``seats``: the stored seats, then), whose earlier
    moves read under their plain name."""
    names = tuple(view.names)
    if seats is None:
        return lambda number: names
    return lambda number: tuple(seat_names(seats, moves=number))


def _seats_if_resigned(game: Game, view: TableView) -> list[Seat] | None:
    """The stored seats, where a player resigned (one query); None where nobody did."""
    if not any(seat.resigned for seat in view.seats_info):
        return None
    return list(Seat.objects.filter(game=game).select_related("user").order_by("position"))


def _setup_events(game: Game) -> int:
    """How many public events the set-up made (revealing the first card …)."""
    stored = game.engine_state()
    return len(
        new_game(
            players=stored.players,
            deck=list(stored.setup_deck),
            first_player=stored.first_player,
            advanced=stored.advanced,
        ).events
    )


CHAT_LINES = 50  # the most recent messages a board shows


def chat_readers(game: Game) -> QuerySet[Seat]:
    """The seats whose players may read and write the table's chat."""
    return Seat.objects.filter(game=game, accepted=True).exclude(user=None)


def chat_open_to(game: Game, user: User | None) -> bool:
    """Whether ``user`` plays at ``game``'s table (the chat is theirs, not spectators')."""
    if not _user_known(user) or game.status == Game.Status.ABANDONED:
        return False
    return chat_readers(game).filter(user=user).exists()


def invitation_mailed(*, game_id: int, user: User) -> bool:
    """An invitation e-mail to ``user`` for this table was owed already (sent, or due):
    the outbox owes one per player and table (games.notifications)."""
    return Notification.objects.filter(
        user=user, game_id=game_id, kind=Notification.Kind.INVITATION
    ).exists()


def is_newcomer(user: User) -> bool:
    """``user`` has not finished a game yet (one query)."""
    return not PlayerStats.objects.filter(user=user, games_played__gt=0).exists()


def chat_reports_open_count(user: User | None) -> int:
    """How many chat reports wait for the staff, for staff who may answer them; else 0."""
    if not _user_known(user) or not user.is_staff or not user.has_perm("games.change_chatreport"):
        return 0
    return ChatReport.objects.filter(resolved_at__isnull=True).count()


def chat_lines(
    *,
    game: Game,
    user: User,
    since: datetime | None = None,
    after: int | None = None,
    limit: int = CHAT_LINES,
) -> tuple[ChatLine, ...]:
    """The table's latest ``limit`` messages (written after ``since``), oldest first,
    without those of players ``user`` has muted; with ``after`` (a message's id), the
    first ``limit`` messages after that one, so that a client reading on from the last
    line it has misses none, however many came meanwhile.  One query.  For a player at
    the table only: the caller checks ``chat_open_to``.  A line staff hid is shown to
    nobody; each line says whether ``user`` reported it."""
    muted = ChatMute.objects.filter(user=user, muted=OuterRef("user"))
    messages = (
        ChatMessage.objects.filter(game=game, hidden_at__isnull=True)
        .exclude(Exists(muted))
        .annotate(reported=Exists(ChatReport.objects.filter(message=OuterRef("pk"), reporter=user)))
        .select_related("user")
        .order_by("-id")
    )
    if since is not None:
        messages = messages.filter(created_at__gt=since)
    if after is not None:
        messages = messages.filter(pk__gt=after).order_by("id")
    rows = messages[:limit] if after is not None else reversed(messages[:limit])
    return tuple(
        ChatLine(
            id=message.pk,
            author=message.user.public_name,
            username=message.user.username,
            text=message.text,
            at=message.created_at,
            is_you=message.user_id == user.pk,
            reported=message.reported,
        )
        for message in rows
    )


def table_chat(*, game: Game, user: User | None) -> TableChat | None:
    """The board's chat for ``user``: None unless they play at the table (as
    ``chat_open_to``), else the lines (``chat_lines``) and the people of this table's
    chat whom ``user`` has muted (a mute holds at every table; the board shows it, and
    lifts it, wherever it hides someone): those seated here, and those who wrote here
    and left before the start.  Two queries."""
    if not _user_known(user) or game.status == Game.Status.ABANDONED:
        return None
    readers = chat_readers(game)
    people = list(
        get_user_model()
        .objects.filter(
            Q(pk__in=readers.values("user"))
            | Q(pk__in=ChatMessage.objects.filter(game=game).values("user"))
        )
        .annotate(
            seat_position=Subquery(readers.filter(user=OuterRef("pk")).values("position")[:1]),
            muted=Exists(ChatMute.objects.filter(user=user, muted=OuterRef("pk"))),
        )
        .order_by(F("seat_position").asc(nulls_last=True), "username")
    )
    if not any(person.pk == user.pk and person.seat_position is not None for person in people):
        return None
    return TableChat(
        lines=chat_lines(game=game, user=user),
        muted=tuple(
            MutedPlayer(name=person.public_name, username=person.username)
            for person in people
            if person.muted
        ),
    )


def replay_frame(
    *, game: Game, seats: list[Seat], state: State, number: int, timeouts: list[int] | None = None
) -> TableView:
    """A finished game as a spectator saw it after move ``number`` (``state``): the same
    read model, with status ``replay``.  Seats show who sat there: a person who resigned
    is shown as themselves, marked resigned from the move they resigned at (so a seat
    of theirs that finishes first is the bot's result, as on the board).  ``timeouts``:
    the deadlines each seat had missed by then (None: none), not the count at the end."""
    over = state.phase == OVER
    frame = player_view(state, None, memory_aid=game.memory_aid)
    # The seats as they are after ``number`` moves (a player who resigned after this
    # many moves reads resigned, as the frame's caption says); the log's lines as they
    # read when the last of those moves was made (the mover's own name, until then).
    last = max(number - 1, 0)
    return TableView(
        id=game.pk,
        version=number,
        status="replay",
        options=_options(game),
        seats_info=tuple(
            replace(
                _table_seat(seat, name, is_you=False),
                is_bot=bool(seat.ai_level) and seat.user_id is None,
                ai_level=seat.ai_level if seat.user_id is None else "",
                resigned=_resigned_by(seat, number),
                handed_over=seat.handed_over and _resigned_by(seat, number),
                timeouts=timeouts[seat.position] if timeouts else 0,
            )
            for seat, name in zip(seats, seat_names(seats, moves=number), strict=True)
        ),
        your_seat=None,
        deadline_at=None,
        updated_at=None,
        state=frame,
        legal=None,
        score=_score(state) if over else None,
        result=frame.result,
        log_text=_log_text(frame, seats, moves=last),
    )


def _log_text(
    view: PlayerView | None, seats: list[Seat], *, moves: int | None = None
) -> tuple[str, ...]:
    if view is None:
        return ()
    names = seat_names(seats, moves=moves)
    return tuple(event_text(event, names) for event in view.log)


def _options(game: Game) -> TableOptions:
    return TableOptions(
        players=game.players,
        advanced=tuple(game.advanced or ()),
        memory_aid=game.memory_aid,
        move_deadline_hours=game.move_deadline_hours,
        created_by_id=game.created_by_id,
    )


def _named(seats: list[Seat]) -> list[tuple[Seat, str]]:
    return list(zip(seats, seat_names(seats), strict=True))


def hosts_waiting(game: Game, user: User | None) -> bool:
    """``user`` created ``game``, which waits for players: who declined an invitation to
    one of its open seats is theirs to see (``seat_declined_by``)."""
    return game.status == Game.Status.OPEN and _user_known(user) and game.created_by_id == user.pk


def rematch_seat_waiting(*, rematch_id: int, user_id: int) -> bool:
    """The player's invitation to the rematch table ``rematch_id`` waits for an answer
    there (the end screen then offers to take the seat, not only a link to it)."""
    return Seat.objects.filter(
        game_id=rematch_id, game__status=Game.Status.OPEN, user_id=user_id, accepted=False
    ).exists()


def invitation_withdrawn(game: Game, user: User | None) -> bool:
    """``user`` was invited to ``game`` (their invitation e-mail was owed) but has no
    seat there now and did not decline: the host gave the seat to someone else.  What
    the invitation's link should say when it leads to a table that no longer waits for
    them."""
    if not _user_known(user):
        return False
    declined = Notification.objects.filter(  # the host's notice of their decline
        game=game, kind=Notification.Kind.DECLINED, key=f"{game.pk}:{user.pk}"
    )
    seat = Seat.objects.filter(Q(user=user) | Q(declined_by=user), game=game)  # or declined
    return (  # one query
        Notification.objects.filter(user=user, game=game, kind=Notification.Kind.INVITATION)
        .exclude(Exists(declined))
        .exclude(Exists(seat))
        .exists()
    )


def reader_token(game_id: int, user_id: int) -> str:
    """The ``?for=`` of a table's link in an e-mail to ``user_id``: their account's
    number, signed for this table, so that only a link the site sent names anyone
    (``link_reader``), and nobody learns a name by trying numbers."""
    return signing.Signer(salt=f"games.link-reader.{game_id}").sign(str(user_id))


def link_reader(game: Game, user: User | None, token: str | None) -> User | None:
    """Whom an e-mail's link to ``game`` was for (its ``?for=``, ``reader_token``),
    when ``user``, logged in, is someone else; None for anything else: no token, one
    not signed for this table, an account that cannot log in (deleted, suspended), or
    a person who is not the table's host nor at one of its seats any more."""
    if not _user_known(user) or not token or len(token) > 100:
        return None
    try:
        reader_id = int(signing.Signer(salt=f"games.link-reader.{game.pk}").unsign(token))
    except (signing.BadSignature, ValueError):
        return None
    if reader_id == user.pk:
        return None
    about = Q(pk=game.created_by_id) | Exists(Seat.objects.filter(game=game, user=OuterRef("pk")))
    return (
        get_user_model()
        .objects.filter(about, pk=reader_id, is_active=True, deleted_at__isnull=True)
        .first()
    )


def host_blocked(game: Game, user: User) -> bool:
    """``user`` takes no invitations from the host of ``game``."""
    return InvitationBlock.objects.filter(user=user, blocked_id=game.created_by_id).exists()


def invited_to(game: Game, user: User) -> bool:
    """``user`` was invited to ``game`` by its host (their invitation e-mail was owed;
    a rematch holds a blocker's seat without inviting them)."""
    return user.pk != game.created_by_id and (
        Notification.objects.filter(
            user=user, game=game, kind=Notification.Kind.INVITATION
        ).exists()
    )


def seat_held_for(game: Game, user: User | None) -> int | None:
    """The number of the seat ``user`` declined (or left after accepting) at ``game``,
    while it still waits for the host's choice: theirs to take back (``game_join``)."""
    if not _user_known(user) or game.status != Game.Status.OPEN:
        return None
    seat = Seat.objects.filter(game=game, user=None, declined_by=user).first()
    return seat.position + 1 if seat is not None and invited_to(game, user) else None


def seat_declined_by(seat: Seat, *, host: bool) -> Any:
    """Who declined an invitation to this seat, still empty, for its host; else None."""
    return seat.declined_by if host and seat.held else None


def _table_seat(
    seat: Seat,
    name: str,
    *,
    is_you: bool,
    host: bool = False,
    vacations: bool = False,
    idle: datetime | None = None,
) -> TableSeat:
    declined = seat_declined_by(seat, host=host)
    return TableSeat(
        position=seat.position,
        display_name=name,
        is_bot=seat.is_bot,
        ai_level=seat.ai_level,
        is_open=seat.is_open,
        invited=seat.invited,
        held=seat.held,
        user_id=seat.user_id,
        username=seat.user.public_username if seat.user_id is not None else None,
        accepted=seat.accepted,
        resigned=seat.resigned,
        handed_over=seat.handed_over,
        is_you=is_you,
        vacation_until=_vacation_until(seat) if vacations else None,
        timeouts=seat.timeouts,
        declined_by=declined.public_username if declined is not None else None,
        declined_by_name=declined.public_name if declined is not None else None,
        left=seat.held and seat.declined_after_joining,
        idle_since=idle,
    )


def _score(state: State) -> tuple[ScoreRow, ...]:
    return tuple(
        ScoreRow(seat=row["seat"], details=row, steps=status_steps(state.owned[row["seat"]]))
        for row in score_details(state)
    )


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
        "players": [_seat_label(s, name) for s, name in _named(seats) if s.position != result.seat],
    }


def _seat_label(seat: Seat, name: str) -> dict[str, Any]:
    """A seat as a name to show, with the username to link to a person's profile."""
    username = seat.user.public_username if seat.user_id is not None else None
    return {"name": name, "username": username, "bot": bool(seat.ai_level and not seat.user_id)}


# --------------------------------------------------------------------------- history

HISTORY_SHOW = {
    "all": gettext_lazy("All my games"),
    # Which games to show ("[show] finished [games]"): plural in French, unlike a game's
    # own state or result.
    "finished": pgettext_lazy("games shown", "Finished"),
    "active": gettext_lazy("Waiting or being played"),  # open tables as well
    "won": pgettext_lazy("games shown", "Won"),
    "lost": pgettext_lazy("games shown", "Lost"),
}


def games_history(
    *, user: User, show: str = "all", opponent: User | str | None = None
) -> QuerySet[Game]:
    """``user``'s games (open tables, running and finished games; abandoned tables
    left out), newest first, filtered by ``show`` (a key of ``HISTORY_SHOW``) and by an
    opponent who sat at the same table: a person, or a bot level (``"easy"``: a bot of
    that level had a seat of its own, not one a person resigned).  Seats (with users)
    and the user's own ``PlayerResult`` (as ``my_results``) are prefetched."""
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
    if isinstance(opponent, str):
        bots = Seat.objects.filter(game=OuterRef("pk"), user__isnull=True, ai_level=opponent)
        games = games.filter(Exists(bots))
    elif opponent is not None:
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
        my_seat = next((seat for seat in seats if seat.user_id == user.pk), None)
        rows.append(
            {
                "game": game,
                "result": mine,
                # An invitation not answered yet: the row says it waits for the player.
                "to_answer": game.status == Game.Status.OPEN
                and my_seat is not None
                and my_seat.invited,
                # The others: people and bots, not a seat still empty ("Open seat").
                "players": [
                    _seat_label(seat, name)
                    for seat, name in _named(seats)
                    if seat.user_id != user.pk and (seat.user_id or seat.ai_level)
                ],
            }
        )
    return rows


# --------------------------------------------------------------------------- a player's data
# The games half of "Download your data" (accounts.export): what the player did and said,
# never more of a running game than its public facts (no state, no deck, no sealed choice).


def player_named(username: Any) -> User | None:
    """The account with exactly this username, or None (for input that is not text too)."""
    if not isinstance(username, str):
        return None
    return get_user_model().objects.filter(username=username).first()


def player_tables(*, user: User) -> dict[str, list[int]]:
    """The tables ``services.player_withdraw`` would change now, by what it would do
    there: ``left`` (waiting tables of others, invitations among them), ``closed``
    (waiting tables of the player's own), ``resigned`` (running games, handed to a
    bot).  Numbers in order; two queries."""
    seats = Seat.objects.filter(user=user).order_by("game_id")
    waiting = list(
        seats.filter(game__status=Game.Status.OPEN).values_list("game_id", "game__created_by")
    )
    running = seats.filter(game__status=Game.Status.ACTIVE, accepted=True, resigned=False)
    return {
        "left": [game for game, host in waiting if host != user.pk],
        "closed": [game for game, host in waiting if host == user.pk],
        "resigned": list(running.values_list("game_id", flat=True)),
    }


def players_by_name(names: list[str]) -> dict[str, Any]:
    """Active users by case-folded name: their username (an exact match wins over a
    case-insensitive one), else the display name the boards show for them (no two
    players can be taken for each other by it: ``accounts.names.name_key``)."""
    if not names:
        return {}
    query = Q()
    for name in names:
        query |= Q(username__iexact=name)
    found: dict[str, Any] = {}
    wanted = set(names)
    users = get_user_model().objects.filter(is_active=True)
    for user in users.filter(query):
        key = user.username.casefold()
        if key not in found or user.username in wanted:
            found[key] = user
    # Then display names: the same words first (any case), else as they read; a name
    # that reads as two accounts' names (made before the key read an i as an l) names
    # neither.
    left = [name for name in names if name.casefold() not in found]
    if left:
        exact = Q()
        for name in left:
            exact |= Q(display_name__iexact=name)
        for user in users.filter(exact).order_by("pk"):
            found.setdefault(user.display_name.casefold(), user)
    rest = {name_key(name): name.casefold() for name in names if name.casefold() not in found}
    rest.pop("", None)
    if rest:
        by_key: dict[str, list[Any]] = {}
        for user in users.filter(display_name_key__in=rest).order_by("pk"):
            by_key.setdefault(user.display_name_key, []).append(user)
        for key, matches in by_key.items():
            if len(matches) == 1:
                found.setdefault(rest[key], matches[0])
    return found


def people_held_back(*, user: User) -> dict[str, list[User]]:
    """The players ``user`` has muted (their chat messages hidden at every table) and
    those whose invitations they block, by name, for the profile to undo.  Two queries."""
    users = get_user_model().objects
    muted = users.filter(pk__in=ChatMute.objects.filter(user=user).values("muted"))
    blocked = users.filter(pk__in=InvitationBlock.objects.filter(user=user).values("blocked"))
    return {
        "muted": list(muted.order_by("username")),
        "blocked": list(blocked.order_by("username")),
    }


def player_data(*, user: User) -> dict[str, Any]:
    """The player's seats (with their result once a game is over), their chat lines, and
    whom they muted or block (times as datetimes); a fixed number of queries."""
    results = {r.game_id: r for r in PlayerResult.objects.filter(user=user)}
    seats = (
        Seat.objects.filter(user=user)
        .select_related("game")
        .only(
            "position",
            "accepted",
            "resigned",
            "handed_over",
            "game__id",
            "game__status",
            "game__players",
            "game__created_at",
            "game__started_at",
            "game__finished_at",
            "game__created_by_id",
        )
        .order_by("game_id")
    )
    games = []
    for seat in seats:
        game = seat.game
        result = results.get(game.pk)
        games.append(
            {
                "game": game.pk,
                "status": game.status,
                "players": game.players,
                "seat": seat.position,
                "host": game.created_by_id == user.pk,
                "invitation_accepted": seat.accepted,
                "resigned": seat.resigned,
                # The host gave the seat to a bot while the player was away (``resigned``
                # is true too: the result is the bot's, as for a resignation).
                "handed_over": seat.handed_over,
                "created_at": game.created_at,
                "started_at": game.started_at,
                "finished_at": game.finished_at,
                "result": None
                if result is None
                else {
                    "rank": result.rank,
                    "won": result.won,
                    "cast_out": result.cast_out,
                    "status": result.status,
                    "money": result.money,
                    "rated": result.rated,
                    "rating_before": result.rating_before,
                    "rating_after": result.rating_after,
                },
            }
        )
    chat = [
        {"game": game_id, "text": text, "at": at, "hidden": hidden_at is not None}
        for game_id, text, at, hidden_at in ChatMessage.objects.filter(user=user)
        .order_by("created_at", "id")
        .values_list("game_id", "text", "created_at", "hidden_at")
    ]
    # The reports they made: when and where, and the staff's answer; not the words
    # reported (another player's), nor who reported theirs.
    reports = [
        {"game": game_id, "at": at, "answer": outcome or None}
        for game_id, at, outcome in ChatReport.objects.filter(reporter=user)
        .order_by("created_at", "id")
        .values_list("message__game_id", "created_at", "outcome")
    ]
    held_back = people_held_back(user=user)
    return {
        "games": games,
        "chat_messages": chat,
        "chat_reports": reports,
        "muted": [other.username for other in held_back["muted"]],
        "invitations_blocked_from": [other.username for other in held_back["blocked"]],
    }
