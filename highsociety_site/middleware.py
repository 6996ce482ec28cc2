"""A clear 503 instead of a 500 while a service the site needs is down.

When PostgreSQL is unreachable (stopped, restarting, the network gone) a view fails
with ``django.db.OperationalError`` or ``InterfaceError``; when Redis is, a cache call
fails with ``redis.ConnectionError`` or ``TimeoutError``.  Neither is a bug in the
request: ``ServiceUnavailableMiddleware`` answers 503 with ``Retry-After`` and a
sentence a person can act on, the plain page ``templates/503.html`` (which needs no
database, no cache and no session) or, under ``/api/``, the API's one error format
(``games.api.errors``, which maps the same errors for DRF's views).  Nothing of the
error itself is shown; the log gets one warning line naming the kind of error.

Django closes a connection that failed, and checks a kept one before reusing it
(``CONN_HEALTH_CHECKS``, on with ``CONN_MAX_AGE`` > 0), so the first request after the
database is back is served normally: no restart of the app is needed.
"""

from __future__ import annotations

import logging

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

DATABASE_ERRORS: tuple[type[Exception], ...] = (OperationalError, InterfaceError)
CACHE_ERRORS: tuple[type[Exception], ...] = (RedisConnectionError, RedisTimeoutError)
# Seconds a client should wait before trying again: a restart takes a few.
RETRY_AFTER_SECONDS = 5

DATABASE_DOWN = "The database is unavailable; try again in a moment."
CACHE_DOWN = "A service the site needs is unavailable; try again in a moment."
NOT_SAVED = "Nothing was saved: send it again once the site is back."


def unavailable_detail(exception: BaseException, method: str) -> str | None:
    """The sentence for a 503, or None when ``exception`` is not an outage."""
    if isinstance(exception, DATABASE_ERRORS):
        text = DATABASE_DOWN
    elif isinstance(exception, CACHE_ERRORS):
        text = CACHE_DOWN
    else:
        return None
    if method not in ("GET", "HEAD", "OPTIONS"):
        text = f"{text} {NOT_SAVED}"
    return text


def unavailable_log(exception: BaseException, path: str) -> None:
    # The class only: a driver's message may quote SQL or a server address.
    logger.warning("503 for %s: %s", path[:200], type(exception).__name__)


class ServiceUnavailableMiddleware:
    """Turns an outage of PostgreSQL or Redis during a view into a 503 (see above)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        detail = unavailable_detail(exception, request.method or "GET")
        if detail is None:
            return None
        unavailable_log(exception, request.path)
        if request.path.startswith("/api/"):
            response: HttpResponse = JsonResponse(
                {"detail": detail, "code": "service_unavailable"}, status=503
            )
        else:
            # No request context: the page must not touch the session or the user.
            response = HttpResponse(render_to_string("503.html", {"detail": detail}), status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        response["Cache-Control"] = "no-store"
        return response
