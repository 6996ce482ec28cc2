"""Public record pages at the site's root: player profiles and the leaderboard."""

from django.urls import path

from games import views_history

urlpatterns = [
    path("players/<str:username>/", views_history.player_profile, name="player_profile"),
    path("leaderboard/", views_history.leaderboard, name="leaderboard"),
]
