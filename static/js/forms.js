/* A form sent back with errors: the focus goes to them, and the page's title says so.
   A screen reader then reads the errors at once instead of the top of the page; a
   keyboard user starts from there.  The error summary first (the new-table form's
   #form-errors), else a form's own errors (a wrong log-in), else the first field
   marked invalid.  Without errors, what the last request made (a box marked
   data-takes-focus: a new API token) or else a message of what it did (the page's
   status box) takes the focus. */
(function () {
  "use strict";

  document.addEventListener("DOMContentLoaded", function () {
    var main = document.getElementById("main");
    if (!main) return;
    var target =
      document.getElementById("form-errors") ||
      main.querySelector(".errorlist.nonfield") ||
      main.querySelector("form [aria-invalid=true]");
    if (!target) {
      // What the last request did ("saved", "sent"): a status box drawn with the page
      // is not read out by itself, so it takes the focus (read, then Tab goes on).  Not
      // on a board, whose script reads it out and keeps the focus for the game.
      var said = main.querySelector("[data-takes-focus]") || main.querySelector(".messages");
      if (said && !document.getElementById("board")) {
        said.setAttribute("tabindex", "-1");
        said.focus();
      }
      return;
    }
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
