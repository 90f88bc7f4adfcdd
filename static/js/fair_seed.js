/* The player's part of a fair deal (docs/rules.md, "Fair deals").
 *
 * The table shows the commitment of its next deal (the SHA-256 of the server's secret seed).
 * This script (on every page) picks a random value for that commitment with
 * crypto.getRandomValues, keeps it in localStorage (so the player can find it in the game's
 * record afterwards) and sends it:
 *  - on its own, to the URL of an element marked data-seed-url (the table page of a seated
 *    player who has not sent one yet), when the page loads or a socket push draws one;
 *  - on its own, when the personal socket (me.js) says "deal.wanted": a full table waits a few
 *    seconds for this player's value (quick pairing, a challenge, a tournament's first game);
 *  - with a form marked data-seed-commitment (taking a seat, "play again"), as two hidden fields.
 * A value is sent once per browser: the commitments it went for (on its own or with a form) are
 * kept in localStorage, so neither this page's pushes, nor a reload, nor another tab sends it
 * again, whatever the answer was (a value no deal awaits, late or second, is answered 200 with
 * "awaited": false, never repeated). The request is sent with keepalive, so a page that navigates
 * away (to the table, to the match) does not cut it off.
 */
(function () {
  "use strict";

  function randomValue() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return b.toString(16).padStart(2, "0"); }).join("");
  }

  function valueFor(commitment) {
    var key = "durak-seed:" + commitment;
    var value = null;
    try { value = window.localStorage.getItem(key); } catch (e) { value = null; }
    if (!/^[0-9a-f]{32}$/.test(value || "")) {
      value = randomValue();
      try { window.localStorage.setItem(key, value); } catch (e) { /* private mode: still sent */ }
    }
    return value;
  }

  function csrfToken() {
    try { return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || ""; }
    catch (e) { return ""; }
  }

  var posted = {};  // this page's, for a browser without localStorage

  function wasSent(commitment) {
    if (posted[commitment]) { return true; }
    try { return window.localStorage.getItem("durak-seed-sent:" + commitment) !== null; } catch (e) { return false; }
  }

  function markSent(commitment) {
    posted[commitment] = true;
    try { window.localStorage.setItem("durak-seed-sent:" + commitment, "1"); } catch (e) { /* this page still knows */ }
  }

  function unmarkSent(commitment) {  // the request never reached the server: the next chance sends it
    delete posted[commitment];
    try { window.localStorage.removeItem("durak-seed-sent:" + commitment); } catch (e) { /* nothing kept */ }
  }

  function send(url, commitment) {
    if (!commitment || !url || url.charAt(0) !== "/" || wasSent(commitment)) { return; }
    markSent(commitment);
    var body = new FormData();
    body.append("seed_value", valueFor(commitment));
    body.append("seed_commitment", commitment);
    fetch(url, {
      method: "POST", body: body, credentials: "same-origin", keepalive: true,
      headers: { "X-CSRFToken": csrfToken() },
    }).catch(function () { unmarkSent(commitment); });
  }

  function sendPending(root) {
    var scope = root && root.querySelectorAll ? root : document;
    var marks = Array.prototype.slice.call(scope.querySelectorAll("[data-seed-url][data-seed-commitment]"));
    if (scope.matches && scope.matches("[data-seed-url][data-seed-commitment]")) { marks.push(scope); }
    marks.forEach(function (mark) {
      send(mark.getAttribute("data-seed-url"), mark.getAttribute("data-seed-commitment"));
    });
  }

  function hidden(form, name, value) {
    var input = form.querySelector('input[name="' + name + '"]');
    if (!input) {
      input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      form.appendChild(input);
    }
    input.value = value;
  }

  // Capture: runs before htmx reads the form's values on the same submit event.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var commitment = form && form.getAttribute && form.getAttribute("data-seed-commitment");
    if (!commitment || form.hasAttribute("data-seed-url")) { return; }
    hidden(form, "seed_value", valueFor(commitment));
    hidden(form, "seed_commitment", commitment);
    markSent(commitment);
  }, true);

  document.addEventListener("durak:me", function (event) {
    var detail = event.detail || {};
    if (detail.kind === "deal.wanted" && typeof detail.commitment === "string") { send(detail.url, detail.commitment); }
  });
  document.addEventListener("DOMContentLoaded", function () { sendPending(document); });
  document.addEventListener("htmx:load", function (event) { sendPending(event.detail && event.detail.elt); });
  document.addEventListener("htmx:oobAfterSwap", function (event) { sendPending(event.detail && event.detail.target); });
}());
