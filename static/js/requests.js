/* Requests and sessions as the browser meets them.

   A form sent by htmx that the server refused as a whole (the page was out of date:
   a log-in or log-out in another tab, 403; too many posts, 429; the site down, 503; a
   fault, 500) or that never reached it (no connection).  htmx swaps nothing then, and
   the button seemed dead: the page says what happened instead, in the server's own
   words (its error page's heading and first paragraph, in the reader's language), with
   a link that reloads the page.  Refused moves are not these: they come back as a
   board with the reason in it.  Background reads (the board's poll, the lobby's
   refresh) retry on their own and say nothing. */
(function () {
  "use strict";

  function box() {
    return document.getElementById("request-problem");
  }

  function show(title, text) {
    var element = box();
    if (!element) return;
    element.querySelector(".request-problem__title").textContent = title;
    element.querySelector(".request-problem__text").textContent = text;
    element.hidden = false;
    // The box itself takes the focus, not its Reload: an Enter pressed again to retry
    // (the connection gone) would reload into the browser's offline page, losing the
    // board and what was typed.
    element.focus();
  }

  function userSent(event) {
    var config = event.detail.requestConfig;
    return Boolean(config && config.verb && config.verb.toLowerCase() !== "get");
  }

  function refused(event) {
    if (!userSent(event)) return;
    var page = new DOMParser().parseFromString(event.detail.xhr.responseText || "", "text/html");
    var element = box();
    if (!page.querySelector(".sheet") && element) {
      // Not one of the site's pages (a proxy's "502 Bad Gateway"): its words are not
      // the reader's, and it cannot say whether the site got the form.
      show(element.dataset.failed, element.dataset.unknown);
      return;
    }
    var heading = page.querySelector("h1");
    var paragraph = page.querySelector(".sheet p");
    show(
      heading ? heading.textContent.trim() : (element ? element.dataset.failed : ""),
      paragraph ? paragraph.textContent.trim() : ""
    );
  }

  // A form of the page that went through afterwards: the problem is past.
  document.addEventListener("htmx:afterRequest", function (event) {
    var element = box();
    if (element && !element.hidden && event.detail.successful && userSent(event)) {
      element.hidden = true;
    }
  });

  function unsent(event) {
    var element = box();
    if (userSent(event) && element) show(element.dataset.failed, element.dataset.offline);
  }

  function timedOut(event) {
    var element = box();
    if (userSent(event) && element) show(element.dataset.failed, element.dataset.unknown);
  }

  document.addEventListener("htmx:responseError", refused);
  document.addEventListener("htmx:sendError", unsent);
  document.addEventListener("htmx:timeout", timedOut);
  var FAILED_NAMES = ["htmx:responseError", "htmx:sendError", "htmx:timeout", "htmx:sendAbort"];
  // A form whose board was replaced while it was on its way (the poll, the stream's
  // news) fails outside the page, where the document does not hear it: it is heard on
  // the form itself and told to the document again, so that every page script's
  // listeners (this box, the board's Send and focus) hear it as any other failure.
  var heardOnSource = new WeakSet();
  document.addEventListener("htmx:beforeRequest", function (event) {
    var source = event.detail.requestConfig && event.detail.requestConfig.elt;
    if (!source || heardOnSource.has(source) || !userSent(event)) return;
    heardOnSource.add(source);
    FAILED_NAMES.forEach(function (name) {
      source.addEventListener(name, function (failed) {
        if (!source.isConnected) {
          document.dispatchEvent(new CustomEvent(name, { detail: failed.detail }));
        }
      });
    });
  });

  document.addEventListener("click", function (event) {
    var close = event.target.closest && event.target.closest(".request-problem__close");
    if (close) box().hidden = true;
  });

  // The header's "Your turn" count in the tab's title, as the server writes it
  // ("(2) Lobby · High Society"), after each redraw of the count: the lobby's lists, the
  // header's own poll on other pages (games.views.turns_badge), a board's refresh.
  document.addEventListener("htmx:afterSettle", function () {
    var count = document.getElementById("turns-waiting-count");
    if (!count) return;
    var turns = parseInt(count.textContent, 10) || 0;
    var title = document.title.replace(/\(\d+\) /, "");
    document.title = (turns > 0 ? "(" + turns + ") " : "") + title;
  });

  // Whom the pages are drawn for (the account's id, 0 for a visitor), told to the
  // site's other tabs in this browser: an open board drawn for someone else (a log-out
  // or a log-in in another tab) draws itself again at once.  Its poll would notice too
  // (games.views.game_board), but while the board's stream works the polls are held
  // back, and the stream learns of a log-out only within half a minute.
  var VIEWER = "hs-viewer";
  function viewer() {
    return document.body.dataset.viewer || "0";
  }
  document.addEventListener("DOMContentLoaded", function () {
    try {
      window.localStorage.setItem(VIEWER, viewer());
    } catch (error) {
      // storage refused (a private window): the poll still notices
    }
  });
  window.addEventListener("storage", function (event) {
    if (event.key !== VIEWER || event.newValue === null || !document.getElementById("board")) {
      return;
    }
    if (event.newValue !== viewer()) {
      window.location.reload();
    }
  });
})();
