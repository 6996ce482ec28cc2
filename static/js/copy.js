// Buttons that copy a field's text where the browser allows it (a new API token, an
// open table's share link): <button data-copy-from="field-id" data-copied="Copied"
// hidden>.  Without a clipboard the buttons stay hidden; the field, read-only, is
// selected whole when focused.  Delegated, so a board that htmx redraws keeps it.
// Copied, the button says so for a few seconds, and a status region reads it out (a
// button's changed name alone is not reliably read).
(function () {
  "use strict";

  var SHOWN_MS = 3000;
  var said = document.createElement("span");
  said.className = "visually-hidden";
  said.setAttribute("role", "status");

  function reveal() {
    if (!said.isConnected && document.body) {
      document.body.appendChild(said);
    }
    if (!navigator.clipboard) {
      return;
    }
    document.querySelectorAll("[data-copy-from]").forEach(function (button) {
      button.hidden = false;
    });
  }

  document.addEventListener("DOMContentLoaded", reveal);
  document.addEventListener("htmx:afterSettle", reveal);

  document.addEventListener("focusin", function (event) {
    var field = event.target;
    if (field.id && document.querySelector('[data-copy-from="' + CSS.escape(field.id) + '"]')) {
      field.select();
    }
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-copy-from]");
    var field = button && document.getElementById(button.dataset.copyFrom);
    if (!field || !navigator.clipboard) {
      return;
    }
    navigator.clipboard.writeText(field.value).then(function () {
      var before = button.dataset.label || button.textContent;
      button.dataset.label = before;
      button.textContent = button.dataset.copied || "Copied";
      said.textContent = "";
      window.setTimeout(function () {
        said.textContent = button.dataset.copied || "Copied";
      }, 50);  // a change the status region sees, even when copied twice
      window.clearTimeout(Number(button.dataset.timer || 0));
      button.dataset.timer = String(window.setTimeout(function () {
        button.textContent = before;
      }, SHOWN_MS));
    });
  });
})();
