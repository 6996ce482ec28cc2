"""The health checks answer whatever Host header the probe sends, and a failing one is
logged as a warning.

Load balancers and container checks call ``/health/`` and ``/health/ready/`` by an
internal name (``localhost``, a container's address) that ``ALLOWED_HOSTS``, set to the
site's public name, need not list; Django's Host check would answer them 400 and log
an error per probe, and the node would never count as healthy.  These two views build
no link and read nothing of the request, so the Host check has nothing to protect
there: ``HealthCheckMiddleware`` (placed before anything that reads the host) answers
them itself.  Every other path keeps the check.

A probe's 503 is the check doing its job (the database or a worker is away, and the
answer names which): ``ProbeLogFilter`` logs it as a warning, not as a server error.
So is a board's stream refused for now (its Redis channel cannot subscribe: the board
polls, and the hub has logged the outage once); every open board asks again, so as
errors they buried the real ones.
"""

from __future__ import annotations

import logging

from django.http import HttpRequest, HttpResponse
from django.urls import Resolver404, resolve

HEALTH_ROUTES = frozenset({"health", "health_ready"})
# 503 with Retry-After by design: "later", not a failure of the site.
LATER_VIEWS = frozenset({"games:stream"})


def _health_view(path: str):
    try:
        match = resolve(path)
    except Resolver404:
        return None
    return match.func if match.url_name in HEALTH_ROUTES else None


def _answers_later(path: str) -> bool:
    try:
        match = resolve(path)
    except Resolver404:
        return False
    return match.url_name in HEALTH_ROUTES or match.view_name in LATER_VIEWS


class HealthCheckMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info.startswith("/health/"):
            view = _health_view(request.path_info)
            if view is not None:
                return view(request)
        return self.get_response(request)


class ProbeLogFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        request = getattr(record, "request", None)
        if (
            record.name == "django.request"
            and record.levelno > logging.WARNING
            and getattr(record, "status_code", None) == 503
            and request is not None
            and _answers_later(getattr(request, "path_info", ""))
        ):
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True
