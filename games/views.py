"""The game pages: lobby, new table, the board and its moves.

Each view parses its input, calls one service or selector and renders.  Templates draw
only the table's read model (``selectors.table_view``, plus the table's public options)
and the presenter's sentences: the state itself never reaches a template.  HTMX requests get the ``board`` partial of ``games/game.html``;
plain requests get the whole page, so every control also works as an ordinary form.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta
from functools import partial, wraps
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import SESSION_KEY, get_user_model
from django.core.handlers.asgi import ASGIRequest
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import (
    require_GET,
    require_http_methods,
    require_POST,
    require_safe,
)
from django_htmx.http import HttpResponseClientRedirect

from games import chat, live, notifications, presenter, selectors, services
from games.chat import chat_barred_until
from games.errors import (
    GameError,
    NotYourSeat,
    OrdersChanged,
    TableOpenedAlready,
    VersionConflict,
)
from games.forms import (
    SEAT_CHOICES,
    ActionForm,
    GameCreateForm,
    OrderForm,
    QuickGameForm,
    SeatChangeForm,
    money_amount,
    parse_cards,
)
from games.middleware import TableClosed
from games.models import Game
from games.read_model import TableView
from games.templatetags.game_cards import bot_level
from ops.login import login_first
from ops.numbers import digits
from ops.outages import DATABASE_ERRORS

BOARD = "games/game.html"
LOBBY_INVITATIONS = 10  # invitations the lobby lists before "and N more"


def login_required(view: Any) -> Any:
    """Like Django's, but a form comes back to its table after the log-in, and an htmx
    request gets the log-in page whole (ops.login)."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.user.is_authenticated:
            return view(request, *args, **kwargs)
        # After logging in, a form comes back to its table, not to the form's target;
        # the create-table form to itself; the lobby's own forms to the lobby.
        if "game_id" in kwargs:
            back = reverse("games:detail", args=[kwargs["game_id"]])
        else:
            back = request.path if request.path == reverse("games:new") else "/"
        return login_first(request, back)

    return wrapper


def game_or_404(request: HttpRequest, game_id: int) -> Game:
    """The game, or 404.  Of an abandoned table, anyone who did not sit there learns
    only that it was closed (``games.middleware``: 410, and no seats nor names)."""
    game = get_object_or_404(Game, pk=game_id)
    if game.status == Game.Status.ABANDONED and not (
        request.user.is_authenticated and game.seats.filter(user=request.user).exists()
    ):
        raise TableClosed(_("This table was closed."))  # its page says so (games.middleware)
    return game


# --------------------------------------------------------------------------- pages


@never_cache  # "Your turn" changes with each move: Back must not show an old copy
@require_safe
def lobby(request: HttpRequest) -> HttpResponse:
    """Open tables to join; for a signed-in player also their games, their turn first."""
    user = request.user if request.user.is_authenticated else None
    my_games = selectors.games_for_user(user=user) if user else []
    invitations = [g.pk for g in my_games if g.status == "open" and g.your_seat.invited]
    # Invitations come from any number of hosts: past the first few (the newest), the
    # list says how many more there are and shows them all on request.
    all_invitations = request.GET.get("invitations") == "all"
    hidden = set() if all_invitations else set(invitations[LOBBY_INVITATIONS:])
    context = {
        "open_games": selectors.lobby_page(user=user, page=request.GET.get("page") or 1),
        # A first game: everyone's money shown (the memory aid), so that a newcomer sees
        # being cast out coming; unticked, the table is as any other.
        "quick_form": QuickGameForm(initial={"memory_aid": selectors.is_newcomer(user)})
        if user
        else None,
        "my_games": [g for g in my_games if g.pk not in hidden],
        "invitations_hidden": len(hidden),
        "all_invitations": all_invitations,
        "has_invitations": bool(invitations),
        # Only the latest finished games are listed: the rest are in the history.
        "has_finished": any(g.status == Game.Status.FINISHED for g in my_games),
        # The header's count, from the list just read (the same rule as the context
        # processor's query, which this spares).
        "turns_waiting": sum(1 for g in my_games if g.your_turn),
        "turns_poll": False,  # redrawn with the lists below, every 20 s
    }
    # The page asks again every 20 s (htmx): nothing is sent back while the lists read
    # the same (204), else the lists and the header's count are redrawn.
    context["stamp"] = _lobby_stamp(my_games, context["open_games"].object_list)
    if request.htmx and request.GET.get("stamp") == context["stamp"]:
        return HttpResponse(status=204)
    if not request.htmx:  # the refresh swaps in the player's lists only, never these
        context["watch_games"] = selectors.games_to_watch(user=user)
        context["finished_games"] = selectors.games_just_finished(user=user)
    return render(request, "games/lobby.html", context)


@never_cache
@require_safe
def turns_badge(request: HttpRequest) -> HttpResponse:
    """The header's "Your turn" count alone, asked for every minute by every page but
    the lobby (``_turns_badge.html``): a board left open shows a turn at another
    table.  Nothing to swap (204) for a visitor, whose header has no count (a session
    ended in another tab: the page's own checks redraw it), or when the database cannot
    say (the count shown stays)."""
    if not request.user.is_authenticated:
        return HttpResponse(status=204)
    try:
        count = selectors.turns_waiting_count(request.user)
    except DATABASE_ERRORS:
        return HttpResponse(status=204)
    return render(request, "_turns_badge.html", {"turns_waiting": count, "turns_poll": True})


def _lobby_stamp(*lists: Any) -> str:
    """What the lobby's lists show, in a few characters: each game's id, version,
    status, last change, whose turn it is and, for the player's own turns, when the
    move is due in words (which changes as time passes, with nothing else)."""
    now = timezone.now()
    seen = []
    for games in lists:
        for g in games:
            turn = getattr(g, "your_turn", None)  # the player's own games only
            due = presenter.turn_due_text(g.deadline_at, now) if turn else ""
            seen.append((g.pk, g.version, g.status, g.updated_at.isoformat(), turn, due))
    return hashlib.sha256(repr(seen).encode()).hexdigest()[:16]


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def game_new(request: HttpRequest) -> HttpResponse:
    """The create-table form; the service's objections are shown as form errors."""
    # An empty POST is a form with nothing filled in (errors), not a fresh form.
    form = GameCreateForm(request.POST if request.method == "POST" else None, creator=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            game = services.game_create(creator=request.user, **form.service_kwargs())
        except TableOpenedAlready as sent:  # the form came twice: its table, once
            return redirect("games:detail", game_id=sent.game.pk)
        except GameError as error:
            form.add_service_error(str(error))
        else:
            return redirect("games:detail", game_id=game.pk)
    status = 400 if form.is_bound else 200
    return render(request, "games/new.html", {"form": form}, status=status)


@require_POST
@login_required
def game_quick(request: HttpRequest) -> HttpResponse:
    """The lobby's "Play now": a table against bots of one level, started at once; an
    objection (the limit of bot-only games) goes back to the lobby as a message."""
    form = QuickGameForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose 3, 4 or 5 players and a bot level to play now."))
        return redirect("lobby")
    try:
        game = services.game_create(creator=request.user, **form.service_kwargs())
    except TableOpenedAlready as sent:  # the form came twice: its table, once
        return redirect("games:detail", game_id=sent.game.pk)
    except GameError as error:
        messages.error(request, str(error))
        return redirect("lobby")
    return redirect("games:detail", game_id=game.pk)


@never_cache
@require_safe
def game_detail(request: HttpRequest, game_id: int) -> HttpResponse:
    """The board (or the seats of a table that has not started).  Opened from an
    e-mail sent to someone else (``?for=``), it says whose link it is."""
    game = game_or_404(request, game_id)
    reader = selectors.link_reader(game, _user(request), request.GET.get("for"))
    return _board_response(request, game, link_reader=reader)


@never_cache
@require_safe
def game_board(request: HttpRequest, game_id: int) -> HttpResponse:
    """The polled partial: 204 (htmx swaps nothing) while the table is unchanged.

    ``version`` is the number of moves the page shows and ``t`` when the table last
    changed (seats and resignations change no version).  The check reads three columns
    of one row; only a changed table is loaded and drawn.
    """
    row = (
        Game.objects.filter(pk=game_id)
        .values_list("version", "updated_at", "chat_at", "status")
        .first()
    )
    if row is None:
        raise Http404(_("No such table."))
    version, updated_at, chat_at, status = row
    if status == Game.Status.ABANDONED:
        game_or_404(request, game_id)  # 404 unless the caller sat there
    if _drawn_for_another_session(request):
        # Logged out (or in as someone else, or switched language) in another tab since
        # this board was drawn: the whole page again, as this session now sees it, not a
        # board that still says "Your turn" and "Signed in as" while none of its forms
        # can go through, or that speaks another language than the page around it.
        return HttpResponse(headers={"HX-Refresh": "true"})
    notifications.seat_seen_from_request(request, game_id=game_id)  # no turn e-mail meanwhile
    seen_t = request.GET.get("t")

    def reads_chat() -> bool:
        return selectors.chat_open_to(Game(pk=game_id, status=status), request.user)

    if request.GET.get("version") == str(version) and (
        seen_t is None or _board_current(seen_t, updated_at, chat_at, reads_chat)
    ):
        return HttpResponse(status=204)
    return _board_response(request, game_or_404(request, game_id))


def _drawn_for_another_session(request: HttpRequest) -> bool:
    """The board was drawn for another viewer than this session's (``as``: the user's
    id then, 0 for a visitor), or in another language (``lang``): read from the
    session alone, as the poll's other checks."""
    drawn_for, language = request.GET.get("as"), request.GET.get("lang")
    if language is not None and language != translation.get_language():
        return True
    if drawn_for is None:  # a board drawn before the poll said whom it was for
        return False
    session = getattr(request, "session", None)
    now = session.get(SESSION_KEY) if session is not None else None
    return drawn_for != str(now or 0)


@require_GET  # not HEAD: a stream has no end to wait for
async def game_stream(request: HttpRequest, game_id: int) -> HttpResponse:
    """The board's stream of changes (server-sent events, ``games.live``): ``changed``
    with the game's new version whenever the table changes; the board then fetches its
    partial.  ``version`` and ``t`` are what the board shows, as for the poll.

    For signed-in people who may see the table, unless it was abandoned.  Anything
    else is a plain answer that tells the browser's EventSource to stop (204, 403, 404)
    or to try later (503), and the board polls meanwhile.  Served by the ASGI server
    only: under WSGI (a sync server) the answer is 204 and the board polls.
    """
    if not settings.LIVE_STREAM:
        return HttpResponse(status=204)
    user = await request.auser()
    if not user.is_authenticated:
        return HttpResponse(_("Log in to follow a table."), status=403, content_type="text/plain")
    status = await sync_to_async(_stream_status)(game_id, user)
    if status is None:
        raise Http404(_("No such table."))
    if status == Game.Status.ABANDONED:
        return HttpResponse(status=204)  # nothing more will change
    # A finished table still changes for its players: its chat, a rematch opened.
    if not isinstance(request, ASGIRequest):
        return HttpResponse(status=204)  # a WSGI server cannot hold it open: poll
    if live.hub.streams_of(user.pk) >= settings.LIVE_STREAMS_PER_USER:
        # Past a few boards open at once (tabs, or a script), this one polls: each
        # stream holds a connection of the node, and of the browser's six per site.
        return HttpResponse(status=204)
    if not await live.hub.ready():
        response = HttpResponse(
            _("The stream is unavailable."), status=503, content_type="text/plain"
        )
        response["Retry-After"] = "5"
        return response
    seen_version, seen_t = request.GET.get("version"), request.GET.get("t")
    reads = await sync_to_async(selectors.chat_open_to)(Game(pk=game_id, status=status), user)

    seen = {"version": seen_version, "t": seen_t}  # what the board shows, as it follows

    def moved_on() -> int | None:
        row = (
            Game.objects.filter(pk=game_id).values_list("version", "updated_at", "chat_at").first()
        )
        if row is None:
            return None
        version, updated_at, chat_at = row
        # The board's stamp counts the chat for those who read it (table_options).
        chat = chat_at if reads else None
        now = {"version": str(version), "t": _stamp(_changed_at(updated_at, chat))}
        if now == seen:
            return None
        seen.update(now)
        return version

    response = StreamingHttpResponse(
        live.board_events(
            game_id=game_id,
            user_id=user.pk,
            moved_on=moved_on,
            heartbeat=settings.LIVE_HEARTBEAT_SECONDS,
            lifetime=settings.LIVE_STREAM_SECONDS,
            recheck=not reads,  # the players' chat is news for the players only
            signed_in=partial(_still_signed_in, user.pk, user.session_generation),
        ),
        content_type="text/event-stream",
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx and the like: pass each event on at once
    return response


def _still_signed_in(user_id: int, generation: int) -> bool:
    """The account that opened a stream is still active and its sessions still stand
    (no "Sign out everywhere", deletion or suspension since)."""
    users = get_user_model().objects.filter(pk=user_id, is_active=True)
    return users.filter(session_generation=generation).exists()


def _stream_status(game_id: int, user: Any) -> str | None:
    """The table's status, or None when there is no such table for ``user`` (an
    abandoned table exists only for the people who sat there, as for the board)."""
    status = Game.objects.filter(pk=game_id).values_list("status", flat=True).first()
    if (
        status == Game.Status.ABANDONED
        and not Game.objects.filter(pk=game_id, seats__user=user).exists()
    ):
        return None
    return status


@never_cache
@require_safe
def game_bid_preview(request: HttpRequest, game_id: int) -> HttpResponse:
    """What the ticked cards would bid ("would total 14,000 — beats 12,000"), or why not."""
    game = game_or_404(request, game_id)
    cards, problem = parse_cards(request.GET.getlist("cards"))
    view = selectors.table_view(game=game, user=_user(request))
    ok, text = (False, problem) if problem else presenter.bid_preview(view.legal, cards)
    context = board_context(
        view, options=table_options(game), selected=set(cards), preview=(ok, text)
    )
    template = f"{BOARD}#bid-preview" if request.htmx else BOARD
    return render(request, template, context)


@never_cache
@require_POST
@login_required
def game_act(request: HttpRequest, game_id: int) -> HttpResponse:
    """Bid, pass, Theft's discard or the sealed Yacht Club choice, at the page's version.

    Enter pressed in a box of the bid form presses its first button, a hidden one
    (``type=enter``), not Bid: in the order's "bid up to" box it used to place a real
    bid with the ticked cards, over the limit just typed.  With an order filled in
    (its kind chosen or an amount typed) Enter sets the order; otherwise it bids, as a
    press of Enter on the ticked cards always did."""
    data = request.POST
    if data.get("type") == "enter":
        data = data.copy()
        if data.get("kind") or data.get("maximum", "").strip():
            data["what"] = "order"
            return _orders_answer(request, game_id, data)
        data["type"] = "bid"
    game = game_or_404(request, game_id)
    notifications.seat_seen(game_id=game.pk, user=request.user)  # at the board, moving
    form = ActionForm(data)
    try:
        if not form.is_valid():
            raise GameError(form.error_text())
        services.game_submit_action(
            game=game,
            user=request.user,
            action=form.action(),
            expected_version=form.cleaned_data["version"],
        )
    except GameError as error:
        refused_as_late = isinstance(error, (VersionConflict, NotYourSeat))
        if refused_as_late and selectors.move_made_already(
            game=game, user=request.user, version=form.cleaned_data["version"], action=form.action()
        ):
            return _after_post(request, game_id)  # the same form sent twice: it is done
        # Said at the top of the board (its alert) and under the hand, beside the
        # buttons just pressed, which may be a screen away from the top.
        # The cards ticked stay ticked for the auction they were ticked for only: the
        # page may have been drawn for a card that is gone (a bid on the next card up,
        # one click away, would spend them on a card the player never chose).
        drawn = form.cleaned_data if hasattr(form, "cleaned_data") else {}
        drawn_for = drawn.get("for_auction")
        same_auction = drawn_for is None or (
            game.status == Game.Status.ACTIVE and drawn_for == game.engine_state().auction_number
        )
        return _board_response(
            request,
            game,
            error=str(error),
            selected=form.selected_cards() if same_auction else None,
            preview=(False, str(error)) if same_auction else None,
        )
    return _after_post(request, game_id)


@never_cache
@require_POST
@login_required
def game_orders(request: HttpRequest, game_id: int) -> HttpResponse:
    """Leave or cancel a standing order for the card up (``what``: order, cancel), or
    save or clear the defaults for the coming auctions (defaults, defaults_clear)."""
    return _orders_answer(request, game_id, request.POST)


def _orders_answer(request: HttpRequest, game_id: int, data) -> HttpResponse:
    game = game_or_404(request, game_id)
    notifications.seat_seen(game_id=game.pk, user=request.user)
    form = OrderForm(data)
    if not form.is_valid():
        field = next(iter(form.errors), None)  # the field in error, marked as such
        return _orders_refused(request, game, data, form.error_text(), field=field)
    what = form.cleaned_data["what"]
    seen = form.cleaned_data["seen"] or None  # the orders the form was drawn with
    version = game.version  # an order left on one's turn may move at once
    if what in ("cancel", "defaults_clear"):  # the message says when there was nothing
        order, defaults = selectors.orders_held(game=game, user=request.user)
        if not (order if what == "cancel" else defaults):  # an order used up by its move
            what += "_none"
            seen = None  # nothing to cancel now, whatever the page showed
    try:
        if what in ("cancel", "cancel_none"):  # the order for the card up; the defaults stay
            services.game_orders_set(game=game, user=request.user, order=None, seen=seen)
        elif what in ("defaults", "defaults_clear", "defaults_clear_none"):
            defaults = form.defaults() if what == "defaults" else None
            services.game_orders_set(game=game, user=request.user, defaults=defaults, seen=seen)
        else:
            order = form.order()
            services.game_orders_set(
                game=game,
                user=request.user,
                card=form.cleaned_data["card"],
                order=order,
                auction_number=form.cleaned_data["auction"],
                seen=seen,
            )
    except GameError as error:
        # Changed in another window: the form shows the orders as they stand.
        typed = not isinstance(error, OrdersChanged)
        return _orders_refused(request, game, data, str(error), typed=typed, field=error.field)
    moved = what in ORDER_MOVED and selectors.order_moved_since(
        game=game, user=request.user, version=version
    )
    done = str((ORDER_MOVED if moved else ORDER_DONE)[what])
    if request.htmx:
        # Said beside the form (and read out by the board's script): the board redrawn
        # in place tells nothing by itself.
        part = "defaults" if what.startswith("defaults") else "order"
        return _board_response(
            request, game_or_404(request, game_id), order_done={"part": part, "message": done}
        )
    messages.success(request, done)
    return redirect("games:detail", game_id=game_id)


def _orders_refused(
    request: HttpRequest,
    game: Game,
    data,
    message: str,
    *,
    typed: bool = True,
    field: str | None = None,
) -> HttpResponse:
    """A refused order, cancel or defaults: said at the top of the board (its alert) and
    beside the form that was sent, which on a phone is a screen away from the top, with
    what was typed in it, so that it can be mended.  An order's choices come back only
    for the auction they were made for: the card up may have changed since the page was
    drawn, and "pass" or "bid up to 12,000" would then stand ready for a card the player
    never chose (the ticked cards likewise).  ``typed``: False when the orders changed in
    another window, which the form then shows as they stand; ``field``: the form's field
    in error, when the sentence is about one."""
    what = str(data.get("what", ""))
    part = (
        what if what in ("order", "cancel") else "defaults" if what.startswith("defaults") else None
    )
    if part is None:
        return _board_response(request, game, error=message)

    def sent(name: str) -> str:
        return str(data.get(name, "")).strip()[:40]

    refusal = {
        "part": part,
        "message": message,
        "field": field,
        "auction": sent("auction"),
        "kind": sent("kind"),
        "maximum": sent("maximum"),
        "only_ticked": bool(sent("only_ticked")),
        "discard": sent("discard"),
        "luxury_below": sent("luxury_below"),
        "misfortune_max": sent("misfortune_max"),
    }
    state = game.engine_state() if game.status == Game.Status.ACTIVE else None
    same_auction = state is not None and refusal["auction"] == str(state.auction_number)
    refusal["refill"] = typed and (same_auction or part == "defaults")
    ticked = ActionForm(data).selected_cards() if part == "order" and same_auction else None
    return _board_response(request, game, error=message, selected=ticked, order_refusal=refusal)


ORDER_DONE = {
    "order": gettext_lazy("Your standing order is in: it answers for you until this auction ends."),
    "defaults": gettext_lazy("Your standing orders for the coming auctions are saved."),
    "cancel": gettext_lazy("Your standing order for this card is cancelled."),
    "cancel_none": gettext_lazy(
        "You have no standing order for this card, so there was nothing to cancel."
    ),
    "defaults_clear": gettext_lazy("Your standing orders for the coming auctions are cleared."),
    "defaults_clear_none": gettext_lazy(
        "You have no standing orders for the coming auctions, so there was nothing to clear."
    ),
}

# Left on one's own turn, an order (or the defaults) answers at once.
ORDER_MOVED = {
    "order": gettext_lazy("Your standing order is in and has already made your move."),
    "defaults": gettext_lazy(
        "Your standing orders for the coming auctions are saved and have already made your move."
    ),
}


@never_cache
@require_safe
def game_order_preview(request: HttpRequest, game_id: int) -> HttpResponse:
    """What a proxy bid up to the amount typed would do ("Now it would add 3,000 …")."""
    game = game_or_404(request, game_id)
    view = selectors.table_view(game=game, user=_user(request))
    raw = request.GET.get("maximum", "").strip()
    cards, problem = parse_cards(request.GET.getlist("cards"))
    maximum = money_amount(raw)
    preview: tuple[bool, str] | None
    if problem:
        preview = False, problem
    elif not raw:  # nothing typed (yet, or any more once the order is saved): the hint
        preview = None
    elif maximum is None:
        preview = False, _("Give the most your bid may total as a number, like 12,000.")
    else:
        only = cards if request.GET.get("only_ticked") else None
        preview = presenter.order_preview(view, maximum, only)
    context = board_context(view, options=table_options(game), order_preview=preview)
    template = f"{BOARD}#order-preview" if request.htmx else BOARD
    return render(request, template, context)


@never_cache
@require_POST
@login_required
def game_join(request: HttpRequest, game_id: int) -> HttpResponse:
    return _table_post(
        request, game_id, services.game_join, gettext_lazy("You have joined the table.")
    )


@never_cache
@require_POST
@login_required
def game_leave(request: HttpRequest, game_id: int) -> HttpResponse:
    def done(game: Game) -> str:  # the host's leaving closes the table (services.game_leave)
        if game.created_by_id == request.user.pk:
            return _("You closed the table.")
        return _("You have left the table.")

    return _table_post(request, game_id, services.game_leave, done)


@never_cache
@require_POST
@login_required
def game_resign(request: HttpRequest, game_id: int) -> HttpResponse:
    return _table_post(
        request,
        game_id,
        services.game_resign,
        gettext_lazy("You resigned; a bot plays your seat from now on."),
        reload=True,
    )


@never_cache
@require_POST
@login_required
def game_invitation(request: HttpRequest, game_id: int) -> HttpResponse:
    """Accept (``accept=yes``) or decline (``accept=no``) an invitation to a seat."""
    answer = request.POST.get("accept")
    if answer not in ("yes", "no", "block"):
        game = game_or_404(request, game_id)
        return _board_response(request, game, error=_("Choose to accept or to decline."))

    def respond(*, game: Game, user: Any) -> Any:
        return services.game_invitation_respond(
            game=game, user=user, accept=answer == "yes", block=answer == "block"
        )

    def blocked(game: Game) -> str:  # declined now, or withdrawn by the host before
        if selectors.seat_held_for(game, request.user):
            return _("You declined the invitation and will get no more from this player.")
        return _("You will get no more invitations from this player.")

    if answer == "no" and request.POST.get("back") == "lobby":
        return _declined_in_lobby(request, game_id, respond)
    done = {
        "yes": gettext_lazy("You have taken your seat."),
        "no": gettext_lazy("You declined the invitation."),
        "block": blocked,
    }[answer]
    return _table_post(request, game_id, respond, done)


def _declined_in_lobby(request: HttpRequest, game_id: int, respond: Any) -> HttpResponse:
    """The lobby's "Decline" beside an invitation: back to the lobby, which says what
    was done, or why not."""
    game = game_or_404(request, game_id)
    try:
        respond(game=game, user=request.user)
    except GameError as error:
        messages.error(request, str(error))
    else:
        # The table's link: the lobby no longer lists it, and its page is the way back.
        table = format_html(
            '<a href="{}">{}</a>',
            reverse("games:detail", args=[game_id]),
            _("table %(table)s") % {"table": game_id},
        )
        said = _(
            "You declined the invitation to %(table)s; its host is told. Changed your mind? "
            "Its page gives the seat back until the host fills it."
        )
        messages.success(request, mark_safe(conditional_escape(said) % {"table": table}))
    return redirect("lobby")


@never_cache
@require_POST
@login_required
def game_seat(request: HttpRequest, game_id: int) -> HttpResponse:
    """The host changes a seat nobody has taken at a waiting table: open, a bot, or an
    invitation (``services.game_seat_set``)."""
    form = SeatChangeForm(request.POST)
    if not form.is_valid():
        return _seat_refused(request, game_or_404(request, game_id), form, form.error_text())
    position, seat = form.cleaned_data["position"], form.cleaned_data["seat"]

    def change(*, game: Game, user: Any) -> Any:
        return services.game_seat_set(game=game, user=user, position=position, seat=seat)

    def refused(game: Game, error: str) -> HttpResponse:
        return _seat_refused(request, game, form, error)

    number = position + 1
    if "user" in seat:
        invitee = selectors.player_named(seat["user"])  # named as the table names them
        done = _("You invited %(name)s to seat %(number)s.") % {
            "name": invitee.public_name if invitee is not None else seat["user"],
            "number": number,
        }
        # One invitation e-mail per player and table: invited here again, they are not
        # e-mailed, and the host should not wait for them to answer one.
        if invitee is not None and selectors.invitation_mailed(game_id=game_id, user=invitee):
            done += " " + _(
                "They were invited to this table before, so no new e-mail goes out: the "
                "invitation waits in their lobby."
            )
    elif "ai" in seat:
        done = _("A bot (%(level)s) takes seat %(number)s.") % {
            "level": bot_level(seat["ai"]),
            "number": number,
        }
    else:
        done = _("Seat %(number)s is open: anyone may take it.") % {"number": number}
    return _table_post(request, game_id, change, done, refused=refused)


def _seat_refused(
    request: HttpRequest, game: Game, form: SeatChangeForm, error: str
) -> HttpResponse:
    """A seat change refused: the board again with that seat's form open, as it was
    sent, the reason beside its field (at the top when the seat cannot be told)."""
    refusal = {
        "position": form.cleaned_data.get("position"),
        "message": error,
        "kind": str(form.data.get("kind", ""))[:20],
        "invite": str(form.data.get("invite", ""))[:150],
    }
    refusal["on_invite"] = refusal["kind"] == "invite"  # the reason is about the name
    return _board_response(request, game, seat_refusal=refusal)


# --------------------------------------------------------------------------- helpers


@never_cache
@require_POST
@login_required
def game_rematch(request: HttpRequest, game_id: int) -> HttpResponse:
    """The same players and options at a new table (or the rematch already opened)."""
    game = game_or_404(request, game_id)
    try:
        rematch, opened = services.game_rematch(game=game, user=request.user)
    except GameError as error:
        return _board_response(request, game, error=str(error))
    seated = rematch.seats.filter(user=request.user, accepted=True).exists()
    if not seated:  # asked again after declining it, or the host gave the seat away
        done = _("Rematch: table %(table)s. You have no seat there.")
    elif rematch.status == Game.Status.ACTIVE:  # against bots only, or the last to accept
        done = _("Rematch: table %(table)s. The game has begun.")
    elif opened:
        done = _(
            "Rematch: table %(table)s. The other players are invited; it starts when "
            "everyone has accepted."
        )
    else:
        done = _(
            "Rematch: table %(table)s. Your seat is taken; it starts when everyone has accepted."
        )
    messages.success(request, done % {"table": rematch.pk})
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = reverse("games:detail", args=[rematch.pk])
        return response
    return redirect("games:detail", game_id=rematch.pk)


@never_cache
@require_POST
@login_required
def game_chat(request: HttpRequest, game_id: int) -> HttpResponse:
    """Post a chat message at the table; the board (with the chat) answers."""
    game = game_or_404(request, game_id)
    notifications.seat_seen(game_id=game.pk, user=request.user)
    try:
        chat.chat_post(game=game, user=request.user, text=request.POST.get("text", ""))
    except GameError as error:  # said at the top and beside the chat's box
        return _board_response(request, game, error=str(error), chat_refusal=str(error))
    return _after_post(request, game_id)


@never_cache
@require_POST
@login_required
def game_chat_mute(request: HttpRequest, game_id: int) -> HttpResponse:
    """Mute (or show again) a player's chat messages, at every table."""
    game = game_or_404(request, game_id)
    mute = request.POST.get("mute") != "0"
    try:
        other = chat.chat_mute(user=request.user, username=request.POST.get("username"), mute=mute)
    except GameError as error:
        return _board_response(request, game, error=str(error))
    if not request.htmx:
        if mute:
            done = _("%(name)s muted: you no longer see their messages.")
        else:
            done = _("%(name)s no longer muted.")
        messages.success(request, done % {"name": other.public_name})
    return _after_post(request, game_id)


@never_cache
@require_POST
@login_required
def game_chat_report(request: HttpRequest, game_id: int) -> HttpResponse:
    """Report another player's chat message at this table to the staff."""
    game = game_or_404(request, game_id)
    message = request.POST.get("message", "")
    try:
        chat.chat_report(
            game=game, user=request.user, message=int(message) if digits(message) else message
        )
    except GameError as error:
        return _board_response(request, game, error=str(error))
    if not request.htmx:  # htmx: the line itself now says it was reported
        messages.success(
            request,
            _("Reported to the staff: they will read it. Mute its author to stop seeing them."),
        )
    return _after_post(request, game_id)


def _user(request: HttpRequest) -> Any:
    return request.user if request.user.is_authenticated else None


def _table_post(
    request: HttpRequest,
    game_id: int,
    service: Any,
    done: Any,
    *,
    reload: bool = False,
    refused: Any = None,
) -> HttpResponse:
    """Join, leave, resign, answer an invitation: one service call, then the board.
    ``done``: what the message says (or ``done(game)`` makes it).
    ``reload``: htmx too reloads the whole page (resigning changes more than the board:
    the offer of turn notifications goes), which then says ``done``.  ``refused(game,
    reason)`` answers a refusal when the board's message at the top is not the place."""
    game = game_or_404(request, game_id)
    notifications.seat_seen(game_id=game.pk, user=request.user)
    try:
        service(game=game, user=request.user)
    except GameError as error:
        if refused is not None:
            return refused(game, str(error))
        return _board_response(request, game, error=str(error))
    if callable(done):
        done = done(game)
    if reload and request.htmx:
        messages.success(request, done)
        return HttpResponseClientRedirect(reverse("games:detail", kwargs={"game_id": game_id}))
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
    preview: tuple[bool, str] | None = None,
    seat_refusal: dict[str, Any] | None = None,
    order_refusal: dict[str, Any] | None = None,
    order_done: dict[str, str] | None = None,
    chat_refusal: str | None = None,
    link_reader: Any = None,
) -> HttpResponse:
    """The board page (htmx: the board alone).  ``seat_refusal``: a host's refused seat
    change (``_seat_refused``), shown in that seat's form when the board has it;
    ``order_refusal``: a refused standing order (``_orders_refused``), beside its form;
    ``order_done``: what a standing order's form did (its ``part``: order or
    defaults, and the ``message``), beside that form; ``chat_refusal``: why a chat line
    was refused, beside the chat's box; ``link_reader``: whom the e-mail whose link
    opened the page was for, someone other than the viewer (``selectors.link_reader``)."""
    user = _user(request)
    notifications.seat_seen(game_id=game.pk, user=user)  # the board is open: no turn e-mail
    view = selectors.table_view(game=game, user=user)
    chat = selectors.table_chat(game=game, user=user)  # None: not theirs to read
    context = board_context(
        view,
        options=table_options(game, chat=chat is not None),
        error=error,
        selected=selected,
        preview=preview,
    )
    if seat_refusal is not None:
        if any(
            s["changeable"] and s["position"] == seat_refusal["position"]
            for s in context.get("open_seats", ())
        ):
            context["seat_refusal"] = seat_refusal
        else:
            context["error"] = error = seat_refusal["message"]
    entries = selectors.log_entries(game=game, view=view)
    if entries is not None:
        context["log_entries"] = list(reversed(entries))
        context["deadline_moved"] = _deadline_moved(view, entries)
    if chat is not None:
        context.update(chat=chat.lines, chat_muted=chat.muted, chat_refusal=chat_refusal)
        context["chat_barred_until"] = chat_barred_until(request.user)
    orders = selectors.orders_view(game=game, view=view)
    if orders is not None:
        context.update(orders=orders, **presenter.orders_words(orders))
        context["order_done"] = order_done
        if order_refusal is not None:
            part = order_refusal["part"]
            context["order_refusal"] = order_refusal  # its message, beside its form
            context["order_typed"] = (
                order_refusal if part == "order" and order_refusal["refill"] else None
            )
            context["defaults_typed"] = (
                order_refusal if part == "defaults" and order_refusal["refill"] else None
            )
    # Signed-in people follow an open or running table through its stream (the poll
    # stays as the fallback: static/js/live.js).
    context["live"] = bool(settings.LIVE_STREAM and context["poll"] and user is not None)
    if view.finished:
        with_ending(context, game)
    if view.status in ("open", "active") and view.you is None:  # the invitation's link
        context["invitation_withdrawn"] = selectors.invitation_withdrawn(game, user)
        context["held_for_you"] = selectors.seat_held_for(game, user)
        context["host_blocked"] = context["invitation_withdrawn"] and selectors.host_blocked(
            game, user
        )
    context["link_reader"] = link_reader
    # A refused move is answered 400 for a plain form; htmx needs 200 to swap the message in.
    status = 400 if (error or seat_refusal or order_refusal) and not request.htmx else 200
    return render(request, f"{BOARD}#board" if request.htmx else BOARD, context, status=status)


def _deadline_moved(view: TableView, entries: list[Any]) -> Any:
    """The viewer's last move, when a bot made it because their time ran out (the
    board says so under its headline until they move again themselves), else None."""
    if view.status != "active" or view.your_seat is None:
        return None
    mine = next((e for e in reversed(entries) if e.seat == view.your_seat), None)
    return mine if mine is not None and mine.actor == "deadline" else None


def with_ending(context: dict[str, Any], game: Game) -> None:
    """The final scores' rating changes (bots: one rating per level) and the rematch,
    for the board and the replay's last move alike."""
    view = context.get("view")
    ending = selectors.game_ending(game=game, view=view)
    context.update(ending)
    # A rematch invites the other people of the table (those who resigned too: a bot
    # played their seat, but they are invited again); against bots only it starts at once.
    context["rematch_invites"] = view is not None and any(
        not seat.is_you and seat.user_id is not None for seat in view.seats_info
    )
    # Another player opened the rematch: Rematch takes one's waiting seat there.
    you = view.you if view is not None else None
    context["rematch_seat_waiting"] = bool(
        view is not None
        and view.rematch
        and you is not None
        and you.user_id is not None
        and selectors.rematch_seat_waiting(rematch_id=view.rematch, user_id=you.user_id)
    )
    for row in context.get("scores", ()):
        row["rating_change"] = ending["rating_changes_shown"].get(row["seat"])


def table_options(game: Game, *, live: bool = True, chat: bool = False) -> dict[str, Any]:
    """The table's public settings (never its state).  ``live``: the board polls, so it
    carries the stamp of the row's last change (a replay does not poll: no stamp);
    ``chat``: the reader reads the table's chat, whose messages count as changes (for
    anyone else they do not: the stamp would tell them when the players chatted)."""
    return {
        "players": game.players,
        "advanced": list(game.advanced or ()),
        "memory_aid": game.memory_aid,
        "move_deadline_hours": game.move_deadline_hours,
        "created_by_id": game.created_by_id,
        "scenario": game.is_scenario,
        # Closed by the stalled sweep after waiting this many days (else 0).
        "closed_waiting_days": settings.WAITING_TABLE_DAYS if game.closed_waiting else 0,
        # Waiting for players: since when, and when it closes if nothing changes
        # (games.deadlines.stalled_sweep closes it then).
        "opened_at": game.created_at,
        "waiting_days": settings.WAITING_TABLE_DAYS,
        "closes_at": game.updated_at + timedelta(days=settings.WAITING_TABLE_DAYS)
        if game.status == Game.Status.OPEN and game.updated_at is not None
        else None,
        "stamp": _stamp(_changed_at(game.updated_at, game.chat_at if chat else None))
        if live
        else "",
    }


def _changed_at(updated_at: datetime | None, chat_at: datetime | None) -> datetime | None:
    """When the board last changed: the table itself, or its chat."""
    return max((m for m in (updated_at, chat_at) if m is not None), default=None)


def _board_current(
    seen_t: str | None, updated_at: datetime | None, chat_at: datetime | None, reads_chat
) -> bool:
    """Whether a board stamped ``seen_t`` shows the table as it is.  A visitor's board
    is stamped without the chat (``table_options``), so the chat's stamp matters only to
    a player: ``reads_chat()`` is asked (a query) only when the two stamps tell apart a
    player's board from before a message and a visitor's current one."""
    if seen_t == _stamp(_changed_at(updated_at, chat_at)):
        return True
    return seen_t == _stamp(updated_at) and not reads_chat()


def _ended_for_player(view: TableView) -> bool:
    """A finished game seen by someone who played it to the end (their seat accepted)."""
    return view.status == "finished" and view.you is not None and view.you.accepted


def _stamp(moment: datetime | None) -> str:
    """When the table last changed, as the polling partial sends it back."""
    return str(int(moment.timestamp() * 1000)) if moment is not None else "0"


# --------------------------------------------------------------------------- the board
# The board template's context: the table's read model (selectors.TableView) and the
# presenter's sentences; nothing here works out the game again.


def board_context(
    view: TableView,
    *,
    options: dict[str, Any],
    error: str | None = None,
    selected: set[int] | None = None,
    preview: tuple[bool, str] | None = None,
    order_preview: tuple[bool, str] | None = None,
) -> dict[str, Any]:
    """What the board template draws, from the view alone."""
    context: dict[str, Any] = {
        "order_preview": order_preview,
        "view": view,
        "state": view.state,
        "options": options,
        "error": error,
        "selected": selected or set(),
        "preview": preview,
        # What a bid of the ticked cards would total, when the preview says it beats
        # the high bid: the Bid button says it, in sight while the preview is scrolled
        # under the buttons that stay at the bottom of the screen.
        "bid_total": (
            view.legal.current_bid + sum(selected or ())
            if preview and preview[0] and view.legal is not None
            else None
        ),
        "names": view.names,
        "you": view.your_seat,
        "deadline_at": view.deadline_at,
        "deadline_due": _deadline_due(view.deadline_at),
        # A running or waiting table refreshes every 3 s (or on the stream's news); a
        # finished one, for the people who played it, every 15 s: their chat goes on
        # and a rematch may open.
        "poll": view.status in ("open", "active") or _ended_for_player(view),
        "poll_every": 15 if view.status == "finished" else 3,
        "stamp": options.get("stamp", ""),
        "legal": view.legal,
        "my_turn": view.my_turn,
        "my_info": view.you,
        # "Tell me in this browser when it is my turn": for a seated player of a table
        # waiting for players or running (the waiting board turns into the game by itself).
        "offer_notifications": view.status in ("open", "active")
        and view.you is not None
        and view.you.accepted
        and not view.you.resigned,
        # Set by the table's own page: its invitation's link, the seat given away.
        "invitation_withdrawn": False,
        "held_for_you": None,
        "host_blocked": False,
        "creator_name": next(
            (s.display_name for s in view.seats_info if s.user_id == view.options.created_by_id),
            None,
        ),
    }
    if view.state is None:
        hosting = (
            view.status == "open"
            and view.you is not None
            and view.you.user_id == (view.options.created_by_id)
        )
        context["open_seats"] = [
            {
                **seat.to_json(),
                "number": seat.position + 1,
                "name": seat.display_name,
                "declined_by_name": seat.declined_by_name,
                "left": seat.left,
                # The host may change a seat nobody has taken (services.game_seat_set).
                "changeable": hosting and not seat.is_you and (seat.is_bot or not seat.accepted),
                "kind": f"bot:{seat.ai_level}"
                if seat.is_bot
                else "invite"
                if seat.invited
                else "open",
            }
            for seat in view.seats_info
        ]
        context["seat_choices"] = SEAT_CHOICES
        context["me_invited"] = any(s["is_you"] and s["invited"] for s in context["open_seats"])
        context["has_open_seat"] = any(s["is_open"] for s in context["open_seats"])
        context["has_invited_seat"] = any(s["invited"] for s in context["open_seats"])
        return context
    context["players"] = _players(view)
    banner = presenter.headline(view)
    context.update(
        headline=banner.text,
        tone=banner.tone,
        tray=banner.tray,
        auction_title=banner.auction_title,
        auction_help=banner.auction_help,
        high_bid_text=banner.high_bid_text,
        auction_warning=banner.warning,
    )
    if view.score is not None:
        context["scores"] = presenter.score_lines(view)
        context["your_result"] = presenter.your_result(view)
    context["log_lines"] = list(reversed(view.log_text))
    return context


def _deadline_due(deadline: datetime | None) -> str | None:
    """How long until ``deadline`` ("in 2 days and 3 hours"), as the e-mails count it;
    None once it has passed (the sweep is about to move) or without a deadline."""
    now = timezone.now()
    return presenter.due_in(deadline, now) if deadline is not None and deadline > now else None


def _players(view: TableView) -> list[dict[str, Any]]:
    state = view.state
    to_act = set(state.to_act)
    players = []
    for row in state.seats:
        pos = row.seat
        players.append(
            {
                **row.to_json(),
                "name": view.names[pos],
                "info": view.seats_info[pos],
                "to_act": pos in to_act,
                "leading": bool(state.high_bid) and row.bid_total == state.high_bid,
                "is_you": pos == view.your_seat,
                "is_leader": pos == state.leader and state.phase != "over",
            }
        )
    return players


@never_cache
@require_POST
@login_required
def invitations_decline_all(request: HttpRequest) -> HttpResponse:
    """The lobby's "Decline all invitations"."""
    count = services.invitations_decline_all(user=request.user)
    messages.success(
        request,
        ngettext("You declined %(count)s invitation.", "You declined %(count)s invitations.", count)
        % {"count": count},
    )
    return redirect("lobby")


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
            position=int(position) if digits(position) else position,
        )
    except GameError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("A bot plays that seat from now on."))
    return redirect("games:detail", game_id=game_id)
