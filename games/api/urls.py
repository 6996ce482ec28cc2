"""Routes of the REST API, included under /api/v1/ (highsociety_site.urls)."""

from django.conf import settings
from django.urls import path, re_path

from games.api import views
from games.api.errors import api_not_found
from games.api.users import LeaderboardView, TokenView, UserDetailView

app_name = "api"

urlpatterns = [
    path("auth/token/", TokenView.as_view(), name="auth-token"),
    path("games/", views.GamesView.as_view(), name="games"),
    path("games/<int:game_id>/", views.GameDetailView.as_view(), name="game-detail"),
    path("games/<int:game_id>/join/", views.GameJoinView.as_view(), name="game-join"),
    path("games/<int:game_id>/leave/", views.GameLeaveView.as_view(), name="game-leave"),
    path("games/<int:game_id>/resign/", views.GameResignView.as_view(), name="game-resign"),
    path("games/<int:game_id>/rematch/", views.GameRematchView.as_view(), name="game-rematch"),
    path(
        "games/<int:game_id>/seats/<int:position>/",
        views.GameSeatView.as_view(),
        name="game-seat",
    ),
    path(
        "games/<int:game_id>/seats/<int:position>/hand-over/",
        views.GameSeatHandOverView.as_view(),
        name="game-seat-hand-over",
    ),
    path("games/<int:game_id>/moves/", views.GameMovesView.as_view(), name="game-moves"),
    path("games/<int:game_id>/chat/", views.GameChatView.as_view(), name="game-chat"),
    path(
        "games/<int:game_id>/chat/<int:message_id>/report/",
        views.GameChatReportView.as_view(),
        name="game-chat-report",
    ),
    path("games/<int:game_id>/orders/", views.GameOrdersView.as_view(), name="game-orders"),
    path("users/<str:username>/", UserDetailView.as_view(), name="user-detail"),
    path("leaderboard/", LeaderboardView.as_view(), name="leaderboard"),
]

if settings.BENCH_FLOOR_VIEW:  # bench/http_bench.py's baseline: never on in production
    from games.api.bench import floor

    urlpatterns.append(path("bench/floor/<int:game_id>/", floor, name="bench-floor"))

# Anything else under /api/v1/ answers 404 in the API's error format.
urlpatterns.append(re_path(r"^[\s\S]*$", api_not_found))
