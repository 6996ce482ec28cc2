"""Reads of players: users by name, their stored stats, head-to-head records, the
leaderboard and the bots' ratings.  (A player's profile page and game history, which
read games too, are ``games.selectors.player_profile`` and ``games_history``.)

Everything here reads the rows that ``games.ratings.record_finished_game`` keeps up to
date when a game ends (``PlayerStats``, ``PlayerResult``, ``HeadToHead``,
``BotRating``): a profile or a leaderboard page costs the same few queries whether the
player has finished two games or two thousand.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.paginator import Page, Paginator
from django.db.models import QuerySet

from accounts.models import BotRating, HeadToHead, PlayerStats, User
from accounts.names import name_key

FREQUENT_OPPONENTS = 8
LEADERBOARD_PAGE = 25


def leaderboard_min_games() -> int:
    """Rated games needed to appear on the leaderboard (setting ``LEADERBOARD_MIN_GAMES``,
    5 by default)."""
    return int(getattr(settings, "LEADERBOARD_MIN_GAMES", 5))


def user_by_username(username: str) -> User | None:
    """An active user by username: the exact spelling first, else case-insensitively,
    else as the name reads (``name_key``: "ZOË" or "zoe" for "zoë", which SQLite's
    case-insensitive match misses; no two accounts' names read alike)."""
    if not username or len(username) > 150 or "\x00" in username:
        return None
    users = get_user_model().objects.filter(is_active=True)
    return (
        users.filter(username=username).first()
        or users.filter(username__iexact=username).order_by("pk").first()
        or _only(users.filter(username_key=name_key(username)))
    )


def _only(users) -> User | None:
    """The one user of ``users``, or None when there are none or several: names made
    before a change of ``name_key`` (an i read as an l since) may share a key, and a
    name that reads as two accounts' names names neither."""
    found = list(users.order_by("pk")[:2])
    return found[0] if len(found) == 1 else None


def user_by_name(name: str) -> User | None:
    """An active user by the name others see: a username (``user_by_username``), else a
    display name, read as ``accounts.names.name_key`` reads names (no two accounts'
    names read alike)."""
    user = user_by_username(name)
    if user is not None or not name or len(name) > 150 or "\x00" in name:
        return user
    users = get_user_model().objects.filter(is_active=True)
    return users.filter(display_name__iexact=name).order_by("pk").first() or _only(
        users.filter(display_name_key=name_key(name))
    )


def username_deleted(username: str) -> bool:
    """``username`` is the name a deleted account was left with (accounts.deletion)."""
    if not username or len(username) > 150 or "\x00" in username:
        return False
    return get_user_model().objects.filter(username=username, deleted_at__isnull=False).exists()


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


def leaderboard_players() -> QuerySet[PlayerStats]:
    """The rated players with at least ``leaderboard_min_games()`` rated games, best
    rating first (the page and the API)."""
    return (
        PlayerStats.objects.filter(rated_games__gte=leaderboard_min_games(), user__is_active=True)
        .select_related("user")
        .order_by("-rating", "-rated_games", "user__username")
    )


def leaderboard(*, page: int | str | None = 1) -> tuple[Page, int]:
    """``leaderboard_players``, a page of them, and the minimum of rated games.  Two
    queries per page."""
    players = leaderboard_players()
    return Paginator(players, LEADERBOARD_PAGE).get_page(page), leaderboard_min_games()


def bot_ratings() -> list[BotRating]:
    return list(BotRating.objects.order_by("-rating"))
