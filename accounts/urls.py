from django.urls import include, path

from accounts import views, views_async

urlpatterns = [
    path("profile/", views.profile, name="profile"),
    path("profile/notifications/", views_async.notifications_update, name="notifications_update"),
    path("profile/vacation/", views_async.vacation_update, name="vacation_update"),
    path("unsubscribe/<str:token>/", views_async.unsubscribe, name="unsubscribe"),
    path("profile/tokens/", include("accounts.tokens.urls")),
]
