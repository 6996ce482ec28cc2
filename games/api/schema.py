"""Pieces of the OpenAPI document shared by the views: error answers and examples."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiResponse

from games.api.serializers import ErrorSerializer, StrictSerializer

_ERRORS = {
    400: (
        "Invalid input or an illegal action: `detail` says why (for a move, the rules' "
        "own sentence); `errors` lists the messages per field for invalid input. A body "
        "that is not JSON, or an object that writes a key twice, is `parse_error`."
    ),
    401: "Not signed in, or the token is invalid or expired (`WWW-Authenticate: Token`).",
    403: "Not allowed: for a move, the seat is not yours; or staff-only options; or a CSRF failure with session auth.",
    404: "No such game or user.",
    409: (
        "Conflict with the game's state: `version_conflict` when `version` is not the "
        "current one (stale or repeated; the answer's `version` is the current one), "
        "`not_allowed` for a table that is full, started or over, or when your account "
        "holds as many tables, games or invitations as it may (the answer says which)."
    ),
    413: "The request body is too large (`too_large`).",
    415: "The body is not JSON (or a form): send `Content-Type: application/json` (`unsupported_media_type`).",
    406: (
        "The `Accept` header admits no JSON (`not_acceptable`): every answer of this API "
        "is `application/json`."
    ),
    429: "Too many requests: wait the number of seconds in `Retry-After`.",
    503: (
        "The database or the cache is unavailable for a moment (`service_unavailable`): "
        "try again after `Retry-After` seconds. Nothing was saved; a move sent again with "
        "the same `version` is safe (409 if it was stored after all)."
    ),
}

_ERROR_EXAMPLES = {
    400: [
        OpenApiExample(
            "Illegal action",
            value={
                "detail": "Your bid must total more than 12,000; yours would be 10,000.",
                "code": "illegal_action",
            },
            response_only=True,
            status_codes=["400"],
        ),
        OpenApiExample(
            "Invalid input",
            value={
                "detail": "version: This field is required.",
                "code": "invalid",
                "errors": {"version": ["This field is required."]},
            },
            response_only=True,
            status_codes=["400"],
        ),
    ],
    409: [
        OpenApiExample(
            "Stale version",
            value={
                "detail": "The game has moved on since you loaded it: it is at move 13, "
                "you saw move 12. Look at the board again before you act.",
                "code": "version_conflict",
                "version": 13,
            },
            response_only=True,
            status_codes=["409"],
        )
    ],
}


def error_responses(*codes: int, examples: bool = False) -> dict[int, OpenApiResponse]:
    """The error answers of an operation, each in the one error format (with examples
    of illegal actions and stale versions for the move operation).  Every operation may
    also answer 406 to a client that accepts no JSON, and 503 while the database or the
    cache is down."""
    codes = tuple(sorted({*codes, 406, 503}))
    return {
        code: OpenApiResponse(
            ErrorSerializer,
            description=_ERRORS[code],
            examples=_ERROR_EXAMPLES.get(code, []) if examples else [],
        )
        for code in codes
    }


MOVE_EXAMPLES = [
    OpenApiExample(
        "Bid",
        summary="Add 3,000 and 1,000 to your face-up bid",
        value={"type": "bid", "cards": [3000, 1000], "version": 12},
        request_only=True,
    ),
    OpenApiExample(
        "Pass",
        summary="Pass (take your bid back; out of this round)",
        value={"type": "pass", "version": 12},
        request_only=True,
    ),
    OpenApiExample(
        "Discard",
        summary="Theft: give up your luxury 3",
        value={"seat": 2, "type": "discard", "card": "lux3", "version": 40},
        request_only=True,
    ),
    OpenApiExample(
        "Sealed bid",
        summary="Yacht Club: choose 12,000 in secret",
        value={"type": "sealed_bid", "card": 12000, "version": 57},
        request_only=True,
    ),
]

CREATE_EXAMPLES = [
    OpenApiExample(
        "Against two bots",
        value={"players": 3, "seats": [{"ai": "medium"}, {"ai": "hard"}]},
        request_only=True,
    ),
    OpenApiExample(
        "Four players, open seats, advanced cards",
        value={
            "players": 4,
            "seats": [{"user": "bob"}, {"ai": "hard"}, {"open": True}],
            "advanced": ["yacht", "gambling"],
            "move_deadline_hours": 48,
            "memory_aid": True,
        },
        request_only=True,
    ),
]


ORDER_EXAMPLES = [
    OpenApiExample(
        "Proxy bid",
        summary="Raise for me with my cheapest cards up to a total of 14,000",
        value={"for_card": "lux7", "order": {"type": "bid", "max": 14000}},
        request_only=True,
    ),
    OpenApiExample(
        "Pass",
        summary="Pass on this card when my turn comes",
        value={"for_card": "lux2", "order": {"type": "pass"}},
        request_only=True,
    ),
    OpenApiExample(
        "Theft",
        summary="Avoid Theft up to 3,000; if I take it, discard my lowest luxury",
        value={"for_card": "theft", "order": {"type": "bid", "max": 3000, "discard": "lowest"}},
        request_only=True,
    ),
    OpenApiExample(
        "Defaults",
        summary="For every coming auction: pass on luxuries below 4, dodge misfortunes up to 2,000",
        value={"defaults": {"luxury_below": 4, "misfortune_max": 2000}},
        request_only=True,
    ),
]


# The headers a client reads, declared on the answers that carry them (drf-spectacular
# writes none by itself): where a new table is, and when to try again.
_LOCATION = {
    "description": "The table's address in the API (`/api/v1/games/{id}/`).",
    "required": True,
    "schema": {"type": "string"},
}
_RETRY_AFTER = {
    "description": "How many seconds to wait before asking again.",
    "required": True,
    "schema": {"type": "integer", "minimum": 1},
}
_LOCATION_ANSWERS = {"games_create": ("201", "200"), "games_rematch": ("201", "200")}
# Lists the server refuses with a value twice (DRF's ListField cannot say so itself):
# an advanced card added twice, a money card twice in one bid or one order.
_UNIQUE_ITEMS = {
    "GameCreateInputRequest": ("advanced",),
    "MoveInputRequest": ("cards",),
    "OrderInputRequest": ("cards",),
}
# Where the client stands against the request limits (games.api.throttling): on every
# answer to a request they counted, that is all but those refused before counting (no
# or a bad token, no JSON accepted) and those of an unavailable cache.
_RATE_LIMIT = {
    "RateLimit-Limit": {
        "description": "Requests allowed in the current window of the tightest limit.",
        "schema": {"type": "integer", "minimum": 1},
    },
    "RateLimit-Remaining": {
        "description": "Requests left in that window (0: the next is refused with 429).",
        "schema": {"type": "integer", "minimum": 0},
    },
    "RateLimit-Reset": {
        "description": "Seconds until that window ends and the count starts again.",
        "schema": {"type": "integer", "minimum": 1},
    },
}
_UNCOUNTED = ("401", "406", "503")
# Conditional reads (games.api.caching): every 200 of a GET carries an ETag, and the
# same GET with If-None-Match naming it answers 304 while nothing changed.
_ETAG = {
    "description": "A tag of this answer's body: send it back in If-None-Match.",
    "required": True,
    "schema": {"type": "string"},
}
_IF_NONE_MATCH = {
    "name": "If-None-Match",
    "in": "header",
    "required": False,
    "description": (
        "The ETag of an answer you keep: while the answer would be the same, it is a 304 "
        "with no body."
    ),
    "schema": {"type": "string"},
}
_NOT_MODIFIED = {
    "description": "Not modified: the answer is still the one the ETag in If-None-Match names.",
}


def _strict_requests(base: type) -> set[str]:
    """The request components of ``base``'s subclasses, as drf-spectacular names them
    ("MoveInputSerializer" → "MoveInputRequest")."""
    names = set()
    for cls in base.__subclasses__():
        names.add(cls.__name__.removesuffix("Serializer") + "Request")
        names |= _strict_requests(cls)
    return names


def response_headers(result, generator, request, public):
    """A postprocessing hook (``SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]``): every
    429 and 503 answer says ``Retry-After``; every counted answer the ``RateLimit-*``
    headers; a success without a description of its own is described by its
    operation's summary; creating a table and opening a rematch say
    ``Location``; the lists the server refuses with a value twice say
    ``uniqueItems``; a read's 200 says ``ETag`` and the read takes ``If-None-Match``, with
    a 304 while nothing changed; a number in a path (a game's id, a seat) is never negative, as the
    paths take only digits (``/games/-1/`` is no endpoint at all); request bodies take no
    field they do not list (``additionalProperties: false``), and a seat one field."""
    for operations in result.get("paths", {}).values():
        for method, operation in operations.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            if method == "get" and "200" in operation["responses"]:
                operation.setdefault("parameters", []).append(_IF_NONE_MATCH)
                operation["responses"]["200"].setdefault("headers", {})["ETag"] = _ETAG
                operation["responses"]["304"] = {**_NOT_MODIFIED, "headers": {"ETag": _ETAG}}
            for parameter in operation.get("parameters", ()):
                if parameter.get("in") == "path" and parameter["schema"].get("type") == "integer":
                    parameter["schema"].setdefault("minimum", 0)
            responses = operation["responses"]
            for code in ("429", "503"):
                if code in responses:
                    responses[code].setdefault("headers", {})["Retry-After"] = _RETRY_AFTER
            for code, response in responses.items():
                if code not in _UNCOUNTED:
                    response.setdefault("headers", {}).update(_RATE_LIMIT)
                if not response.get("description"):  # a success: what the operation gives
                    response["description"] = operation.get("summary", "")
            for code in _LOCATION_ANSWERS.get(operation.get("operationId"), ()):
                if code in responses:
                    responses[code].setdefault("headers", {})["Location"] = _LOCATION
    schemas = result.get("components", {}).get("schemas", {})
    for name, fields in _UNIQUE_ITEMS.items():
        for field in fields:
            schemas[name]["properties"][field]["uniqueItems"] = True
    # Request bodies the server reads strictly (StrictSerializer refuses unknown fields
    # with 400): the schema says so, and a seat names exactly one of user, ai or open.
    for name in _strict_requests(StrictSerializer):
        if name in schemas:
            schemas[name]["additionalProperties"] = False
    if "SeatSpecRequest" in schemas:
        schemas["SeatSpecRequest"].update(minProperties=1, maxProperties=1)
    return result
