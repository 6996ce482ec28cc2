"""What caches may keep of the API's answers: nothing shared.

An answer depends on who asks (the game view holds the caller's own hand), and a
program proves who it is with the Authorization header, not a cookie: without a word
from the server, a proxy or a CDN between a client and the site could keep one
player's answer and hand it to another.  Every answer under ``/api/v1/`` therefore
says ``Cache-Control: private, no-cache`` (a client may keep it but asks again
before reusing it) and ``Vary: Authorization``.  The schema and its docs page, the
same for everyone, are left alone.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control, patch_vary_headers

API_PREFIX = "/api/v1/"


class ApiCacheHeadersMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.path_info.startswith(API_PREFIX):
            patch_vary_headers(response, ("Authorization",))
            if not response.has_header("Cache-Control"):
                patch_cache_control(response, private=True, no_cache=True)
        return response
