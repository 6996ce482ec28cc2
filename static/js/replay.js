/* Replay: step through a finished game with the keyboard.
   ← goes to the previous move, → to the next one.  The keys follow the page's own
   links (data-replay-step="prev" / "next"), so without JavaScript the links do the
   same.  Keys typed into a form field, or with a modifier held, are left alone. */
(function () {
  "use strict";

  var STEPS = { ArrowLeft: "prev", ArrowRight: "next" };
  // A step loads the next page: that page then puts the focus on its move's words,
  // which a screen reader reads, instead of the top of the page.
  var STEPPED = "hs-replay-stepped";

  function stepping() {
    try {
      window.sessionStorage.setItem(STEPPED, "1");
    } catch (error) { /* storage off: the page opens at its top, as without script */ }
  }

  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[data-replay-step], .replay__list a");
    if (link) stepping();
  });
  document.addEventListener("submit", function (event) {
    if (event.target.closest && event.target.closest(".replay__jump")) stepping();
  });
  try {
    if (window.sessionStorage.getItem(STEPPED)) {
      window.sessionStorage.removeItem(STEPPED);
      var words = document.getElementById("replay-move-text");
      if (words) words.focus();
    }
  } catch (error) { /* storage off */ }

  document.addEventListener("keydown", function (event) {
    var step = STEPS[event.key];
    if (!step || event.defaultPrevented) return;
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var target = event.target;
    if (target && target.closest && target.closest("input, textarea, select, [contenteditable]")) return;
    var link = document.querySelector('a[data-replay-step="' + step + '"]');
    if (!link) return;
    event.preventDefault();
    stepping();
    window.location.assign(link.href);
  });
})();

/* Keep the current move in sight in the scrolling list of moves (the list only, not
   the page). */
(function () {
  "use strict";
  var current = document.querySelector(".replay__list .is-current");
  if (!current) return;
  var list = current.parentElement;
  var top = current.offsetTop; // the list is positioned (profile.css)
  if (top < list.scrollTop || top + current.offsetHeight > list.scrollTop + list.clientHeight) {
    list.scrollTop = Math.max(0, top - list.clientHeight / 2);
  }
})();
