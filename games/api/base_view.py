"""The base of the API's views: every answer to a request the limits counted
(``games.api.throttling.RequestLimit``) says where the client stands, in the headers of
the IETF's draft on rate limits."""

from __future__ import annotations

import math

from django.utils.translation import gettext as _
from rest_framework import serializers
from rest_framework.views import APIView

from games.api.errors import ApiError

# Where the client stands against its limits: the tightest limit, what is left of it,
# and the seconds until its window starts again.
RATE_LIMIT_HEADERS = ("RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset")


class ApiView(APIView):
    """The API's views: their answers carry the request's count (``RequestLimit``), and
    a body sent without its length is refused, not read as empty."""

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        meta = request.META
        # A body is meant when it says its type: join, leave and resign read none.
        chunked = "chunked" in meta.get("HTTP_TRANSFER_ENCODING", "").lower() and bool(
            meta.get("CONTENT_TYPE")
        )
        if (
            chunked
            and not meta.get("CONTENT_LENGTH")
            and request.method in ("POST", "PUT", "PATCH")
        ):
            # DRF reads no body without a Content-Length: the request would go on as
            # if its body were empty ("this field is required"), over what was sent.
            raise ApiError(
                _(
                    "Send the body with a Content-Length header: a body sent in chunks "
                    "(Transfer-Encoding: chunked) is not read."
                ),
                status_code=400,
                code="invalid",
            )

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        counted = getattr(request, "rate_limit", None)
        if counted is not None:
            limit, remaining, reset = RATE_LIMIT_HEADERS
            response[limit] = str(counted.limit)
            response[remaining] = str(counted.remaining)
            response[reset] = str(max(1, math.ceil(counted.reset)))
        return response


def query_once(request, query_class):
    """The query of a view that reads one (the lists, the move log, the chat), each
    parameter ``query_class`` (its serializer) reads given once: ``?status=open&status=
    active`` would be read as its last value, silently, where the client meant both or
    made a mistake.  Others, which it ignores (a cache's own, ``utm_…``), may repeat."""
    known = query_class().fields
    repeated = sorted(
        name for name, values in request.query_params.lists() if len(values) > 1 and name in known
    )
    if repeated:
        raise serializers.ValidationError(
            {name: [_("Give this parameter once.")] for name in repeated}
        )
    return query_class(data=request.query_params)
