"""Request limits per user and per address (rates in settings.REST_FRAMEWORK, from the
environment), counted in the default cache: Redis when REDIS_URL is set, shared by every
worker process.

Fixed windows: each scope counts the requests of the current period (a minute for
"120/min") under a key of its own, and a request over the limit is refused with 429 and
``Retry-After``, the seconds left in the period.  Counting uses the cache's public
``add`` and ``incr`` only, so it works the same on Redis and on the in-process cache.
Rates are read on every request, so a changed setting (a test lowering a rate) applies
at once.
"""

from __future__ import annotations

import logging
import time

from django.core.cache import caches
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle

from ops.outages import CACHE_ERRORS

logger = logging.getLogger(__name__)

_PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def rate_parse(rate: str) -> tuple[int, int]:
    """``"120/min"`` -> (120, 60)."""
    count, period = rate.split("/")
    return int(count), _PERIODS[period[0]]


def _incr_many(keys: list[tuple[str, int]]) -> list[int]:
    """Add one to each counter (creating it to live ``ttl`` seconds); the new values."""
    backend = caches["default"]
    counts = []
    for key, ttl in keys:
        backend.add(key, 0, ttl)
        try:
            counts.append(backend.incr(key))
        except ValueError:  # expired in between
            backend.set(key, 1, ttl)
            counts.append(1)
    return counts


class RequestLimit(BaseThrottle):
    """Counts a request in each of ``scopes``; refuses it when any is over its rate."""

    scopes: tuple[str, ...] = ("user", "ip")
    # While the cache (Redis) is down: let requests through uncounted (True) or answer 503.
    fail_open = True

    def ident(self, scope: str, request) -> str:
        if scope == "user" and request.user and request.user.is_authenticated:
            return f"u{request.user.pk}"
        return f"a{self.get_ident(request)}"  # anonymous, or the "ip" and "auth" scopes

    def allow_request(self, request, view) -> bool:
        now = time.time()
        rates = api_settings.DEFAULT_THROTTLE_RATES
        counters = []
        for scope in self.scopes:
            if not rates.get(scope):
                continue
            limit, period = rate_parse(rates[scope])
            window = int(now // period)
            key = f"throttle:{scope}:{self.ident(scope, request)}:{window}"
            counters.append((key, limit, period, (window + 1) * period - now))
        try:
            counts = _incr_many([(key, period + 1) for key, _, period, _ in counters])
        except CACHE_ERRORS:
            if not self.fail_open:
                raise  # a 503 (games.api.errors): no unlimited password guessing
            # Redis is down: moves must go on, so the request is let through uncounted.
            logger.warning("request limits not counted: the cache is unavailable")
            counts = [0] * len(counters)
        waits = [left for (_, limit, _, left), n in zip(counters, counts, strict=True) if n > limit]
        self._wait = max(waits) if waits else None
        return self._wait is None

    def wait(self) -> float | None:
        return self._wait


class AuthLimit(RequestLimit):
    """Token log-ins (password checks): per address, plus the address's overall limit."""

    scopes = ("auth", "ip")
    fail_open = False
