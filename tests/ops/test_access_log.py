"""The keys of e-mail confirmation and password reset links never reach a log line:
not the server's access log (uvicorn's, gunicorn's), not Django's request warnings."""

from __future__ import annotations

import logging

import pytest

from ops.access_log import LOGGERS, SecretPathFilter

pytestmark = pytest.mark.django_db

KEY = "Mg:1xX16E:abcDEFghiJKLmnoPQRstu"
RESET = "/accounts/password/reset/key/2s-cbkz6d-0123456789abcdef0123456789abcdef/"


def _line(logger_name: str, msg: str, args) -> str:
    record = logging.LogRecord(logger_name, logging.INFO, __file__, 1, msg, args, None)
    for each in logging.getLogger(logger_name).filters:
        each.filter(record)
    return record.getMessage()


def test_uvicorns_access_line_keeps_the_address_without_its_key():
    line = _line(
        "uvicorn.access",
        '%s - "%s %s HTTP/%s" %d',
        ("10.0.0.7:5123", "GET", f"/accounts/confirm-email/{KEY}/?next=/", "1.1", 200),
    )
    assert line == '10.0.0.7:5123 - "GET /accounts/confirm-email/…/?next=/ HTTP/1.1" 200'
    line = _line("uvicorn.access", '%s - "%s %s HTTP/%s" %d', ("a", "GET", RESET, "1.1", 302))
    assert "/accounts/password/reset/key/…/" in line and "0123456789" not in line


def test_gunicorns_atoms_and_djangos_warning_lose_the_key_too():
    line = _line(
        "gunicorn.access",
        '%(h)s "%(r)s" %(s)s',
        {"h": "a", "r": f"GET {RESET} HTTP/1.1", "s": "200"},
    )
    assert line == 'a "GET /accounts/password/reset/key/…/ HTTP/1.1" 200'
    warned = _line("django.request", "Not Found: %s", (f"/accounts/confirm-email/{KEY}/",))
    assert warned == "Not Found: /accounts/confirm-email/…/"


def test_an_unsubscribe_links_token_is_kept_out_too():
    """Anyone who read the access log could POST the one-click unsubscribe link (no
    cookie needed, by design) and switch off a player's e-mails."""
    token = "eyJ1IjoxLCJrIjoidHVybiJ9:1xXnV4:AbCdEf0123456789"
    line = _line(
        "uvicorn.access",
        '%s - "%s %s HTTP/%s" %d',
        ("10.0.0.7:5123", "POST", f"/accounts/unsubscribe/{token}/", "1.1", 200),
    )
    assert line == '10.0.0.7:5123 - "POST /accounts/unsubscribe/…/ HTTP/1.1" 200'
    atoms = _line(
        "gunicorn.access", "%(m)s %(U)s", {"m": "POST", "U": f"/accounts/unsubscribe/{token}/"}
    )
    assert atoms == "POST /accounts/unsubscribe/…/"


def test_other_addresses_stay_whole_and_every_logger_has_the_filter():
    assert (
        _line("uvicorn.access", "%s", ("/games/12/replay/?move=5",)) == "/games/12/replay/?move=5"
    )
    for name in LOGGERS:
        assert any(isinstance(f, SecretPathFilter) for f in logging.getLogger(name).filters), name


def test_a_confirmation_link_visited_leaves_no_key_in_djangos_log(client, caplog):
    with caplog.at_level(logging.WARNING, logger="django.request"):
        client.get(f"/accounts/confirm-email/{KEY}/nothing-here/")
    assert "Not Found: /accounts/confirm-email/…/nothing-here/" in caplog.text
    assert KEY not in caplog.text


def test_a_standing_orders_preview_leaves_its_maximum_out_of_the_log():
    """The board asks for a preview as the amount is typed: its query holds the most the
    order may bid, hidden from the other players, and it stood in the access log."""
    path = "/games/7/order-preview/?maximum=14000&cards=3000&only_ticked=1"
    line = _line("uvicorn.access", '%s - "%s %s HTTP/%s" %d', ("a", "GET", path, "1.1", 200))
    assert line == 'a - "GET /games/7/order-preview/?… HTTP/1.1" 200'
    line = _line(
        "gunicorn.access",
        '"%(r)s" %(U)s %(q)s',
        {"r": f"GET {path} HTTP/1.1", "U": "/games/7/order-preview/", "q": path.split("?")[1]},
    )
    assert "14000" not in line and line.startswith('"GET /games/7/order-preview/?… HTTP/1.1"')
    assert _line("uvicorn.access", "%s", ("/games/7/bid-preview/?cards=3000",)).endswith("3000")
