// The table chat (templates/games/_chat.html, play.chat.consumers). It opens the chat socket
// named by #chat-box's data-chat-socket, applies each frame's fragments by their ids (a
// hx-swap-oob="beforeend" fragment appends its children, any other replaces its namesake), sends
// every form marked data-chat-send as JSON of its fields, keeps the newest line in sight and
// reconnects after a drop (the server then sends the room again).
(function () {
  "use strict";
  var box = document.getElementById("chat-box");
  if (!box) return;
  var scheme = location.protocol === "https:" ? "wss://" : "ws://";
  var url = scheme + location.host + box.getAttribute("data-chat-socket");
  var socket = null;
  var delay = 1000;

  function apply(html) {
    var template = document.createElement("template");
    template.innerHTML = html;
    Array.from(template.content.children).forEach(function (node) {
      var target = node.id ? document.getElementById(node.id) : null;
      if (!target) return;
      if (node.getAttribute("hx-swap-oob") === "beforeend") {
        while (node.firstChild) target.appendChild(node.firstChild);
      } else {
        node.removeAttribute("hx-swap-oob");
        target.replaceWith(node);
      }
    });
    var lines = document.getElementById("chat-lines");
    if (lines) lines.scrollTop = lines.scrollHeight;
  }

  function connect() {
    socket = new WebSocket(url);
    socket.onopen = function () { delay = 1000; };
    socket.onmessage = function (message) { apply(String(message.data)); };
    socket.onclose = function (event) {
      if (event.code === 4404) return;  // no such match, or not one this reader may watch
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 30000);
    };
  }

  box.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-chat-send")) return;
    event.preventDefault();
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    var frame = {};
    new FormData(form).forEach(function (value, key) { frame[key] = String(value); });
    socket.send(JSON.stringify(frame));
    var input = form.querySelector("input[name=text]");
    if (input) input.value = "";
  });

  // A mute made while the page is open arrives on the personal socket (static/js/me.js): the
  // socket is opened again, and the panel it sends says until when.
  document.addEventListener("durak:me", function (event) {
    if (event.detail && event.detail.kind === "chat.muted" && socket) socket.close(4000);
  });

  connect();
})();
