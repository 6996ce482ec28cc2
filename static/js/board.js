// The board, on top of htmx (everything also works without this file):
// - when your turn begins (or the page opens on it), the action bar is scrolled into
//   view if it is not;
// - after your own move, focus returns to your hand (or to the headline), not to the
//   top of the page;
// - the headline is read out by screen readers when it changes (a live region outside
//   the board, which the refreshes replace);
// - after a chat message was sent, the message box is emptied (it is kept across the
//   board's refreshes, hx-preserve, so that a refresh never wipes what is being typed).
(function () {
  var wasMyTurn = null;
  var lastHeadline = null;

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

  function announce() {
    var headline = document.querySelector("#board .banner__text");
    var region = document.getElementById("turn-announcer");
    if (!headline || !region) {
      return;
    }
    var text = headline.textContent.trim();
    if (lastHeadline !== null && text !== lastHeadline) {
      region.textContent = text;
    }
    lastHeadline = text;
  }

  function settled(afterOwnMove) {
    var current = board();
    if (!current) {
      return;
    }
    var myTurn = current.classList.contains("board--my-turn");
    var bar = actionBar();
    if (myTurn && wasMyTurn !== true && bar) {
      // The whole hand with its buttons when it fits on the screen, else the buttons
      // (which then stay at the bottom while the hand scrolls: sticky).
      var tray = document.querySelector("#board .tray");
      var fits = tray && tray.getBoundingClientRect().height <= window.innerHeight;
      bringIntoView(fits ? tray : bar);
    }
    if (afterOwnMove) {
      var target = document.querySelector("#board .pick__input, #board .tray .card-button") ||
        document.querySelector("#board .banner");
      if (target) {
        target.focus({ preventScroll: !myTurn });
      }
    }
    announce();
    wasMyTurn = myTurn;
  }

  document.addEventListener("DOMContentLoaded", function () {
    settled(false);
  });

  document.addEventListener("htmx:afterSettle", function (event) {
    var config = event.detail.requestConfig;
    var source = config && config.elt;
    if (source && source.id === "chat-form") {
      var box = document.getElementById("chat-text");
      if (box && !document.querySelector("#board .flash--error")) {
        box.value = "";
      }
    }
    var fromTray = !!(source && source.closest && source.closest(".tray"));
    settled(fromTray);
  });
})();
