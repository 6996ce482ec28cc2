"""Structured logs: which game, move, request or task a log line belongs to.

``log_context(game_id=..., move_number=...)`` binds fields for the code it wraps, in a
``contextvars.ContextVar`` (so threads and asyncio tasks each see their own), and
``ContextFilter``, installed on the log handler by ``settings.LOGGING``, copies them onto
every record emitted meanwhile, from any logger (Django's, Celery's, ours).  Blocks
nest: an inner block adds or overrides fields and the outer ones come back when it
ends, error or not, so nothing leaks from one game, request or task into the next.

``game_logged`` wraps a service: it binds ``game_id`` (from its ``game`` or ``game_id``
argument) and ``move_number`` (from ``expected_version``: the number the move gets).

Each HTTP request gets a ``request_id`` (the proxy's ``X-Request-ID`` when it is a short
plain token, else a new random one), bound from Django's ``request_started`` signal to
its ``request_finished`` under WSGI, and by ``asgi_request_ids`` around the request
under ASGI.

Formatters: ``JsonFormatter`` (one JSON object per line: ``time``, ``level``, ``logger``,
``message``, the context fields and any ``extra``) and ``TextFormatter`` (one readable
line, the context as ``key=value`` after the message), chosen by ``LOG_FORMAT``.

Never put a secret into a log line or a context field: no deck order, no hand, no
sealed Yacht Club card (docs/rules.md, "What each player may see").  Moves are logged by
kind only (bid, pass, discard, seal).
"""

from __future__ import annotations

import contextlib
import functools
import logging
import re
import secrets
from collections.abc import Callable, Iterator, Mapping
from contextvars import ContextVar, Token
from types import MappingProxyType
from typing import Any

from pythonjsonlogger.json import JsonFormatter as _JsonFormatter

from ops.numbers import digits

# The fields the context may carry, in the order the text format shows them.
FIELDS = ("request_id", "task", "game_id", "move_number", "notification_id")

# The bound fields; each change sets a new mapping, never edits the current one.
_context: ContextVar[Mapping[str, Any]] = ContextVar("log_context", default=MappingProxyType({}))
_request_token: ContextVar[Token | None] = ContextVar("log_request_token", default=None)
_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")


def log_context_get() -> dict[str, Any]:
    """The fields bound now (a copy)."""
    return dict(_context.get())


def log_context_reset() -> None:
    """Unbind everything: the start of a unit of work that must inherit nothing."""
    _context.set(MappingProxyType({}))
    _request_token.set(None)


@contextlib.contextmanager
def log_context(**fields: Any) -> Iterator[None]:
    """Bind ``fields`` (those not None) to every log line of the block."""
    unknown = set(fields) - set(FIELDS)
    if unknown:
        raise TypeError(f"unknown log context fields: {', '.join(sorted(unknown))}")
    token = _context.set({**_context.get(), **{k: v for k, v in fields.items() if v is not None}})
    try:
        yield
    finally:
        _context.reset(token)


def _move_number(version: Any) -> int | None:
    """The caller's ``expected_version`` as a number, or None (bad input is not logged)."""
    if isinstance(version, bool):
        return None
    if isinstance(version, int):
        return version if version >= 0 else None
    if isinstance(version, str) and digits(version.strip()) and len(version.strip()) < 10:
        return int(version.strip())
    return None


def game_logged(service: Callable[..., Any]) -> Callable[..., Any]:
    """Run a game service inside ``log_context(game_id=..., move_number=...)``."""

    @functools.wraps(service)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        game = kwargs.get("game")
        game_id = getattr(game, "pk", None) if game is not None else kwargs.get("game_id")
        if not isinstance(game_id, int) or isinstance(game_id, bool):
            game_id = None
        with log_context(game_id=game_id, move_number=_move_number(kwargs.get("expected_version"))):
            return service(*args, **kwargs)

    return wrapper


class ContextFilter(logging.Filter):
    """Copy the bound fields onto each record (an ``extra`` of the call wins)."""

    def filter(self, record: logging.LogRecord) -> bool:
        for key, value in _context.get().items():
            if not hasattr(record, key):
                setattr(record, key, value)
        return True


class JsonFormatter(_JsonFormatter):
    """One JSON object per line: time (ISO 8601, UTC), level, logger, message, then
    the context fields and the call's ``extra`` fields; ``exc_info`` as text."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("fmt", ["levelname", "name", "message"])
        kwargs.setdefault("rename_fields", {"levelname": "level", "name": "logger"})
        kwargs.setdefault("timestamp", "time")
        super().__init__(**kwargs)

    def add_fields(
        self, log_data: dict[str, Any], record: logging.LogRecord, message_dict: dict[str, Any]
    ) -> None:
        super().add_fields(log_data, record, message_dict)
        # The four fixed fields first, as a reader scans the lines, and never replaced
        # by an ``extra`` of the same name.
        fixed = {
            "time": log_data.pop("time", None),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        rest = [(k, v) for k, v in log_data.items() if k not in fixed]
        log_data.clear()
        log_data.update(fixed)
        log_data.update(rest)


class TextFormatter(logging.Formatter):
    """``time LEVEL logger message [key=value ...]``: for reading a terminal."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        bound = [f"{k}={getattr(record, k)}" for k in FIELDS if hasattr(record, k)]
        if not bound:
            return line
        first, newline, rest = line.partition("\n")  # a traceback stays below the line
        return f"{first} [{' '.join(bound)}]{newline}{rest}"


# --------------------------------------------------------------------------- requests


def _request_id(given: str) -> str:
    """The proxy's id when it is a short plain token, else a new random one."""
    return given if _REQUEST_ID.fullmatch(given) else secrets.token_hex(8)


def _request_started(sender: Any, environ: dict[str, Any] | None = None, **kwargs: Any) -> None:
    if environ is None:  # ASGI: ``asgi_request_ids`` has bound the id around the request
        return
    request_id = _request_id(environ.get("HTTP_X_REQUEST_ID", ""))
    # A request starts from an empty context: nothing of a previous one carries over.
    _request_token.set(_context.set({"request_id": request_id}))


def asgi_request_ids(app: Callable[..., Any]) -> Callable[..., Any]:
    """The ASGI application with a ``request_id`` bound around each HTTP request.

    Under ASGI, Django sends ``request_started`` to its receivers in tasks of their own
    (``Signal.asend``), so what a receiver binds is lost at once: the id is bound here,
    in the request's own task, around all of it (the views, the 404's log line, a
    stream), and sync views see it in their thread."""

    async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope.get("type") != "http":
            await app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or ())
        given = headers.get(b"x-request-id", b"").decode("latin-1")
        token = _context.set(MappingProxyType({"request_id": _request_id(given)}))
        try:
            await app(scope, receive, send)
        finally:
            _context.reset(token)

    return application


def _request_finished(sender: Any, **kwargs: Any) -> None:
    token = _request_token.get()
    _request_token.set(None)
    if token is None:
        return
    try:
        _context.reset(token)
    except ValueError:  # finished in another context than it started: start afresh
        _context.set(MappingProxyType({}))


def request_signals_connect() -> None:
    from django.core.signals import request_finished, request_started

    request_started.connect(_request_started, dispatch_uid="logcontext-request-started")
    request_finished.connect(_request_finished, dispatch_uid="logcontext-request-finished")


# Connected when LOGGING loads the filter, i.e. in every process that logs through it.
request_signals_connect()
