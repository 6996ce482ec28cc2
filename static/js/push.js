// "Push notifications on this device: On/Off" (the profile's notification settings and
// the board).  Everything here is optional: without JavaScript, or in a browser without
// service workers and the Push API, the control says so and e-mail works as before.
//
// Turning push on: the browser asks the player's permission, subscribes with its push
// service under the site's VAPID public key (data-public-key) through the service
// worker /sw.js, and the subscription is posted to the site (data-on-url) with the
// session and the CSRF token.  Turning it off unsubscribes the browser and tells the
// site (data-off-url).  At every page load a subscription the browser holds is posted
// again, so one the push service renewed reaches the site.
//
// The control's data-push tells what it shows: checking, on, off or unavailable.
(function () {
  function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (error) {
      return "";
    }
  }

  function keyBytes(text) {
    var padded = text + "====".slice((text.length % 4) || 4);
    var raw = atob(padded.replace(/-/g, "+").replace(/_/g, "/"));
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) {
      bytes[i] = raw.charCodeAt(i);
    }
    return bytes;
  }

  function post(url, data, words) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify(data),
    }).then(function (response) {
      return response.json().catch(function () {
        return {};
      }).then(function (body) {
        if (!response.ok) {
          throw new Error(body.detail || (words.textSiteAnswered || "The site answered") +
            " " + response.status + ".");
        }
        return body;
      });
    });
  }

  function setUp(control) {
    var state = control.querySelector(".push-control__state");
    var button = control.querySelector(".push-control__toggle");
    var note = control.querySelector(".push-control__note");
    var registration = null;
    var words = control.dataset;  // the sentences, in the page's language

    function show(on, text) {
      control.dataset.push = on ? "on" : "off";
      state.textContent = on ? (words.textOn || "On") : (words.textOff || "Off");
      button.textContent = on ? (words.textTurnOff || "Turn off") : (words.textTurnOn || "Turn on");
      button.hidden = false;
      button.disabled = false;
      note.textContent = text || "";
    }

    function unavailable(text) {
      control.dataset.push = "unavailable";
      state.textContent = words.textUnavailable || "Not available";
      button.hidden = true;
      note.textContent = text;
    }

    if (!("serviceWorker" in navigator) || !("PushManager" in window) ||
        !("Notification" in window)) {
      unavailable(words.textNoPush || "This browser cannot receive push notifications; e-mails still come.");
      return;
    }

    navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(function (found) {
      registration = found;
      control.dataset.worker = "registered";
      return found.pushManager.getSubscription();
    }).then(function (subscription) {
      if (!subscription || Notification.permission !== "granted") {
        show(false);
        return;
      }
      return post(control.dataset.onUrl, subscription.toJSON(), words).then(function () {
        show(true);
      }, function (error) {
        show(false, error.message);
      });
    }).catch(function (error) {
      unavailable((words.textSetupFailed || "Push notifications cannot be set up in this browser") +
        " (" + error.message + ").");
    });

    function turnOn() {
      return Notification.requestPermission().then(function (answer) {
        if (answer !== "granted") {
          throw new Error(words.textBlocked || "Notifications are blocked for this site in the browser's settings.");
        }
        return navigator.serviceWorker.ready;
      }).then(function (ready) {
        registration = ready;
        return ready.pushManager.getSubscription();
      }).then(function (old) {
        // One made under another key (the site renewed its keys) cannot be reused.
        return old ? old.unsubscribe() : null;
      }).then(function () {
        return registration.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: keyBytes(control.dataset.publicKey),
        }).catch(function (error) {
          throw new Error((words.textRefused || "This browser's push service refused or could not be reached") +
            " (" + error.message + "). " + (words.textEmailsStill || "E-mails still come."));
        });
      }).then(function (subscription) {
        return post(control.dataset.onUrl, subscription.toJSON(), words).catch(function (error) {
          return subscription.unsubscribe().then(function () {
            throw error;
          });
        });
      }).then(function (answer) {
        show(true, answer.detail);
      });
    }

    function turnOff() {
      return registration.pushManager.getSubscription().then(function (subscription) {
        if (!subscription) {
          return { detail: words.textOffHere || "Push notifications are off for this device." };
        }
        var endpoint = subscription.endpoint;
        return subscription.unsubscribe().then(function () {
          return post(control.dataset.offUrl, { endpoint: endpoint }, words);
        });
      }).then(function (answer) {
        show(false, answer.detail);
      });
    }

    button.addEventListener("click", function () {
      var wasOn = control.dataset.push === "on";
      button.disabled = true;
      note.textContent = "";
      (wasOn ? turnOff() : turnOn()).catch(function (error) {
        show(wasOn, error.message || words.textFailed || "Something went wrong; try again.");
      });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var controls = document.querySelectorAll("[data-push-control]");
    for (var i = 0; i < controls.length; i++) {
      setUp(controls[i]);
    }
  });
})();
