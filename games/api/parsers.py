"""The API's JSON parser: DRF's, refusing JSON nested too deeply to decode.

Python's ``json`` raises ``RecursionError`` (not a ``ValueError``) for a document like
``[[[[…]]]]`` nested some thousand levels deep; DRF's parser lets that through as a 500.
Here it is a 400 in the API's error format like any other unreadable body.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from rest_framework import parsers
from rest_framework.exceptions import ParseError


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(_("JSON parse error - the document is nested too deeply.")) from None
