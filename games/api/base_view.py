"""The base of the API's views: every answer to a request the limits counted
(``games.api.throttling.RequestLimit``) says where the client stands, in the headers of
the IETF's draft on rate limits."""

from __future__ import annotations

import math

from rest_framework.views import APIView

# Where the client stands against its limits: the tightest limit, what is left of it,
# and the seconds until its window starts again.
RATE_LIMIT_HEADERS = ("RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset")


class ApiView(APIView):
    """The API's views: their answers carry the request's count (``RequestLimit``)."""

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        counted = getattr(request, "rate_limit", None)
        if counted is not None:
            limit, remaining, reset = RATE_LIMIT_HEADERS
            response[limit] = str(counted.limit)
            response[remaining] = str(counted.remaining)
            response[reset] = str(max(1, math.ceil(counted.reset)))
        return response
