"""Web Push: the notices of async play on the devices where a player turned push on
(docs/architecture.md, "Async play"; docs/operations.md, "Web Push").

Push rides on the e-mail outbox (``games.notifications``): when a ``Notification`` row
is sent, its decision (the turn still theirs, the player away from the table, the grace
after the turn began) holds for push too; the row's ``pushed_at`` is the claim that its
push goes out once, whatever happens to the e-mail.  The player's push choices
(``User.PUSH_KINDS``, ``push_off``) are their own, apart from the e-mail ones.

``push_payload`` builds what the notification says from the player's own read model
through the presenter, nothing else: never the deck order, a sealed choice or a hand.
``push_deliver`` encrypts it for one subscription and POSTs it to the push service with
pywebpush, signed with the site's VAPID key; the ``push_send`` task (games.tasks) calls
it and retries network trouble.  A push service answering 404 or 410 says the
subscription is gone: it is deleted.
"""

from __future__ import annotations

import json
import logging
from datetime import datetime
from typing import Any

import requests
from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from py_vapid import Vapid
from pywebpush import WebPushException, webpush

from accounts.push import endpoint_problem, push_enabled
from games import presenter
from games.read_model import TableView

logger = logging.getLogger(__name__)

PUSH_TTL = 24 * 3600  # how long a push service keeps a notice for a device that is off
PUSH_TIMEOUT = 10  # seconds to connect and to read the push service's answer
RETRY_STATUSES = {429, 500, 502, 503, 504}  # the push service is busy or down: again later
GONE_STATUSES = {404, 410}  # the subscription expired or was withdrawn
MAX_REFUSALS = 3  # failed sends in a row, the last refused (4xx): the subscription goes


class PushUnavailable(Exception):
    """The push service could not be reached, or asked us to come back later: the
    task retries with backoff."""


def push_targets(*, user: Any, kind: str) -> list[int]:
    """The ids of ``user``'s subscriptions a ``kind`` notice is pushed to: none when
    the site has no push, the kind is never pushed (the digest) or the player switched
    it off."""
    from accounts.models import PushSubscription

    if not push_enabled() or kind not in user.PUSH_KINDS or kind in (user.push_off or ()):
        return []
    return list(
        PushSubscription.objects.filter(user=user).order_by("id").values_list("pk", flat=True)
    )


def push_payload(
    *, kind: str, view: TableView, now: datetime, who: str = "", left: bool = False
) -> dict[str, str]:
    """What a push about one game says, from the player's own view (``table_view``);
    ``left``: a decline's push about a player who had accepted, then left."""
    deadline = view.deadline_at
    due = presenter.due_in(deadline, now) if deadline else ""
    title, body = presenter.push_text("left" if left else kind, view, due_in=due, who=who)
    return {
        "title": title,
        "body": body,
        "url": reverse("games:detail", args=[view.id]),
        "tag": f"game-{view.id}",
        "kind": kind,
    }


def push_deliver(
    *, subscription_id: int, payload: dict[str, Any], now: datetime | None = None
) -> str:
    """Send ``payload`` to one subscription: "sent"; "gone" (the push service no longer
    knows it, or it was removed meanwhile); "refused" (any other answer of 4xx: logged,
    not retried); "off" (the site has no keys any more).  Raises ``PushUnavailable``
    for network errors and 429/5xx answers, after counting the failure."""

    from accounts.models import PushSubscription

    now = now or timezone.now()
    subscription = PushSubscription.objects.filter(pk=subscription_id).first()
    if subscription is None:
        return "gone"
    if not push_enabled():
        return "off"
    if endpoint_problem(subscription.endpoint):
        # Stored before PUSH_SERVICE_HOSTS was narrowed (or before ports were checked):
        # the server POSTs to nothing that would not be accepted today.
        PushSubscription.objects.filter(pk=subscription.pk).delete()
        logger.warning(
            "push subscription %s removed: not on an allowed push service any more",
            subscription.pk,
            extra={"user_id": subscription.user_id},
        )
        return "gone"
    keys = settings.WEBPUSH
    try:
        webpush(
            subscription_info=subscription.info(),
            data=json.dumps(payload, separators=(",", ":")),
            vapid_private_key=Vapid.from_raw(keys["private_key"].encode()),
            vapid_claims={"sub": keys["subject"]},  # pywebpush adds "aud" and "exp"
            ttl=PUSH_TTL,
            timeout=PUSH_TIMEOUT,
            # A newer notice about the same game replaces one still waiting for the
            # device (RFC 8030 Topic).
            headers={"Urgency": "normal", "Topic": payload.get("tag", "")[:32] or "notice"},
        )
    except WebPushException as error:
        status = error.response.status_code if error.response is not None else None
        if status in GONE_STATUSES:
            PushSubscription.objects.filter(pk=subscription.pk).delete()
            logger.info(
                "push subscription %s removed: the push service answered %s",
                subscription.pk,
                status,
                extra={"user_id": subscription.user_id},
            )
            return "gone"
        _failed(subscription, f"{status or 'no answer'}: {error.message}")
        if status is None or status in RETRY_STATUSES:
            raise PushUnavailable(f"push service answered {status}") from None
        logger.warning(
            "push to subscription %s refused: %s",
            subscription.pk,
            status,
            extra={"user_id": subscription.user_id},
        )
        # Refused again and again (a subscription made under keys the site no longer
        # has, say): it only holds one of the player's places.
        PushSubscription.objects.filter(pk=subscription.pk, failures__gte=MAX_REFUSALS).delete()
        return "refused"
    except requests.RequestException as error:
        _failed(subscription, f"{type(error).__name__}")
        raise PushUnavailable(type(error).__name__) from None
    PushSubscription.objects.filter(pk=subscription.pk).update(
        last_success_at=now, failures=0, last_error=""
    )
    # Who and which kind only: never the text.
    logger.info(
        "push sent: %s to user %s",
        payload.get("kind", ""),
        subscription.user_id,
        extra={"user_id": subscription.user_id, "push_kind": payload.get("kind", "")},
    )
    return "sent"


def _failed(subscription: Any, why: str) -> None:
    from django.db.models import F

    from accounts.models import PushSubscription

    PushSubscription.objects.filter(pk=subscription.pk).update(
        failures=F("failures") + 1, last_error=why[:200]
    )
