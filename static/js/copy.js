// A button that copies a field's text where the browser allows it (a new API token):
// <button data-copy-from="field-id" data-copied="Copied" hidden>.  Without a clipboard
// the button stays hidden and the field, read-only, is selected whole when focused.
(function () {
  "use strict";

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-copy-from]").forEach(function (button) {
      var field = document.getElementById(button.dataset.copyFrom);
      if (!field) {
        return;
      }
      field.addEventListener("focus", function () {
        field.select();
      });
      if (!navigator.clipboard) {
        return;
      }
      button.hidden = false;
      button.addEventListener("click", function () {
        navigator.clipboard.writeText(field.value).then(function () {
          button.textContent = button.dataset.copied || "Copied";
        });
      });
    });
  });
})();
