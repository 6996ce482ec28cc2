// The board: once a chat message was sent and the board redrawn, empty the message box
// (it is kept across the board's redraws, hx-preserve, so that a poll never wipes what
// is being typed).  A refused message stays in the box, with the reason above.
document.addEventListener("htmx:afterSettle", function (event) {
  var config = event.detail.requestConfig;
  if (!config || !config.elt || config.elt.id !== "chat-form") {
    return;
  }
  var box = document.getElementById("chat-text");
  if (box && event.detail.successful !== false && !document.querySelector("#board .flash--error")) {
    box.value = "";
  }
});
