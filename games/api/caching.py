"""What caches may keep of the API's answers: nothing shared; and what a client that
polls gets when nothing changed: a 304 with no body.

An answer depends on who asks (the game view holds the caller's own hand), and a
program proves who it is with the Authorization header, not a cookie: without a word
from the server, a proxy or a CDN between a client and the site could keep one
player's answer and hand it to another.  Every answer under ``/api/v1/`` therefore
says ``Cache-Control: private, no-cache`` (a client may keep it but asks again
before reusing it) and ``Vary: Authorization``.  The schema and its docs page, the
same for everyone, are left alone.

Every successful ``GET`` under ``/api/v1/`` also carries an ``ETag``, a hash of its
body, by Django's own ``ConditionalGetMiddleware``: a client that sends it back in
``If-None-Match`` gets ``304 Not Modified`` with no body while the answer it would get
is the same.  That middleware looks at ``GET`` only; a ``HEAD`` (the same answer
without its body, which the server drops after this) gets the same tag and the same
304 here, so a client may check for a change without the body.  The view still runs (the tag is of what it answers, so it is
exact whatever the answer holds: a clock, the caller's own hand, the chat), so a 304
saves the client's bandwidth and parsing, not the server's work, and it counts against
the rate limits like any call (its ``RateLimit-*`` headers say so).  Pages are left
alone: their forms carry a fresh CSRF token on every answer, so a tag would never match.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.middleware.http import ConditionalGetMiddleware
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import quote_etag

from games.api.base_view import RATE_LIMIT_HEADERS

API_PREFIX = "/api/v1/"


class ApiCacheHeadersMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response
        self.conditional = ConditionalGetMiddleware(get_response)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.path_info.startswith(API_PREFIX):
            patch_vary_headers(response, ("Authorization",))
            if not response.has_header("Cache-Control"):
                patch_cache_control(response, private=True, no_cache=True)
            if response.status_code == 200:
                full = response
                if request.method == "HEAD":
                    response = _head_conditional(request, full)
                else:
                    response = self.conditional.process_response(request, full)
                if response is not full:  # a 304 keeps the limits' headers for the client
                    for header in RATE_LIMIT_HEADERS:
                        if full.has_header(header):
                            response[header] = full[header]
        return response


def _head_conditional(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """A HEAD's answer, tagged as the GET's would be (the MD5 of the body, as Django
    tags it), or 304 when ``If-None-Match`` names that tag."""
    if response.streaming or response.has_header("ETag"):
        return response
    tag = quote_etag(hashlib.md5(response.content, usedforsecurity=False).hexdigest())
    response["ETag"] = tag
    sent = request.headers.get("If-None-Match", "")
    if sent.strip() == "*" or tag in {t.strip().removeprefix("W/") for t in sent.split(",")}:
        not_modified = HttpResponseNotModified()
        for header in ("ETag", "Cache-Control", "Vary"):
            if response.has_header(header):
                not_modified[header] = response[header]
        return not_modified
    return response
