"""Request limits of the API per user and per address (rates in settings.REST_FRAMEWORK,
from the environment), counted in fixed windows in the default cache
(``ops.limits.counters_check``): a request over the limit is refused with 429 and
``Retry-After``, the seconds left in the period.  Rates are read on every request, so a
changed setting (a test lowering a rate) applies at once.

Every answer to a counted request says where the client stands, in the headers of the
IETF's draft (``RateLimit-Limit``, ``RateLimit-Remaining``, ``RateLimit-Reset``: the
scope with the fewest requests left; ``games.api.base_view.ApiView`` writes them), so a client can slow
down before it is refused.
"""

from __future__ import annotations

import logging

from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle

from ops.limits import counters_count, over_wait
from ops.outages import CACHE_ERRORS

logger = logging.getLogger(__name__)


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
        rates = api_settings.DEFAULT_THROTTLE_RATES
        scopes = [
            (f"{scope}:{self.ident(scope, request)}", rates[scope])
            for scope in self.scopes
            if rates.get(scope)
        ]
        try:
            counted = counters_count(scopes)
            self._wait = over_wait(counted)
            if counted:  # the scope with the fewest requests left, for the headers
                request.rate_limit = min(counted, key=lambda c: (c.remaining, c.reset))
        except CACHE_ERRORS:
            if not self.fail_open:
                raise  # a 503 (games.api.errors): no unlimited password guessing
            # Redis is down: moves must go on, so the request is let through uncounted.
            logger.warning("request limits not counted: the cache is unavailable")
            self._wait = None
        return self._wait is None

    def wait(self) -> float | None:
        return self._wait


class AuthLimit(RequestLimit):
    """Token log-ins (password checks): per address, plus the address's overall limit."""

    scopes = ("auth", "ip")
    fail_open = False
