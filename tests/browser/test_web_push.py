"""Web Push in a real Chromium (issue #14): the service worker registers from the app
with the whole site as its scope, the profile's switch works as far as a browser with
no internet allows, and the worker turns a push message into a notification of the
game.

What cannot be done here: ``PushManager.subscribe`` in Chromium registers with Google's
push service (Firebase Cloud Messaging), which this machine cannot reach, so the switch
is seen to report that failure and stay Off.  A second test stands in for the
browser's push service inside the page (PushManager), so that the switch's round trip
with the site (subscribe under the VAPID key, store, turn off, forget) runs for real.
The encrypted delivery itself is tested against a push service on this machine
(tests/games/async_play/test_web_push.py).  The push message is handed to the worker
through the DevTools protocol (``ServiceWorker.deliverPushMessage``), as a push service
would.  Clicking the notification cannot be driven headless."""

from __future__ import annotations

import json

import pytest

from accounts.management.commands.vapid_keys import vapid_key_pair
from accounts.models import PushSubscription

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def vapid(settings):
    public, private = vapid_key_pair()
    settings.WEBPUSH = {"public_key": public, "private_key": private, "subject": "mailto:a@b.c"}
    return settings.WEBPUSH


def _control_settled(page):
    page.wait_for_function(
        "() => document.querySelector('[data-push-control]').dataset.push !== 'checking'"
    )
    return page.locator("[data-push-control]")


def test_the_service_worker_registers_and_the_switch_answers(
    live_server, new_page, log_in, alice, vapid, screenshot
):
    from playwright.sync_api import expect

    page = log_in(new_page(), alice)
    page.context.grant_permissions(["notifications"], origin=live_server.url)
    # Chromium's own console line when the push service cannot be had (below).
    new_page.expect("does not support the Push API")
    page.goto(f"{live_server.url}/accounts/profile/")
    control = _control_settled(page)
    expect(control).to_have_attribute("data-push", "off")
    expect(control).to_have_attribute("data-worker", "registered")
    expect(control.locator(".push-control__state")).to_have_text("Off")
    toggle = control.locator(".push-control__toggle")
    expect(toggle).to_be_visible()
    expect(toggle).to_have_text("Turn on")
    worker = page.evaluate(
        """() => navigator.serviceWorker.ready.then(r => ({
            scope: r.scope, script: (r.active || r.waiting || r.installing).scriptURL}))"""
    )
    assert worker == {"scope": f"{live_server.url}/", "script": f"{live_server.url}/sw.js"}
    screenshot(page, "profile-push")

    # Turning it on asks the browser's push service for a subscription: Google's, which
    # cannot be reached from here (headless Chromium answers "Registration failed -
    # permission denied").  The switch says so and stays off; nothing is stored.
    toggle.click()
    page.wait_for_function(
        "() => { const c = document.querySelector('[data-push-control]');"
        " return !c.querySelector('button').disabled"
        " && c.querySelector('.push-control__note').textContent !== ''; }",
        timeout=30_000,
    )
    state = control.get_attribute("data-push")
    note = control.locator(".push-control__note").inner_text()
    if state == "on":  # a machine that reaches the push service
        assert PushSubscription.objects.filter(user=alice).count() == 1
        assert note == "Push notifications are on for this device."
    else:
        assert state == "off", note
        assert note.startswith("This browser's push service refused or could not be reached")
        assert not PushSubscription.objects.filter(user=alice).exists()


SHOWN = """() => navigator.serviceWorker.ready
    .then(r => r.getNotifications())
    .then(list => list.map(n => ({title: n.title, body: n.body, tag: n.tag, url: n.data.url})))"""


# Chromium's DevTools delivery of a push message has dropped it on a busy machine (seen
# twice in full runs, never alone): the test redelivers as a push service would, and
# runs once more before it counts as failed.  Its message names the worker's states.
@pytest.mark.flaky(reruns=2, reruns_delay=2)
def test_a_push_message_becomes_a_notification_of_the_game(
    live_server, new_page, log_in, alice, vapid
):
    page = log_in(new_page(), alice)
    page.context.grant_permissions(["notifications"], origin=live_server.url)
    session = page.context.new_cdp_session(page)
    registrations = []
    session.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: registrations.extend(event["registrations"]),
    )
    versions = []
    session.on("ServiceWorker.workerVersionUpdated", lambda e: versions.extend(e["versions"]))
    session.send("ServiceWorker.enable")
    page.goto(f"{live_server.url}/accounts/profile/")
    _control_settled(page)
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    assert page.evaluate("() => Notification.permission") == "granted"
    ours = []
    for _ in range(100):  # DevTools reports the registration and its activation a little later
        ours = [
            r
            for r in registrations
            if r["scopeURL"] == f"{live_server.url}/" and not r.get("isDeleted")
        ]
        ready = {v["registrationId"] for v in versions if v["status"] == "activated"}
        if ours and ours[-1]["registrationId"] in ready:
            break
        page.wait_for_timeout(100)
    assert ours, registrations
    payload = {
        "title": "Your turn at table 7",
        "body": "Your turn: bid for Luxury 5, or pass.",
        "url": "/games/7/",
        "tag": "game-7",
        "kind": "turn",
    }
    shown = []
    # A push service delivers again until the worker has taken the message; so does this
    # test, every two seconds for up to half a minute, when a worker that was still
    # starting (or a busy machine) let a delivery drop.  The notification's tag makes a
    # second delivery replace the first, so there is still one notification.
    for _attempt in range(15):
        session.send(
            "ServiceWorker.deliverPushMessage",
            {
                "origin": live_server.url,
                "registrationId": ours[-1]["registrationId"],
                "data": json.dumps(payload),
            },
        )
        # Asked from here until they are there: a predicate that returns a promise
        # would satisfy wait_for_function at once, before the worker has shown anything.
        for _ in range(20):
            shown = page.evaluate(SHOWN)
            if shown:
                break
            page.wait_for_timeout(100)
        if shown:
            break
    states = [(v["registrationId"], v["status"], v["runningStatus"]) for v in versions]
    assert shown == [
        {
            "title": "Your turn at table 7",
            "body": "Your turn: bid for Luxury 5, or pass.",
            "tag": "game-7",
            "url": f"{live_server.url}/games/7/",
        }
    ], (ours, states)


def test_the_board_has_the_switch_under_the_table(
    live_server, new_page, log_in, alice, vapid, screenshot
):
    from playwright.sync_api import expect

    from tests.games.pages.conftest import table_make

    alice.is_staff = True  # a staff table: the deck and the first player are set
    alice.save(update_fields=["is_staff"])
    game = table_make(alice, [], bots=("medium", "medium"), first_player=0)
    page = log_in(new_page(), alice)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    control = _control_settled(page)
    expect(control).to_have_attribute("data-push", "off")
    expect(control).to_contain_text("Push notifications on this device: Off")
    expect(control.locator(".push-control__toggle")).to_have_text("Turn on")
    control.scroll_into_view_if_needed()
    screenshot(page, "board-push")


def test_the_switch_has_no_serious_accessibility_problem(
    live_server, browser, log_in, alice, vapid
):
    from tests.browser.test_accessibility import _problems

    # axe's script is injected into the page: the test's browser lets it past the CSP.
    context = browser.new_context(bypass_csp=True, viewport={"width": 1280, "height": 900})
    page = log_in(context.new_page(), alice)
    page.goto(f"{live_server.url}/accounts/profile/")
    _control_settled(page)
    problems, passed = _problems(page)
    context.close()
    assert not problems and passed > 20, (problems, passed)


# The browser's push service stood in for inside the page (an init script, which the
# page's CSP does not govern): PushManager hands out a subscription as Chromium would
# with a reachable push service, so the switch's whole round trip with the site runs.
FAKE_PUSH_MANAGER = """
(() => {
  const b64 = (bytes) => btoa(String.fromCharCode(...bytes))
    .replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
  const point = new Uint8Array(65).map((_, i) => (i === 0 ? 4 : i));
  let current = null;
  PushManager.prototype.getSubscription = function () { return Promise.resolve(current); };
  PushManager.prototype.subscribe = function (options) {
    window.pushOptions = {
      userVisibleOnly: options.userVisibleOnly,
      key: b64(new Uint8Array(options.applicationServerKey)),
    };
    current = {
      endpoint: "https://fcm.googleapis.com/fcm/send/this-device",
      toJSON() {
        return { endpoint: this.endpoint, expirationTime: null,
                 keys: { p256dh: b64(point), auth: b64(new Uint8Array(16).fill(7)) } };
      },
      unsubscribe() { current = null; return Promise.resolve(true); },
    };
    return Promise.resolve(current);
  };
})();
"""


def test_the_switch_turns_push_on_and_off_with_the_site(
    live_server, new_page, log_in, alice, vapid, screenshot
):
    from playwright.sync_api import expect

    page = log_in(new_page(), alice)
    page.context.grant_permissions(["notifications"], origin=live_server.url)
    page.add_init_script(FAKE_PUSH_MANAGER)
    page.goto(f"{live_server.url}/accounts/profile/")
    control = _control_settled(page)
    expect(control).to_have_attribute("data-push", "off")

    control.locator(".push-control__toggle").click()
    expect(control).to_have_attribute("data-push", "on")
    expect(control.locator(".push-control__state")).to_have_text("On")
    expect(control.locator(".push-control__toggle")).to_have_text("Turn off")
    expect(control.locator(".push-control__note")).to_have_text(
        "Push notifications are on for this device."
    )
    # Subscribed under the site's VAPID public key, for notices the player sees.
    assert page.evaluate("() => window.pushOptions") == {
        "userVisibleOnly": True,
        "key": vapid["public_key"],
    }
    stored = PushSubscription.objects.get(user=alice)
    assert stored.endpoint == "https://fcm.googleapis.com/fcm/send/this-device"
    screenshot(page, "profile-push-on")

    control.locator(".push-control__toggle").click()
    expect(control).to_have_attribute("data-push", "off")
    expect(control.locator(".push-control__note")).to_have_text(
        "Push notifications are off for this device."
    )
    assert not PushSubscription.objects.filter(user=alice).exists()
