"""The "Download your data" file: everything the site keeps about a player, as JSON.

The account and its settings, its e-mail addresses, API tokens (never a secret: only the
name, the first characters shown on the tokens page and the dates), the devices with
push notifications (the push service's host, not the address), the stats, and from
games (``games.selectors.player_data``) the seats, results, chat lines, mutes and
blocks.  Nothing of a running game beyond its public facts.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from django.utils import timezone

from accounts.models import PushSubscription, User
from accounts.selectors import stats_for_user
from accounts.tokens.services import tokens_for_user
from games.selectors import player_data

FORMAT = "high-society-account-data/1"


def account_data(*, user: User) -> dict[str, Any]:
    """The player's data, its times as datetimes: Django's JSON encoder (the view's
    ``JsonResponse``) writes them in ISO 8601."""
    stats = stats_for_user(user)
    return {
        "format": FORMAT,
        "exported_at": timezone.now(),
        "account": {
            "username": user.username,
            "display_name": user.display_name,
            "date_joined": user.date_joined,
            "last_login": user.last_login,
            "language": user.language,
            "time_zone": user.time_zone,
            "turn_emails": user.turn_emails,
            "emails_off": list(user.emails_off or ()),
            "push_off": list(user.push_off or ()),
            "vacation_until": user.vacation_until,
            "chat_barred_until": user.chat_barred_until,
            "vacation_days_used": user.vacation_days_used,
            "vacation_year": user.vacation_year or None,
        },
        "email_addresses": [
            {"email": a.email, "verified": a.verified, "primary": a.primary}
            for a in EmailAddress.objects.filter(user=user).order_by("-primary", "email")
        ],
        "api_tokens": [
            {
                "name": t.name,
                "starts_with": t.prefix,
                "created_at": t.created_at,
                "expires_at": t.expires_at,
                "last_used_at": t.last_used_at,
            }
            for t in tokens_for_user(user=user)
        ],
        "push_devices": [
            {
                "push_service": urlsplit(s.endpoint).hostname,
                "created_at": s.created_at,
                "last_success_at": s.last_success_at,
            }
            for s in PushSubscription.objects.filter(user=user)
        ],
        # Which second factors the account has and when each was set up and last used,
        # never a secret (an app's key, the recovery codes).
        "second_factors": [
            {"type": a.type, "created_at": a.created_at, "last_used_at": a.last_used_at}
            for a in Authenticator.objects.filter(user=user).order_by("type")
        ],
        "stats": {
            "games_played": stats.games_played,
            "games_won": stats.games_won,
            "times_cast_out": stats.times_cast_out,
            "games_resigned": stats.games_resigned,
            "rated_games": stats.rated_games,
            "rating": stats.rating,
            "cards_won": dict(stats.cards_won or {}),
        },
        **player_data(user=user),
    }
