// Pairing on every page (pairing app): what the personal socket (me.js's "durak:me" events)
// brings. A match that started (quick pairing, an accepted challenge, a rematch) takes the
// player there at once; a challenge shows a notice with Accept and Decline until it is answered,
// withdrawn or expired; a rematch offer links to its match. Words come from #pairing-notices,
// rendered in the page's language; challenges still open when a page loads are shown too. Also: the grid's "fill with bots" appears once its seek waited.
(function () {
  "use strict";
  var box = document.getElementById("pairing-notices");

  function words(name) { return box ? box.dataset[name] || "" : ""; }
  function fill(text, values) {
    return text.replace(/%\((\w+)\)s/g, function (all, key) { return values[key] === undefined ? all : String(values[key]); });
  }
  function csrf() {
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"]; } catch (error) { return ""; }
  }
  function postForm(action, label, quiet) {
    var form = document.createElement("form");
    form.method = "post";
    form.action = action;
    var token = document.createElement("input");
    token.type = "hidden"; token.name = "csrfmiddlewaretoken"; token.value = csrf();
    var next = document.createElement("input");
    next.type = "hidden"; next.name = "next"; next.value = location.pathname;
    var button = document.createElement("button");
    button.type = "submit"; button.textContent = label;
    button.className = "button-small" + (quiet ? " button-quiet" : "");
    form.append(token, next, button);
    return form;
  }
  function notice(id, text) {
    var old = id && document.getElementById(id);
    if (old) old.remove();
    var item = document.createElement("div");
    item.className = "pairing-notice";
    item.setAttribute("role", "alert");
    if (id) item.id = id;
    var line = document.createElement("p");
    line.textContent = text;
    item.append(line);
    if (box) box.append(item);
    return item;
  }
  function drop(id) { var node = document.getElementById(id); if (node) node.remove(); }

  function describe(detail) {
    return [
      words("variant" + detail.variant.charAt(0).toUpperCase() + detail.variant.slice(1)) || detail.variant,
      fill(words("wordsCards"), { deck: detail.deck }),
      fill(words("wordsSeconds"), { seconds: detail.turn_seconds }),
      detail.rated ? words("wordsRated") : words("wordsCasual")
    ].join(" · ");
  }

  function handle(detail, quiet) {
    var alert = quiet ? function () {} : (window.durakAlert || function () {});
    if (detail.kind === "match.started" && typeof detail.url === "string" && detail.url.charAt(0) === "/") {
      alert(words("wordsStarted"));
      if (location.pathname !== detail.url) location.assign(detail.url);
    } else if (detail.kind === "challenge.received") {
      var text = fill(words("wordsChallenge"), { name: detail.from });
      var item = notice("challenge-" + detail.id, text);
      item.dataset.challenge = detail.id;
      var what = document.createElement("p");
      what.className = "pairing-notice__what";
      what.textContent = describe(detail);
      var actions = document.createElement("div");
      actions.className = "actions";
      actions.append(
        postForm(detail.url + "accept/", words("wordsAccept"), false),
        postForm(detail.url + "decline/", words("wordsDecline"), true)
      );
      item.append(what, actions);
      setTimeout(function () { item.remove(); }, Math.max(1, Number(detail.expires_in) || 90) * 1000);
      alert(text, { always: true });
    } else if (detail.kind === "challenge.gone") {
      drop("challenge-" + detail.id);
    } else if (detail.kind === "challenge.declined") {
      var declined = notice(null, fill(words("wordsDeclined"), { name: detail.by }));
      setTimeout(function () { declined.remove(); }, 8000);
    } else if (detail.kind === "rematch.offered" && typeof detail.url === "string" && detail.url.charAt(0) === "/") {
      var offer = fill(words("wordsRematch"), { name: detail.from });
      var note = notice("rematch-" + detail.match, offer);
      if (location.pathname !== detail.url) {
        var link = document.createElement("a");
        link.href = detail.url; link.className = "button button-small"; link.textContent = words("wordsOpen");
        note.append(link);
      }
      alert(offer, { always: true });
    }
  }
  document.addEventListener("durak:me", function (event) { handle(event.detail || {}, false); });
  // Challenges that came before this page opened (pairing_incoming), shown without a sound.
  document.addEventListener("DOMContentLoaded", function () {
    var node = document.getElementById("pairing-incoming");
    var waiting = [];
    try { waiting = node ? JSON.parse(node.textContent) : []; } catch (error) { waiting = []; }
    waiting.forEach(function (detail) { handle(detail, true); });
  });

  function revealBots() {
    document.querySelectorAll("form[data-reveal-in-ms][hidden]").forEach(function (form) {
      if (form.dataset.timer) return;
      form.dataset.timer = "1";
      setTimeout(function () { form.hidden = false; }, Number(form.dataset.revealInMs) || 0);
    });
  }
  document.addEventListener("DOMContentLoaded", revealBots);
  document.addEventListener("htmx:afterSettle", revealBots);
  document.addEventListener("htmx:wsAfterMessage", revealBots);
})();
