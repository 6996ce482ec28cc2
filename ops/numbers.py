"""Numbers written by people and programs: digits 0-9 and nothing else.

Python's ``int()`` and ``str.isdigit()``/``isdecimal()`` also read other scripts'
digits ("٣", an Arabic-Indic 3) and ``isdigit()`` superscripts ("²", which ``int()``
then refuses).  A page number, a move number, a version or a count of days in a form,
a query string or a JSON body is written with 0-9 only: every such check is this one.
"""

from __future__ import annotations

from typing import Any


def digits(text: Any) -> bool:
    """Whether ``text`` is a string of the digits 0-9 only (at least one)."""
    return isinstance(text, str) and text.isascii() and text.isdigit()
