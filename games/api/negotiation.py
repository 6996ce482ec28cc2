"""How the API picks its answer's format: JSON, always.

DRF reads ``?format=`` to choose a renderer and answers 404 when none has that name,
before it even looks at the credentials.  This API has one format, so ``format`` is a
query parameter it does not know, ignored like every other one; the Accept header
still counts (a client that accepts no JSON gets 406).  The schema and its docs page
keep DRF's own negotiation: ``/api/schema/?format=json`` chooses JSON over YAML there.
"""

from __future__ import annotations

from typing import Any

from rest_framework.negotiation import DefaultContentNegotiation


class JsonNegotiation(DefaultContentNegotiation):
    def select_renderer(
        self, request: Any, renderers: list[Any], format_suffix: str | None = None
    ) -> tuple[Any, str]:
        return super().select_renderer(request, renderers, format_suffix="json")
