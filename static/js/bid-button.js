// The Bid button follows the preview beside it (everything also works without this
// file: the server then refuses a bid that does not beat the high bid, with the reason).
// - While no money card is ticked, or the preview says the ticked cards do not beat the
//   high bid, the button looks inactive (aria-disabled: it stays focusable and is still
//   announced, with the preview as its description).
// - Pressing it then sends nothing: the preview's sentence is read out and its text
//   flashes, where the player is looking.  Enter in the form does the same, unless a
//   standing order is filled in (the form's hidden first button: games.views.game_act).
// - Ticking or unticking a card makes it active again until the new preview arrives: a
//   bid pressed meanwhile goes to the server, which decides.
// - While the preview says the ticked cards beat the high bid, the button says their
//   total ("Bid 14,000"): in sight when the preview is scrolled under the buttons.
(function () {
  function parts() {
    var button = document.getElementById("bid-button");
    var preview = document.getElementById("bid-preview");
    return button && preview ? { button: button, preview: preview } : null;
  }

  function setInactive(button, inactive) {
    if (inactive) {
      button.setAttribute("aria-disabled", "true");
      button.setAttribute("aria-describedby", "bid-preview");
    } else {
      button.removeAttribute("aria-disabled");
      button.removeAttribute("aria-describedby");
    }
  }

  function follow() {
    var found = parts();
    if (!found) {
      return;
    }
    var ticked = document.querySelector("#board .hand input[name=cards]:checked");
    setInactive(found.button, !ticked || found.preview.classList.contains("preview--no"));
    // The button says what the ticked cards would total ("Bid 14,000"), from the
    // preview the server drew: the preview itself may be under the buttons, which stay
    // at the bottom of the screen.  Nothing ticked, or no good: its own word again.
    var button = found.button;
    if (button.dataset.label === undefined) {
      button.dataset.label = button.textContent.trim();
    }
    var total = ticked && found.preview.getAttribute("data-bid-label");
    button.textContent = total || button.dataset.label;
  }

  document.addEventListener("DOMContentLoaded", follow);
  document.addEventListener("htmx:afterSettle", follow);

  document.addEventListener("change", function (event) {
    var input = event.target;
    if (input.name === "cards" && input.closest && input.closest("#board .hand")) {
      var found = parts();
      if (found) {
        setInactive(found.button, false);
        if (found.button.dataset.label !== undefined) {
          found.button.textContent = found.button.dataset.label;  // until the new total
        }
      }
    }
  });

  function orderFilledIn() {
    var amount = document.getElementById("order-max");
    return Boolean(
      document.querySelector("#board input[name=kind]:checked") ||
        (amount && amount.value.trim())
    );
  }

  // A standing order on its way: from its button, or from Enter in its fields on one's
  // turn (the form's hidden first button, which the server takes for the order once
  // one is filled in: games.views.game_act).  Marked on the request's own config, which
  // its later events carry (board.js empties the order's fields once it went through).
  document.addEventListener("htmx:beforeRequest", function (event) {
    var config = event.detail.requestConfig;
    if (!config || !config.elt) {
      return;
    }
    var submitter = config.triggeringEvent && config.triggeringEvent.submitter;
    config.orderSent = config.elt.id === "order-button" ||
      Boolean(submitter && submitter.id === "enter-button" && orderFilledIn());
  });

  document.addEventListener(
    "click",
    function (event) {
      var button = event.target.closest && event.target.closest("#bid-button, #enter-button");
      var bid = document.getElementById("bid-button");
      if (!button || !bid || bid.getAttribute("aria-disabled") !== "true") {
        return;
      }
      // Enter (the form's hidden first button) is a bid only when no standing order is
      // filled in below; then it is held back as a press of Bid is.
      if (button.id === "enter-button" && orderFilledIn()) {
        return;
      }
      event.preventDefault();
      event.stopPropagation();
      var preview = document.getElementById("bid-preview");
      var said = document.getElementById("turn-announcer");
      if (preview && said) {
        said.textContent = "";
        window.setTimeout(function () {
          said.textContent = preview.textContent.trim();
        }, 50);
      }
      if (preview) {
        // Where the player can see it: not under the buttons at the bottom.
        preview.scrollIntoView({ block: "nearest" });
        preview.classList.remove("preview--nudge");
        void preview.offsetWidth;  // restarts the animation on every press
        preview.classList.add("preview--nudge");
      }
    },
    true
  );
})();
