"""Loopback ports for the servers the tests start."""

from __future__ import annotations

import socket
from collections.abc import Callable
from typing import TypeVar

Bound = TypeVar("Bound")


def free_port() -> int:
    """A port the system has just handed out (for a server started as a subprocess)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def bind_first(ports: range, bind: Callable[[int], Bound]) -> tuple[int, Bound]:
    """The first port of ``ports`` where ``bind(port)`` succeeds, with what it returned.
    Binding is the test, so two test processes starting at once never take the same
    port (a port that merely looked free could be taken before it was bound)."""
    for port in ports:
        try:
            return port, bind(port)
        except OSError:
            continue
    raise RuntimeError(f"no free port in {ports.start}-{ports.stop - 1}")
