"""Pages of a player's record: public profiles, the leaderboard, my game history, and
the replay and exported record of finished games.

Thin views: parse the input, call a selector, render.  Profiles and the leaderboard
read the rows kept up to date at each game's end (``games.ratings``), never the games
themselves; replays draw only a spectator's view (``games.replay``).
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_safe

from accounts import selectors
from games import selectors as game_selectors
from games.forms import BOT_LEVELS
from games.middleware import TableClosed
from games.models import Seat
from games.presenter import printable
from games.replay import NotReplayable, game_record, move_lines, replay_load, replay_view
from games.views import board_context, game_or_404, login_required, table_options, with_ending
from ops.numbers import digits

# --------------------------------------------------------------------------- profiles


@require_safe
def player_profile(request: HttpRequest, username: str) -> HttpResponse:
    """A player's public record: stats, rating chart, recent games, head-to-head."""
    user = selectors.user_by_username(username)
    if user is None and selectors.username_deleted(username):
        return render(request, "accounts/deleted_profile.html", status=410)
    if user is None:  # the page says whom it looked for (the API's 404 does too)
        not_found = gettext("There is no player called “%(name)s”.") % {"name": username[:40]}
        return render(request, "404.html", {"not_found": not_found}, status=404)
    # "ALICE", "alice ", "Zoe": one address per profile (302: which account a spelling
    # finds may change, with a rename or a new sign-up).
    if user.username != username:
        return redirect("player_profile", username=user.username)
    context = game_selectors.player_profile(user=user)
    context["is_me"] = request.user.is_authenticated and request.user.pk == user.pk
    return render(request, "accounts/public_profile.html", context)


@require_safe
def leaderboard(request: HttpRequest) -> HttpResponse:
    """Rated players with enough rated games, best first; the bots' ratings beside.  A
    page number that is not one is answered 400 with a sentence, as in the history; a
    page past the last shows the last, and says so (the board shrank since the link was
    made)."""
    form = PageForm(request.GET)
    context: dict[str, Any] = {"bots": selectors.bot_ratings()}
    if not form.is_valid():
        context.update(problem=form.errors["page"][0], min_games=selectors.leaderboard_min_games())
        return render(request, "leaderboard.html", context, status=400)
    context["asked_page"] = form.cleaned_data["page"] or 1
    context["page"], context["min_games"] = selectors.leaderboard(page=context["asked_page"])
    return render(request, "leaderboard.html", context)


# --------------------------------------------------------------------------- history


class PageForm(forms.Form):
    """``?page=``: a whole number from 1 (none: the first page)."""

    page = forms.IntegerField(
        required=False,
        min_value=1,
        widget=forms.HiddenInput,
        error_messages={
            "invalid": _("The page must be a whole number."),
            "min_value": _("Pages are numbered from 1."),
        },
    )

    def clean_page(self) -> int | None:
        """Digits 0-9 only (``ops.numbers.digits``): a number field also reads "٣"."""
        raw = str(self.data.get("page", "")).strip()
        if raw and not digits(raw):
            raise forms.ValidationError(self.fields["page"].error_messages["invalid"])
        return self.cleaned_data.get("page")


def _bot_named(name: str, *, bare: bool = False) -> str | None:
    """The bot level a table's name for a bot writes ("Bot (easy)", "Bot (leicht) #2",
    in the page's language or in English), or None.  ``bare``: its level alone too
    ("facile", "easy"), as a player types it."""
    wanted = re.sub(r"\s+#\d+$", "", name).casefold()
    for level in BOT_LEVELS:
        seat = Seat(ai_level=level)
        with translation.override("en"):
            english = seat.display_name
        names = {seat.display_name.casefold(), english.casefold()}
        if bare:  # the word in the brackets: "Bot (facile)" → "facile"
            names |= {found.casefold() for found in re.findall(r"\((.+)\)", seat.display_name)}
            names |= {found.casefold() for found in re.findall(r"\((.+)\)", english)}
        if wanted in names:
            return level
    return None


class HistoryFilterForm(PageForm):
    show = forms.ChoiceField(
        label=_("Show"),
        choices=list(game_selectors.HISTORY_SHOW.items()),
        required=False,
        error_messages={
            "invalid_choice": _(
                "“%(value)s” is not a filter: choose all, finished, active, won or lost."
            )
        },
    )
    opponent = forms.CharField(
        label=_("Played with (a name, a username or a bot)"),
        max_length=150,
        required=False,
        error_messages={"max_length": _("A username has at most 150 characters.")},
    )

    def __init__(self, *args, viewer: Any = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.viewer = viewer

    def clean_opponent(self) -> Any:
        name = (self.cleaned_data.get("opponent") or "").strip()
        if not name:
            return None
        level = _bot_named(name)
        if level is not None:  # "Bot (easy)", as the tables name a bot
            return level
        user = selectors.user_by_name(name)
        if user is None:  # a level alone ("facile"), unless a player has that name
            level = _bot_named(name, bare=True)
            if level is not None:
                return level
        if user is None:
            raise forms.ValidationError(
                gettext("There is no player called “%(name)s”.") % {"name": name[:40]}
            )
        if self.viewer is not None and user.pk == self.viewer.pk:
            raise forms.ValidationError(
                gettext("That is you: every game here is yours. Name another player.")
            )
        return user


@login_required
@require_safe
def game_history(request: HttpRequest) -> HttpResponse:
    """My games, filtered (finished, being played, won, lost; with whom) and paginated.
    A bad filter is answered 400 with the form's sentence and no list."""
    form = HistoryFilterForm(request.GET, viewer=request.user)
    context: dict[str, Any] = {"form": form, "page": None, "rows": []}
    if not form.is_valid():
        return render(request, "games/history.html", context, status=400)
    data = form.cleaned_data
    games = game_selectors.games_history(
        user=request.user, show=data["show"] or "all", opponent=data["opponent"]
    )
    page = Paginator(games, game_selectors.HISTORY_PAGE).get_page(data["page"] or 1)
    query = request.GET.copy()
    query.pop("page", None)
    context.update(
        page=page,
        asked_page=data["page"] or 1,
        rows=game_selectors.history_rows(page, request.user),
        query=query.urlencode(),
        filtered=bool(data["opponent"]) or (data["show"] or "all") != "all",
    )
    return render(request, "games/history.html", context)


# --------------------------------------------------------------------------- replays


@require_safe
def game_replay(request: HttpRequest, game_id: int) -> HttpResponse:
    """A finished game as a spectator saw it after move ``?move=N`` (0 = the set-up;
    the last move by default).  A move number that is not one is answered 400 with a
    sentence, showing the nearest move; an unfinished game is 404."""
    game = game_or_404(request, game_id)
    try:
        replay = replay_load(game)
    except NotReplayable as error:
        return render(
            request, "games/replay.html", {"game": game, "not_ready": str(error)}, status=404
        )
    n, problem = _move_number(request.GET.get("move"), replay.total)
    view = replay_view(replay, n)
    lines = move_lines(replay)
    context = board_context(view, options=table_options(game, live=False))
    context.update(
        game=game,
        n=n,
        total=replay.total,
        problem=problem,
        line=lines[n],
        lines=lines,
        later=replay.total - n,  # moves after the one shown, behind a summary
        links=_step_links(game.pk, n, replay.total),
        names=replay.names,
        # "Bot (medium) #2"; a resignation only from the frame it happened at.
        seated=[
            (seat, name, info.resigned)
            for seat, name, info in zip(replay.seats, replay.names, view.seats_info, strict=True)
        ],
        in_replay=True,
    )
    if n == replay.total:  # the final scores, with what the game did to the ratings
        with_ending(context, game)
    return render(request, "games/replay.html", context, status=400 if problem else 200)


@require_safe
def game_record_json(request: HttpRequest, game_id: int) -> HttpResponse:
    """The finished game's record as JSON (``games.replay.game_record``); 404 before
    the end, and for a table that does not exist, in JSON too; 410 for a table closed
    before its game began, as its pages answer."""
    try:
        game = game_or_404(request, game_id)
    except TableClosed as closed:
        return JsonResponse({"detail": str(closed), "code": "closed"}, status=410)
    except Http404:
        return JsonResponse({"detail": gettext("No such table."), "code": "not_found"}, status=404)
    try:
        replay = replay_load(game)
    except NotReplayable as error:
        return JsonResponse({"detail": str(error), "code": "not_finished"}, status=404)
    response = JsonResponse(game_record(replay), json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'inline; filename="high-society-game-{game.pk}.json"'
    return response


def _move_number(raw: str | None, total: int) -> tuple[int, str | None]:
    if raw is None or raw == "":
        return total, None
    text = raw.strip()
    unsigned = text.removeprefix("-")
    if not digits(unsigned):  # not "٣": 0-9 only
        return total, gettext(
            "“%(raw)s” is not a move number: showing the last move (%(total)s)."
        ) % {"raw": printable(raw[:20]), "total": total}
    if len(unsigned) > 9:  # far out either way (and no ten-thousand-digit int() to parse)
        number = -1 if text.startswith("-") else total + 1
    else:
        number = int(text)
    if number < 0:
        return 0, gettext(
            "Moves are numbered from 0 (the set-up) to %(total)s: showing the set-up."
        ) % {"total": total}
    if number > total:
        return total, gettext("This game has %(total)s moves: showing the last one.") % {
            "total": total
        }
    return number, None


def _step_links(game_id: int, n: int, total: int) -> dict[str, str | None]:
    base = reverse("games:replay", args=[game_id])

    def at(k: int) -> str:
        return f"{base}?move={k}"

    return {
        "first": at(0) if n > 0 else None,
        "prev": at(n - 1) if n > 0 else None,
        "next": at(n + 1) if n < total else None,
        "last": at(total) if n < total else None,
        "here": at(n),
        "base": base,
    }
