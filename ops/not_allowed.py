"""A page for a method a URL does not take (GET on a form's address, say).

Django's ``require_POST`` and its relatives answer 405 with an empty body, which a
browser shows as a blank white page.  The site's pages get the site's words and a way
on instead, in the reader's language, with the ``Allow`` header kept; the API's 405s
already carry its JSON error and pass untouched.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.urls import NoReverseMatch, reverse


class MethodNotAllowedPageMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            response.status_code == 405
            and not response.streaming
            and not response.content
            and not request.path_info.startswith("/api/")
        ):
            # GET allowed: a page that is only read, sent a form (a forged post, a
            # stale form): it is offered, not said not to exist.
            page = "GET" in response.get("Allow", "").replace(" ", "").split(",")
            context = {"page": request.get_full_path() if page else "", **_table_of(request)}
            response.content = render_to_string("405.html", context, request=request)
            response["Content-Type"] = "text/html; charset=utf-8"
        return response


def _table_of(request: HttpRequest) -> dict[str, object]:
    """The table a form's address belongs to (``/games/7/seat/``, opened again after a
    refused form, or reloaded): its page (its namespace's ``detail``) and number, for a
    way back to it.  Empty for any other address."""
    match = getattr(request, "resolver_match", None)
    table = match.kwargs.get("game_id") if match is not None else None
    if table is None or not match.namespace:
        return {}
    try:
        return {"table": table, "table_url": reverse(f"{match.namespace}:detail", args=[table])}
    except NoReverseMatch:
        return {}
