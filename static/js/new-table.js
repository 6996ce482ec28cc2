/* The new-table form: the creator's own seat offers only the seats of the number of players
   chosen (the others are disabled, so the keyboard's End stops at the last seat); a
   seat left out by fewer players moves to the last one.  Without this script the
   server refuses such a seat and says why. */
(function () {
  "use strict";

  function fit() {
    var seat = document.getElementById("id_your_seat");
    var chosen = document.querySelector("input[name=players]:checked");
    if (!seat || !chosen) {
      return;
    }
    var players = parseInt(chosen.value, 10);
    if (isNaN(players)) {
      return;
    }
    for (var i = 0; i < seat.options.length; i++) {
      seat.options[i].disabled = parseInt(seat.options[i].value, 10) > players;
    }
    if (parseInt(seat.value, 10) > players) {
      seat.value = String(players);
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("input[name=players]").forEach(function (radio) {
      radio.addEventListener("change", fit);
    });
    fit();
  });
})();
