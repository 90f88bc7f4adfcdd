// The table chat (templates/games/_chat.html, games.chat.consumers): keeps the newest line in
// sight and empties the text field once its line went out. Everything else is htmx's ws extension.
(function () {
  "use strict";
  function scrollDown() {
    var lines = document.getElementById("chat-lines");
    if (lines) lines.scrollTop = lines.scrollHeight;
  }
  document.addEventListener("htmx:wsAfterMessage", scrollDown);
  document.addEventListener("htmx:wsAfterSend", function (event) {
    var form = event.target && event.target.closest ? event.target.closest("#chat-say") : null;
    if (!form) return;
    var input = form.querySelector("input[name=text]");
    if (input) input.value = "";
  });
})();
