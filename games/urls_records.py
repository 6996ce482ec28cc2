"""Public record pages at the site's root: player profiles and the leaderboard."""

from django.urls import path

from games import views_records

urlpatterns = [
    path("players/<str:username>/", views_records.player_profile, name="player_profile"),
    path("leaderboard/", views_records.leaderboard, name="leaderboard"),
]
