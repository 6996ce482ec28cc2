"""The games endpoints: one view class per path, one method per operation, each thin:
parse the input, call one service or selector, render through an output serializer.
Errors rise and become the one error format in ``games.api.errors``."""

from __future__ import annotations

import re
from typing import Any

from django.db.models import Exists, OuterRef, Q, Subquery, prefetch_related_objects
from django.db.models.fields.json import KT
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, status
from rest_framework.request import Request
from rest_framework.response import Response

from games import chat, notifications, services
from games.api.base_view import ApiView, query_once
from games.api.errors import ApiError, NotYourTurn
from games.api.pagination import PagePagination
from games.api.schema import CREATE_EXAMPLES, MOVE_EXAMPLES, ORDER_EXAMPLES, error_responses
from games.api.serializers import (
    ChatInputSerializer,
    ChatQuerySerializer,
    ChatSerializer,
    GameCreateInputSerializer,
    GameListQuerySerializer,
    GamePageSerializer,
    GameSummarySerializer,
    GameViewSerializer,
    MoveInputSerializer,
    MoveLogSerializer,
    MovesQuerySerializer,
    OrdersInputSerializer,
    OrdersSerializer,
    SeatSpecSerializer,
)
from games.engine.state import SEALED
from games.errors import (
    AlreadySeated,
    NoSuchSeat,
    NotAllowed,
    NotYourSeat,
    TableOpenedAlready,
    VersionConflict,
)
from games.models import SCENARIO, Game, Move, Seat
from games.read_model import TableView
from games.selectors import (
    CHAT_LINES,
    chat_lines,
    chat_open_to,
    game_ending,
    game_seat_is_to_act,
    games_with_turn_fields,
    hosts_waiting,
    move_made_already,
    not_seated,
    orders_refusal_for,
    orders_view,
    seat_declined_by,
    seat_names,
    seats_prefetch,
    table_view,
)

MAX_ID = 2**63 - 1  # PostgreSQL's bigint: a larger id is simply not a game
GAME_ID = OpenApiParameter("game_id", int, OpenApiParameter.PATH, description="The game's id.")
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    str,
    OpenApiParameter.HEADER,
    required=False,
    pattern=rf"^[A-Za-z0-9_.~-]{{1,{services.ONCE_MAX_LENGTH}}}$",
    description=(
        "A value of your choice, new for each table you mean to open (1 to 40 letters, "
        "digits and `-_.~`). Sent again with the same request (a retry after a timeout), "
        "it opens no second table: the answer is 200 with the table the first opened."
    ),
)
IDEMPOTENCY_KEY_FORM = re.compile(rf"[A-Za-z0-9_.~-]{{1,{services.ONCE_MAX_LENGTH}}}")

# --------------------------------------------------------------------------- helpers


def _game_get(game_id: int, user, *, full: bool = False) -> Game:
    """The game, or 404.  Abandoned tables exist only for the people who sat there.

    ``full``: with its state and seats (to render it); otherwise only what a service
    needs to find it (services lock and reload the row themselves)."""
    game = None
    if 0 < game_id <= MAX_ID:
        games = Game.objects.filter(pk=game_id).order_by()
        if full:
            games = games.prefetch_related(seats_prefetch())
        else:
            games = games.only("id", "status", "version")
        game = games.first()
    if game is not None and game.status == Game.Status.ABANDONED:
        sitting = Seat.objects.filter(game=game, user=user).exists()
        game = game if sitting else None
    if game is None:
        raise exceptions.NotFound(_("There is no game %(id)s.") % {"id": game_id})
    return game


_ENGINE_DEFAULTS: dict[str, Any] = {
    "seat": None,
    "phase": None,
    "card": None,
    "auction": None,
    "leader": None,
    "first_player": None,
    "turn": None,
    "to_act": [],
    "high_bid": 0,
    "deck_remaining": 0,
    "game_end_revealed": 0,
    "game_end_total": 4,
    "revealed": [],
    "game_end_cards": [],
    "removed": [],
    "seats": [],
    "hand": None,
    "discards": None,
    "sealed_choice": None,
    "moves": 0,
    "log": [],
}


def view_payload(view: TableView, ending: dict[str, Any] | None = None) -> dict[str, Any]:
    """The table's read model in the API's shape (GameViewSerializer); ``ending``, of a
    finished game: ``selectors.game_ending``, the end screen's rating changes."""
    data = view.to_json()
    players = (view.result or {}).get("players") or []
    data["ending"] = (
        {
            "places": view.places,
            "rating_changes": [ending["rating_changes"].get(p["seat"]) for p in players],
            "unrated_reason": ending["unrated_reason"] or None,
        }
        if players and ending is not None
        else None
    )
    if view.state is None:
        data = {**_ENGINE_DEFAULTS, **data}
    data.setdefault("memory_aid", view.options.memory_aid)
    data.setdefault("advanced", list(view.options.advanced))
    legal = view.legal
    data["legal_actions"] = (
        {**legal.to_json(), "types": list(legal.types), "seat": view.your_seat}
        if legal is not None
        else None
    )
    return GameViewSerializer(data).data


def _view_response(game: Game, user, code: int = status.HTTP_200_OK, **kwargs) -> Response:
    view = table_view(game=game, user=user)
    ending = game_ending(game=game, view=view) if view.result else None
    return Response(view_payload(view, ending), status=code, **kwargs)


def _seat_call(request: Request, game_id: int, service: Any) -> Response:
    """Join or leave: the service for the caller's seat, then the game view."""
    game = _game_get(game_id, request.user)
    service(game=game, user=request.user)
    return _view_response(game, request.user)


def _summary(game: Game, user) -> dict[str, Any]:
    seats = sorted(game.seats.all(), key=lambda s: s.position)
    host = hosts_waiting(game, user)
    mine = next((s for s in seats if s.user_id == user.pk), None)
    you = mine.position if mine is not None else None
    if mine is not None and mine.resigned and game.status == Game.Status.ACTIVE:
        you = None  # as the game's view says: a spectator's until the game ends
    return {
        "id": game.pk,
        "status": game.status,
        "version": game.version,
        "options": {
            "players": game.players,
            "advanced": list(game.advanced),
            "memory_aid": game.memory_aid,
            "move_deadline_hours": game.move_deadline_hours,
        },
        "created_by": game.created_by.public_username,
        "created_at": game.created_at,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
        "deadline_at": game.deadline_at,
        "open_seats": sum(1 for s in seats if s.is_open),
        "your_seat": you,
        "your_turn": (
            mine is not None
            and mine.accepted
            and not mine.is_bot
            and game_seat_is_to_act(game, you)
        ),
        "seats_info": [
            {
                "position": s.position,
                "display_name": name,  # as the game's own view names it (two easy bots: #1, #2)
                "username": s.user.public_username if s.user_id is not None else None,
                "is_bot": s.is_bot,
                "ai_level": s.ai_level,
                "is_open": s.is_open,
                "invited": s.invited,
                "held": s.held,
                "accepted": s.accepted,
                "resigned": s.resigned,
                "handed_over": s.handed_over,
                "is_you": s is mine,
                "declined_by": getattr(seat_declined_by(s, host=host), "public_username", None),
            }
            for s, name in zip(seats, seat_names(seats), strict=True)
        ],
    }


# --------------------------------------------------------------------------- views


class GamesView(ApiView):
    @extend_schema(
        operation_id="games_list",
        summary="List games",
        description=(
            "Tables and games, newest first (with `status=finished`: the latest to end first, "
            "as the history page lists them), paginated. Filter with `status` "
            "(open: waiting for players; active; finished) and `mine=true` (your games). A "
            "staff scenario table waiting for players is listed to those seated at it only."
        ),
        tags=["games"],
        parameters=[GameListQuerySerializer],
        responses={200: GamePageSerializer, **error_responses(400, 401, 404, 429)},
    )
    def get(self, request: Request) -> Response:
        query = query_once(request, GameListQuerySerializer)
        query.is_valid(raise_exception=True)
        games = Game.objects.exclude(status=Game.Status.ABANDONED)
        # A staff scenario table waiting for players (its deck or first player is known
        # to staff) is listed to those seated at it only, as in the lobby: its link is
        # shared by hand.
        seated = Exists(Seat.objects.filter(game=OuterRef("pk"), user=request.user))
        games = games.exclude(Q(status=Game.Status.OPEN) & SCENARIO & ~Q(seated))
        if "status" in query.validated_data:
            games = games.filter(status=query.validated_data["status"])
        if query.validated_data["mine"]:
            games = games.filter(seated)
        # Finished games by their end, as the history lists them: a long game that ended
        # today is news, however long ago it began.
        finished = query.validated_data.get("status") == Game.Status.FINISHED
        games = games_with_turn_fields(games.select_related("created_by")).order_by(
            "-finished_at" if finished else "-created_at", "-id"
        )
        paginator = PagePagination()
        page = paginator.paginate_queryset(games, request, view=self)
        prefetch_related_objects(page, seats_prefetch())
        return paginator.get_paginated_response(
            [GameSummarySerializer(_summary(game, request.user)).data for game in page]
        )

    @extend_schema(
        operation_id="games_create",
        summary="Open a table",
        description=(
            "You take seat 0 unless the seats say otherwise. The game starts at once when "
            "every seat is filled (bots, you); otherwise when the last player joins. Staff "
            "may fix `deck` and `first_player` (scenario games)."
        ),
        tags=["games"],
        request=GameCreateInputSerializer,
        examples=CREATE_EXAMPLES,
        parameters=[IDEMPOTENCY_KEY],
        responses={
            201: GameViewSerializer,
            200: OpenApiResponse(
                GameViewSerializer,
                description="The same `Idempotency-Key` opened this table already: its view.",
            ),
            **error_responses(400, 401, 403, 409, 413, 415, 429),
        },
    )
    def post(self, request: Request) -> Response:
        once = request.headers.get("Idempotency-Key")  # sent empty: refused, not "none"
        if once is not None and not IDEMPOTENCY_KEY_FORM.fullmatch(once):
            raise exceptions.ValidationError(
                {
                    "Idempotency-Key": _(
                        "The Idempotency-Key header is 1 to 40 letters, digits and "
                        "-_.~ (a random value per table you mean to open)."
                    )
                }
            )
        once = once or ""
        body = GameCreateInputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        options = dict(body.validated_data)
        if ("deck" in options or "first_player" in options) and not request.user.is_staff:
            raise exceptions.PermissionDenied(
                _("Only staff can fix the deck or the first player (scenario games).")
            )
        options["seats"] = [dict(seat) for seat in options["seats"]]
        try:
            game = services.game_create(creator=request.user, once=once, **options)
            answer = status.HTTP_201_CREATED
        except TableOpenedAlready as sent:  # a retry: the table the first request opened
            game, answer = sent.game, status.HTTP_200_OK
        location = reverse("api:game-detail", kwargs={"game_id": game.pk})
        return _view_response(game, request.user, answer, headers={"Location": location})


class GameDetailView(ApiView):
    @extend_schema(
        operation_id="games_retrieve",
        summary="Your view of a game",
        description=(
            "What your seat may see (a spectator's view if you have no seat): the table, "
            "the cards, bids and log, `version` (send it with your move) and "
            "`legal_actions`, what you may do now. Once the game is over, `result`. "
            "While you read it (as with the move log and your moves), you count as at the "
            "table: no turn e-mail is owed to you for the next 90 seconds."
        ),
        tags=["games"],
        parameters=[GAME_ID],
        responses={200: GameViewSerializer, **error_responses(401, 404, 429)},
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = _game_get(game_id, request.user, full=True)
        notifications.seat_seen(game_id=game.pk, user=request.user)  # at the table
        return _view_response(game, request.user)


class GameJoinView(ApiView):
    @extend_schema(
        operation_id="games_join",
        summary="Take a seat",
        description=(
            "Accept your invitation to this table (or take back the seat you declined or "
            "left, while it waits for the host), or take its lowest open seat. The game "
            "starts when every seat is filled. Sent again when you sit there already (a "
            "retry after a lost answer, even once the game has started), it answers 200 "
            "with the view and changes nothing."
        ),
        tags=["games"],
        parameters=[GAME_ID],
        request=None,
        responses={200: GameViewSerializer, **error_responses(401, 403, 404, 409, 429)},
    )
    def post(self, request: Request, game_id: int) -> Response:
        try:
            return _seat_call(request, game_id, services.game_join)
        except AlreadySeated:  # sent again (a retry after a lost answer): it is done
            return _view_response(_game_get(game_id, request.user), request.user)


SEAT_POSITION = OpenApiParameter(
    "position", int, OpenApiParameter.PATH, description="The seat's number, from 0."
)


class GameLeaveView(ApiView):
    @extend_schema(
        operation_id="games_leave",
        summary="Leave a table before it starts, or decline your invitation",
        description=(
            "Before the start: a seat you took as an open one opens to anyone again; the "
            "seat of an invitation (declined now, or accepted before) is `held` for the "
            "host's choice (not open to strangers), and you may take it back with `join/` "
            "while it waits. When the table's creator leaves, the table "
            "is closed (abandoned) at once, and everyone seated or invited there is "
            "e-mailed. Once the game has started, resign instead (`resign/`)."
        ),
        tags=["games"],
        parameters=[GAME_ID],
        request=None,
        responses={200: GameViewSerializer, **error_responses(401, 403, 404, 409, 429)},
    )
    def post(self, request: Request, game_id: int) -> Response:
        return _seat_call(request, game_id, services.game_leave)


class GameResignView(ApiView):
    @extend_schema(
        operation_id="games_resign",
        summary="Resign from a running game",
        description=(
            "Give up your seat in a game under way: a bot (medium) plays it to the end, so "
            "the others play on, and the game counts in nobody's rating. Your standing "
            "orders there are dropped. 409 before the start (leave instead), once the game "
            "is over, or when you have resigned already; 403 without a seat in the game."
        ),
        tags=["games"],
        parameters=[GAME_ID],
        request=None,
        responses={200: GameViewSerializer, **error_responses(401, 403, 404, 409, 429)},
    )
    def post(self, request: Request, game_id: int) -> Response:
        return _seat_call(request, game_id, services.game_resign)


class GameRematchView(ApiView):
    @extend_schema(
        operation_id="games_rematch",
        summary="Open the rematch of a finished game",
        description=(
            "A new table with the same seats in the same order and the same options, and a "
            "new shuffle: you are seated, the other people are invited again (their seats "
            "wait for them; an account closed since leaves its seat open), the bots play "
            "again; a player who blocks your invitations is not invited (their seat waits "
            "for the host, as a declined one). Against bots only it starts at once. One "
            "rematch per game: 201 with the new table's view (`Location` names it) when "
            "this call opened it, 200 with the same table when a player of the game "
            "already had (and your seat there taken, if you were still invited). A "
            "rematch its host closed before the start no longer counts. The finished "
            "game's view names it in `rematch`, the new one's names the old in "
            "`rematch_of`. 403 without a seat in the game; 409 before the end, on a "
            "table closed before it started, or over a limit on open tables (not the "
            "cap on invitations to one person a day: the people of the game just played "
            "are invited again)."
        ),
        tags=["games"],
        parameters=[GAME_ID],
        request=None,
        responses={
            201: GameViewSerializer,
            200: GameViewSerializer,
            **error_responses(401, 403, 404, 409, 429),
        },
    )
    def post(self, request: Request, game_id: int) -> Response:
        game = _game_get(game_id, request.user)
        rematch, opened = services.game_rematch(game=game, user=request.user)
        location = reverse("api:game-detail", kwargs={"game_id": rematch.pk})
        code = status.HTTP_201_CREATED if opened else status.HTTP_200_OK
        return _view_response(rematch, request.user, code, headers={"Location": location})


class GameSeatView(ApiView):
    @extend_schema(
        operation_id="games_seat_update",
        summary="Change a seat of your waiting table",
        description=(
            "For the table's creator, while the table waits for players: open a seat "
            "nobody has taken, give it to a bot, or invite a player there, written as in "
            "`seats` when opening a table. An unanswered invitation to that seat is "
            "withdrawn; a seat a player has taken stays theirs (409). The game starts when "
            "this fills the last seat. A seat that is already as asked (the same request "
            "sent again, even after it started the game) answers 200 and changes nothing."
        ),
        tags=["games"],
        parameters=[GAME_ID, SEAT_POSITION],
        request=SeatSpecSerializer,
        responses={
            200: GameViewSerializer,
            **error_responses(400, 401, 403, 404, 409, 413, 415, 429),
        },
    )
    def put(self, request: Request, game_id: int, position: int) -> Response:
        body = SeatSpecSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        game = _game_get(game_id, request.user)
        try:
            services.game_seat_set(
                game=game, user=request.user, position=position, seat=dict(body.validated_data)
            )
        except NoSuchSeat as error:
            raise _no_such_seat(error) from None
        return _view_response(game, request.user)


def _no_such_seat(error: NoSuchSeat) -> ApiError:
    """A seat number the table does not have: the path counts from 0, the pages' words
    from 1, so the API says its own range."""
    said = _(
        "There is no seat %(position)s at this table: seats are numbered from 0 to %(last)s."
    ) % {"position": error.position, "last": error.seats - 1}
    return ApiError(
        said, status_code=status.HTTP_400_BAD_REQUEST, code="invalid", errors={"position": [said]}
    )


class GameSeatHandOverView(ApiView):
    @extend_schema(
        operation_id="games_seat_hand_over",
        summary="Hand an away player's seat to a bot",
        description=(
            "For the table's creator, while the game runs: a bot (medium) plays the seat of "
            "a player who is away to the end of the game, for good; the player is still "
            "listed there (`seats_info[].handed_over`) and does not get the seat back. "
            "Allowed once the seat has missed `SEAT_TO_BOT_AFTER_TIMEOUTS` deadlines (2 "
            "unless the site says otherwise; `seats_info[].timeouts`), or, at a table "
            "without move deadlines, once its player, to act, has kept the table waiting "
            "`SEAT_TO_BOT_AFTER_IDLE_DAYS` days (7; from `seats_info[].idle_since`). "
            "Earlier, for anyone but the creator, for the creator's own seat (resign "
            "instead) or a bot's, and once the game is over: 409 `not_allowed`, saying "
            "why. A seat handed over already (the same request sent again) answers 200 "
            "and changes nothing."
        ),
        tags=["games"],
        parameters=[GAME_ID, SEAT_POSITION],
        request=None,
        responses={200: GameViewSerializer, **error_responses(400, 401, 403, 404, 409, 429)},
    )
    def post(self, request: Request, game_id: int, position: int) -> Response:
        game = _game_get(game_id, request.user)
        try:
            services.game_seat_to_bot(game=game, user=request.user, position=position)
        except NoSuchSeat as error:
            raise _no_such_seat(error) from None
        return _view_response(game, request.user)


class GameMovesView(ApiView):
    @extend_schema(
        operation_id="games_moves_list",
        summary="The public move log",
        description=(
            "Every move from `since` on, oldest first: bids are face up, so the log is "
            "public. A Yacht Club choice shows no card until all choices are revealed."
        ),
        tags=["games"],
        parameters=[GAME_ID, MovesQuerySerializer],
        responses={200: MoveLogSerializer, **error_responses(400, 401, 404, 429)},
    )
    def get(self, request: Request, game_id: int) -> Response:
        query = query_once(request, MovesQuerySerializer)
        query.is_valid(raise_exception=True)
        since, limit = query.validated_data["since"], query.validated_data["limit"]
        game = _game_get(game_id, request.user)
        notifications.seat_seen(game_id=game.pk, user=request.user)  # at the table
        # One statement: the moves and the game's phase and version from one snapshot,
        # so a sealed choice can never be shown as "already revealed" by a race.
        phase = Game.objects.filter(pk=game.pk).annotate(phase=KT("state__phase"))
        rows = list(
            Move.objects.filter(game=game, number__gte=since)
            .order_by("number")
            .annotate(
                game_phase=Subquery(phase.values("phase")),
                game_version=Subquery(phase.values("version")),
            )
            .values(
                "number", "seat", "action", "actor", "created_at", "game_phase", "game_version"
            )[: limit + 1]
        )
        more = len(rows) > limit
        rows = rows[:limit]
        if rows and rows[0]["game_phase"] == SEALED:
            _sealed_choices_hide(rows)
        version = rows[0]["game_version"] if rows else game.version
        for row in rows:
            del row["game_phase"], row["game_version"]
        payload = {
            "game": game.pk,
            "version": version,
            "since": since,
            "moves": rows,
            "next_since": rows[-1]["number"] + 1 if more else None,
        }
        return Response(MoveLogSerializer(payload).data)

    @extend_schema(
        operation_id="games_moves_create",
        summary="Make a move",
        description=(
            "Send an action (docs/api.md: bid, pass, discard, sealed_bid; `seat` may be left "
            "out) with `version`, the game version you saw. Answers 201 with your new view "
            "of the game; 400 with the rules' sentence for an illegal action; 403 for a "
            "seat that is not yours; 409 when `version` is not the current one, so a "
            "repeated request never makes a second move. The same move sent again (a "
            "retry after a lost answer) is answered 200 with your view when it is your "
            "first own move since that `version`: it counted once. Sending a move counts "
            "as being at the table (no turn e-mail meanwhile)."
        ),
        tags=["games"],
        parameters=[GAME_ID],
        request=MoveInputSerializer,
        examples=MOVE_EXAMPLES,
        responses={
            201: GameViewSerializer,
            200: GameViewSerializer,
            **error_responses(400, 401, 403, 404, 409, 413, 415, 429, examples=True),
        },
    )
    def post(self, request: Request, game_id: int) -> Response:
        body = MoveInputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        action = body.action()
        if not 0 < game_id <= MAX_ID:
            raise exceptions.NotFound(_("There is no game %(id)s.") % {"id": game_id})
        # No read first: the service locks and loads the row; a missing game is the
        # rare case, told apart from its other refusals only when one happens.
        game = Game(pk=game_id)
        # The player is at the table: no turn e-mail for them meanwhile.
        notifications.seat_seen(game_id=game_id, user=request.user)
        try:
            game = services.game_submit_action(
                game=game,
                user=request.user,
                action=action,
                expected_version=body.validated_data["version"],
            )
        except (NotYourSeat, VersionConflict) as error:
            version = body.validated_data["version"]
            if move_made_already(
                game=game, user=request.user, version=version, action=action
            ):  # sent again after a lost answer: it counted once, and is answered so
                return _view_response(_game_get(game_id, request.user), request.user)
            if isinstance(error, VersionConflict):
                raise
            _game_get(game_id, request.user)  # an abandoned table: 404 unless you sat there
            _not_your_seat_explain(game, request.user, action, error)
        except NotAllowed:
            _game_get(game_id, request.user)  # 404 when there is no such game (for you)
            raise
        return _view_response(game, request.user, status.HTTP_201_CREATED)


def _sealed_choices_hide(rows: list[dict[str, Any]]) -> None:
    """While the Yacht Club choices are being made, the choices of this auction (the
    sealed_bid moves after the last other move) show who chose, not what."""
    for row in reversed(rows):
        if row["action"].get("type") != "sealed_bid":
            break
        row["action"] = {"seat": row["action"]["seat"], "type": "sealed_bid"}


def _not_your_seat_explain(game: Game, user, action: dict[str, Any], error: NotYourSeat):
    """The service says NotYourSeat both for a seat that is not the caller's (403) and
    for the caller's own seat out of turn (400, not_your_turn): tell them apart."""
    seat = Seat.objects.filter(game=game, user=user).first()
    own = (
        seat is not None
        and seat.accepted
        and not seat.resigned
        and action.get("seat", seat.position) == seat.position
    )
    if own:
        raise NotYourTurn(str(error)) from None
    raise error


def _chat_payload(game: Game, user, after: int | None = None) -> dict[str, Any]:
    """The chat's answer: its latest lines, or with ``after`` the page after that line."""
    if after is None:
        lines, next_after = chat_lines(game=game, user=user), None
    else:  # one more than a page: is there more to read after this page?
        lines = chat_lines(game=game, user=user, after=after, limit=CHAT_LINES + 1)
        next_after = lines[CHAT_LINES - 1].id if len(lines) > CHAT_LINES else None
        lines = lines[:CHAT_LINES]
    return {
        "game": game.pk,
        "messages": [line.to_json() for line in lines],
        "next_after": next_after,
    }


def _chat_game(request: Request, game_id: int) -> Game:
    """The game whose chat the caller reads, writes or reports in: theirs, not closed."""
    game = _game_get(game_id, request.user)
    if game.status == Game.Status.ABANDONED:  # nobody's chat any more: 409, as documented
        raise NotAllowed(_("This table was closed."))
    if not chat_open_to(game, request.user):
        if Seat.objects.filter(game=game, user=request.user, accepted=False).exists():
            raise not_seated(invited=True)  # what to do, not only what is refused
        raise NotYourSeat(_("Only the players at this table can read and write its chat."))
    return game


class GameChatView(ApiView):
    """The table's chat: for the players seated at it (accepted), not for spectators."""

    @extend_schema(
        operation_id="games_chat_list",
        summary="The table's chat",
        description=(
            "The latest 50 messages of the players at this table, oldest first, without "
            "those of players you muted on the board; with `after`, the first 50 written "
            "after that message, and `next_after` to read on from when there are more. "
            "403 unless you have a seat here; 409 when the table was abandoned."
        ),
        tags=["games"],
        parameters=[GAME_ID, ChatQuerySerializer],
        responses={200: ChatSerializer, **error_responses(400, 401, 403, 404, 409, 429)},
    )
    def get(self, request: Request, game_id: int) -> Response:
        query = query_once(request, ChatQuerySerializer)
        query.is_valid(raise_exception=True)
        game = _chat_game(request, game_id)
        notifications.seat_seen(game_id=game.pk, user=request.user)  # at the table
        after = query.validated_data.get("after")
        return Response(ChatSerializer(_chat_payload(game, request.user, after)).data)

    @extend_schema(
        operation_id="games_chat_create",
        summary="Send a chat message",
        description=(
            "One line to the other players at the table (at most 300 characters; five "
            "messages per 30 seconds). Answers 201 with the chat; 400 for an empty or "
            "long message; 403 unless you have a seat here; 409 when the table was "
            "abandoned; 429 `throttled` when you are sending too fast, with `Retry-After`, "
            "the seconds until the next message is taken."
        ),
        tags=["games"],
        parameters=[GAME_ID],
        request=ChatInputSerializer,
        responses={201: ChatSerializer, **error_responses(400, 401, 403, 404, 409, 413, 415, 429)},
    )
    def post(self, request: Request, game_id: int) -> Response:
        body = ChatInputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        game = _chat_game(request, game_id)
        chat.chat_post(game=game, user=request.user, text=body.validated_data["text"])
        return Response(
            ChatSerializer(_chat_payload(game, request.user)).data, status=status.HTTP_201_CREATED
        )


class GameChatReportView(ApiView):
    @extend_schema(
        operation_id="games_chat_report",
        summary="Report a chat message to the staff",
        description=(
            "Report another player's message at this table as abusive or unwelcome: the "
            "staff read reported messages and may hide them (then nobody sees them any "
            "more, in the chat or in e-mails). Answers 200 with the chat, where that "
            "line now reads `reported: true`; reported again, it is one report. 403 "
            "unless you have a seat here; 409 `not_allowed` for your own message, or a "
            "message this table does not have (or no longer shows), or when the table was "
            "abandoned. Muting its author (on the board) hides their messages from you."
        ),
        tags=["games"],
        parameters=[
            GAME_ID,
            OpenApiParameter(
                "message_id",
                int,
                OpenApiParameter.PATH,
                description="The message's `id`, as the chat lists it.",
            ),
        ],
        request=None,
        responses={200: ChatSerializer, **error_responses(401, 403, 404, 409, 429)},
    )
    def post(self, request: Request, game_id: int, message_id: int) -> Response:
        game = _chat_game(request, game_id)
        chat.chat_report(game=game, user=request.user, message=message_id)
        return Response(ChatSerializer(_chat_payload(game, request.user)).data)


class GameOrdersView(ApiView):
    """Your own standing orders at this table: hidden information, for you alone."""

    def _orders(self, request: Request, game_id: int) -> Response:
        game = _game_get(game_id, request.user, full=True)
        view = table_view(game=game, user=request.user)
        orders = orders_view(game=game, view=view)
        if orders is None:
            raise orders_refusal_for(view) or NotYourSeat(
                _("You do not have a seat at this table.")
            )
        return Response(OrdersSerializer(orders.to_json()).data)

    @extend_schema(
        operation_id="games_orders_retrieve",
        summary="Your standing orders",
        description=(
            "Your order for the card up for auction and your defaults for the coming "
            "auctions. Nobody else ever sees them; the moves they make are public, with "
            "actor `order`. 403 without a seat at this table; 409 as `PUT` answers it: "
            "`not_allowed` before the start, once you resigned or on a table closed "
            "before it started, `auction_over` once the game is over."
        ),
        tags=["games"],
        parameters=[GAME_ID],
        responses={200: OrdersSerializer, **error_responses(401, 403, 404, 409, 429)},
    )
    def get(self, request: Request, game_id: int) -> Response:
        return self._orders(request, game_id)

    @extend_schema(
        operation_id="games_orders_update",
        summary="Leave or change standing orders",
        description=(
            "Sets your order for the card up for auction (`for_card`, `order`) and/or your "
            "defaults for the coming auctions; a part left out stays as it is, an order sent "
            "replaces the stored order as a whole, defaults change field by field (a field "
            "left out stays), null clears either. An order that answers now plays at once "
            "(your turn), and on as "
            "the others move, until the auction ends. 400 for an order that could never "
            "act (a maximum that does not beat the high bid, cards you do not hold); 409 "
            "when the auction of `for_card` has ended or the game is over."
        ),
        tags=["games"],
        parameters=[GAME_ID],
        request=OrdersInputSerializer,
        examples=ORDER_EXAMPLES,
        responses={
            200: OrdersSerializer,
            **error_responses(400, 401, 403, 404, 409, 413, 415, 429),
        },
    )
    def put(self, request: Request, game_id: int) -> Response:
        body = OrdersInputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        game = _game_get(game_id, request.user)
        notifications.seat_seen(game_id=game.pk, user=request.user)
        services.game_orders_set(game=game, user=request.user, **body.changes())
        return self._orders(request, game_id)

    @extend_schema(
        operation_id="games_orders_destroy",
        summary="Cancel all your standing orders",
        description="Cancels your order for the card up and your defaults. Answers 204.",
        tags=["games"],
        parameters=[GAME_ID],
        responses={204: None, **error_responses(401, 403, 404, 429)},
    )
    def delete(self, request: Request, game_id: int) -> Response:
        game = _game_get(game_id, request.user)
        services.game_orders_cancel(game=game, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
