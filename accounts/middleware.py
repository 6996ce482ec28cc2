"""The language of a signed-in player's pages: the one saved on their account.

Django's LocaleMiddleware (before this one) has already chosen from the language cookie
or the browser's Accept-Language.  A player's own choice (``User.language``) is copied
into their session when they log in and whenever they change it (``accounts.signals``,
``views_preferences.language_update``), so it wins on every device they sign in on,
and reading it costs no query: the session is loaded for the request anyway, the user
row is not (the board's poll reads only the session).  The API (``/api/``) is left to
Accept-Language alone: programs say what they want per request.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.utils import translation

from accounts.preferences import LANGUAGE_SESSION_KEY, language_supported


class UserLanguageMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path_info.startswith("/api/"):
            session = getattr(request, "session", None)
            chosen = session.get(LANGUAGE_SESSION_KEY, "") if session is not None else ""
            if chosen and language_supported(chosen):
                translation.activate(chosen)
                request.LANGUAGE_CODE = chosen
        return self.get_response(request)
