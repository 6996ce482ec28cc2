"""One error format for every API answer that is not a success:

    {"detail": "A sentence for a person.", "code": "machine_readable_code"}

plus ``"errors"`` (the messages per field) when the input was invalid.  The game
services' errors (``games.errors``) map to status codes here, so views only call
services and let errors rise.
"""

from __future__ import annotations

import logging

from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.http import JsonResponse
from django.urls import Resolver404, resolve
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.errors import (
    AuctionOver,
    GameError,
    IllegalMove,
    InvalidOrder,
    NotAllowed,
    NotYourSeat,
    TooSoon,
    VersionConflict,
)
from games.presenter import quoted
from ops.outages import RETRY_AFTER_SECONDS, unavailable_detail, unavailable_log

logger = logging.getLogger(__name__)


class ApiError(exceptions.APIException):
    """An error with its own status and code (a game service's refusal, …)."""

    def __init__(self, detail: str, *, status_code: int, code: str, **fields):
        self.status_code = status_code
        self.fields = fields  # more fields of the answer (a conflict's current version)
        super().__init__(detail=detail, code=code)


class NotYourTurn(ApiError):
    def __init__(self, detail: str):
        super().__init__(detail, status_code=status.HTTP_400_BAD_REQUEST, code="not_your_turn")


# Every code an error answer may carry (the schema's enum, docs/api.md's table), and the
# one an answer of each status falls back to should a code outside the list ever come
# up (a library's own code, say): a client may switch on the list without surprises.
ERROR_CODES = (
    "invalid",
    "parse_error",
    "illegal_action",
    "invalid_order",
    "not_your_turn",
    "invalid_credentials",
    "code_required",
    "invalid_code",
    "not_a_token",
    "not_authenticated",
    "authentication_failed",
    "not_your_seat",
    "permission_denied",
    "not_found",
    "method_not_allowed",
    "not_acceptable",
    "version_conflict",
    "auction_over",
    "not_allowed",
    "too_large",
    "unsupported_media_type",
    "throttled",
    "server_error",
    "service_unavailable",
)
_STATUS_CODES = {
    400: "invalid",
    401: "not_authenticated",
    403: "permission_denied",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    409: "not_allowed",
    413: "too_large",
    415: "unsupported_media_type",
    429: "throttled",
    503: "service_unavailable",
}


def known_code(code: str | None, status_code: int) -> str:
    """``code`` when it is one of ``ERROR_CODES``, else the status's own."""
    if code in ERROR_CODES:
        return code
    return _STATUS_CODES.get(status_code, "invalid" if status_code < 500 else "server_error")


# Most specific first.
_GAME_ERRORS: tuple[tuple[type[GameError], int, str], ...] = (
    (IllegalMove, status.HTTP_400_BAD_REQUEST, "illegal_action"),
    (InvalidOrder, status.HTTP_400_BAD_REQUEST, "invalid_order"),
    (AuctionOver, status.HTTP_409_CONFLICT, "auction_over"),
    (VersionConflict, status.HTTP_409_CONFLICT, "version_conflict"),
    (NotYourSeat, status.HTTP_403_FORBIDDEN, "not_your_seat"),
    (NotAllowed, status.HTTP_409_CONFLICT, "not_allowed"),
    (TooSoon, status.HTTP_429_TOO_MANY_REQUESTS, "throttled"),
    (GameError, status.HTTP_400_BAD_REQUEST, "invalid"),
)


def game_error_to_api(error: GameError) -> ApiError:
    fields = {}
    if isinstance(error, VersionConflict) and error.version is not None:
        fields["version"] = error.version
    for kind, status_code, code in _GAME_ERRORS:
        if isinstance(error, kind):
            if code == "invalid":  # invalid input, as a whole: in ``errors`` as DRF's are
                fields["errors"] = {error.field or "non_field_errors": [str(error)]}
            api_error = ApiError(str(error), status_code=status_code, code=code, **fields)
            if isinstance(error, TooSoon):
                api_error.wait = error.retry_after  # DRF's handler says Retry-After
            return api_error
    raise AssertionError("unreachable: every GameError is a GameError")


def _said(item, path: str) -> str:
    """One message: DRF's for a body that is null or empty as a whole ("No data
    provided", code ``null``) is not translated there; ours is."""
    if not path and isinstance(item, exceptions.ErrorDetail) and item.code == "null":
        return str(_("The request has no data: send a JSON object."))
    return str(item)


def _flatten(detail, path: str = "") -> dict[str, list[str]]:
    """DRF's nested validation errors as one level: ``{"seats[1].ai": ["…"]}``; errors
    of the whole input are under ``non_field_errors``."""
    if isinstance(detail, dict):
        flat: dict[str, list[str]] = {}
        for key, value in detail.items():
            if key == "non_field_errors":
                where = path
            elif isinstance(key, int):  # DRF keys a list's errors by position
                where = f"{path}[{key}]"
            else:
                where = f"{path}.{key}" if path else str(key)
            for name, messages in _flatten(value, where).items():
                flat.setdefault(name, []).extend(messages)
        return flat
    if isinstance(detail, list):
        if all(not isinstance(item, (dict, list)) for item in detail):
            said = [_said(item, path) for item in detail]
            return {path or "non_field_errors": said} if detail else {}
        flat = {}
        for index, item in enumerate(detail):
            for name, messages in _flatten(item, f"{path}[{index}]").items():
                flat.setdefault(name, []).extend(messages)
        return flat
    return {path or "non_field_errors": [str(detail)]}


def _unavailable(exc, context) -> Response | None:
    """The database or Redis down (``ops.outages``): 503 with
    ``Retry-After`` in the API's format, never a 500; nothing of the error is shown."""
    request = context.get("request")
    detail = unavailable_detail(exc, getattr(request, "method", None) or "GET")
    if detail is None:
        return None
    unavailable_log(exc, getattr(request, "path", "") or "")
    return Response(
        {"detail": detail, "code": "service_unavailable"},
        status=status.HTTP_503_SERVICE_UNAVAILABLE,
        headers={"Retry-After": str(RETRY_AFTER_SECONDS), "Cache-Control": "no-store"},
    )


def api_exception_handler(exc, context):
    if (unavailable := _unavailable(exc, context)) is not None:
        return unavailable
    if isinstance(exc, GameError):
        exc = game_error_to_api(exc)
    elif isinstance(exc, RequestDataTooBig):  # DRF reads the body itself: Django's 400 is lost
        exc = ApiError(
            _("The request body is too large."),
            status_code=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
            code="too_large",
        )
    elif isinstance(exc, exceptions.UnsupportedMediaType):  # DRF's words name no remedy
        request = context.get("request")
        sent = request.content_type if request is not None else ""
        exc = ApiError(
            _("Send the body as JSON, with the header Content-Type: application/json.")
            + " "
            + (
                _("This request said %(type)s.") % {"type": quoted(sent)}
                if sent
                else _("This request named no Content-Type.")
            ),
            status_code=status.HTTP_415_UNSUPPORTED_MEDIA_TYPE,
            code="unsupported_media_type",
        )
    elif isinstance(exc, TooManyFieldsSent):  # more than DATA_UPLOAD_MAX_NUMBER_FIELDS
        exc = ApiError(
            _("The request has too many parameters."),
            status_code=status.HTTP_400_BAD_REQUEST,
            code="invalid",
        )
    response = drf_exception_handler(exc, context)
    if response is None:
        # A bug: log it with its traceback, answer in the API's format, show nothing of it.
        logger.exception("unhandled error in %s", context.get("view").__class__.__name__)
        return Response(
            {"detail": _("Something went wrong on our side."), "code": "server_error"},
            status=status.HTTP_500_INTERNAL_SERVER_ERROR,
        )
    if isinstance(exc, exceptions.ValidationError):
        errors = _flatten(exc.detail) or {"non_field_errors": [_("Invalid input.")]}
        where, messages = next(iter(errors.items()))
        response.data = {
            "detail": messages[0] if where == "non_field_errors" else f"{where}: {messages[0]}",
            "code": "invalid",
            "errors": errors,
        }
        return response
    detail = getattr(exc, "detail", None)
    code = detail.code if isinstance(detail, exceptions.ErrorDetail) else None
    if isinstance(exc, exceptions.APIException):
        code = code or exc.default_code
    response.data = {
        "detail": str(detail) if detail is not None else response.status_text,
        "code": known_code(code, response.status_code),
        **getattr(exc, "fields", {}),
    }
    return response


@csrf_exempt  # a 404 for any method, never a CSRF failure page
def api_not_found(request, *args, **kwargs) -> JsonResponse:
    """Any other path under /api/v1/: a 404 in the API's format (not an HTML page),
    which names the endpoint when only the path's last slash is missing."""
    detail = _("There is no such API endpoint. See /api/docs/.")
    if not request.path_info.endswith("/"):
        try:
            match = resolve(request.path_info + "/")
        except Resolver404:
            match = None
        if match is not None and match.func is not api_not_found:
            detail = _(
                "There is no such API endpoint: every address ends with a slash, %(path)s."
            ) % {"path": request.path + "/"}
    return JsonResponse({"detail": detail, "code": "not_found"}, status=404)
