"""A player's Web Push devices and the kinds of notice they want pushed.

The browser subscribes with the push service of its maker and hands the page a
``PushSubscription`` (an endpoint address and two keys); the page posts it here
(``accounts.views_push``).  Everything a browser sends is checked before it is stored,
since the server later POSTs to that address: https only, on a known push service's
host and port (``settings.PUSH_SERVICE_HOSTS``), of a sane length, with keys of the
right size.
Each function raises ``ValueError`` with a sentence a player can read.
"""

from __future__ import annotations

import base64
import binascii
import re
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from accounts.models import PushSubscription, User
from accounts.preferences import kinds_off_set

MAX_DEVICES = 10  # subscriptions per account
BASE64URL = re.compile(r"[A-Za-z0-9_-]+={0,2}")


def push_enabled() -> bool:
    """Is Web Push set up (a VAPID key pair in the settings)?"""
    return bool(getattr(settings, "WEBPUSH", None))


def push_public_key() -> str:
    """The VAPID public key the browser subscribes with ("" when push is off)."""
    return settings.WEBPUSH["public_key"] if push_enabled() else ""


def _address_allowed(host: str, port: int) -> bool:
    """Is ``host:port`` a push service's address?  An entry of ``PUSH_SERVICE_HOSTS``
    names a host (and every name under it) on port 443; ``host:8443`` allows that port
    instead, ``host:*`` any port (a push service of one's own, or a test's)."""
    host = host.lower()
    for allowed, allowed_port in _allowed_addresses():
        if host != allowed and not host.endswith("." + allowed):
            continue
        if allowed_port in ("*", str(port)):
            return True
    return False


def _allowed_addresses() -> list[tuple[str, str]]:
    addresses = []
    for entry in settings.PUSH_SERVICE_HOSTS:
        host, _colon, port = entry.strip().lower().partition(":")
        addresses.append((host.rstrip("."), port or "443"))
    return addresses


def _has_control_characters(text: str) -> bool:
    return any(ord(char) <= 32 or 127 <= ord(char) <= 159 for char in text)


def endpoint_problem(endpoint: Any) -> str | None:
    """Why ``endpoint`` is no push service's address, or None when it is one."""
    if not isinstance(endpoint, str) or not endpoint:
        return _("The subscription has no endpoint address.")
    if len(endpoint) > PushSubscription.ENDPOINT_MAX_LENGTH:
        return _("The endpoint address is longer than %(count)s characters.") % {
            "count": PushSubscription.ENDPOINT_MAX_LENGTH
        }
    if _has_control_characters(endpoint):
        return _("The endpoint address contains spaces or control characters.")
    try:
        parts = urlsplit(endpoint)
        host = (parts.hostname or "").rstrip(".")
        port = parts.port or 443  # a bad port raises ValueError
    except ValueError:
        return _("The endpoint is not a valid address.")
    if parts.scheme != "https":
        return _("The endpoint address must start with https://.")
    if not host or parts.username is not None or parts.password is not None:
        return _("The endpoint address has no host name.")
    if not _address_allowed(host, port):
        return _("The endpoint is not the address of a known push service.")
    return None


def _key_problem(value: Any, *, name: str, size: int) -> str | None:
    if not isinstance(value, str) or not value or len(value) > 128:
        return _("The subscription's key %(name)s is missing.") % {"name": name}
    if not BASE64URL.fullmatch(value):
        return _("The subscription's key %(name)s is not base64url text.") % {"name": name}
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        return _("The subscription's key %(name)s is not base64url text.") % {"name": name}
    if len(raw) != size or (name == "p256dh" and raw[0] != 4):
        return _("The subscription's key %(name)s has the wrong size.") % {"name": name}
    return None


def subscription_parse(data: Any) -> tuple[str, str, str]:
    """(endpoint, p256dh, auth) from what the browser's ``subscription.toJSON()`` gave,
    or ``ValueError`` saying what is wrong."""
    if not isinstance(data, dict):
        raise ValueError(_("Send the subscription as a JSON object."))
    endpoint = data.get("endpoint")
    problem = endpoint_problem(endpoint)
    if problem:
        raise ValueError(problem)
    keys = data.get("keys")
    if not isinstance(keys, dict):
        raise ValueError(_("The subscription has no keys."))
    p256dh, auth = keys.get("p256dh"), keys.get("auth")
    problem = _key_problem(p256dh, name="p256dh", size=65) or _key_problem(
        auth, name="auth", size=16
    )
    if problem:
        raise ValueError(problem)
    return endpoint, p256dh, auth


def push_subscribe(*, user: User, data: Any) -> PushSubscription:
    """Turn push on for the browser that sent ``data``: store (or renew) its
    subscription.  A browser already subscribed by another account moves to ``user``
    (the same computer, another player).  At most ``MAX_DEVICES`` per account."""
    if not push_enabled():
        raise ValueError(_("Push notifications are not offered on this site."))
    endpoint, p256dh, auth = subscription_parse(data)
    fields = {"user": user, "p256dh": p256dh, "auth": auth, "failures": 0, "last_error": ""}
    with transaction.atomic():
        # The account's row first (every subscribe of one account waits here), then the
        # count: two browsers subscribing at once cannot pass the limit together.
        User.objects.select_for_update().filter(pk=user.pk).first()
        existing = PushSubscription.objects.filter(endpoint=endpoint).first()
        if existing is None or existing.user_id != user.pk:
            if PushSubscription.objects.filter(user=user).count() >= MAX_DEVICES:
                raise ValueError(
                    _(
                        "Push notifications are on for %(count)s devices of yours already: "
                        "turn them off on all devices (your profile) and then on here again."
                    )
                    % {"count": MAX_DEVICES}
                )
        try:
            with transaction.atomic():
                subscription, _created = PushSubscription.objects.update_or_create(
                    endpoint=endpoint, defaults=fields
                )
        except IntegrityError:  # the same browser, for another account at the same moment
            subscription = PushSubscription.objects.get(endpoint=endpoint)
    return subscription


def push_unsubscribe(*, user: User, endpoint: Any) -> bool:
    """Turn push off for one browser of ``user``; whether there was one."""
    if not isinstance(endpoint, str) or len(endpoint) > PushSubscription.ENDPOINT_MAX_LENGTH:
        raise ValueError(_("Send the endpoint address of the subscription to remove."))
    if _has_control_characters(endpoint):
        raise ValueError(_("The endpoint address contains spaces or control characters."))
    deleted, _kinds = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    return bool(deleted)


def push_unsubscribe_all(*, user: User) -> int:
    """Turn push off on every device of ``user``; how many there were."""
    deleted, _kinds = PushSubscription.objects.filter(user=user).delete()
    return deleted


def push_off_set(*, user: User, kinds: list[str]) -> User:
    """The kinds of notice (``User.PUSH_KINDS``) ``user`` does not want pushed."""
    return kinds_off_set(
        user=user,
        kinds=kinds,
        field="push_off",
        listed=User.PUSH_KINDS,
        refusal=_("Choose among the kinds of notification listed."),
    )
