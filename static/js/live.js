// The board's stream (server-sent events through htmx's sse extension) and its fallback.
//
// The board (#board) asks for its partial "every 3s" and on "sse:changed", the stream's
// news that the table changed.  While the stream is known to work (it delivered its
// "hello" or a change since it last failed), the 3-second polls are dropped before they
// leave the browser; as soon as it fails they go out again, so a board never waits for
// a stream that cannot connect (a proxy that buffers, a blocked URL, an old browser).
// A stream that never worked (three failures in a row, not one message: a proxy that
// buffers, a blocked URL) is closed for good and the board keeps polling.  A stream that
// worked and then failed (the server restarted, Redis was away a while) is opened again
// by the extension, waiting longer after each failure (up to a minute), while the board
// polls; once it delivers again the polls stop.  A page being left closes its stream (a
// reconnection must not race the next page).  Without JavaScript the board works as a
// plain page.
//
// Safety nets, since a change announced while the board's previous request is still on
// its way, or while a new board settles, triggers nothing that runs: the board asks
// again once its request is answered if the stream announced anything meanwhile (a
// move, a chat line, a seat), a refresh that failed is asked for again 3 s later, and
// one poll in ten still goes out while the stream works.
(function () {
  var GIVE_UP_AFTER = 3;
  var SAFETY_POLL_MS = 30000;
  var live = false;
  var failures = 0;
  var everHeard = false;  // the stream has delivered a message on this page
  var stream = null;  // the EventSource that opened last
  var announced = -1;  // the latest version the stream announced
  var lastPoll = Date.now();

  function shownVersion(board) {
    var found = /[?&]version=(\d+)/.exec(board.getAttribute("hx-get") || "");
    return found ? parseInt(found[1], 10) : -1;
  }

  function holder() {
    return document.getElementById("board-live");
  }

  function giveUp(source) {
    live = false;
    var element = holder();
    if (element) {
      element.removeAttribute("sse-connect");  // the extension's retries find no URL
    }
    if (source) {
      source.close();
    }
  }

  document.addEventListener("htmx:sseOpen", function (event) {
    var source = event.detail.source;
    if (!source || source.hsHeard) {
      return;
    }
    stream = source;
    source.hsHeard = true;
    var heard = function () {
      live = true;
      everHeard = true;
      failures = 0;
    };
    source.addEventListener("hello", heard);
    source.addEventListener("changed", heard);
    source.addEventListener("changed", function (message) {
      var version = parseInt(message.data, 10);
      if (!isNaN(version) && version > announced) {
        announced = version;
      }
      newsHeard(message);
    });
  });

  // A page being left (a link, a form such as Log out) closes its stream: the stream's
  // reconnection would otherwise race the next page, and after a log-out be refused.
  window.addEventListener("beforeunload", function () {
    giveUp(stream);
  });

  document.addEventListener("htmx:sseError", function (event) {
    live = false;
    failures += 1;
    if (failures >= GIVE_UP_AFTER && !everHeard) {
      giveUp((event.detail && event.detail.source) || stream);
    }
  });

  document.addEventListener("htmx:beforeRequest", function (event) {
    var config = event.detail.requestConfig;
    var element = config && config.elt;
    // A poll has no triggering event; the stream's news (sse:changed) has one.
    if (live && element && element.id === "board" && !config.triggeringEvent) {
      if (Date.now() - lastPoll < SAFETY_POLL_MS) {
        event.preventDefault();
      } else {
        lastPoll = Date.now();
      }
    }
  });

  // A refresh the stream asked for that failed (a 502 while a node restarts, a moment
  // offline): asked again in a few seconds, not at the next safety poll, half a minute
  // on, while the board still says "Waiting for …" on the player's own turn.
  var retrying = null;
  function retry(event) {
    var config = event.detail.requestConfig;
    var element = config && config.elt;
    if (!live || !element || element.id !== "board" || retrying) {
      return;
    }
    retrying = setTimeout(function () {
      retrying = null;
      var current = document.getElementById("board");
      if (current && current.hasAttribute("hx-get")) {
        htmx.trigger(current, "sse:changed");
      }
    }, 3000);
  }
  document.addEventListener("htmx:responseError", retry);
  document.addEventListener("htmx:sendError", retry);

  // News the board has not asked for yet.  A news is asked for by the first request the
  // board sends after it (the one it triggered, or any later one).  htmx holds only the
  // latest trigger that comes while the board's request is on its way, for that board:
  // when the answer replaces the board the held trigger never runs, and a new board
  // hears nothing until it has settled.  So news heard since the last request left
  // makes the board ask again once no request of its own is on its way.
  var asking = null;  // the news the last request was sent for (true: a poll)
  var inFlight = false;
  var missed = false;
  function boardRequest(event) {
    var config = event.detail.requestConfig;
    return Boolean(config && config.elt && config.elt.id === "board");
  }
  function newsHeard(message) {
    if (message !== asking) {
      missed = true;  // the news the request just sent answers is not missed
    }
  }
  document.addEventListener("htmx:beforeSend", function (event) {
    if (boardRequest(event)) {
      var trigger = event.detail.requestConfig.triggeringEvent;
      asking = (trigger && trigger.detail) || true;
      inFlight = true;
      missed = false;
    }
  });
  function askIfMissed() {
    setTimeout(function () {
      var current = document.getElementById("board");
      if (live && !inFlight && current && current.hasAttribute("hx-get") &&
          (missed || announced > shownVersion(current))) {
        htmx.trigger(current, "sse:changed");
      }
    }, 0);
  }
  document.addEventListener("htmx:afterRequest", function (event) {
    if (boardRequest(event)) {
      inFlight = false;
      if (event.detail.xhr && event.detail.xhr.status === 204) {
        askIfMissed();  // nothing to swap, so no settle follows
      }
    }
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    var current = document.getElementById("board");
    var target = event.detail && event.detail.target;
    if (target && target.id === "board") {
      // A new board (its answer may not have reached the document, its board replaced):
      // news announced while it was on its way or settling is asked for now.
      inFlight = false;
      askIfMissed();
    }
    // The game is over (the board no longer refreshes): nothing more to hear.
    var element = holder();
    if (current && element && !current.hasAttribute("hx-get") && element.hasAttribute("sse-connect")) {
      giveUp(stream);
    }
  });
})();
