from django.urls import include, path

from accounts import views, views_preferences, views_push

urlpatterns = [
    path("profile/", views.profile, name="profile"),
    path("profile/delete/", views.delete_account, name="delete_account"),
    path("profile/data/", views.your_data, name="your_data"),
    path("profile/data.json", views.download_data, name="download_data"),
    path("profile/sign-out-everywhere/", views.sign_out_everywhere, name="sign_out_everywhere"),
    path("profile/people/", views.people_update, name="people_update"),
    path(
        "profile/notifications/",
        views_preferences.notifications_update,
        name="notifications_update",
    ),
    path("profile/push/", views_push.push_on, name="push_on"),
    path("profile/push/off/", views_push.push_off, name="push_off"),
    path("profile/push/settings/", views_push.push_settings_update, name="push_settings_update"),
    path("language/", views_preferences.language_update, name="set_language"),
    path("profile/time-zone/", views_preferences.time_zone_update, name="time_zone_update"),
    path("profile/vacation/", views_preferences.vacation_update, name="vacation_update"),
    path("unsubscribe/<str:token>/", views_preferences.unsubscribe, name="unsubscribe"),
    path("email/undo/<str:token>/", views.email_undo, name="email_undo"),
    path("profile/tokens/", include("accounts.tokens.urls")),
]
