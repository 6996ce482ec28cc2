from django.urls import include, path

from accounts import views, views_preferences

urlpatterns = [
    path("profile/", views.profile, name="profile"),
    path("profile/sign-out-everywhere/", views.sign_out_everywhere, name="sign_out_everywhere"),
    path("profile/notifications/", views_preferences.notifications_update, name="notifications_update"),
    path("profile/time-zone/", views_preferences.time_zone_update, name="time_zone_update"),
    path("profile/vacation/", views_preferences.vacation_update, name="vacation_update"),
    path("unsubscribe/<str:token>/", views_preferences.unsubscribe, name="unsubscribe"),
    path("profile/tokens/", include("accounts.tokens.urls")),
]
