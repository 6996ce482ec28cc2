"""A clear 503 instead of a 500 while a service the site needs is down.

When PostgreSQL is unreachable (stopped, restarting, the network gone) a view fails
with ``django.db.OperationalError`` or ``InterfaceError`` about the connection; when
Redis is, a cache call fails with ``redis.ConnectionError`` or ``TimeoutError``.  Neither
is a bug in the request: ``ServiceUnavailableMiddleware`` answers 503 with ``Retry-After`` and a
sentence a person can act on, the plain page ``templates/503.html`` (which needs no
database, no cache and no session) or, under ``/api/``, the API's one error format
(``games.api.errors``, which maps the same errors for DRF's views).  Nothing of the
error itself is shown; the log gets one warning line naming the kind of error.

Only a lost connection is an outage (``database_unreachable``): refused, dropped, timed
out, the server shutting down or out of connections, SQLite's file busy or unreadable.
Every other database error (a syntax error, a missing table, a constraint, a deadlock)
is a bug: it stays a 500, logged with its traceback by Django.

Django closes a connection that failed, and checks a kept one before reusing it
(``CONN_HEALTH_CHECKS``, on with ``CONN_MAX_AGE`` > 0), so the first request after the
database is back is served normally: no restart of the app is needed.
"""

from __future__ import annotations

import logging

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext, gettext_noop
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from ops.access_log import redact

logger = logging.getLogger(__name__)

DATABASE_ERRORS: tuple[type[Exception], ...] = (OperationalError, InterfaceError)
CACHE_ERRORS: tuple[type[Exception], ...] = (RedisConnectionError, RedisTimeoutError)
# Seconds a client should wait before trying again: a restart takes a few.
RETRY_AFTER_SECONDS = 5

# Marked for translation here, translated when the answer is made (the reader's language).
DATABASE_DOWN = gettext_noop("The database is unavailable; try again in a moment.")
CACHE_DOWN = gettext_noop("A service the site needs is unavailable; try again in a moment.")
NOT_SAVED = gettext_noop("Nothing was saved: send it again once the site is back.")


# PostgreSQL's SQLSTATEs of an outage: connection exceptions (class 08), the server
# shutting down or starting (57P01-57P03), too many connections, a statement cancelled
# by its timeout.  Errors raised by the driver itself (connection refused, closed,
# timed out) carry no SQLSTATE.
_PG_OUTAGE_STATES = ("57P01", "57P02", "57P03", "53300", "57014")
# SQLite's result codes (the primary code, before the extended part) of an outage: the
# file busy or locked by another writer past the timeout, unopenable, an I/O error.
_SQLITE_OUTAGE_CODES = {5, 6, 10, 14}  # BUSY, LOCKED, IOERR, CANTOPEN


def database_unreachable(exception: BaseException) -> bool:
    """Is ``exception`` a lost or refused database connection (try again later), as
    opposed to a bug (anything else)?"""
    if not isinstance(exception, DATABASE_ERRORS):
        return False
    cause = exception.__cause__ or exception
    code = getattr(cause, "sqlite_errorcode", None)
    if code is not None:
        return (code & 0xFF) in _SQLITE_OUTAGE_CODES
    if type(cause).__module__.startswith("sqlite3"):
        return False  # SQLite errors without a code: not an outage
    if isinstance(exception, InterfaceError):
        return True  # the connection is closed
    state = getattr(cause, "sqlstate", None)
    return state is None or state.startswith("08") or state in _PG_OUTAGE_STATES


def unavailable_detail(exception: BaseException, method: str) -> str | None:
    """The sentence for a 503, or None when ``exception`` is not an outage."""
    if database_unreachable(exception):
        text = gettext(DATABASE_DOWN)
    elif isinstance(exception, CACHE_ERRORS):
        text = gettext(CACHE_DOWN)
    else:
        return None
    if method not in ("GET", "HEAD", "OPTIONS"):
        text = f"{text} {gettext(NOT_SAVED)}"
    return text


def unavailable_log(exception: BaseException, path: str) -> None:
    # The class only: a driver's message may quote SQL or a server address.  The path
    # without a link's key (ops.access_log).
    logger.warning("503 for %s: %s", redact(path[:200]), type(exception).__name__)


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
