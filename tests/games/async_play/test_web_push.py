"""Web Push for absent players (issue #14), end to end without the internet: a push
service on this machine (``push_service.py``) stands in for the browsers'; the app
really encrypts and POSTs to it through pywebpush, and the test decrypts what arrived
with the "browser's" private key, as the service worker would."""

from __future__ import annotations

import json
from datetime import timedelta
from smtplib import SMTPException

import pytest
from django.core import mail
from django.core.mail import EmailMultiAlternatives
from py_vapid import Vapid02

from accounts.models import PushSubscription, User
from accounts.push import push_subscribe
from games import presenter, push
from games.models import Game, Notification
from games.notifications import notification_send, seat_seen
from games.selectors import table_view
from games.services import game_submit_action
from tests.games.async_play import push_service
from tests.games.factories import GameFactory, scenario_deck

pytestmark = pytest.mark.django_db


def _dora_to_act(dora, run_commits):
    with run_commits():
        game = GameFactory(
            creator=dora,
            seats=[{"ai": "medium"}, {"ai": "medium"}],
            deck=scenario_deck("lux5 lux3"),
            first_player=0,
        )
    return Game.objects.get(pk=game.pk)


def _jwt_claims(authorization: str) -> dict:
    token = authorization.split("t=", 1)[1].split(",", 1)[0]
    return json.loads(push_service.b64url_decode(token.split(".")[1]))


def test_an_absent_player_gets_an_encrypted_signed_push_of_her_turn(dora, run_commits, service):
    browser = push_service.subscribe(dora, service)
    game = _dora_to_act(dora, run_commits)

    assert len(service.received) == 1
    arrived = service.received[0]
    assert arrived.path == "/push/dora-phone"
    assert arrived.headers["content-encoding"] == "aes128gcm"
    assert arrived.headers["ttl"] == str(push.PUSH_TTL)
    assert arrived.headers["urgency"] == "normal"
    assert arrived.headers["topic"] == f"game-{game.pk}"
    # VAPID (RFC 8292): signed by the site's key, for this push service's origin.
    authorization = arrived.headers["authorization"]
    assert authorization.startswith("vapid t=")
    assert authorization.endswith(f",k={service_key(authorization)}")
    assert service_key(authorization) == push.settings.WEBPUSH["public_key"]
    assert Vapid02.verify(authorization)
    claims = _jwt_claims(authorization)
    assert claims["aud"] == service.origin
    assert claims["sub"] == "mailto:ops@highsociety.example"

    payload = browser.decrypt(arrived.body)
    view = table_view(game=game, user=dora)
    assert payload == {
        "title": f"Your turn at table {game.pk}",
        "body": presenter.headline(view).text,
        "url": f"/games/{game.pk}/",
        "tag": f"game-{game.pk}",
        "kind": "turn",
    }
    assert payload["body"] == "Your turn: bid for Luxury 5, or pass."
    # The e-mail goes as before; the row remembers that its push went out.
    assert [m.to for m in mail.outbox] == [["dora@example.com"]]
    notice = Notification.objects.get(game=game, kind=Notification.Kind.TURN)
    assert notice.status == Notification.Status.SENT and notice.pushed_at is not None
    subscription = PushSubscription.objects.get(user=dora)
    assert subscription.last_success_at is not None and subscription.failures == 0


def service_key(authorization: str) -> str:
    return authorization.rsplit("k=", 1)[1]


def test_push_without_email_for_a_player_who_wants_no_emails(dora, run_commits, service):
    User.objects.filter(pk=dora.pk).update(turn_emails=User.TurnEmails.NONE)
    dora.refresh_from_db()
    browser = push_service.subscribe(dora, service)
    game = _dora_to_act(dora, run_commits)
    assert mail.outbox == []
    assert browser.decrypt(service.received[0].body)["kind"] == "turn"
    notice = Notification.objects.get(game=game, kind=Notification.Kind.TURN)
    assert notice.status == Notification.Status.SENT
    assert notice.note.startswith("Pushed only.")


def test_every_device_of_the_player_gets_it(dora, run_commits, service):
    phone = push_service.subscribe(dora, service, "phone")
    laptop = push_service.subscribe(dora, service, "laptop")
    _dora_to_act(dora, run_commits)
    by_path = {r.path: r for r in service.received}
    assert set(by_path) == {"/push/phone", "/push/laptop"}
    assert phone.decrypt(by_path["/push/phone"].body) == laptop.decrypt(
        by_path["/push/laptop"].body
    )


@pytest.mark.parametrize("status", [404, 410])
def test_a_push_service_that_says_gone_removes_the_subscription(dora, run_commits, service, status):
    push_service.subscribe(dora, service)
    service.answers["/push/dora-phone"] = status
    _dora_to_act(dora, run_commits)
    assert len(service.received) == 1
    assert not PushSubscription.objects.filter(user=dora).exists()
    assert len(mail.outbox) == 1  # the e-mail is not affected


def test_a_subscription_no_longer_on_an_allowed_service_is_dropped_unsent(
    dora, run_commits, service, settings
):
    """Narrowing PUSH_SERVICE_HOSTS (or a subscription kept from before ports were
    checked) stops the POSTs to it at once: it is removed, not sent to."""
    push_service.subscribe(dora, service)
    settings.PUSH_SERVICE_HOSTS = ["localhost"]  # port 443 only: the service is elsewhere
    _dora_to_act(dora, run_commits)
    assert service.received == []
    assert not PushSubscription.objects.filter(user=dora).exists()
    assert len(mail.outbox) == 1  # the e-mail is not affected


def test_a_busy_push_service_is_retried_and_the_subscription_kept(dora, service):
    push_service.subscribe(dora, service)
    service.answers["/push/dora-phone"] = 503
    subscription = PushSubscription.objects.get(user=dora)
    with pytest.raises(push.PushUnavailable):
        push.push_deliver(subscription_id=subscription.pk, payload={"title": "t", "kind": "turn"})
    subscription.refresh_from_db()
    assert subscription.failures == 1 and subscription.last_error.startswith("503")
    service.answers.clear()
    assert push.push_deliver(subscription_id=subscription.pk, payload={"kind": "turn"}) == "sent"
    subscription.refresh_from_db()
    assert subscription.failures == 0 and subscription.last_success_at is not None


def test_an_unreachable_push_service_raises_for_the_retry(dora, vapid, settings):
    settings.PUSH_SERVICE_HOSTS = ["localhost:*"]
    browser = push_service.Browser("https://localhost:8199/push/nobody-listens")
    push_subscribe(user=dora, data=browser.subscription())
    subscription = PushSubscription.objects.get(user=dora)
    with pytest.raises(push.PushUnavailable):
        push.push_deliver(subscription_id=subscription.pk, payload={"kind": "turn"})
    assert PushSubscription.objects.filter(pk=subscription.pk, failures=1).exists()


def test_no_push_while_the_player_is_at_the_table(table, dora, run_commits, service):
    game = table()
    push_service.subscribe(dora, service)
    seat_seen(game_id=game.pk, user=dora)
    with run_commits():
        game_submit_action(game=game, user=dora, action={"type": "pass"}, expected_version=0)
    game.refresh_from_db()
    assert game.version > 1  # the bots replied: her turn again, and she is at the board
    from games.notifications import missed_turns_sweep

    later = game.turn_started_at + timedelta(minutes=5)
    seat_seen(game_id=game.pk, user=dora, now=later)
    missed_turns_sweep(now=later, stalled_after=timedelta(minutes=2))
    notice = Notification.objects.get(
        game=game, kind=Notification.Kind.TURN, turn_started_at=game.turn_started_at
    )
    assert notification_send(notification_id=notice.pk, now=later) == "deferred"
    assert service.received == [] and mail.outbox == []
    # She leaves; the deferred notice goes out, by e-mail and push.
    gone = later + timedelta(minutes=11)
    assert notification_send(notification_id=notice.pk, now=gone) == "sent"
    assert len(service.received) == 1 and len(mail.outbox) == 1


def test_a_kind_switched_off_is_not_pushed(dora, run_commits, service):
    User.objects.filter(pk=dora.pk).update(push_off=["turn"])
    dora.refresh_from_db()
    push_service.subscribe(dora, service)
    _dora_to_act(dora, run_commits)
    assert service.received == [] and len(mail.outbox) == 1


def test_a_failed_email_retried_later_does_not_push_twice(dora, run_commits, service, monkeypatch):
    push_service.subscribe(dora, service)
    mail_server = {"down": True}
    send = EmailMultiAlternatives.send

    def flaky(self, *args, **kwargs):
        if mail_server["down"]:
            raise SMTPException("the mail server is down")
        return send(self, *args, **kwargs)

    monkeypatch.setattr(EmailMultiAlternatives, "send", flaky)
    _dora_to_act(dora, run_commits)  # the e-mail fails (logged); the push went
    assert len(service.received) == 1 and mail.outbox == []
    notice = Notification.objects.get(kind=Notification.Kind.TURN, user=dora)
    assert notice.status == Notification.Status.PENDING and notice.pushed_at is not None
    mail_server["down"] = False
    assert notification_send(notification_id=notice.pk, now=notice.due_at) == "sent"
    assert len(service.received) == 1 and len(mail.outbox) == 1


def test_without_keys_nothing_is_pushed(dora, run_commits, service, settings):
    push_service.subscribe(dora, service)
    settings.WEBPUSH = None
    _dora_to_act(dora, run_commits)
    assert service.received == [] and len(mail.outbox) == 1


def test_invitation_and_game_over_pushes_say_only_public_things(dora, bob, run_commits, service):
    browser = push_service.subscribe(bob, service, "bob")
    with run_commits():
        game = GameFactory(creator=dora, players=3, seats=[{"user": bob.username}, {"open": True}])
    invitation = browser.decrypt(service.received[-1].body)
    assert invitation["kind"] == "invitation"
    assert invitation["title"] == f"Dora invites you to table {game.pk}"
    assert invitation["body"].startswith("A table of 3 players")


def test_payload_of_a_reminder_names_the_time_left(dora, table, age, now, vapid):
    game = age(table(deadline=24), 20)
    view = table_view(game=game, user=dora)
    payload = push.push_payload(kind="reminder", view=view, now=now)
    assert payload["title"].startswith(f"Reminder: your move at table {game.pk} is due in ")
    assert payload["url"] == f"/games/{game.pk}/"


def test_payload_of_a_reminder_without_deadlines_names_the_hand_over(dora, table, now, vapid):
    """No deadline, no time left to name: the reminder before the host may hand the
    seat to a bot says the table waits, and what follows."""
    game = table(deadline=None)
    view = table_view(game=game, user=dora)
    payload = push.push_payload(kind="reminder", view=view, now=now)
    assert payload["title"] == f"Reminder: table {game.pk} is waiting for your move"
    assert payload["body"] == "Move soon, or its host may hand your seat to a bot."
    assert payload["kind"] == "reminder"


def test_a_subscription_refused_again_and_again_is_dropped(dora, service):
    push_service.subscribe(dora, service)
    service.answers["/push/dora-phone"] = 403  # e.g. made under keys the site no longer has
    subscription = PushSubscription.objects.get(user=dora)
    for attempt in range(1, push.MAX_REFUSALS + 1):
        assert push.push_deliver(subscription_id=subscription.pk, payload={"kind": "t"}) == (
            "refused"
        )
        still = PushSubscription.objects.filter(pk=subscription.pk).first()
        assert (still is None) == (attempt == push.MAX_REFUSALS)
    assert len(service.received) == push.MAX_REFUSALS
