// The service worker of High Society online (served at /sw.js, scope: the whole site).
// It only shows notifications (the site's Web Push ones, and the board's "your turn"
// notice where the browser makes notices through a service worker only, as Android's
// do: board.js) and opens the game they are about;
// it caches nothing and sees no request of the pages.  A subscription the push service
// renewed is posted again by the next page that loads static/js/push.js.
//
// A push's data is JSON made by the server (games/push.py) from the player's own view:
// {"title": …, "body": …, "url": "/games/12/", "tag": "game-12"}.
"use strict";

self.addEventListener("install", function () {
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(self.clients.claim());
});

function sameSite(url) {
  // Only the site's own pages are opened: a path, or an address of this origin.
  try {
    var target = new URL(url || "/", self.location.origin);
    return target.origin === self.location.origin ? target.href : self.location.origin + "/";
  } catch (error) {
    return self.location.origin + "/";
  }
}

self.addEventListener("push", function (event) {
  var data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (error) {
    data = { body: event.data ? event.data.text() : "" };
  }
  var title = data.title || "High Society";
  event.waitUntil(
    self.registration.showNotification(title, {
      body: data.body || "",
      tag: data.tag || "high-society",
      renotify: true,
      data: { url: sameSite(data.url) },
    })
  );
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var url = sameSite(event.notification.data && event.notification.data.url);
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
      // The game's board already open in a tab: bring it to the front.
      for (var i = 0; i < windows.length; i++) {
        if (windows[i].url.split("#")[0] === url && "focus" in windows[i]) {
          return windows[i].focus();
        }
      }
      return self.clients.openWindow(url);
    })
  );
});
