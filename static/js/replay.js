/* Replay: step through a finished game in the page.

   The step links (data-replay-step), the move list’s links and the box of the move number
   load the move asked for into the page instead of loading a new page: the page stays
   where it was scrolled to (on a phone the players sit below the fold), and the
   address, the title and the browser's Back button follow.  ← and → step to the
   previous and the next move, Home and End to the set-up and the last move; keys
   pressed while a step is still loading count from the move asked for last, so five
   quick presses go five moves on, and only that last move is asked for and drawn.  Keys typed into
   a form field, or with a modifier held, are left alone.  Without JavaScript the links
   and the box do the same with whole pages; if a step cannot be loaded in the page
   (the connection gone), the browser loads it as a page. */
(function () {
  "use strict";

  var KEYS = { ArrowLeft: -1, ArrowRight: 1, Home: "first", End: "last" };
  // A step that loads a whole page: that page then puts the focus on its move's words,
  // which a screen reader reads, instead of the top of the page.
  var STEPPED = "hs-replay-stepped";
  var wanted = null; // the move asked for last, while it loads
  var loading = null; // its request, aborted when another step is asked for
  var held = null; // a key's step waits this long for the next press (a held key)
  var HELD_MS = 120;
  var drawnAt = bare(window.location.href); // the address of the move shown

  function bare(url) {
    return new URL(url, window.location.href).href.replace(/#.*$/, "");
  }

  function replay() {
    return document.querySelector("section.board--replay[data-move]");
  }

  function moveOf(url) {
    var move = new URL(url, window.location.href).searchParams.get("move");
    return move !== null && /^[0-9]+$/.test(move) ? Number(move) : null;
  }

  function urlOf(move) {
    var url = new URL(window.location.href);
    url.searchParams.set("move", String(move));
    return url.href;
  }

  function showCurrent() {
    // Keep the current move in sight in the scrolling list of moves (the list only,
    // not the page).
    var current = document.querySelector(".replay__list .is-current");
    if (!current) return;
    var list = current.parentElement;
    var top = current.offsetTop; // the list is positioned (profile.css)
    if (top < list.scrollTop || top + current.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = Math.max(0, top - list.clientHeight / 2);
    }
  }

  function wholePage(url) {
    try {
      window.sessionStorage.setItem(STEPPED, "1");
    } catch (error) { /* storage off: the page opens at its top, as without script */ }
    window.location.assign(url);
  }

  // Read out the move drawn while the focus stays on the step link pressed: a live
  // region that is on the page before it changes (one drawn with the move is not).
  var said = document.createElement("div");
  said.className = "visually-hidden";
  said.setAttribute("role", "status");
  if (document.body) {
    document.body.appendChild(said);
  } else {
    document.addEventListener("DOMContentLoaded", function () {
      document.body.appendChild(said);
    });
  }

  function draw(page, url, push, step) {
    var fresh = page.querySelector("section.board--replay[data-move]");
    var old = replay();
    if (!fresh || !old) return false;
    var later = old.querySelector(".replay__later");
    var laterOpen = Boolean(later && later.open);
    old.replaceWith(document.adoptNode(fresh));
    var summary = fresh.querySelector(".replay__later");
    if (summary && laterOpen) summary.open = true;
    if (page.title) document.title = page.title;
    // The header's ways back to this page (the language's "next", Log in's and Sign
    // up's ?next=) name the move now shown, as a page of its own would.
    ["input[name=next]", ".site-nav a[href*='next=']"].forEach(function (selector) {
      var mine = document.querySelectorAll(selector);
      var theirs = page.querySelectorAll(selector);
      if (mine.length !== theirs.length) return;
      for (var i = 0; i < mine.length; i++) {
        if (mine[i].tagName === "INPUT") mine[i].value = theirs[i].value;
        else mine[i].setAttribute("href", theirs[i].getAttribute("href"));
      }
    });
    if (push) window.history.pushState({ replay: true }, "", url);
    drawnAt = bare(url);
    var words = document.getElementById("replay-move-text");
    // A step link pressed (First, Previous, Next, Last) keeps the focus, so that it can
    // be pressed again, and the move is read out; at either end, where that link is
    // gone, and after any other way there, the focus goes to the move's words.
    var again = step ? fresh.querySelector('a[data-replay-step="' + step + '"]') : null;
    if (again) {
      again.focus({ preventScroll: true });
      said.textContent = words ? words.textContent.replace(/\s+/g, " ").trim() : "";
    } else if (words) {
      words.focus({ preventScroll: true });
    }
    showCurrent();
    return true;
  }

  function go(url, push, step) {
    window.clearTimeout(held);
    held = null;
    if (!loading && bare(url) === drawnAt) { // the move shown already
      wanted = null;
      return;
    }
    if (!replay() || !window.fetch || !window.AbortController) {
      wholePage(url);
      return;
    }
    if (loading) loading.abort();
    var request = new AbortController();
    loading = request;
    wanted = moveOf(url);
    window
      .fetch(url, { signal: request.signal, credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (response) {
        // 400: a move number out of range, answered with a page that says so.
        if (!response.ok && response.status !== 400) throw new Error(String(response.status));
        return response.text().then(function (text) {
          return { text: text, url: response.url || url };
        });
      })
      .then(function (answer) {
        if (loading !== request) return;
        loading = null;
        wanted = null;
        var page = new DOMParser().parseFromString(answer.text, "text/html");
        if (!draw(page, answer.url, push, step)) wholePage(url);
      })
      .catch(function (error) {
        if (error && error.name === "AbortError") return;
        if (loading === request) {
          loading = null;
          wanted = null;
          wholePage(url);
        }
      });
  }

  document.addEventListener("click", function (event) {
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return; // a new tab
    var link = event.target.closest && event.target.closest("a[data-replay-step], .replay__list a");
    if (!link || !replay()) return;
    event.preventDefault();
    go(link.href, true, link.getAttribute("data-replay-step"));
  });

  document.addEventListener("submit", function (event) {
    var form = event.target.closest && event.target.closest(".replay__jump");
    if (!form || event.defaultPrevented) return;
    event.preventDefault();
    var url = new URL(form.action, window.location.href);
    new FormData(form).forEach(function (value, name) {
      url.searchParams.set(name, value);
    });
    go(url.href, true);
  });

  window.addEventListener("popstate", function () {
    // Not for a jump within the page (the skip link's #main): the same move.
    if (replay() && bare(window.location.href) !== drawnAt) go(window.location.href, false);
  });

  document.addEventListener("keydown", function (event) {
    var step = KEYS[event.key];
    var section = replay();
    if (step === undefined || !section || event.defaultPrevented) return;
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var target = event.target;
    if (target && target.closest && target.closest("input, textarea, select, [contenteditable]")) return;
    var total = Number(section.dataset.total);
    var from = wanted !== null ? wanted : Number(section.dataset.move);
    var move = step === "first" ? 0 : step === "last" ? total : from + step;
    move = Math.max(0, Math.min(total, move));
    event.preventDefault();
    if (move === from) return; // nothing before the set-up, nothing after the last move
    // Counted now; asked for once the presses pause, so a held key asks the server
    // for the move it stops on, not for every move it passes.
    wanted = move;
    window.clearTimeout(held);
    held = window.setTimeout(function () {
      go(urlOf(move), true);
    }, HELD_MS);
  });

  try {
    if (window.sessionStorage.getItem(STEPPED)) {
      window.sessionStorage.removeItem(STEPPED);
      var words = document.getElementById("replay-move-text");
      if (words) words.focus();
    }
  } catch (error) { /* storage off */ }
  showCurrent();
})();
