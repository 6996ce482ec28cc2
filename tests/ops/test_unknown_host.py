"""A request for a host the site does not serve is one warning line in the log, with no
traceback (Django's own: an ERROR with the whole traceback, per scanner request)."""

from __future__ import annotations

import io
import json
import logging

import pytest

from ops.unknown_host import UnknownHostLogFilter

pytestmark = pytest.mark.django_db


def test_an_unknown_host_is_answered_400_and_logged_as_one_warning(client):
    """What the site's log handler writes, read through its own stream (``setStream``)."""
    handler = next(h for h in logging.getLogger().handlers if isinstance(h, logging.StreamHandler))
    buffer = io.StringIO()
    previous = handler.setStream(buffer)
    try:
        answer = client.get("/", HTTP_HOST="scanner.invalid")
    finally:
        handler.setStream(previous)
    assert answer.status_code == 400
    written = buffer.getvalue()
    lines = [line for line in written.splitlines() if "scanner.invalid" in line]
    assert lines, "the refusal is logged"
    if lines[0].startswith("{"):  # LOG_FORMAT=json, the default
        records = [json.loads(line) for line in lines]
        assert [r["level"] for r in records] == ["WARNING"] * len(records)
    assert "Traceback" not in written and "ERROR" not in written


def test_other_errors_keep_their_level():
    record = logging.LogRecord("django.request", logging.ERROR, __file__, 1, "boom", (), None)
    assert UnknownHostLogFilter().filter(record) and record.levelname == "ERROR"


def test_the_site_logs_through_the_filter():
    handlers = logging.getLogger().handlers
    assert any(isinstance(f, UnknownHostLogFilter) for h in handlers for f in h.filters)
