"""The API's JSON parser: DRF's, refusing JSON nested too deeply to decode.

Python's ``json`` raises ``RecursionError`` (not a ``ValueError``) for a document like
``[[[[…]]]]`` nested some thousand levels deep; DRF's parser lets that through as a 500.
Here it is a 400 in the API's error format like any other unreadable body, and every
unreadable body is told so in the reader's language (DRF passes on ``json``'s English).
"""

from __future__ import annotations

import json

from django.utils.translation import gettext as _
from rest_framework import parsers
from rest_framework.exceptions import ParseError


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(_("JSON parse error - the document is nested too deeply.")) from None
        except ParseError as error:
            raise ParseError(_unreadable(error.__context__)) from None


def _unreadable(cause: BaseException | None) -> str:
    """DRF's "JSON parse error - " followed by the ``json`` module's own English words:
    said again in the reader's language, with where the error is."""
    if isinstance(cause, UnicodeDecodeError):
        return _("JSON parse error - the body is not UTF-8 text.")
    if isinstance(cause, json.JSONDecodeError):
        return _(
            "JSON parse error - the body is not valid JSON (line %(line)s, column %(column)s)."
        ) % {"line": cause.lineno, "column": cause.colno}
    # NaN and Infinity, which JSON does not have (DRF's strict mode), and anything else.
    return _("JSON parse error - the body is not valid JSON.")
