// The personal socket (/ws/me/, people.consumers): open on every page of a signed-in player, so
// the club knows she is online and can reach her wherever she is. Each frame from the server is
// re-dispatched as a "durak:me" event on document (event.detail is the frame), for the scripts
// of challenges, pairings and notifications to listen to. It beats every 25 s and reconnects.
(function () {
  "use strict";
  if (!document.body || document.body.getAttribute("data-signed-in") !== "true") return;
  var scheme = location.protocol === "https:" ? "wss://" : "ws://";
  var delay = 1000;
  function connect() {
    var socket = new WebSocket(scheme + location.host + "/ws/me/");
    var beat = null;
    socket.onopen = function () {
      delay = 1000;
      beat = setInterval(function () { socket.send("beat"); }, 25000);
    };
    socket.onmessage = function (message) {
      var detail;
      try { detail = JSON.parse(message.data); } catch (error) { return; }
      document.dispatchEvent(new CustomEvent("durak:me", { detail: detail }));
    };
    socket.onclose = function (event) {
      if (beat) clearInterval(beat);
      if (event.code === 4401) return;  // signed out: nobody to reach
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 30000);
    };
  }
  connect();
})();
