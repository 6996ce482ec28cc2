"""Reads for profiles, the leaderboard and a player's game history.

Everything here reads the rows that ``games.ratings.record_finished_game`` keeps up to
date when a game ends (``PlayerStats``, ``PlayerResult``, ``HeadToHead``,
``BotRating``): a profile or a leaderboard page costs the same few queries whether the
player has finished two games or two thousand.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.paginator import Page, Paginator
from django.db.models import Case, Exists, F, OuterRef, Prefetch, QuerySet, When

from accounts.charts import rating_chart
from accounts.models import BotRating, HeadToHead, PlayerResult, PlayerStats, User
from games.models import Game, Seat

CHART_GAMES = 50  # the chart shows the last 50 rated games
RECENT_GAMES = 10
FREQUENT_OPPONENTS = 8
LEADERBOARD_PAGE = 25
HISTORY_PAGE = 20


def leaderboard_min_games() -> int:
    """Rated games needed to appear on the leaderboard (setting ``LEADERBOARD_MIN_GAMES``,
    5 by default)."""
    return int(getattr(settings, "LEADERBOARD_MIN_GAMES", 5))


def user_by_username(username: str) -> User | None:
    """An active user by username: the exact spelling first, else case-insensitively."""
    if not username or len(username) > 150 or "\x00" in username:
        return None
    users = get_user_model().objects.filter(is_active=True)
    return users.filter(username=username).first() or (
        users.filter(username__iexact=username).order_by("pk").first()
    )


def stats_for_user(user: User) -> PlayerStats:
    """The stored stats (an unsaved empty row for someone who never finished a game)."""
    return PlayerStats.objects.filter(user=user).first() or PlayerStats(user=user)


def head_to_head_for_user(user: User, limit: int = FREQUENT_OPPONENTS) -> list[HeadToHead]:
    """The most frequent opponents, people and bot levels, most games first."""
    return list(
        HeadToHead.objects.filter(user=user)
        .select_related("opponent")
        .order_by("-games", "-wins", "opponent_bot", "opponent__username")[:limit]
    )


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


def leaderboard(*, page: int | str | None = 1) -> tuple[Page, int]:
    """The rated players with at least ``leaderboard_min_games()`` rated games, best
    rating first, paginated; and that minimum.  Two queries per page."""
    minimum = leaderboard_min_games()
    players = (
        PlayerStats.objects.filter(rated_games__gte=minimum, user__is_active=True)
        .select_related("user")
        .order_by("-rating", "-rated_games", "user__username")
    )
    return Paginator(players, LEADERBOARD_PAGE).get_page(page), minimum


def bot_ratings() -> list[BotRating]:
    return list(BotRating.objects.order_by("-rating"))


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
