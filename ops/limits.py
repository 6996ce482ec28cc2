"""Request limits counted in fixed windows in the default cache (Redis when REDIS_URL is
set, shared by every process), and the limit on the site's form posts.

``counters_check(scopes)`` counts one request in each ``(key, rate)`` scope, e.g.
``("post:u12", "60/min")``: each counts the requests of the current period under a key
of its own, and the answer is the seconds to wait when any is over its rate (None when
all are within).  Only the cache's public ``add`` and ``incr`` are used, so it works the
same on Redis and on the in-process cache.  The API's throttles use it too
(``games.api.throttling``).

``FormPostLimitMiddleware`` counts every POST of the site's pages (not the API, which
has its own throttles) per signed-in user and per client address
(``settings.FORM_POST_RATES``); past a limit the answer is the site's 429 page with
``Retry-After``, and the view does not run: nothing changes.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from rest_framework.throttling import BaseThrottle

from ops.outages import CACHE_ERRORS

logger = logging.getLogger(__name__)

_PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def rate_parse(rate: str) -> tuple[int, int]:
    """``"120/min"`` -> (120, 60)."""
    count, period = rate.split("/")
    return int(count), _PERIODS[period[0]]


def _incr(key: str, ttl: int) -> int:
    backend = caches["default"]
    backend.add(key, 0, ttl)
    try:
        return backend.incr(key)
    except ValueError:  # expired in between
        backend.set(key, 1, ttl)
        return 1


@dataclass(frozen=True)
class Counted:
    """One scope's count after a request: its limit, how many more requests its window
    allows (never below 0), the seconds until the window ends, and whether this request
    went over the limit."""

    limit: int
    remaining: int
    reset: float
    over: bool


def counters_count(scopes: list[tuple[str, str]], *, now: float | None = None) -> list[Counted]:
    """Count one request in each ``(name, rate)``, in fixed windows.  Raises the cache's
    error when the cache is down (the caller decides whether to let the request
    through)."""
    now = time.time() if now is None else now
    counted = []
    for name, rate in scopes:
        limit, period = rate_parse(rate)
        window = int(now // period)
        count = _incr(f"throttle:{name}:{window}", period + 1)
        reset = (window + 1) * period - now
        counted.append(Counted(limit, max(limit - count, 0), reset, count > limit))
    return counted


def counters_check(scopes: list[tuple[str, str]], *, now: float | None = None) -> float | None:
    """``counters_count``: the seconds to wait if any scope is over its rate, else None."""
    return over_wait(counters_count(scopes, now=now))


def over_wait(counted: list[Counted]) -> float | None:
    """The seconds to wait when a count went over its limit (the longest), else None."""
    waits = [each.reset for each in counted if each.over]
    return max(waits) if waits else None


def client_address(request: HttpRequest) -> str:
    """The client's address as every per-address limit reads it: DRF's, which follows
    ``settings.TRUSTED_PROXY_COUNT`` (its ``NUM_PROXIES``), as allauth's log-in limits
    do."""
    return BaseThrottle().get_ident(request)


class FormPostLimitMiddleware:
    """Limits the site's form posts per user and per address (see the module)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "POST" and not request.path.startswith("/api/"):
            wait = self._wait(request)
            if wait is not None:
                response = HttpResponse(render_to_string("429.html", request=request), status=429)
                response["Retry-After"] = str(max(1, int(wait + 0.999)))
                return response
        return self.get_response(request)

    @staticmethod
    def _wait(request: HttpRequest) -> float | None:
        rates = settings.FORM_POST_RATES
        scopes = [(f"post-ip:{client_address(request)}", rates["ip"])]
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            scopes.append((f"post-user:{user.pk}", rates["user"]))
        try:
            return counters_check(scopes)
        except CACHE_ERRORS:  # the cache down: forms go on, uncounted
            logger.warning("form posts not counted: the cache is unavailable")
            return None
