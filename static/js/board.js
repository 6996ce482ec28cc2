// The board, on top of htmx (everything also works without this file):
// - when your turn begins (or the page opens on it), the action bar is scrolled into
//   view if it is not;
// - after your own move, focus returns to your hand (a card when it is still your turn,
//   else the hand itself), in sight, not to the top of the page or to a headline above
//   the screen, even when a refresh replaces the board first; ticking a card leaves the
//   focus on it;
// - the headline is read out by screen readers when it changes, after the moves the
//   log gained meanwhile ("Bob bids 4,000 (total 4,000)."; a live region outside the
//   board, which the refreshes replace);
// - the page's title and the header's "Your turn" badge count the games waiting for
//   you; with the player's permission, a browser notification tells a background tab
//   that the turn came; those offers go once the board shows the end of the game;
// - times (the log's, the chat's, the deadline) are shown in the player's time zone
//   (their profile's, else the browser's);
// - after a chat message was sent, the message box is emptied (it is kept across the
//   board's refreshes, hx-preserve, so that a refresh never wipes what is being typed);
// - an answer for a board that another answer has already replaced is not swapped in;
// - a host's open "Change seat" form stays open, with what was chosen or typed in it,
//   when the waiting board refreshes; so does a standing order being written (emptied
//   once it is set), and a chat line's opened "Report" (scrolled into the chat's view
//   when it opens: the chat scrolls on its own);
// - the page's messages (a confirmation at the top, from the last form sent) go once
//   they are out of date: the board refreshed into another stage of the game, or the
//   player made a move on it;
// - the focus left on the hand (or the headline) after one's move goes onto a card when
//   the turn comes back, and to the result when the game ends, never out of sight;
// - a refresh that shows the same moment of the game (a chat line, the poll) keeps the
//   money cards ticked for a bid, and the focus where it was, also on elements without
//   an id (a link, the chat's Send, the Resign toggle); when what had the focus is gone
//   from the new board, the hand takes it;
// - the chat's box of lines (it scrolls, oldest first) shows its newest lines: when the
//   page opens, after one's own message, and when a line comes while the player was at
//   the bottom; a player who scrolled up to read older lines is left where they are.
(function () {
  var wasMyTurn = null;
  var lastHeadline = null;

  // Offline (a phone in a tunnel): the note above the board says the board may be
  // behind; back online, it goes, and the polls and the stream catch the board up.
  function connectionSaid() {
    var note = document.getElementById("offline-note");
    if (note) {
      note.textContent = navigator.onLine ? "" : note.dataset.offline || "";
    }
  }
  window.addEventListener("offline", connectionSaid);
  window.addEventListener("online", connectionSaid);
  document.addEventListener("DOMContentLoaded", connectionSaid);

  function board() {
    return document.getElementById("board");
  }

  function actionBar() {
    return document.querySelector("#board .tray__actions, #board .tray .choice-row");
  }

  function bringIntoView(element) {
    var box = element.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) {
      element.scrollIntoView({ block: "end" });
    }
  }

  // When the turn begins: the hand with its buttons in sight, scrolled as little as
  // can be, with the headline above it when both fit on the screen (a whole tray,
  // standing orders included, scrolled to the bottom of the screen put the headline
  // and the players out of sight); a hand taller than the screen from its top (the
  // buttons then stay at the bottom of the screen, sticky, below the first cards).
  function turnIntoView(bar) {
    var tray = document.querySelector("#board .tray");
    if (!tray) {
      bringIntoView(bar);
      return;
    }
    // Where the hand and its buttons end in their own place (the bar itself may be
    // stuck to the bottom of the screen): the top of what follows the bar.
    var after = bar.nextElementSibling;
    var end = after ? after.getBoundingClientRect().top : tray.getBoundingClientRect().bottom;
    var banner = document.querySelector("#board .banner");
    var room = window.innerHeight;
    var top = tray.getBoundingClientRect().top;
    if (banner && end - banner.getBoundingClientRect().top <= room) {
      top = banner.getBoundingClientRect().top;
    }
    if (end - top > room) {
      tray.scrollIntoView({ block: "start" });
    } else if (top < 0) {
      window.scrollBy(0, top - 8);
    } else if (end > room) {
      window.scrollBy(0, Math.min(top, end - room + 8));
    }
  }

  // A money card reached with the keyboard shows whole above the sticky Bid/Pass bar
  // (the browser scrolls a focused element only when it is off the screen, not when
  // the bar covers it).
  document.addEventListener("focusin", function (event) {
    var pick = event.target.closest ? event.target.closest("#board .pick") : null;
    var bar = document.querySelector("#board.board--my-turn .tray__actions");
    if (!pick || !bar) {
      return;
    }
    var covered = pick.getBoundingClientRect().bottom - bar.getBoundingClientRect().top;
    if (covered > 0) {
      window.scrollBy(0, covered + 8);
    }
  });

  // A money card, or a card to choose, of the hand on one's turn (none otherwise).
  var HAND_CARDS = "#board .pick__input, #board .tray .card-button";

  // Where the focus goes when it is to be in the hand: a card on one's turn, else the
  // hand itself (a board without one: its headline).
  function handFocusTarget() {
    return document.querySelector(HAND_CARDS) || document.querySelector("#board #tray") ||
      document.querySelector("#board .banner");
  }

  // After one's own move: a card again when the turn is still one's own; else the hand
  // itself, where the move was made (the headline, read out by the live region, is
  // often far above).
  function focusHand() {
    var target = handFocusTarget();
    var current = document.getElementById("board");
    if (target) {
      target.focus({ preventScroll: true });
      if ((current && current.classList.contains("board--my-turn")) || !partlyInView(target)) {
        target.scrollIntoView({ block: "nearest" });
      }
    }
  }

  function partlyInView(element) {
    var box = element.getBoundingClientRect();
    return box.bottom > 0 && box.top < window.innerHeight;
  }

  function inView(element) {
    var box = element.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= window.innerHeight;
  }

  // The moves the log gained since the board was last drawn, oldest first, all of
  // them (the last five only left a bidding war's opening or a card's winner unsaid),
  // without their times: what the others did, read out with the headline.  None on
  // the page's first drawing; all of them when the game began after it (a waiting
  // table's page has no log: its first moves are the set-up, read out too).
  var lastLogged = null;
  var logDrawn = false;

  function newMoves(afterWaiting) {
    // The table was waiting for players until this board: its game has just begun, and
    // its set-up ("Set-up: Dora reveals Theft.", numbered 0) and first moves are news
    // to read, not an old log drawn with the page.
    if (lastLogged === null && afterWaiting) {
      lastLogged = -1;
    }
    if (lastLogged === null && logDrawn) {
      lastLogged = 0;
    }
    logDrawn = true;
    var newest = lastLogged;
    var texts = [];
    document.querySelectorAll("#board .log__lines > li[value]").forEach(function (item) {
      var number = parseInt(item.getAttribute("value"), 10);
      if (isNaN(number)) {
        return;
      }
      if (lastLogged !== null && number > lastLogged) {
        var copy = item.cloneNode(true);
        copy.querySelectorAll("time").forEach(function (time) {
          time.remove();
        });
        texts.unshift(copy.textContent.trim());  // the log lists the newest first
      }
      newest = newest === null || number > newest ? number : newest;
    });
    lastLogged = newest;
    return texts;
  }

  // A table waiting for players: the seats whose line changed since the board was last
  // drawn (someone took a seat, accepted, declined, a bot came), in their own words
  // ("Seat 2 Bob Joined"), without the forms.  None on the page's first drawing.
  var lastSeats = null;

  function seatChanges() {
    var now = [];
    document.querySelectorAll("#board .seat-list > li.seat").forEach(function (seat) {
      var copy = seat.cloneNode(true);
      copy.querySelectorAll("form, details, button").forEach(function (part) {
        part.remove();
      });
      now.push(copy.textContent.replace(/\s+/g, " ").trim());
    });
    var changed = [];
    if (lastSeats !== null && lastSeats.length === now.length) {
      now.forEach(function (text, i) {
        if (text !== lastSeats[i]) {
          changed.push(text + ".");
        }
      });
    }
    lastSeats = now.length ? now : null;
    return changed;
  }

  // The others' chat messages that arrived since the board was last drawn, oldest
  // first (at most the last three), as "author: text": read out with the moves.  None
  // on the page's first drawing, and never one's own.
  var lastChat = null;

  function newChat() {
    var newest = lastChat;
    var texts = [];
    document.querySelectorAll("#board .chat__line[data-id]").forEach(function (line) {
      var id = parseInt(line.getAttribute("data-id"), 10);
      if (isNaN(id)) {
        return;
      }
      if (lastChat !== null && id > lastChat && !line.classList.contains("chat__line--you")) {
        var author = line.querySelector(".chat__meta strong");
        var words = line.querySelector(".chat__text");
        if (author && words) {
          texts.push(author.textContent.trim() + ": " + words.textContent.trim());
        }
      }
      newest = newest === null || id > newest ? id : newest;
    });
    lastChat = newest === null ? 0 : newest;
    return texts.slice(-3);
  }

  var lastDone = null;

  // A refresh after a long sleep may bring a whole auction and more: the latest moves
  // are read out, after a word that the earlier ones are in the log.
  var READ_AT_MOST = 12;

  function announce() {
    var headline = document.querySelector("#board .banner__text");
    var region = document.getElementById("turn-announcer");
    if (!region) {
      return;
    }
    var text = headline ? headline.textContent.trim() : "";
    var afterWaiting = lastSeats !== null && !document.querySelector("#board .seat-list");
    var moves = newMoves(afterWaiting);
    if (moves.length > READ_AT_MOST) {
      var earlier = region.dataset.earlier || "";
      moves = (earlier ? [earlier] : []).concat(moves.slice(-READ_AT_MOST));
    }
    var parts = seatChanges().concat(moves, newChat());
    // What a standing order's form just did: drawn beside that form only in the answer
    // to it (a refused chat line is the board's alert, read out by itself).
    var done = document.querySelector("#board #order-done");
    if (done && done !== lastDone) {
      parts.push(done.textContent.trim());
    }
    lastDone = done;
    // The page's message of the last plain form (a rematch opened, a player muted),
    // drawn with the page, read out once with the first headline.
    var said = lastHeadline === null ? document.querySelector("#main > .messages") : null;
    if (said) {
      parts.unshift(said.textContent.trim());
    }
    if (lastHeadline !== null && text && text !== lastHeadline) {
      parts.push(text);
    }
    if (parts.length) {
      region.textContent = parts.join(" ");
    }
    lastHeadline = text;
  }

  function headerCount(current) {
    // The page's title and the header's badge follow each refresh of the board.
    if (current.dataset.title) {
      document.title = current.dataset.title;
    }
    var turns = parseInt(current.dataset.turns || "0", 10);
    var item = document.getElementById("turns-waiting");
    var count = document.getElementById("turns-waiting-count");
    if (item && count) {
      count.textContent = String(turns);
      item.hidden = !(turns > 0);
    }
  }

  function offerNotices(current) {
    // The offers under the board ("Tell me in this browser…", push) are for a table
    // that will still have turns: a board that refreshed into the end takes them away.
    if (!current.classList.contains("board--open") && !current.classList.contains("board--active")) {
      document.querySelectorAll(".notify-opt-in, .push-control--compact").forEach(function (offer) {
        offer.hidden = true;
      });
    }
  }

  function notifyIfHidden(current) {
    // Opt-in browser notifications: only when the tab is in the background.
    if (!document.hidden || !("Notification" in window) || Notification.permission !== "granted") {
      return;
    }
    var headline = document.querySelector("#board .banner__text");
    var title = current.dataset.title || "High Society";
    var options = {
      body: headline ? headline.textContent.trim() : "",
      tag: "high-society-" + window.location.pathname,  // one notice per table
      data: { url: window.location.origin + window.location.pathname },  // sw.js opens it
    };
    try {
      new Notification(title, options);
    } catch (refused) {
      // Android's Chrome shows notifications only through a service worker ("Illegal
      // constructor"): the site's own (/sw.js, push's) shows it, and opens the board.
      if ("serviceWorker" in navigator) {
        navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(function () {
          return navigator.serviceWorker.ready;
        }).then(function (registration) {
          return registration.showNotification(title, options);
        }).catch(function () {});
      }
    }
  }

  // As the server writes them (highsociety_site/formats): day before month, a 24-hour
  // clock, the deadline with its year; English as in Britain, not the browser's
  // American default ("Nov 30, 06:03 AM" replaced "30 Nov 2026, 06:03").
  var FORMATS = {
    time: { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23" },
    deadline: {
      weekday: "short", day: "numeric", month: "short", year: "numeric", hour: "2-digit",
      minute: "2-digit", hourCycle: "h23",
    },
  };
  FORMATS.moment = FORMATS.deadline;  // a moment a sentence names (a chat bar's end)
  var LOCALES = { en: "en-GB" };

  // The deadline's zone as the server and the e-mails mark it (games.presenter's
  // utc_offset_text): UTC, UTC+1, UTC+5:30, UTC−3 in every language, where the
  // browser's abbreviation reads GMT-3 or MEZ.
  function offsetLabel(when, zone) {
    var options = { timeZoneName: "longOffset" };
    if (zone) {
      options.timeZone = zone;
    }
    var parts = new Intl.DateTimeFormat("en-GB", options).formatToParts(when);
    var name = "";
    for (var j = 0; j < parts.length; j++) {
      if (parts[j].type === "timeZoneName") {
        name = parts[j].value;
      }
    }
    var offset = /^GMT([+-])(\d{2}):(\d{2})$/.exec(name);
    if (!offset || offset[2] + offset[3] === "0000") {
      return "UTC";
    }
    var sign = offset[1] === "+" ? "+" : "\u2212";
    return "UTC" + sign + parseInt(offset[2], 10) + (offset[3] === "00" ? "" : ":" + offset[3]);
  }

  function localTimes() {
    // Times are sent in UTC; the browser shows them in its own time zone.
    var stamps = document.querySelectorAll("time[data-local]");
    for (var i = 0; i < stamps.length; i++) {
      var when = new Date(stamps[i].getAttribute("datetime"));
      if (isNaN(when.getTime())) {
        continue;
      }
      var format = Object.assign({}, FORMATS[stamps[i].dataset.local] || FORMATS.time);
      if (document.body.dataset.timeZone) {
        format.timeZone = document.body.dataset.timeZone;  // the player's choice
      }
      // In the page's language (<html lang>), as the rest of the page.
      var lang = document.documentElement.lang;
      var text;
      try {
        text = when.toLocaleString(LOCALES[lang] || lang || undefined, format);
        if (stamps[i].dataset.local !== "time") {
          text += " " + offsetLabel(when, format.timeZone);
        }
      } catch (error) {
        // A zone this browser does not know (newer than its data): the server's text
        // stays, written in that zone already.  The rest of the page's script runs on.
        continue;
      }
      stamps[i].textContent = stamps[i].dataset.local === "deadline" ? "(" + text + ")" : text;
      // The exact moment in UTC, in the page's language too.
      stamps[i].title = when.toLocaleString(LOCALES[lang] || lang || undefined, {
        dateStyle: "full", timeStyle: "long", timeZone: "UTC",
      });
    }
  }

  // A board's answer that arrives after another answer replaced that board (a refresh
  // crossing the player's own move or chat message) is dropped: the page shows the
  // newer board, and htmx, swapping into the replaced one, would take the fields kept
  // across refreshes (hx-preserve: the message being typed, an order's maximum) out of
  // the page with it.  The event fires on the replaced board, outside the document, so
  // every board gets this listener (adding it again is a no-op).
  //
  // The answer to the player's own form so dropped still does what it is for, when it
  // went through: the chat line sent leaves the box, a standing order's fields start
  // empty again.  (Not swapped in instead: a chat line changes no version, so the newer
  // board cannot be told apart, and the answer would take another player's line off
  // the page.)  The board shown may have been drawn before the line or the order was
  // stored (a move's news reached the page first), and their own news, at the same
  // version, asks for nothing more: the board is asked for again, so they show.
  function dropIfReplaced(event) {
    var target = event.detail.target;
    if (!target || target.isConnected) {
      return;
    }
    event.detail.shouldSwap = false;
    var config = event.detail.requestConfig;
    var source = config && config.elt;
    // Refused as a whole (a 429, a 500: htmx asks about those swaps too) or as a move.
    var went = !event.detail.isError && !/flash--error/.test(event.detail.serverResponse || "");
    if (source && source.closest && source.closest(".tray")) {
      ownMove = false;  // no board of its own will settle
      if (!went && !event.detail.isError) {
        sayRefusal(event.detail.serverResponse);
      }
      // The pressed button was disabled under the focus, which dropped to the page; the
      // board shown may not have settled yet (and will not put it back): it goes into
      // the hand now, as the answer's own board would have put it.
      var active = document.activeElement;
      if (!active || active === document.body) {
        if (went) {
          focusHand();
        } else if (document.getElementById("tray")) {
          // Refused: the hand, where it was pressed (a refusal told in the box at the
          // bottom of the screen takes the focus from there).
          document.getElementById("tray").focus({ preventScroll: true });
        }
      }
    }
    if (source && source.id === "chat-form") {
      chatAnswered(went);
    }
    var order = Boolean(config && config.orderSent);
    if (went && order) {
      orderFieldsEmpty();
    }
    if (went && (order || (source && source.id === "chat-form"))) {
      askAgain();
    }
  }

  // A move refused (another tab moved first, say) whose answer came after a refresh had
  // replaced the board: its reason goes into the board shown, in the alert at its top,
  // as its own board would have shown it; the next refresh takes it away.
  function sayRefusal(html) {
    var flash = document.getElementById("board-flash");
    if (!flash || !html) {
      return;
    }
    var answer = new DOMParser().parseFromString(html, "text/html");
    var said = answer.querySelector("#board-flash .flash--error");
    if (said) {
      flash.replaceChildren(document.importNode(said, true));
    }
  }

  // The board asks the server again now (with the stream, its news; else its next poll
  // does within seconds).
  function askAgain() {
    var current = board();
    if (current && current.hasAttribute("hx-get")) {
      setTimeout(function () {
        htmx.trigger(current, "sse:changed");
      }, 0);
    }
  }

  // The messages at the top of the page answer the form sent last ("A bot takes seat
  // 4."); the board then updates itself in place, so they would stay for the whole
  // game.  They go when the board moves on to another stage (the table starts, the
  // game ends) and when the player makes a move.  (Read once the board has settled:
  // until then htmx keeps the old board's classes on the new one.)
  var stage = null;

  function dropStaleMessages(current, afterOwnMove) {
    var found = /(?:^|\s)board--(open|active|finished|abandoned)(?:\s|$)/.exec(current.className);
    var now = found ? found[1] : "";
    if (afterOwnMove || (stage !== null && now !== stage)) {
      document.querySelectorAll(".site-main > .messages").forEach(function (list) {
        list.remove();
      });
    }
    stage = now;
  }

  function settled(afterOwnMove, redrawn) {
    localTimes();
    var current = board();
    if (!current) {
      return;
    }
    var ended = stage === "active" && current.classList.contains("board--finished");
    dropStaleMessages(current, afterOwnMove);
    current.addEventListener("htmx:beforeSwap", dropIfReplaced);
    if (redrawn) {
      // The board's count, as new as the board; after other swaps (the header's own
      // poll of the count, a preview) it would put an older one back.
      headerCount(current);
    }
    offerNotices(current);
    // The skip link to the hand, outside the board, follows it: there while the hand is
    // (the game started after the page was opened; gone at the end).
    var skipHand = document.getElementById("skip-hand");
    if (skipHand) {
      skipHand.hidden = !document.getElementById("tray");
    }
    if (current.classList.contains("board--my-turn") && wasMyTurn === false) {
      notifyIfHidden(current);
    }
    var myTurn = current.classList.contains("board--my-turn");
    var bar = actionBar();
    if (myTurn && wasMyTurn !== true && bar) {
      var scrolled = window.scrollY;
      turnIntoView(bar);
      // A page opened on one's turn and scrolled down to the hand: the keyboard starts
      // there too (the first Tab went back to the top), unless the player already put
      // the focus somewhere.  Not scrolled, the page starts at the top, its skip links
      // first.
      var here = document.activeElement;
      var tray = document.getElementById("tray");
      var moved = window.scrollY !== scrolled;
      if (wasMyTurn === null && moved && tray &&
          (!here || here === document.body || here.id === "main")) {
        tray.focus({ preventScroll: true });
      }
    }
    if (afterOwnMove) {
      focusHand();
    }
    // The focus left on the headline after one's move (waiting for the others) follows
    // the game where it goes next, so that it is never out of sight: into the hand when
    // the turn comes back, to the headline with the result when the game ends.
    var active = document.activeElement;
    var onHeadline = active && active.classList &&
      (active.classList.contains("banner") || active.id === "tray");
    if (!afterOwnMove && onHeadline && myTurn && wasMyTurn === false) {
      var first = document.querySelector(HAND_CARDS);
      if (first) {
        first.focus({ preventScroll: inView(first) });
      }
    } else if (!afterOwnMove && myTurn && wasMyTurn === false &&
               (!active || active === document.body)) {
      // The turn came while the focus was nowhere (it was lost, or never placed): the
      // next Tab starts in the hand, not back at the top of the page.
      var hand = document.getElementById("tray");
      if (hand) {
        hand.focus({ preventScroll: true });
      }
    }
    if (ended && (onHeadline || !active || active === document.body)) {
      var banner = document.querySelector("#board .banner");
      if (banner) {
        banner.focus({ preventScroll: true });
        banner.scrollIntoView({ block: "start" });
      }
    }
    announce();
    wasMyTurn = myTurn;
  }

  document.addEventListener("DOMContentLoaded", function () {
    settled(false, false);
    // The page drawn after one's own form, at a seat a bot now plays (one just resigned):
    // the note that says so takes the focus, in place of the vanished Resign button,
    // and is read out (the message at the top is read out with the headline).
    var note = document.getElementById("seat-note");
    var here = document.activeElement;
    var answered = document.querySelector("#main > .messages");
    var nowhere = !here || here === document.body || here.id === "main";
    if (note && answered && nowhere) {
      note.focus({ preventScroll: true });
      if (!partlyInView(note)) {
        note.scrollIntoView({ block: "nearest" });
      }
    } else if (answered && nowhere && document.querySelector("#board.board--finished")) {
      // The form ended the game at once (resigned, the bots played the rest): the
      // result's headline takes the focus, read out after the form's message.
      var banner = document.querySelector("#board .banner");
      if (banner) {
        banner.focus({ preventScroll: true });
      }
    }
  });

  // A Theft discard or a secret Yacht Club choice gives a card up for good: the first
  // press only marks the card ("Press again"), the second sends it.  Without
  // this script one tap sends it, as the form itself does.  The button's name is its
  // card and its visible word ("1,000 Choose", then "1,000 Press again"):
  // what a voice-control user says is what they see.
  document.addEventListener(
    "click",
    function (event) {
      var button = event.target.closest && event.target.closest("button.card-button[data-confirm]");
      if (!button || button.classList.contains("is-armed")) {
        return; // not such a card, or its second tap: the form sends it
      }
      event.preventDefault();
      document.querySelectorAll("button.card-button.is-armed").forEach(function (other) {
        other.classList.remove("is-armed");
        other.style.width = other.style.height = "";
        var label = other.querySelector(".card-button__label");
        if (label && other.dataset.label) {
          label.textContent = other.dataset.label;
        }
      });
      arm(button, true);
    },
    true
  );

  // The marked card keeps its size: its longer words show over the card (game.css), so
  // no other card moves from under a thumb that changes its mind (on a phone the words
  // made it a whole row wide and pushed the others along).
  function arm(button, say) {
    var label = button.querySelector(".card-button__label");
    if (label && label.textContent !== button.dataset.confirm) {  // not armed twice
      var box = button.getBoundingClientRect();
      button.style.width = box.width + "px";
      button.style.height = box.height + "px";
      button.dataset.label = label.textContent;
      label.textContent = button.dataset.confirm;
    }
    button.classList.add("is-armed");
    var said = document.getElementById("choice-confirm");
    if (said && say) {
      said.textContent = button.dataset.choice;  // the whole sentence, in the page's language
    }
  }

  // A first press survives a refresh that still offers the same card (another player
  // made their Yacht Club choice meanwhile, a chat line came): the second press still
  // sends it.  Each such button's id names its one decision (seal-1000, discard-lux3).
  var armedId = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    var armed = document.querySelector("#board button.card-button.is-armed");
    armedId = boardSwapped(event) && armed ? armed.id : null;
  });
  // After the settle: htmx settles the class attribute (attributesToSettle), so until
  // then the new button wears the old one's classes, and then loses them.
  document.addEventListener("htmx:afterSettle", function () {
    var again = armedId && document.getElementById(armedId);
    armedId = null;
    if (again && again.matches("button.card-button[data-confirm]")) {
      again.classList.remove("is-armed");
      arm(again, false);
    }
  });

  // "Tell me in this browser": asks once for permission to show notifications.
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("#notify-me");
    if (!button || !("Notification" in window)) {
      return;
    }
    Notification.requestPermission().then(function (answer) {
      // The answer replaces the button, read out, with the focus kept on it (a button
      // disabled under the focus would drop it to the top of the page).  The sentences
      // come from the page, in the reader's language.
      var said = document.createElement("span");
      said.setAttribute("role", "status");
      said.setAttribute("tabindex", "-1");
      said.textContent = answer === "granted"
        ? button.dataset.granted || "This browser will tell you when it is your turn."
        : button.dataset.blocked || "Notifications are blocked in this browser.";
      var focused = document.activeElement === button;
      button.replaceWith(said);
      if (focused) {
        said.focus();
      }
    });
  });

  document.addEventListener("DOMContentLoaded", function () {
    var button = document.getElementById("notify-me");
    if (button && "Notification" in window && Notification.permission === "default") {
      button.hidden = false;
    }
  });

  // A refresh the player did not ask for (the poll, the stream's news) keeps the focus
  // where it was: on the headline, or on the element of the same id.
  var keepFocus = null;
  // An own move is on its way or its board not yet settled.  A refresh may replace the
  // board first: before the move's answer comes (which then has no board left to
  // replace), or within the settle delay (the settle event of a replaced board never
  // reaches the document).  Whichever board settles next puts the focus in the hand.
  var ownMove = false;
  // The chat line on its way: only it is taken out of the box when its answer comes (a
  // second line typed meanwhile stays, to be sent in its turn).
  var chatSent = null;
  function chatAnswered(went) {
    var box = document.getElementById("chat-text");
    if (went && box && chatSent !== null && box.value === chatSent) {
      box.value = "";
    }
    chatMarked();
    chatSent = null;
    chatSendHeld(false);
  }
  // The chat's box is kept across refreshes (hx-preserve), so the server cannot mark
  // it: it is marked invalid while the reason a line was refused is drawn beside it.
  function chatMarked() {
    var box = document.getElementById("chat-text");
    if (!box) {
      return;
    }
    if (document.getElementById("chat-error")) {
      box.setAttribute("aria-invalid", "true");
      box.setAttribute("aria-describedby", "chat-error");
    } else {
      box.removeAttribute("aria-invalid");
      box.removeAttribute("aria-describedby");
    }
  }
  // The order's amount box is kept across refreshes too: it is marked while a bid's
  // order refused for its amount is drawn, and is then where the focus goes back.
  function orderMarked() {
    var box = document.getElementById("order-max");
    if (!box) {
      return null;
    }
    var refused = document.getElementById("order-error");
    if (refused && refused.getAttribute("data-field") === "order-max") {
      box.setAttribute("aria-invalid", "true");
      box.setAttribute("aria-describedby", "order-error");
      return box;
    }
    box.removeAttribute("aria-invalid");
    box.removeAttribute("aria-describedby");
    return null;
  }
  // While the line is on its way, Send stays pressed on a board drawn meanwhile (the
  // poll, the stream's news): htmx holds only the button the line left from, and a
  // second Enter would send the line typed since, whose text the first answer then
  // takes out of the box.
  function chatSendHeld(held) {
    var button = document.querySelector("#chat-form button");
    if (button) {
      button.disabled = held;
    }
  }
  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail.target;
    var source = event.detail.requestConfig && event.detail.requestConfig.elt;
    if (chatSent !== null && target && target.id === "board" &&
        !(source && source.id === "chat-form")) {
      chatSendHeld(true);
    }
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var target = event.detail.target;
    var source = event.detail.requestConfig && event.detail.requestConfig.elt;
    // A move, not a standing order's form (drawn in the tray too): saving orders is
    // no move, and the focus stays in its form.
    if (target && target.id === "board" && source && source.closest &&
        source.closest(".tray") && !source.closest(".orders")) {
      ownMove = true;
    }
    if (source && source.id === "chat-form") {
      var box = document.getElementById("chat-text");
      chatSent = box ? box.value : null;
    }
  });
  // A request that got no board back (no connection, a server error, a time-out): no
  // answer will settle it, and the next refresh is not the player's move (it would take
  // the focus into the hand and drop the cards ticked since); a chat line's Send is
  // pressable again, the line still in the box.
  var FAILED = ["htmx:sendError", "htmx:responseError", "htmx:timeout", "htmx:sendAbort"];
  function requestFailed(event) {
    var source = event.detail.requestConfig && event.detail.requestConfig.elt;
    var target = event.detail.requestConfig && event.detail.requestConfig.target;
    // A move, not the bid's preview (a re-tick aborts the one before it).
    if (source && source.closest && source.closest(".tray") && target && target.id === "board") {
      ownMove = false;
    }
    if (source && source.id === "chat-form") {
      chatSent = null;
      chatSendHeld(false);
    }
  }
  FAILED.forEach(function (name) {
    document.addEventListener(name, requestFailed);
  });
  // A failure of a form whose board was replaced meanwhile reaches the document too
  // (requests.js tells it again from the detached form).
  document.addEventListener("htmx:beforeSwap", function (event) {
    var active = document.activeElement;
    var board = document.getElementById("board");
    keepFocus = null;
    if (!board || !active || !board.contains(active) || event.detail.target !== board) {
      return;
    }
    if (active.classList.contains("banner")) {
      keepFocus = "#board .banner";
    } else if (active.id) {
      keepFocus = "#" + CSS.escape(active.id);
    } else {
      keepFocus = likeness(board, active);
    }
  });

  // An element without an id is found again on the new board by what it is: its tag,
  // its link or name and value, its words, and its place among the elements alike.
  var FOCUSABLE = "a[href], button, input, select, textarea, summary, [tabindex]";

  function signature(element) {
    return [
      element.tagName,
      element.getAttribute("href") || "",
      element.getAttribute("name") || "",
      element.getAttribute("value") || "",
      element.textContent.trim().slice(0, 80),
    ].join("|");
  }

  function likeness(board, active) {
    var wanted = signature(active);
    var alike = Array.prototype.filter.call(board.querySelectorAll(FOCUSABLE), function (element) {
      return signature(element) === wanted;
    });
    return { signature: wanted, index: Math.max(0, alike.indexOf(active)) };
  }

  function findAlike(kept) {
    var board = document.getElementById("board");
    if (!board) {
      return null;
    }
    var alike = Array.prototype.filter.call(board.querySelectorAll(FOCUSABLE), function (element) {
      return signature(element) === kept.signature;
    });
    return alike[Math.min(kept.index, alike.length - 1)] || null;
  }

  function boardVersion(element) {
    return element ? element.getAttribute("data-version") : null;
  }

  // The money cards ticked for a bid survive a refresh that shows the same moment of the
  // game (a chat line, the poll): the player's own move, or a new version, starts afresh.
  var ticked = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    var old = event.detail.target;
    ticked = null;
    if (!old || old.id !== "board" || ownMove) {
      return;
    }
    var values = [];
    old.querySelectorAll("input[name=cards]:checked").forEach(function (box) {
      values.push(box.value);
    });
    if (values.length) {
      ticked = { version: boardVersion(old), values: values };
    }
  });
  document.addEventListener("htmx:afterSwap", function () {
    var kept = ticked;
    var current = document.getElementById("board");
    ticked = null;
    if (!kept || !current || boardVersion(current) !== kept.version) {
      return;
    }
    var last = null;
    kept.values.forEach(function (value) {
      var box = current.querySelector("input[name=cards][value=\"" + CSS.escape(value) + "\"]");
      if (box && !box.disabled) {
        box.checked = true;
        last = box;
      }
    });
    previewAgain = last;  // once htmx has wired the new board (it does so as it settles)
  });
  var previewAgain = null;

  // Form fields a refresh would reset, read before the swap and written back after it,
  // by name: text fields and selects (an option the new form still offers), the chosen
  // radio button, check boxes.
  function fieldsRead(container, selector) {
    var kept = {};
    container.querySelectorAll(selector).forEach(function (field) {
      if (field.type === "radio") {
        if (field.checked) {
          kept[field.name] = field.value;
        }
      } else {
        kept[field.name] = field.type === "checkbox" ? field.checked : field.value;
      }
    });
    return kept;
  }

  function fieldsWrite(container, selector, kept) {
    container.querySelectorAll(selector).forEach(function (field) {
      if (!Object.prototype.hasOwnProperty.call(kept, field.name)) {
        return;
      }
      var value = kept[field.name];
      if (field.type === "radio") {
        if (field.value === value) {
          field.checked = true;
        }
      } else if (field.type === "checkbox") {
        field.checked = value;
      } else if (field.tagName !== "SELECT" || field.querySelector("option[value=\"" + CSS.escape(value) + "\"]")) {
        field.value = value;
      }
    });
  }

  function boardSwapped(event) {
    return Boolean(event.detail.target && event.detail.target.id === "board");
  }

  // A refreshed waiting board brings the host's "Change seat" forms closed: the ones
  // that were open are opened again, with their fields as the host left them.  A seat
  // that can no longer be changed (somebody took it) has no form to open.
  var SEAT_FIELDS = "select, input[type=text]";
  var openSeatForms = [];
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (!boardSwapped(event)) {
      return;
    }
    openSeatForms = [];
    document.querySelectorAll("#board details.seat-change[open]").forEach(function (details) {
      openSeatForms.push({ id: details.id, fields: fieldsRead(details, SEAT_FIELDS) });
    });
  });
  document.addEventListener("htmx:afterSwap", function () {
    openSeatForms.forEach(function (kept) {
      var details = document.getElementById(kept.id);
      if (details) {
        details.open = true;
        fieldsWrite(details, SEAT_FIELDS, kept.fields);
      }
    });
    openSeatForms = [];
  });

  // A chat line's "Report", opened: in sight inside the chat's own scrolling list (the
  // last line's would open below its edge), and open again after a refresh.
  var openReports = [];
  document.addEventListener(
    "toggle",
    function (event) {
      var details = event.target;
      if (!details.classList || !details.classList.contains("chat__report")) {
        return;
      }
      if (details.open && !details.hasAttribute("data-reopened")) {
        details.scrollIntoView({ block: "nearest" });
      }
      details.removeAttribute("data-reopened");
    },
    true
  );
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (!boardSwapped(event)) {
      return;
    }
    openReports = [];
    document.querySelectorAll("#board details.chat__report[open]").forEach(function (details) {
      var line = details.closest("[data-id]");
      if (line) {
        openReports.push(line.getAttribute("data-id"));
      }
    });
  });
  document.addEventListener("htmx:afterSwap", function () {
    openReports.forEach(function (id) {
      var details = document.querySelector(
        '#board .chat__line[data-id="' + id + '"] details.chat__report'
      );
      if (details) {
        details.setAttribute("data-reopened", "");  // as it was: no scrolling
        details.open = true;
      }
    });
    openReports = [];
  });

  // A standing order being written keeps its pass-or-bid choice, Theft's discard and
  // "only with the cards you ticked" through a refresh, as its amount does (hx-preserve).
  // Once "Set this order" has gone through, the fields start empty again (the order is
  // shown above them); refused, they stay as they were, beside the reason.  A board
  // drawn for another auction (the card up changed meanwhile) empties them, amount
  // included: what was written for Luxury 8 is not an order for the next card.
  var ORDER_FIELDS = "input[name=kind], select[name=discard], input[name=only_ticked]";
  function orderFieldsEmpty() {
    var fields = document.querySelector("#board .orders__fields");
    if (!fields) {
      return;
    }
    var amount = fields.querySelector("input[name=maximum]");
    if (amount) {
      amount.value = "";
    }
    fields.querySelectorAll(ORDER_FIELDS).forEach(function (field) {
      if (field.tagName === "SELECT") {
        field.value = "";
      } else {
        field.checked = false;
      }
    });
  }
  // A standing order on its way is marked on its request (config.orderSent, by
  // bid-button.js, which tells Enter's order from Enter's bid).
  var orderDraft = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    orderDraft = null;
    var fields = document.querySelector("#board .orders__fields");
    if (!boardSwapped(event) || !fields) {
      return;
    }
    var config = event.detail.requestConfig;
    orderDraft = {
      set: Boolean(config && config.orderSent),
      fields: fieldsRead(fields, ORDER_FIELDS),
      auction: auctionOf(fields),
    };
  });
  function auctionOf(fields) {
    var auction = fields.querySelector("input[name=auction]");
    return auction ? auction.value : null;
  }
  document.addEventListener("htmx:afterSwap", function () {
    var draft = orderDraft;
    orderDraft = null;
    var fields = document.querySelector("#board .orders__fields");
    if (!draft || !fields) {
      return;
    }
    if (auctionOf(fields) !== draft.auction) {
      orderFieldsEmpty();
      return;
    }
    if (draft.set && !document.querySelector("#board .flash--error")) {
      orderFieldsEmpty();
      return;
    }
    fieldsWrite(fields, ORDER_FIELDS, draft.fields);
  });

  // The defaults for the coming auctions, opened to be written, stay open through a
  // refresh (another player's move, a chat line), with what was typed in them and the
  // reason a refusal gave; the answer to their own form draws them as they stand.  Only
  // fields changed from what the board drew are written back, and then the form keeps
  // the stamp it was drawn with (``seen``): defaults changed meanwhile in another window
  // are not overwritten unseen.
  var DEFAULTS_FIELDS = "select[name=luxury_below], input[name=misfortune_max]";
  var defaultsDraft = null;
  function changedFields(container) {
    var changed = {};
    container.querySelectorAll(DEFAULTS_FIELDS).forEach(function (field) {
      var drawn = field.tagName === "SELECT"
        ? Array.prototype.some.call(field.options, function (option) {
          return option.selected !== option.defaultSelected;
        })
        : field.value !== field.defaultValue;
      if (drawn) {
        changed[field.name] = field.value;
      }
    });
    return changed;
  }
  document.addEventListener("htmx:beforeSwap", function (event) {
    defaultsDraft = null;
    var details = document.querySelector("#board details.orders__defaults");
    if (!boardSwapped(event) || !details || !details.open) {
      return;
    }
    var source = event.detail.requestConfig && event.detail.requestConfig.elt;
    if (source && source.closest && source.closest(".orders__defaults")) {
      return;  // the answer to the defaults' own form
    }
    var error = details.querySelector("#order-error");
    var seen = details.querySelector("input[name=seen]");
    defaultsDraft = {
      // Refused, the board drew what was typed: all of it is kept.
      fields: error ? fieldsRead(details, DEFAULTS_FIELDS) : changedFields(details),
      seen: seen ? seen.value : null,
      error: error ? error.cloneNode(true) : null,
    };
  });
  document.addEventListener("htmx:afterSwap", function () {
    var draft = defaultsDraft;
    defaultsDraft = null;
    var details = document.querySelector("#board details.orders__defaults");
    if (!draft || !details) {
      return;
    }
    details.open = true;
    if (Object.keys(draft.fields).length) {
      fieldsWrite(details, DEFAULTS_FIELDS, draft.fields);
      var seen = details.querySelector("input[name=seen]");
      if (seen && draft.seen !== null) {
        seen.value = draft.seen;
      }
    }
    var buttons = details.querySelector(".orders__buttons");
    if (draft.error && buttons && !document.getElementById("order-error")) {
      buttons.parentNode.insertBefore(draft.error, buttons);
    }
  });

  // Mute (or Show again) redraws the board in place: the focus goes where the change
  // shows, on the new "Show again" (its name says who is muted now), or on the lines
  // that show the player again; not into the hand, and nothing is left unsaid.
  function chatMuteAnswered(form) {
    var name = form.querySelector("input[name=username]");
    var shown = form.querySelector("input[name=mute][value='0']");
    var target = null;
    if (name && !shown) {
      document.querySelectorAll("#board .chat__muted input[name=username]").forEach(function (input) {
        if (input.value === name.value) {
          target = input.form.querySelector("button");
        }
      });
    }
    target = target || document.getElementById("chat-lines");
    if (target) {
      target.focus({ preventScroll: true });
    }
  }

  // A report sent redraws the board in place: the focus goes to the line's new
  // "Reported to the staff" (or to the lines, where it is refused), not into the hand.
  function chatReportAnswered(form) {
    var message = form.querySelector("input[name=message]");
    var target = message
      ? document.querySelector(
          '#board .chat__line[data-id="' + message.value + '"] .chat__reported'
        )
      : null;
    target = target || document.getElementById("chat-lines");
    if (target) {
      target.focus({ preventScroll: true });
    }
  }

  // The chat's lines: the newest in sight, unless the player is reading older ones.
  function chatLines() {
    return document.getElementById("chat-lines");
  }

  function chatAtBottom(lines) {
    return lines.scrollHeight - lines.scrollTop - lines.clientHeight < 24;
  }

  var chatKept = null;  // before a swap: was the box at its bottom, and where was it
  document.addEventListener("htmx:beforeSwap", function () {
    var lines = chatLines();
    chatKept = lines ? { bottom: chatAtBottom(lines), top: lines.scrollTop } : null;
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    var lines = chatLines();
    var config = event.detail.requestConfig;
    var sent = Boolean(config && config.elt && config.elt.id === "chat-form");
    if (!lines) {
      return;
    }
    if (sent || !chatKept || chatKept.bottom) {
      lines.scrollTop = lines.scrollHeight;
    } else {
      lines.scrollTop = chatKept.top;
    }
    chatKept = null;
  });
  document.addEventListener("DOMContentLoaded", function () {
    var lines = chatLines();
    if (lines) {
      lines.scrollTop = lines.scrollHeight;
    }
  });

  document.addEventListener("htmx:afterSettle", function (event) {
    if (previewAgain && previewAgain.isConnected) {
      previewAgain.dispatchEvent(new Event("change", { bubbles: true }));  // the bid's preview
    }
    previewAgain = null;
    var config = event.detail.requestConfig;
    var source = config && config.elt;
    var lost = !document.activeElement || document.activeElement === document.body;
    var again = null;
    if (keepFocus && lost) {
      again = typeof keepFocus === "string" ? document.querySelector(keepFocus) : findAlike(keepFocus);
      // What had the focus is gone from the new board (a card spent, a choice made in
      // another tab or by a standing order, a Yacht Club choice's board replaced by the
      // next auction): the hand takes it, a card when the turn is yours, never <body>.
      if (!again) {
        again = handFocusTarget();
      }
    }
    keepFocus = null;
    if (again) {
      again.focus({ preventScroll: true });
      // Brought into sight for a keyboard user (the browser shows them the focus ring);
      // a mouse user's page is not scrolled from under them.
      if (!partlyInView(again) && again.matches(":focus-visible")) {
        again.scrollIntoView({ block: "nearest" });
      }
    }
    if (source && source.id === "chat-form") {
      chatAnswered(!document.querySelector("#board .flash--error"));
    }
    if (source && source.matches && source.matches("form.chat__mute")) {
      chatMuteAnswered(source);
    }
    if (source && source.closest && source.closest("details.chat__report")) {
      chatReportAnswered(source);
    }
    // Only a board settles an own move (a preview of the ticked cards leaves the focus
    // on the card just ticked).
    var target = event.detail.target;
    var afterOwnMove = false;
    var redrawn = Boolean(target && target.id === "board");
    if (redrawn) {
      afterOwnMove = ownMove;
      ownMove = false;
    }
    settled(afterOwnMove, redrawn);
    var amount = null;
    if (redrawn) {
      chatMarked();
      amount = orderMarked();
    }
    // A refused standing order (or defaults, or cancel): the reason beside its form
    // takes the focus, in sight (or the amount it is about, which it describes); the
    // board's own alert at the top may be a screen away.
    var refused = amount || document.getElementById("order-error");
    var fromOrders = Boolean(
      (source && source.closest && source.closest(".orders")) || (config && config.orderSent)
    );
    if (redrawn && fromOrders && refused) {
      refused.focus({ preventScroll: true });
      if (!inView(refused)) {
        refused.scrollIntoView({ block: "center" });
      }
    } else if (redrawn && fromOrders &&
               (!document.activeElement || document.activeElement === document.body)) {
      // Set: "Set this order", which had the focus, was disabled under it and is drawn
      // again below the order; the sentence that says the order is in takes the focus
      // (it was dropped to the page, and the next Tab went to the Resign toggle), or the
      // hand when the order has made the move already.
      var done = document.getElementById("order-done") || document.getElementById("tray");
      if (done) {
        done.focus({ preventScroll: true });
      }
    }
  });
})();
