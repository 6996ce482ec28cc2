"""Requests that arrive together: ``at_once(calls)`` runs each callable in its own thread
and database connection, all released at the same moment, and returns what each
returned or raised (in the order given).  The tests that use it need real
transactions (``pytest.mark.django_db(transaction=True)``)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import connection


def at_once(calls: list[Callable[[], Any]], *, timeout: float = 60) -> list[Any]:
    barrier = threading.Barrier(len(calls))
    outcomes: list[Any] = [None] * len(calls)

    def run(index: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout=10)
            outcomes[index] = call()
        except Exception as error:  # recorded for the assertions
            outcomes[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=timeout)
    assert not any(thread.is_alive() for thread in threads)
    return outcomes
