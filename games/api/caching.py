"""What caches may keep of the API's answers: nothing shared; and what a client that
polls gets when nothing changed: a 304 with no body.

An answer depends on who asks (the game view holds the caller's own hand), and a
program proves who it is with the Authorization header, not a cookie: without a word
from the server, a proxy or a CDN between a client and the site could keep one
player's answer and hand it to another.  Every answer under ``/api/v1/`` therefore
says ``Cache-Control: private, no-cache`` (a client may keep it but asks again
before reusing it) and ``Vary: Authorization``.  The schema and its docs page, the
same for everyone, are left alone.

Every successful ``GET`` (or ``HEAD``) under ``/api/v1/`` also carries an ``ETag``, a
hash of its body, by Django's own ``ConditionalGetMiddleware``: a client that sends it
back in ``If-None-Match`` gets ``304 Not Modified`` with no body while the answer it
would get is the same.  The view still runs (the tag is of what it answers, so it is
exact whatever the answer holds: a clock, the caller's own hand, the chat), so a 304
saves the client's bandwidth and parsing, not the server's work, and it counts against
the rate limits like any call (its ``RateLimit-*`` headers say so).  Pages are left
alone: their forms carry a fresh CSRF token on every answer, so a tag would never match.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.middleware.http import ConditionalGetMiddleware
from django.utils.cache import patch_cache_control, patch_vary_headers

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
                response = self.conditional.process_response(request, full)
                if response is not full:  # a 304 keeps the limits' headers for the client
                    for header in RATE_LIMIT_HEADERS:
                        if full.has_header(header):
                            response[header] = full[header]
        return response
