"""The API's JSON parser: DRF's, refusing JSON nested too deeply to decode and an object
that writes a key twice.

Python's ``json`` raises ``RecursionError`` (not a ``ValueError``) for a document like
``[[[[…]]]]`` nested some thousand levels deep; DRF's parser lets that through as a 500.
Here it is a 400 in the API's error format like any other unreadable body, and every
unreadable body is told so in the reader's language (DRF passes on ``json``'s English).
"""

from __future__ import annotations

import codecs
import json as std_json
from typing import Any

from django.utils.translation import gettext as _
from rest_framework import parsers
from rest_framework.exceptions import ParseError
from rest_framework.utils import json

from games.presenter import quoted


class DuplicateKey(ValueError):
    def __init__(self, key: str):
        super().__init__(key)
        self.key = key


def _once_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object whose keys are each written once: ``{"version": 0, "version": 1}`` is
    refused, not read as its last value (``version`` is what keeps a move from being
    made twice)."""
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise DuplicateKey(key)
        found[key] = value
    return found


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            # DRF's check: a text encoding only (a charset such as bz2_codec would
            # decompress a small body without bound).
            encoding = parsers.get_encoding(parser_context or {})
        except ParseError:
            raise ParseError(
                _("JSON parse error - the charset of the Content-Type is not a text encoding.")
            ) from None
        try:
            # DRF's own reading (NaN and Infinity refused, its strict mode), each key once.
            return json.load(codecs.getreader(encoding)(stream), object_pairs_hook=_once_each)
        except RecursionError:
            raise ParseError(_("JSON parse error - the document is nested too deeply.")) from None
        except ValueError as error:  # UnicodeDecodeError and JSONDecodeError among them
            raise ParseError(_unreadable(error)) from None


def _unreadable(cause: BaseException | None) -> str:
    """DRF's "JSON parse error - " followed by the ``json`` module's own English words:
    said again in the reader's language, with where the error is."""
    if isinstance(cause, DuplicateKey):
        return _("JSON parse error - the key %(key)s is written twice in one object.") % {
            "key": quoted(cause.key)
        }
    if isinstance(cause, UnicodeDecodeError):
        return _("JSON parse error - the body is not UTF-8 text.")
    if isinstance(cause, std_json.JSONDecodeError):
        return _(
            "JSON parse error - the body is not valid JSON (line %(line)s, column %(column)s)."
        ) % {"line": cause.lineno, "column": cause.colno}
    # NaN and Infinity, which JSON does not have (DRF's strict mode), and anything else.
    return _("JSON parse error - the body is not valid JSON.")
