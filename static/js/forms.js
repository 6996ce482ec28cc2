/* A form sent back with errors: the focus goes to them, and the page's title says so.
   A screen reader then reads the errors at once instead of the top of the page; a
   keyboard user starts from there.  The error summary first (the new-table form's
   #form-errors), else a form's own errors (a wrong log-in), else the first field
   marked invalid. */
(function () {
  "use strict";

  document.addEventListener("DOMContentLoaded", function () {
    var main = document.getElementById("main");
    if (!main) return;
    var target =
      document.getElementById("form-errors") ||
      main.querySelector(".errorlist.nonfield") ||
      main.querySelector("form [aria-invalid=true]");
    if (!target) return;
    if (!target.matches("input, select, textarea, button, a[href]") && !target.hasAttribute("tabindex")) {
      target.setAttribute("tabindex", "-1");
    }
    target.focus();
    var word = document.body.dataset.errorWord;
    if (word && document.title.indexOf(word) !== 0) {
      document.title = word + " " + document.title;  // "Error:", "Erreur :" as translated
    }
  });
})();
