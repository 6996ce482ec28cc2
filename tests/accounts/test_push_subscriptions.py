"""Turning Web Push on and off from the site's pages: what a browser may send, what is
kept, the limits, the profile's section, the service worker and the VAPID settings.
Every bad input gets a 400 with a sentence; nothing gives a 500."""

from __future__ import annotations

import base64
import json
import os
import random

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.test import Client

from accounts.management.commands.vapid_keys import vapid_key_pair
from accounts.models import PushSubscription, User
from accounts.push import MAX_DEVICES
from highsociety_site.env import parse_vapid_keys

pytestmark = pytest.mark.django_db

ON = "/accounts/profile/push/"
OFF = "/accounts/profile/push/off/"
SETTINGS = "/accounts/profile/push/settings/"
FCM = "https://fcm.googleapis.com/fcm/send/"


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def subscription(endpoint: str = FCM + "abc123", **keys) -> dict:
    return {
        "endpoint": endpoint,
        "expirationTime": None,
        "keys": {"p256dh": _b64(b"\x04" + os.urandom(64)), "auth": _b64(os.urandom(16)), **keys},
    }


@pytest.fixture
def vapid(settings):
    public, private = vapid_key_pair()
    settings.WEBPUSH = {"public_key": public, "private_key": private, "subject": "mailto:a@b.c"}
    return settings.WEBPUSH


@pytest.fixture
def dora_client(dora, vapid):
    client = Client(enforce_csrf_checks=True)
    client.force_login(dora)
    client.get("/accounts/profile/")  # the CSRF cookie, as the page sets it
    return client


def _post(client, url, data, *, raw=None):
    return client.post(
        url,
        data=raw if raw is not None else json.dumps(data),
        content_type="application/json",
        HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value,
    )


def test_a_browser_turns_push_on_and_off(dora_client, dora):
    sent = subscription()
    response = _post(dora_client, ON, sent)
    assert response.status_code == 200
    assert response.json() == {"push": "on", "detail": "Push notifications are on for this device."}
    stored = PushSubscription.objects.get(user=dora)
    assert stored.info() == {"endpoint": sent["endpoint"], "keys": sent["keys"]}
    assert _post(dora_client, ON, sent).status_code == 200  # again at the next page load
    assert PushSubscription.objects.filter(user=dora).count() == 1

    response = _post(dora_client, OFF, {"endpoint": sent["endpoint"]})
    assert response.status_code == 200 and response.json()["push"] == "off"
    assert not PushSubscription.objects.filter(user=dora).exists()


def test_the_csrf_token_is_required(dora_client):
    response = dora_client.post(
        ON, data=json.dumps(subscription()), content_type="application/json"
    )
    assert response.status_code == 403
    assert not PushSubscription.objects.exists()


def test_a_visitor_is_refused(vapid):
    response = Client().post(ON, data=json.dumps(subscription()), content_type="application/json")
    assert response.status_code == 403
    assert response.json()["detail"] == "Log in to turn push notifications on."


def test_the_same_browser_moves_to_whoever_signs_in_there(dora_client, dora, bob):
    sent = subscription()
    _post(dora_client, ON, sent)
    other = Client()
    other.force_login(bob)
    assert other.post(ON, data=json.dumps(sent), content_type="application/json").status_code == 200
    assert PushSubscription.objects.get().user == bob


@pytest.mark.parametrize(
    ("allowed", "endpoint", "taken"),
    [
        (["fcm.googleapis.com"], "https://fcm.googleapis.com/fcm/send/x", True),
        (["fcm.googleapis.com"], "https://fcm.googleapis.com:443/fcm/send/x", True),
        (["fcm.googleapis.com"], "https://eu.fcm.googleapis.com/fcm/send/x", True),
        (["fcm.googleapis.com"], "https://fcm.googleapis.com:8443/fcm/send/x", False),
        (["push.example.org:8443"], "https://push.example.org:8443/p/x", True),
        (["push.example.org:8443"], "https://push.example.org/p/x", False),
        (["push.example.org:8443"], "https://push.example.org:9443/p/x", False),
        (["push.example.org:*"], "https://push.example.org:9443/p/x", True),
        (["push.example.org:*"], "https://other.example.org:9443/p/x", False),
    ],
)
def test_a_push_service_is_a_host_and_a_port(dora_client, settings, allowed, endpoint, taken):
    """The server POSTs to whatever a subscription names, so a port of the push host
    other than the ones allowed (443 unless the entry says) is refused: it could be
    any service on that host."""
    settings.PUSH_SERVICE_HOSTS = allowed
    response = _post(dora_client, ON, subscription(endpoint))
    assert (response.status_code == 200) is taken, response.content
    assert PushSubscription.objects.filter(endpoint=endpoint).exists() is taken


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (subscription("http://fcm.googleapis.com/fcm/send/x"), "must start with https://"),
        (subscription("https://evil.example.org/push"), "not the address of a known push service"),
        (subscription("https://fcm.googleapis.com.evil.example/x"), "known push service"),
        (subscription("https://127.0.0.1/push"), "known push service"),
        (subscription("https://user:pw@fcm.googleapis.com/x"), "no host name"),
        (subscription("https://fcm.googleapis.com:99999/x"), "not a valid address"),
        (subscription("https://fcm.googleapis.com:6379/x"), "known push service"),
        (subscription(FCM + "x" * 1000), "longer than 1000 characters"),
        (subscription(FCM + "a b"), "spaces or control characters"),
        (subscription(""), "no endpoint address"),
        (subscription(FCM + "x", p256dh="!!!"), "p256dh is not base64url"),
        (subscription(FCM + "x", p256dh=_b64(b"\x04" * 10)), "p256dh has the wrong size"),
        (subscription(FCM + "x", auth=_b64(b"x" * 15)), "auth has the wrong size"),
        (subscription(FCM + "x", auth=None), "auth is missing"),
        ({"endpoint": FCM + "x"}, "has no keys"),
        ({"endpoint": FCM + "x", "keys": []}, "has no keys"),
        ({"endpoint": 12}, "no endpoint address"),
        ([1, 2], "as a JSON object"),
        ("text", "as a JSON object"),
    ],
)
def test_a_bad_subscription_gets_400_with_the_reason(dora_client, data, message):
    response = _post(dora_client, ON, data)
    assert response.status_code == 400
    assert message in response.json()["detail"]
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize(
    "raw", [b"", b"{", b"\xff\xfe", b"[" * 5000, b'{"endpoint": "' + b"x" * 5000 + b'"}', b"null"]
)
def test_a_body_that_is_no_json_or_too_long_gets_400(dora_client, raw):
    assert _post(dora_client, ON, None, raw=raw).status_code == 400
    assert _post(dora_client, OFF, None, raw=raw).status_code == 400


def test_random_input_never_gives_a_500(dora_client):
    rng = random.Random(14)
    atoms = [None, True, 0, -1, 1.5, "", "x", "https://", FCM, "\u0000", [], {}, "é" * 70]
    for _ in range(200):
        data = {
            rng.choice(["endpoint", "keys", "p256dh", "auth", "x"]): rng.choice(
                atoms + [{"p256dh": rng.choice(atoms), "auth": rng.choice(atoms)}]
            )
            for _ in range(rng.randint(0, 3))
        }
        for url in (ON, OFF):
            assert _post(dora_client, url, data).status_code in (200, 400), data


def test_at_most_ten_devices_per_account(dora_client, dora):
    for number in range(MAX_DEVICES):
        assert _post(dora_client, ON, subscription(f"{FCM}device{number}")).status_code == 200
    response = _post(dora_client, ON, subscription(f"{FCM}one-too-many"))
    assert response.status_code == 400
    assert "on for 10 devices of yours already" in response.json()["detail"]
    # A device already on may renew its subscription.
    assert _post(dora_client, ON, subscription(f"{FCM}device3")).status_code == 200
    assert PushSubscription.objects.filter(user=dora).count() == MAX_DEVICES


def test_without_keys_push_is_not_offered(dora, settings):
    settings.WEBPUSH = None
    client = Client()
    client.force_login(dora)
    page = client.get("/accounts/profile/").content.decode()
    assert "Push notifications" not in page and "data-push-control" not in page
    response = client.post(ON, data=json.dumps(subscription()), content_type="application/json")
    assert response.status_code == 400
    assert response.json()["detail"] == "Push notifications are not offered on this site."


def test_the_profile_offers_push_beside_the_emails(dora_client, dora, vapid):
    page = dora_client.get("/accounts/profile/").content.decode()
    assert '<h2 id="push">Push notifications</h2>' in page
    assert f'data-public-key="{vapid["public_key"]}"' in page
    assert "Push notifications on this device:" in page
    assert 'src="/static/js/push.js"' in page
    for label in User.PUSH_KINDS.values():
        assert str(label) in page
    assert "Turn off on all devices" not in page  # no device yet


def test_the_kinds_pushed_and_off_everywhere(dora_client, dora):
    token = dora_client.cookies["csrftoken"].value
    response = dora_client.post(
        SETTINGS, {"push_on": ["turn", "reminder"], "csrfmiddlewaretoken": token}
    )
    assert response.status_code == 302 and response.url == "/accounts/profile/#push"
    dora.refresh_from_db()
    assert dora.push_off == [
        "deadline",
        "invitation",
        "declined",
        "game_over",
        "handed_over",
        "closed",
    ]

    _post(dora_client, ON, subscription(FCM + "a"))
    _post(dora_client, ON, subscription(FCM + "b"))
    assert "on for 2 devices of yours" in dora_client.get("/accounts/profile/").content.decode()
    dora_client.post(SETTINGS, {"action": "off-everywhere", "csrfmiddlewaretoken": token})
    assert not PushSubscription.objects.filter(user=dora).exists()


def test_the_board_offers_the_switch_to_its_players(dora, vapid, run_commits):
    from tests.games.factories import GameFactory

    with run_commits():
        game = GameFactory(creator=dora, seats=[{"ai": "medium"}, {"ai": "medium"}])
    client = Client()
    client.force_login(dora)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "push-control--compact" in page and "Push notifications on this device:" in page


def test_the_service_worker_is_served_for_the_whole_site(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Cache-Control"] == "no-cache"
    assert "Content-Security-Policy" in response
    body = response.content.decode()
    assert 'addEventListener("push"' in body and 'addEventListener("notificationclick"' in body
    assert client.post("/sw.js").status_code == 405


# --------------------------------------------------------------------------- settings


def test_the_command_prints_a_pair_the_settings_take(capsys):
    call_command("vapid_keys")
    lines = dict(line.split("=", 1) for line in capsys.readouterr().out.split())
    keys = parse_vapid_keys(
        lines["VAPID_PUBLIC_KEY"], lines["VAPID_PRIVATE_KEY"], None, default_subject="mailto:a@b.c"
    )
    assert keys == {
        "public_key": lines["VAPID_PUBLIC_KEY"],
        "private_key": lines["VAPID_PRIVATE_KEY"],
        "subject": "mailto:a@b.c",
    }


def test_no_keys_no_push():
    assert parse_vapid_keys(None, None, None, default_subject="mailto:a@b.c") is None


@pytest.mark.parametrize(
    ("public", "private", "subject", "message"),
    [
        ("P", None, None, "Set both"),
        (None, "P", None, "Set both"),
        ("AAAA", "PRIVATE", None, "VAPID_PUBLIC_KEY is not a P-256 public key"),
        ("PUBLIC", "AAAA", None, "VAPID_PRIVATE_KEY is not a P-256 private key"),
        ("OTHER", "PRIVATE", None, "is not the public key of VAPID_PRIVATE_KEY"),
        ("PUBLIC", "PRIVATE", "me@example.org", "VAPID_SUBJECT='me@example.org'"),
        ("PUBLIC", "PRIVATE", "http://example.org", "write a contact"),
        ("PUBLIC", "ZERO", None, "VAPID_PRIVATE_KEY is not a P-256 private key"),
        ("!!", "PRIVATE", None, "VAPID_PUBLIC_KEY is not base64url"),
    ],
)
def test_bad_keys_stop_the_process(public, private, subject, message):
    good_public, good_private = vapid_key_pair()
    names = {
        "PUBLIC": good_public,
        "PRIVATE": good_private,
        "OTHER": vapid_key_pair()[0],
        "ZERO": _b64(bytes(32)),
    }
    with pytest.raises(ImproperlyConfigured, match=message) as raised:
        parse_vapid_keys(
            names.get(public, public),
            names.get(private, private),
            subject,
            default_subject="mailto:a@b.c",
        )
    assert good_private not in str(raised.value)


def test_a_form_post_instead_of_json_gets_400(dora_client):
    token = dora_client.cookies["csrftoken"].value
    for url in (ON, OFF):
        response = dora_client.post(url, {"endpoint": FCM + "x", "csrfmiddlewaretoken": token})
        assert response.status_code == 400
        assert "Content-Type: application/json" in response.json()["detail"]


def test_the_pages_with_the_switch_keep_to_the_content_security_policy(dora_client, dora):
    from tests.security.test_csp import assert_no_inline_code, assert_strict_policy

    response = dora_client.get("/accounts/profile/")
    assert "data-push-control" in response.content.decode()
    assert_strict_policy(response)
    assert_no_inline_code(response.content.decode())
