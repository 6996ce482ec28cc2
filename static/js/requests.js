/* A form sent by htmx that the server refused as a whole (the page was out of date:
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
    element.querySelector(".request-problem__reload").focus();
  }

  function userSent(event) {
    var config = event.detail.requestConfig;
    return Boolean(config && config.verb && config.verb.toLowerCase() !== "get");
  }

  document.addEventListener("htmx:responseError", function (event) {
    if (!userSent(event)) return;
    var page = new DOMParser().parseFromString(event.detail.xhr.responseText || "", "text/html");
    var heading = page.querySelector("h1");
    var paragraph = page.querySelector("main p, .sheet p, p");
    var element = box();
    show(
      heading ? heading.textContent.trim() : (element ? element.dataset.failed : ""),
      paragraph ? paragraph.textContent.trim() : ""
    );
  });

  document.addEventListener("htmx:sendError", function (event) {
    var element = box();
    if (userSent(event) && element) show(element.dataset.offline, "");
  });

  document.addEventListener("click", function (event) {
    var close = event.target.closest && event.target.closest(".request-problem__close");
    if (close) box().hidden = true;
  });
})();
