"""The board's control for async play: the table's creator hands the seat of a player
who keeps missing deadlines to a bot (``services.game_seat_to_bot``).  A plain form:
the answer is the board again, with the outcome as a message."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from games import services
from games.errors import GameError
from games.views import game_or_404


@login_required
@require_POST
def game_seat_to_bot(request: HttpRequest, game_id: int) -> HttpResponse:
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
