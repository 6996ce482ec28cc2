"""Routes of the game pages (the lobby at "/" is routed by highsociety_site.urls)."""

from django.urls import path
from django.views.generic import RedirectView

from games import views, views_records

app_name = "games"

urlpatterns = [
    # /games/ itself (a table's address with its number taken off): the lobby.
    path(
        "",
        RedirectView.as_view(pattern_name="lobby", http_method_names=["get", "head"]),
        name="index",
    ),
    path("new/", views.game_new, name="new"),
    path("quick/", views.game_quick, name="quick"),
    path("turns/", views.turns_badge, name="turns"),
    path("<int:game_id>/", views.game_detail, name="detail"),
    path("<int:game_id>/board/", views.game_board, name="board"),
    path("<int:game_id>/stream/", views.game_stream, name="stream"),
    path("<int:game_id>/bid-preview/", views.game_bid_preview, name="bid_preview"),
    path("<int:game_id>/act/", views.game_act, name="act"),
    path("<int:game_id>/orders/", views.game_orders, name="orders"),
    path("<int:game_id>/order-preview/", views.game_order_preview, name="order_preview"),
    path("<int:game_id>/join/", views.game_join, name="join"),
    path("<int:game_id>/leave/", views.game_leave, name="leave"),
    path("<int:game_id>/resign/", views.game_resign, name="resign"),
    path("<int:game_id>/invitation/", views.game_invitation, name="invitation"),
    path("invitations/decline-all/", views.invitations_decline_all, name="invitations_decline_all"),
    path("<int:game_id>/seat-to-bot/", views.game_seat_to_bot, name="seat_to_bot"),
    path("<int:game_id>/seat/", views.game_seat, name="seat"),
    path("<int:game_id>/chat/", views.game_chat, name="chat"),
    path("<int:game_id>/rematch/", views.game_rematch, name="rematch"),
    path("<int:game_id>/chat/mute/", views.game_chat_mute, name="chat_mute"),
    path("<int:game_id>/chat/report/", views.game_chat_report, name="chat_report"),
    path("history/", views_records.game_history, name="history"),
    path("<int:game_id>/replay/", views_records.game_replay, name="replay"),
    path("<int:game_id>/record.json", views_records.game_record_json, name="record"),
]
