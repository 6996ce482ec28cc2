"""Web Push on the profile page and the board (``static/js/push.js``; docs/api.md, "Web
Push from the site's pages").

- ``POST /accounts/profile/push/`` with the browser's ``subscription.toJSON()``:
  push on for this browser;
- ``POST /accounts/profile/push/off/`` with ``{"endpoint": …}``: push off for it;
- ``POST /accounts/profile/push/settings/`` (a plain form): the kinds pushed, or push
  off on every device.

The two JSON views answer JSON: 200 ``{"push": "on"|"off", "detail": …}``, or 400
``{"detail": …}`` for bad input, 403 when not signed in.  They take the session and the
CSRF token in ``X-CSRFToken``, as every form post of the site's pages does.
"""

from __future__ import annotations

import json

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.request import RawPostDataException
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from accounts.decorators import login_required
from accounts.models import User
from accounts.push import push_off_set, push_subscribe, push_unsubscribe, push_unsubscribe_all

MAX_BODY = 4096  # a subscription is a few hundred bytes


def _json_body(request: HttpRequest) -> object:
    """The request's JSON, or ``ValueError`` saying why not."""
    if request.content_type != "application/json":
        raise ValueError("Send the subscription as JSON (Content-Type: application/json).")
    try:
        length = int(request.headers.get("Content-Length") or 0)
    except ValueError:
        length = 0
    if length > MAX_BODY:
        raise ValueError(f"The request is larger than {MAX_BODY} bytes.")
    try:
        body = request.body
    except RawPostDataException:  # read as a form already (the CSRF check)
        raise ValueError("Send the subscription as JSON.") from None
    if len(body) > MAX_BODY:
        raise ValueError(f"The request is larger than {MAX_BODY} bytes.")
    try:
        return json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise ValueError("Send the subscription as JSON.") from None


def _answer(request: HttpRequest, work) -> JsonResponse:
    if not request.user.is_authenticated:
        return JsonResponse({"detail": _("Log in to turn push notifications on.")}, status=403)
    try:
        data = _json_body(request)
        return JsonResponse(work(data))
    except ValueError as error:
        return JsonResponse({"detail": str(error)}, status=400)


@never_cache
@require_POST
def push_on(request: HttpRequest) -> JsonResponse:
    """Store this browser's push subscription for the signed-in player."""

    def work(data):
        push_subscribe(user=request.user, data=data)
        return {"push": "on", "detail": _("Push notifications are on for this device.")}

    return _answer(request, work)


@never_cache
@require_POST
def push_off(request: HttpRequest) -> JsonResponse:
    """Forget this browser's push subscription."""

    def work(data):
        endpoint = data.get("endpoint") if isinstance(data, dict) else None
        push_unsubscribe(user=request.user, endpoint=endpoint)
        return {"push": "off", "detail": _("Push notifications are off for this device.")}

    return _answer(request, work)


@login_required()
@require_POST
def push_settings_update(request: HttpRequest) -> HttpResponse:
    """The kinds of notice pushed; or ``action=off-everywhere``: forget every device."""
    if request.POST.get("action") == "off-everywhere":
        count = push_unsubscribe_all(user=request.user)
        messages.success(
            request,
            _("Push notifications are off on all your devices (%(count)s removed).")
            % {"count": count}
            if count
            else _("Push notifications were on for no device of yours."),
        )
        return redirect(reverse("profile") + "#push")
    try:
        on = set(request.POST.getlist("push_on"))
        push_off_set(user=request.user, kinds=[k for k in User.PUSH_KINDS if k not in on])
    except ValueError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Your push notification setting is saved."))
    return redirect(reverse("profile") + "#push")
