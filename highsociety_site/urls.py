"""URL routes of the whole site."""

from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.negotiation import DefaultContentNegotiation

from accounts import views as accounts_views
from games import views as games_views
from highsociety_site import views

# allauth answers a rate-limited log-in, sign-up or password reset with this view.
handler429 = views.too_many_requests

urlpatterns = [
    path("", games_views.lobby, name="lobby"),
    path("games/", include("games.urls")),
    path("", include("games.urls_records")),  # /players/<username>/, /leaderboard/
    path("rules/", views.rules, name="rules"),
    # The Web Push service worker: at the root, so that its scope is the whole site.
    path("sw.js", views.service_worker, name="service_worker"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("health/", views.health, name="health"),
    path("health/ready/", views.health_ready, name="health_ready"),
    path("accounts/", include("accounts.urls")),
    # Four of allauth's pages, told more (accounts.views): before allauth's own routes.
    path("accounts/signup/", accounts_views.SignupView.as_view(), name="account_signup"),
    path("accounts/email/", accounts_views.EmailView.as_view(), name="account_email"),
    re_path(
        r"^accounts/confirm-email/(?P<key>[-:\w]+)/$",
        accounts_views.ConfirmEmailView.as_view(),
        name="account_confirm_email",
    ),
    re_path(
        r"^accounts/password/reset/key/(?P<uidb36>[0-9A-Za-z]+)-(?P<key>.+)/$",
        accounts_views.PasswordResetFromKeyView.as_view(),
        name="account_reset_password_from_key",
    ),
    path("accounts/", include("allauth.urls")),
    # After allauth's routes: a reset link they do not match (cut short, mangled).
    re_path(
        r"^accounts/password/reset/key/",
        accounts_views.password_reset_link_broken,
        name="account_reset_password_link_broken",
    ),
    # The admin has no log-in form of its own: the site's (rate limits, lockout).
    path("admin/login/", views.admin_login, name="admin_login"),
    path("admin/", admin.site.urls),
    path("api/v1/", include("games.api.urls")),
    # The schema (YAML, or JSON with ?format=json) and its docs page choose their format
    # as DRF does; the API itself answers JSON only (games.api.negotiation).
    path(
        "api/schema/",
        SpectacularAPIView.as_view(content_negotiation_class=DefaultContentNegotiation),
        name="api-schema",
    ),
    # The split view serves Swagger UI's start-up code as a file, not an inline script.
    path(
        "api/docs/",
        SpectacularSwaggerSplitView.as_view(
            url_name="api-schema", content_negotiation_class=DefaultContentNegotiation
        ),
        name="api-docs",
    ),
]
