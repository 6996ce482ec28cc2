"""Health checks for probes: answered whatever Host the probe sends (the public name in
ALLOWED_HOSTS does not shut out a load balancer's "localhost"), every other page still
refused for an unknown Host; a failing probe logged as a warning, not as an error."""

from __future__ import annotations

import logging

import pytest
from django.test import RequestFactory

from ops.health import ProbeLogFilter

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def public_name_only(settings):
    settings.ALLOWED_HOSTS = ["play.example.org"]


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1", "10.0.3.7:8000", "web"])
@pytest.mark.parametrize("path", ["/health/", "/health/ready/"])
def test_a_probe_by_any_name_is_answered(client, host, path):
    answer = client.get(path, HTTP_HOST=host)
    assert answer.status_code == 200 and answer.json()["status"] == "ok"
    assert answer["Cache-Control"].startswith("max-age=0")


@pytest.mark.parametrize("path", ["/", "/health/nothing/", "/healthz/", "/games/1/"])
def test_every_other_page_still_checks_the_host(client, path):
    refused = client.get(path, HTTP_HOST="localhost")
    assert refused.status_code == 400
    assert "sent to a name this site does not go by" in refused.content.decode()
    assert client.get("/", HTTP_HOST="play.example.org").status_code == 200


def test_a_probe_may_only_read(client):
    assert client.post("/health/", HTTP_HOST="localhost").status_code == 405


def _record(path: str, status: int, level: int = logging.ERROR) -> logging.LogRecord:
    return logging.makeLogRecord(
        {
            "name": "django.request",
            "levelno": level,
            "levelname": logging.getLevelName(level),
            "msg": "Service Unavailable: %s",
            "args": (path,),
            "status_code": status,
            "request": RequestFactory().get(path),
        }
    )


def test_a_failing_probe_is_a_warning_and_other_errors_stay_errors():
    probes = ProbeLogFilter()
    failing = _record("/health/ready/", 503)
    assert probes.filter(failing) and failing.levelname == "WARNING"
    for other in (_record("/", 503), _record("/health/", 500)):
        assert probes.filter(other) and other.levelname == "ERROR"


def test_a_stream_refused_for_now_is_a_warning():
    """Redis away: every open board's stream is refused with 503 and Retry-After, and
    the board polls; an ERROR line per board would bury the real errors."""
    probes = ProbeLogFilter()
    refused = _record("/games/12/stream/", 503)
    assert probes.filter(refused) and refused.levelname == "WARNING"
    for other in (_record("/games/12/stream/", 500), _record("/games/12/", 503)):
        assert probes.filter(other) and other.levelname == "ERROR"


def test_the_site_logs_through_the_filter():
    handlers = logging.getLogger().handlers
    assert any(isinstance(f, ProbeLogFilter) for h in handlers for f in h.filters)
