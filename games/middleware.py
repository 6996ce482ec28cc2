"""A closed table (abandoned before its game began), asked for by someone who had no
seat there: a page that says it was closed, rather than a bare "not found"."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render


class TableClosed(Http404):
    """Raised by ``games.views.game_or_404`` for an abandoned table and a caller who
    had no seat at it.  Still a 404 wherever it is not caught (the API keeps its own
    ``not_found``)."""


class ClosedTableMiddleware:
    """Answers ``TableClosed`` with 410 and the closed table's page, or, to an htmx
    request (a watching board's poll, a button), with ``HX-Refresh`` so that the whole
    page reloads into it: htmx swaps nothing of an error, so the board went on polling
    a 404 and said nothing."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, TableClosed):
            return None
        if getattr(request, "htmx", False):
            return HttpResponse(headers={"HX-Refresh": "true"})
        return render(request, "games/closed.html", status=410)
