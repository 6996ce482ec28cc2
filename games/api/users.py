"""API endpoints of the accounts app: tokens for programs and public profiles."""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import get_adapter
from allauth.account.utils import has_verified_email
from allauth.mfa.base.forms import BaseAuthenticateForm
from allauth.mfa.models import Authenticator
from django.conf import settings
from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.models import PlayerResult
from accounts.selectors import (
    bot_ratings,
    head_to_head_for_user,
    leaderboard_min_games,
    leaderboard_players,
    stats_for_user,
    user_by_username,
)
from accounts.tokens.models import ApiToken
from accounts.tokens.services import TokenLimitReached, token_create
from games.api.base_view import ApiView, query_once
from games.api.errors import ApiError
from games.api.pagination import PagePagination
from games.api.schema import error_responses
from games.api.serializers import (
    LeaderboardSerializer,
    PageQuerySerializer,
    TokenObtainInputSerializer,
    TokenSerializer,
    UserProfileSerializer,
)
from games.api.throttling import AuthLimit
from games.selectors import RECENT_GAMES
from ops.limits import Counted

# ACCOUNT_RATE_LIMITS["login_failed"] counts failures per address (ten a minute) and per
# account (five in five minutes); allauth does not say which one refused, so the answer
# names both and asks for the longer wait.
LOCKOUT_RETRY_SECONDS = 300
LOCKOUT_FAILURES = 5


def _suspended() -> str:
    """What a suspended account's right password is told, as the site's log-in says it."""
    told = _(
        "This account is suspended: it cannot log in, and bots play its running games to "
        "the end. Only the site's staff can reinstate it."
    )
    if settings.CONTACT_EMAIL:  # as the log-in's page says it
        told += " " + _("To ask why, or to ask for it back, write to the staff:")
        told += " " + settings.CONTACT_EMAIL
    return told


def _second_factor_check(user: Any, code: str) -> None:
    """An account with two-factor authentication gets a token only with a code of its
    authenticator app (or a recovery code, used up so), as on the site's log-in: the
    password alone would be a way round the second factor.  allauth's own check, its
    rate limit of codes included."""
    if not Authenticator.objects.filter(user=user).exists():
        return
    if not code:
        raise ApiError(
            _(
                "This account has two-factor authentication: send the code your "
                "authenticator app shows (or a recovery code) as “code”, with the password."
            ),
            status_code=status.HTTP_400_BAD_REQUEST,
            code="code_required",
        )
    if not BaseAuthenticateForm(user=user, data={"code": code}).is_valid():
        raise ApiError(
            _(
                "The code is not correct, or was used already: send the one your app shows "
                "now, or an unused recovery code."
            ),
            status_code=status.HTTP_400_BAD_REQUEST,
            code="invalid_code",
        )


class TokenView(ApiView):
    """POST: a new token for a username and password.  DELETE: revoke the token used."""

    def get_authenticators(self):
        if self.request is not None and self.request.method == "POST":
            return []  # the credentials are in the body; a stale header must not interfere
        return super().get_authenticators()

    def get_permissions(self):
        if self.request is not None and self.request.method == "POST":
            return [AllowAny()]
        return [IsAuthenticated()]

    def get_throttles(self):
        if self.request is not None and self.request.method == "POST":
            return [AuthLimit()]
        return super().get_throttles()

    @extend_schema(
        operation_id="auth_token_create",
        summary="Get a token",
        description=(
            "Exchange a username (or e-mail address) and password for a token; send it as "
            "`Authorization: Token <token>`. Tokens are stored hashed, expire after "
            "`API_TOKEN_DAYS` days (30 unless configured) and can be revoked here "
            "(DELETE) or on your profile's tokens page. Log-ins are limited per address; "
            "five wrong passwords for one account (by its username or any of its e-mail "
            "addresses) lock it for five minutes, and ten wrong passwords from one address "
            "lock log-ins from there for a minute, here and on the site's log-in page alike "
            "(429 with `Retry-After`). An account with two-factor authentication sends "
            "the code of its authenticator app (or a recovery code) as `code` too "
            "(400 `code_required` without it, `invalid_code` for a wrong one). A suspended "
            "account's right password is answered 403, saying so."
        ),
        tags=["auth"],
        auth=[],
        request=TokenObtainInputSerializer,
        responses={200: TokenSerializer, **error_responses(400, 403, 413, 415, 429)},
    )
    def post(self, request: Request) -> Response:
        body = TokenObtainInputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        login = body.validated_data["username"]
        credentials = {
            "email" if "@" in login else "username": login,
            "password": body.validated_data["password"],
        }
        # The site's own log-in check (allauth's adapter): the same per-account lockout
        # (ACCOUNT_RATE_LIMITS["login_failed"]) counts failures here and there alike.
        try:
            user = get_adapter(request._request).authenticate(request._request, **credentials)
        except DjangoValidationError:
            # The headers speak of the limit that refused, not of the requests' own
            # count (which has some left): none left until the lockout ends.
            request.rate_limit = Counted(
                limit=LOCKOUT_FAILURES, remaining=0, reset=LOCKOUT_RETRY_SECONDS, over=True
            )
            raise exceptions.Throttled(
                wait=LOCKOUT_RETRY_SECONDS,
                detail=_(
                    "Too many failed log-ins for this account, or from your address: wait "
                    "a few minutes before you try the password again."
                ),
            ) from None
        if user is not None and not user.is_active:
            # The right password of a suspended account (allauth's check answers it, so
            # that its log-in page says so): told as that page tells it.
            raise exceptions.PermissionDenied(_suspended())
        if user is None:
            raise ApiError(
                _("The username or password is not correct."),
                status_code=status.HTTP_400_BAD_REQUEST,
                code="invalid_credentials",
            )
        if not has_verified_email(user):
            raise exceptions.PermissionDenied(
                _("Confirm your e-mail address first (see the message we sent you).")
            )
        _second_factor_check(user, body.validated_data.get("code", ""))
        try:
            token, secret = token_create(
                user=user,
                name=body.validated_data.get("name", "API log-in"),
                days=settings.API_TOKEN_DAYS,
            )
        except TokenLimitReached as error:
            raise exceptions.PermissionDenied(str(error)) from None
        payload = {
            "token": secret,
            "expiry": token.expires_at,
            "token_id": token.pk,
            "username": user.username,
        }
        return Response(TokenSerializer(payload).data, status=status.HTTP_200_OK)

    @extend_schema(
        operation_id="auth_token_destroy",
        summary="Revoke this token",
        description="Revokes the token that authenticates this request (log out a program).",
        tags=["auth"],
        request=None,
        responses={204: None, **error_responses(400, 401, 403, 429)},
    )
    def delete(self, request: Request) -> Response:
        if not isinstance(request.auth, ApiToken):
            raise ApiError(
                _("Only a token can revoke itself: send it in the Authorization header."),
                status_code=status.HTTP_400_BAD_REQUEST,
                code="not_a_token",
            )
        request.auth.delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


API_RATING_POINTS = 20  # the last rated games in ``rating_history``


def user_stats(user) -> dict[str, Any]:
    """Public stats of ``user``: the totals and rating kept up to date when each game
    ends (``games.ratings``), the last rated games, recent games and head-to-head
    records.  Five queries whatever the number of games (the profile page's data)."""
    stats = stats_for_user(user)
    rated = stats.rated_games > 0
    history = list(
        PlayerResult.objects.filter(user=user, rated=True)
        .order_by("-finished_at", "-game_id")
        .values("game_id", "rating_before", "rating_after", "finished_at")[:API_RATING_POINTS]
    )
    recent = list(
        PlayerResult.objects.filter(user=user).order_by("-finished_at", "-game_id")[:RECENT_GAMES]
    )
    return {
        "username": user.username,
        "display_name": user.public_name,
        "games_played": stats.games_played,
        "games_won": stats.games_won,
        "win_rate": stats.win_rate,
        "average_status": stats.average_status,
        "times_cast_out": stats.times_cast_out,
        "rating": stats.rating if rated else None,
        "rated_games": stats.rated_games,
        "games_resigned": stats.games_resigned,
        "rating_mu": stats.rating_mu if rated else None,
        "rating_sigma": stats.rating_sigma if rated else None,
        "most_won_cards": [
            {"card": card, "count": count} for card, count in stats.most_won_cards()
        ],
        "rating_history": [
            {
                "game": row["game_id"],
                "finished_at": row["finished_at"],
                "rating": row["rating_after"],
                "change": round(row["rating_after"] - row["rating_before"], 1),
            }
            for row in reversed(history)
        ],
        "recent_games": [
            {
                "game": r.game_id,
                "finished_at": r.finished_at,
                "seat": r.seat,
                "place": r.rank,
                "won": r.won,
                "cast_out": r.cast_out,
                "resigned": r.resigned,
                "handed_over": r.handed_over,
                "status": r.status,
                "rated": r.rated,
                "rating_change": r.rating_delta,
            }
            for r in recent
        ],
        "head_to_head": [
            {
                "opponent": h.opponent.public_username if h.opponent_id else None,
                "opponent_name": h.opponent.public_name
                if h.opponent_id
                else _("Bot (%(level)s)") % {"level": pgettext("bot level", h.opponent_bot)},
                "bot_level": h.opponent_bot or None,
                "games": h.games,
                "wins": h.wins,
                "losses": h.losses,
                "draws": h.draws,
            }
            for h in head_to_head_for_user(user)
        ],
    }


class UserDetailView(ApiView):
    @extend_schema(
        operation_id="users_retrieve",
        summary="A player's public profile",
        description=(
            "Games played and won, win rate, average status, times cast out, the rating "
            "(OpenSkill, shown as 1000 + 40 × (mu − 3 sigma)) and its last rated games, "
            "most-won status cards, recent games and head-to-head records. The stats are "
            "kept up to date when each game ends."
        ),
        tags=["users"],
        parameters=[
            OpenApiParameter("username", str, OpenApiParameter.PATH, description="The username.")
        ],
        responses={200: UserProfileSerializer, **error_responses(401, 404, 429)},
    )
    def get(self, request: Request, username: str) -> Response:
        user = user_by_username(username)  # as the profile page finds a player
        if user is None:
            raise exceptions.NotFound(
                _("There is no player called “%(name)s”.")
                % {"name": "".join(c if c.isprintable() else "\ufffd" for c in username[:40])}
            )
        return Response(UserProfileSerializer(user_stats(user)).data)


class LeaderboardView(ApiView):
    @extend_schema(
        operation_id="leaderboard_retrieve",
        summary="The leaderboard",
        description=(
            "The players with enough rated games (`min_games`), best rating first, "
            "paginated as the game list is (`page`, `page_size`); and each bot level's "
            "rating. As the site's leaderboard page shows it."
        ),
        tags=["users"],
        parameters=[PageQuerySerializer],
        responses={200: LeaderboardSerializer, **error_responses(400, 401, 404, 429)},
    )
    def get(self, request: Request) -> Response:
        query_once(request, PageQuerySerializer).is_valid(raise_exception=True)
        paginator = PagePagination()
        rows = paginator.paginate_queryset(leaderboard_players(), request, view=self)
        first = paginator.page.start_index()
        payload = {
            "count": paginator.page.paginator.count,
            "next": paginator.get_next_link(),
            "previous": paginator.get_previous_link(),
            "results": [
                {
                    "rank": first + offset,
                    "username": row.user.username,
                    "name": row.user.public_name,
                    "rating": row.rating,
                    "rated_games": row.rated_games,
                    "games_won": row.games_won,
                    "games_played": row.games_played,
                }
                for offset, row in enumerate(rows)
            ],
            "min_games": leaderboard_min_games(),
            "bots": [
                {"level": bot.level, "rating": bot.rating, "rated_games": bot.rated_games}
                for bot in bot_ratings()
            ],
        }
        return Response(LeaderboardSerializer(payload).data)
