"""The game pages: lobby, new table, the board and its moves (STYLE.md practice 7).

Each view parses its input, calls one service or selector and renders.  Templates draw
only ``game_view_for_user``'s dict (plus the table's public options): the state itself
never reaches a template.  HTMX requests get the ``board`` partial of ``games/game.html``;
plain requests get the whole page, so every control also works as an ordinary form.
"""

from __future__ import annotations

from datetime import datetime
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.dateparse import parse_datetime
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect

from games import notifications, selectors, services
from games.engine import LUXURY_VALUE, card_name, money_text
from games.errors import GameError
from games.forms import ActionForm, GameCreateForm, bid_preview, parse_cards
from games.models import Game
from games.templatetags.game_cards import card_kind_word

BOARD = "games/game.html"


def login_required(view: Any) -> Any:
    """Like Django's, but an htmx request is sent to the log-in page as a whole page
    (``HX-Redirect``) instead of having the log-in form swapped into the board."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.user.is_authenticated:
            return view(request, *args, **kwargs)
        if request.method == "GET":
            back = request.get_full_path()
        else:  # after logging in, come back to the table, not to a form's target
            back = reverse("games:detail", args=[kwargs["game_id"]]) if "game_id" in kwargs else "/"
        login = redirect_to_login(back)
        return HttpResponseClientRedirect(login["Location"]) if request.htmx else login

    return wrapper


def game_or_404(request: HttpRequest, game_id: int) -> Game:
    """The game, or 404.  Abandoned tables exist only for the people who sat there, as
    in the API (``games.api.views._game_get``): for anyone else there is no such table."""
    game = get_object_or_404(Game, pk=game_id)
    if game.status == Game.Status.ABANDONED and not (
        request.user.is_authenticated and game.seats.filter(user=request.user).exists()
    ):
        raise Http404("No such table.")
    return game


# --------------------------------------------------------------------------- pages


@require_safe
def lobby(request: HttpRequest) -> HttpResponse:
    """Open tables to join; for a signed-in player also their games, their turn first."""
    user = request.user if request.user.is_authenticated else None
    context = {
        "open_games": selectors.games_open(user=user),
        "my_games": selectors.games_for_user(user=user) if user else [],
    }
    return render(request, "games/lobby.html", context)


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def game_new(request: HttpRequest) -> HttpResponse:
    """The create-table form; the service's objections are shown as form errors."""
    # An empty POST is a form with nothing filled in (errors), not a fresh form.
    form = GameCreateForm(request.POST if request.method == "POST" else None, creator=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            game = services.game_create(creator=request.user, **form.service_kwargs())
        except GameError as error:
            form.add_service_error(str(error))
        else:
            return redirect("games:detail", game_id=game.pk)
    status = 400 if form.is_bound else 200
    return render(request, "games/new.html", {"form": form}, status=status)


@never_cache
@require_safe
def game_detail(request: HttpRequest, game_id: int) -> HttpResponse:
    """The board (or the seats of a table that has not started)."""
    return _board_response(request, game_or_404(request, game_id))


@never_cache
@require_safe
def game_board(request: HttpRequest, game_id: int) -> HttpResponse:
    """The polled partial: 204 (htmx swaps nothing) while the table is unchanged.

    ``version`` is the number of moves the page shows and ``t`` when the table last
    changed (seats and resignations change no version).  The check reads three columns
    of one row; only a changed table is loaded and drawn.
    """
    row = Game.objects.filter(pk=game_id).values_list("version", "updated_at", "status").first()
    if row is None:
        raise Http404("No such table.")
    version, updated_at, status = row
    if status == Game.Status.ABANDONED:
        game_or_404(request, game_id)  # 404 unless the caller sat there
    notifications.seat_seen_from_request(request, game_id=game_id)  # no turn e-mail meanwhile
    seen_t = request.GET.get("t")
    if request.GET.get("version") == str(version) and seen_t in (None, _stamp(updated_at)):
        return HttpResponse(status=204)
    return _board_response(request, game_or_404(request, game_id))


@never_cache
@require_safe
def game_bid_preview(request: HttpRequest, game_id: int) -> HttpResponse:
    """What the ticked cards would bid ("would total 14,000 — beats 12,000"), or why not."""
    game = game_or_404(request, game_id)
    cards, problem = parse_cards(request.GET.getlist("cards"))
    view = selectors.game_view_for_user(game=game, user=_user(request))
    legal = _summary(view)
    ok, text = (False, problem) if problem else bid_preview(legal, cards)
    context = board_context(
        view, options=table_options(game), selected=set(cards), preview=(ok, text)
    )
    template = f"{BOARD}#bid-preview" if request.htmx else BOARD
    return render(request, template, context)


@never_cache
@require_POST
@login_required
def game_act(request: HttpRequest, game_id: int) -> HttpResponse:
    """Bid, pass, Theft's discard or the sealed Yacht Club choice, at the page's version."""
    game = game_or_404(request, game_id)
    form = ActionForm(request.POST)
    if not form.is_valid():
        return _board_response(
            request, game, error=form.error_text(), selected=form.selected_cards()
        )
    try:
        services.game_submit_action(
            game=game,
            user=request.user,
            action=form.action(),
            expected_version=form.cleaned_data["version"],
        )
    except GameError as error:
        return _board_response(request, game, error=str(error), selected=form.selected_cards())
    return _after_post(request, game_id)


@never_cache
@require_POST
@login_required
def game_join(request: HttpRequest, game_id: int) -> HttpResponse:
    return _table_post(request, game_id, services.game_join, "You have joined the table.")


@never_cache
@require_POST
@login_required
def game_leave(request: HttpRequest, game_id: int) -> HttpResponse:
    return _table_post(request, game_id, services.game_leave, "You have left the table.")


@never_cache
@require_POST
@login_required
def game_resign(request: HttpRequest, game_id: int) -> HttpResponse:
    return _table_post(
        request, game_id, services.game_resign, "You resigned; a bot plays your seat from now on."
    )


@never_cache
@require_POST
@login_required
def game_invitation(request: HttpRequest, game_id: int) -> HttpResponse:
    """Accept (``accept=yes``) or decline (``accept=no``) an invitation to a seat."""
    answer = request.POST.get("accept")
    if answer not in ("yes", "no"):
        game = game_or_404(request, game_id)
        return _board_response(request, game, error="Choose to accept or to decline.")

    def respond(*, game: Game, user: Any) -> Any:
        return services.game_invitation_respond(game=game, user=user, accept=answer == "yes")

    done = "You have taken your seat." if answer == "yes" else "You declined the invitation."
    return _table_post(request, game_id, respond, done)


# --------------------------------------------------------------------------- helpers


def _user(request: HttpRequest) -> Any:
    return request.user if request.user.is_authenticated else None


def _table_post(request: HttpRequest, game_id: int, service: Any, done: str) -> HttpResponse:
    """Join, leave, resign, answer an invitation: one service call, then the board."""
    game = game_or_404(request, game_id)
    try:
        service(game=game, user=request.user)
    except GameError as error:
        return _board_response(request, game, error=str(error))
    if not request.htmx:
        messages.success(request, done)
    return _after_post(request, game_id)


def _after_post(request: HttpRequest, game_id: int) -> HttpResponse:
    """After a change: htmx gets the fresh board, a plain form is redirected to it
    (post/redirect/get).  The table is read again: bots may have moved meanwhile."""
    if request.htmx:
        return _board_response(request, game_or_404(request, game_id))
    return redirect("games:detail", game_id=game_id)


def _board_response(
    request: HttpRequest,
    game: Game,
    *,
    error: str | None = None,
    selected: set[int] | None = None,
) -> HttpResponse:
    view = selectors.game_view_for_user(game=game, user=_user(request))
    context = board_context(view, options=table_options(game), error=error, selected=selected)
    # A refused move is answered 400 for a plain form; htmx needs 200 to swap the message in.
    status = 400 if error and not request.htmx else 200
    return render(request, f"{BOARD}#board" if request.htmx else BOARD, context, status=status)


def table_options(game: Game, *, live: bool = True) -> dict[str, Any]:
    """The table's public settings (never its state).  ``live``: the board polls, so it
    carries the stamp of the row's last change (a replay does not poll: no stamp)."""
    return {
        "players": game.players,
        "advanced": list(game.advanced or ()),
        "memory_aid": game.memory_aid,
        "move_deadline_hours": game.move_deadline_hours,
        "created_by_id": game.created_by_id,
        "stamp": _stamp(game.updated_at) if live else "",
    }


def _stamp(moment: datetime | None) -> str:
    """When the table last changed, as the polling partial sends it back."""
    return str(int(moment.timestamp() * 1000)) if moment is not None else "0"


# --------------------------------------------------------------------------- presentation
# The view dict, turned into what the board template draws: names beside seats,
# headlines in words, score breakdowns.  Everything here comes from the view dict.

AUCTION_HELP = {
    "normal": "The highest bid takes it once everyone else has passed. Passing takes your bid back into hand.",
    "misfortune": "Bid to avoid it. The first player to pass takes it and keeps their money; everyone else loses what they bid.",
    "sealed": "Everyone with money chooses one card in secret. The highest value chosen by exactly one player wins; every chosen card is spent.",
}
DECIDED_BY = {
    "status": "highest status",
    "money": "tied on status, more money",
    "top luxury": "tied on status and money, most valuable luxury",
    "shared": "tied on status, money and top luxury: a shared win",
}


def _summary(view: dict[str, Any]) -> dict[str, Any]:
    legal = view.get("legal_actions")
    return legal if isinstance(legal, dict) else {}


def _names(view: dict[str, Any]) -> list[str]:
    info = view.get("seats_info") or []
    return [row.get("display_name") or f"Seat {i + 1}" for i, row in enumerate(info)]


def _join_names(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def board_context(
    view: dict[str, Any],
    *,
    options: dict[str, Any],
    error: str | None = None,
    selected: set[int] | None = None,
    preview: tuple[bool, str] | None = None,
) -> dict[str, Any]:
    """The board template's context, derived from the view dict alone."""
    status = view.get("status")
    names = _names(view)
    you = view.get("your_seat")
    deadline = view.get("deadline_at")
    if isinstance(deadline, str):
        deadline = parse_datetime(deadline)
    context: dict[str, Any] = {
        "view": view,
        "options": options,
        "error": error,
        "selected": selected or set(),
        "preview": preview,
        "names": names,
        "you": you,
        "deadline_at": deadline,
        "poll": status in ("open", "active"),
        "stamp": options.get("stamp", ""),
        "legal": _summary(view),
        "my_info": next((row for row in view.get("seats_info") or [] if row.get("is_you")), None),
    }
    if status == "open" or not view.get("seats"):
        context["open_seats"] = _open_seats(view, names)
        context["me_invited"] = any(
            r.get("is_you") and r.get("invited") for r in context["open_seats"]
        )
        return context
    context["players"] = _players(view, names)
    context.update(_headline(view, names))
    if view.get("phase") == "over" or status == "finished":
        context["scores"] = _scores(view, names)
    context["log_lines"] = list(reversed(view.get("log_text") or []))
    return context


def _open_seats(view: dict[str, Any], names: list[str]) -> list[dict[str, Any]]:
    return [
        {**row, "number": i + 1, "name": names[i]}
        for i, row in enumerate(view.get("seats_info") or [])
    ]


def _players(view: dict[str, Any], names: list[str]) -> list[dict[str, Any]]:
    info = view.get("seats_info") or []
    to_act = set(view.get("to_act") or [])
    high = view.get("high_bid") or 0
    players = []
    for row in view.get("seats") or []:
        pos = row["seat"]
        players.append(
            {
                **row,
                "name": names[pos] if pos < len(names) else f"Seat {pos + 1}",
                "info": info[pos] if pos < len(info) else {},
                "to_act": pos in to_act,
                "leading": bool(high) and row.get("bid_total") == high,
                "is_you": pos == view.get("your_seat"),
                "is_leader": pos == view.get("leader") and view.get("phase") != "over",
            }
        )
    return players


def _headline(view: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """The banner (whose turn, in words), the auction's title and its explanation."""
    phase, card, kind = view.get("phase"), view.get("card"), view.get("auction")
    you, to_act = view.get("your_seat"), list(view.get("to_act") or [])
    waiting = _join_names([names[s] for s in to_act if s < len(names)])
    legal = _summary(view)
    mine = you is not None and you in to_act
    out: dict[str, Any] = {"my_turn": mine, "auction_title": "", "auction_help": "", "tray": None}
    if card:
        if kind == "sealed":
            out["auction_title"] = "Yacht Club — sealed choice"
        elif kind == "misfortune":
            out["auction_title"] = "Misfortune — the first to pass takes it"
        else:
            out["auction_title"] = f"{card_kind_word(card)} — normal auction"
        out["auction_help"] = AUCTION_HELP.get(kind or "", "")
    high = view.get("high_bid") or 0
    leaders = [p for p in view.get("seats") or [] if high and p.get("bid_total") == high]
    out["high_bid_text"] = (
        f"Highest bid {money_text(high)} · {names[leaders[0]['seat']]}"
        if leaders
        else "No bids yet"
    )
    if phase == "over":
        rows = view.get("score_details") or []
        winners = [names[r["seat"]] for r in rows if r.get("winner") and r["seat"] < len(names)]
        if not winners:
            text = "The game is over: everyone tied for the least money, so nobody wins."
        elif len(winners) == 1:
            text = f"The game is over: {winners[0]} wins."
        else:
            text = f"The game is over: {_join_names(winners)} share the win."
        out.update(headline=text, tone="over")
        return out
    if phase == "theft":
        owner = names[to_act[0]] if to_act else "Theft's owner"
        out["auction_title"] = f"Theft — {owner} discards a luxury"
        out["auction_help"] = (
            "Theft's new owner chooses one of their luxury cards; it leaves the game with Theft."
        )
    if mine:
        out["tone"] = "you"
        if phase == "theft":
            out.update(headline="Theft: choose one of your luxuries to discard.", tray="theft")
        elif phase == "sealed":
            out.update(headline="Yacht Club: choose one money card in secret.", tray="sealed")
        elif kind == "misfortune":
            out.update(
                headline=f"Your turn: bid to avoid {card_name(card)}, or pass and take it.",
                tray="bid",
            )
        else:
            to_beat = legal.get("to_beat") or 0
            beat = f" more than {money_text(to_beat)}" if to_beat else ""
            out.update(headline=f"Your turn: bid{beat} for {card_name(card)}, or pass.", tray="bid")
        return out
    out["tone"] = "wait"
    if phase == "sealed":
        chosen = view.get("sealed_choice")
        if you is not None and chosen:
            out.update(
                headline=f"You chose {money_text(chosen)}. Waiting for {waiting} to choose.",
                tray="sealed_done",
            )
        else:
            out["headline"] = f"Waiting for {waiting} to choose a card for the Yacht Club."
            out["tray"] = "watch" if you is not None else None
        return out
    out["headline"] = f"Waiting for {waiting}." if waiting else "Waiting."
    out["tray"] = "watch" if you is not None else None
    return out


def _scores(view: dict[str, Any], names: list[str]) -> list[dict[str, Any]]:
    rows = []
    for row in view.get("score_details") or []:
        rows.append(
            {
                **row,
                "name": names[row["seat"]]
                if row["seat"] < len(names)
                else f"Seat {row['seat'] + 1}",
                "steps": _status_steps(row),
                "cards": [
                    *(row.get("luxuries") or []),
                    *(["debt"] if row.get("debt") else []),
                    *(["prestige"] * int(row.get("prestige") or 0)),
                    *(["scandal"] if row.get("scandal") else []),
                    *(["gambling"] if row.get("gambling") else []),
                ],
                "decided": DECIDED_BY.get(row.get("decided_by") or "", ""),
                "is_you": row["seat"] == view.get("your_seat"),
            }
        )
    rows.sort(
        key=lambda r: (not r.get("winner"), bool(r.get("cast_out")), -r["status"], -r["money"])
    )
    return rows


def _status_steps(row: dict[str, Any]) -> list[str]:
    """How a status was reached, step by step (RULES.md scoring order)."""
    values = [LUXURY_VALUE.get(c, 0) for c in row.get("luxuries") or []]
    status = sum(values)
    steps = [
        f"Luxuries {' + '.join(map(str, values))} = {status}"
        if len(values) > 1
        else f"Luxuries {status}"
    ]
    if row.get("debt"):
        status -= 5
        steps.append(f"Debt −5 → {status}")
    if row.get("prestige"):
        factor = 2 ** row["prestige"]
        status *= factor
        steps.append(f"Prestige ×{factor} → {status}")
    if row.get("scandal"):
        status //= 2
        steps.append(f"Scandal ½ → {status}")
    return steps


@login_required
@require_POST
def game_seat_to_bot(request: HttpRequest, game_id: int) -> HttpResponse:
    """Async play: the table's creator hands the seat of a player who keeps missing
    deadlines to a bot.  A plain form: the answer is the board again, with a message."""
    game = game_or_404(request, game_id)
    position = request.POST.get("position", "")
    try:
        services.game_seat_to_bot(
            game=game,
            user=request.user,
            position=int(position) if position.isdecimal() else position,
        )
    except GameError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, "A bot plays that seat from now on.")
    return redirect("games:detail", game_id=game_id)
