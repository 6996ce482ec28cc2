// Buttons that copy a field's text where the browser allows it (a new API token, an
// open table's share link): <button data-copy-from="field-id" data-copied="Copied"
// hidden>.  Without a clipboard the buttons stay hidden; the field, read-only, is
// selected whole when focused.  Delegated, so a board that htmx redraws keeps it.
(function () {
  "use strict";

  function reveal() {
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
      button.textContent = button.dataset.copied || "Copied";
    });
  });
})();
