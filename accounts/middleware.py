"""The language of a signed-in player's pages, the one saved on their account; and the
time zone their pages write times in (``UserTimeZoneMiddleware``, below).

Django's LocaleMiddleware (before this one) has already chosen from the language cookie
or the browser's Accept-Language.  A player's own choice (``User.language``) is copied
into their session when they log in and whenever they change it (``accounts.signals``,
``views_preferences.language_update``), so it wins on every device they sign in on,
and reading it costs no query: the session is loaded for the request anyway, the user
row is not (the board's poll reads only the session).  The API (``/api/``) is left to
Accept-Language alone: programs say what they want per request.

The language cookie follows the player's choice, so that the browser goes on speaking
it after they log out (the log-out page's "You have signed out." is written in it too).

A choice made on another device reaches this session at its next full page
(``refresh_session_choices``): a page drawn whole reads the user row anyway (its header
names the player), while the board's poll and other htmx partials keep reading the
session only.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.http import HttpRequest, HttpResponse
from django.utils import timezone, translation

from accounts.preferences import (
    LANGUAGE_SESSION_KEY,
    TIME_ZONE_SESSION_KEY,
    language_supported,
    zone_named,
)


def refresh_session_choices(request: HttpRequest) -> None:
    """A full page's request (a GET for HTML, not htmx's): the account's language and
    time zone into the session when they changed since the log-in, on another device.
    The user row is loaded for such a page anyway; a partial or a stream reads none."""
    session = getattr(request, "session", None)
    if (
        session is None
        or SESSION_KEY not in session
        or request.method != "GET"
        or request.headers.get("HX-Request")
        or not request.accepts("text/html")
    ):
        return
    user = request.user
    if not user.is_authenticated:
        return
    if language_supported(user.language) and session.get(LANGUAGE_SESSION_KEY) != user.language:
        session[LANGUAGE_SESSION_KEY] = user.language
    if session.get(TIME_ZONE_SESSION_KEY, "") != user.time_zone:
        session[TIME_ZONE_SESSION_KEY] = user.time_zone


class UserLanguageMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info.startswith("/api/"):
            return self.get_response(request)
        refresh_session_choices(request)
        chosen = self._chosen(request)
        if chosen:
            translation.activate(chosen)
            request.LANGUAGE_CODE = chosen
        response = self.get_response(request)
        # Chosen now (a log-in, a change on the profile), else before (a log-out).
        keep = self._chosen(request) or chosen
        if keep and request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) != keep:
            response.set_cookie(
                settings.LANGUAGE_COOKIE_NAME,
                keep,
                max_age=settings.LANGUAGE_COOKIE_AGE,
                path=settings.LANGUAGE_COOKIE_PATH,
                domain=settings.LANGUAGE_COOKIE_DOMAIN,
                secure=settings.LANGUAGE_COOKIE_SECURE,
                httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
                samesite=settings.LANGUAGE_COOKIE_SAMESITE,
            )
        return response

    @staticmethod
    def _chosen(request: HttpRequest) -> str:
        session = getattr(request, "session", None)
        chosen = session.get(LANGUAGE_SESSION_KEY, "") if session is not None else ""
        return chosen if chosen and language_supported(chosen) else ""


class UserTimeZoneMiddleware:
    """The time zone a signed-in player chose on their profile, for the times the pages
    write (the board's log, chat and deadline, lists of games), read from the session
    as the language is (no query).  Without a choice, or for a visitor, times are UTC
    and say so; a browser with JavaScript shows each time in its own zone anyway."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        session = getattr(request, "session", None)
        name = session.get(TIME_ZONE_SESSION_KEY, "") if session is not None else ""
        zone = None if request.path_info.startswith("/api/") else zone_named(name)
        if zone is None:
            timezone.deactivate()
        else:
            timezone.activate(zone)
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
