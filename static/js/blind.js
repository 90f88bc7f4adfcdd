/* Blind mode (docs/accessibility.md): the match page read aloud and played by keys. Runs only when
   the page holds the #blind panel (templates/games/_blind.html). Everything it says is read from
   the fragments this viewer's page already holds (the log's new lines, the status, the hand, the
   felt, the seats, the legal moves), so it can say nothing the table does not show. Cards are said
   by their full names (the card drawings' accessible names), not "10♥".
   - new log lines are said politely; "your move" and the clock's 30, 10 and 5 seconds assertively;
   - h, t, o, c, s, l read the hand, the table, the others, the clock, the status, the last event;
     m goes to the moves: a radio group whose chosen move is sent through #move-form, the same
     frame the page sends for a move made on the felt. In this mode t and p are not take and pass
     (they are in the list of moves), so this script's keys are handled before match.js's. */
(function () {
  "use strict";

  var panel = null;
  var heardLines = -1;
  var wasMyMove = null;
  var lastSaid = "";
  var legalShown = null;
  var clockTimers = [];
  var SUITS = {"♠": "S", "♣": "C", "♦": "D", "♥": "H"};

  function $(selector, root) { return (root || document).querySelector(selector); }
  function $all(selector, root) { return Array.prototype.slice.call((root || document).querySelectorAll(selector)); }

  function words(key, values) {
    var text = panel.dataset[key] || "";
    Object.keys(values || {}).forEach(function (name) { text = text.split("{" + name + "}").join(values[name]); });
    return text;
  }

  function counted(key, n) {
    // The panel holds the plural forms for 1, 2 and 5; the browser knows which one n takes.
    var form = new Intl.PluralRules(document.documentElement.lang || "en").select(n);
    var which = form === "one" ? "One" : form === "few" ? "Few" : "Many";
    return words(key + which, {n: String(n)});
  }

  /* --- cards by name ---------------------------------------------------------------------- */

  function cardCode(svg) {
    var use = svg.querySelector("use");
    var href = (use && use.getAttribute("href")) || "";
    var at = href.indexOf("#card-");
    return at < 0 ? "" : href.slice(at + 6);
  }

  function cardNames() {
    // Every face-up card on the page: its code and its accessible name.
    var names = {};
    $all("svg.playing-card").forEach(function (svg) {
      var code = cardCode(svg);
      if (code && code !== "back") { names[code] = svg.getAttribute("aria-label") || code; }
    });
    return names;
  }

  function byName(text) {
    // "Cover 10♥ with J♥" -> "Cover 10 of hearts with jack of hearts" (labels of cards on the page).
    var names = cardNames();
    return text.replace(/(10|[2-9JQKA])([♠♣♦♥])/g, function (label, rank, suit) {
      return names[rank + SUITS[suit]] || label;
    });
  }

  function spoken(node) {
    // A node's text with card spans and drawings said by name.
    var copy = node.cloneNode(true);
    $all(".card-text[title]", copy).forEach(function (span) { span.textContent = span.title; });
    $all("svg[aria-label]", copy).forEach(function (svg) {
      svg.replaceWith(document.createTextNode(" " + svg.getAttribute("aria-label") + " "));
    });
    return copy.textContent.replace(/\s+/g, " ").trim();
  }

  /* --- saying ----------------------------------------------------------------------------- */

  function say(text, urgent) {
    if (!text) { return; }
    var region = $(urgent ? "#blind-urgent" : "#blind-said");
    if (!urgent) { lastSaid = text; }
    // Emptied first, so the same words said twice are said again.
    region.textContent = "";
    window.setTimeout(function () { region.textContent = text; }, 50);
  }

  function handText() {
    var cards = $all("#match-hand .hand__card svg").map(function (svg) { return svg.getAttribute("aria-label"); });
    return cards.length ? words("sayHand", {list: cards.join(", ")}) : words("sayNoHand");
  }

  function tableItems() {
    var items = [];
    $all("#match-table .bout > li").forEach(function (li) {
      if (li.classList.contains("bout__empty")) { return; }
      var attack = $(".pair__attack svg", li), cover = $(".pair__cover svg", li);
      if (attack && !li.classList.contains("bout__drawn")) {
        var a = attack.getAttribute("aria-label");
        items.push(cover ? words("sayCovered", {attack: a, cover: cover.getAttribute("aria-label")}) : words("sayOpen", {attack: a}));
      } else {
        items.push(spoken(li));
      }
    });
    return items;
  }

  function trumpText() {
    var card = $("#match-table .stock__trump svg");
    if (card) { return words("sayTrump", {card: card.getAttribute("aria-label")}); }
    var status = $("#match-status .seat-badge--trump");
    return status ? spoken(status) + "." : "";
  }

  function tableText() {
    var items = tableItems();
    var piles = $all("#match-table .pile__count").map(spoken).join(", ");
    var bout = items.length ? words("sayTable", {list: items.join("; ")}) : words("sayNoTable");
    return [bout, trumpText(), piles].filter(Boolean).join(" ");
  }

  function playerItems() {
    return $all("#match-players .seat").map(function (seat) {
      var name = spoken($(".seat__name", seat));
      var count = Number(($(".seat__count", seat) || {}).textContent || 0);
      var badges = $all(".seat__badges .seat-badge", seat).map(spoken).join(", ");
      return name + ": " + counted("sayCards", count) + (badges ? " (" + badges + ")" : "");
    });
  }

  function statusText() {
    var status = $("#match-status .status__text");
    return status ? spoken(status) : "";
  }

  function secondsLeft() {
    var bar = $("#match-status progress.timer");
    return bar ? Math.ceil(Number(bar.value)) : null;
  }

  function clockText() {
    var left = secondsLeft();
    return left === null ? words("sayNoClock") : counted("saySeconds", left);
  }

  /* --- the lists and the moves -------------------------------------------------------------- */

  function fill(list, items) {
    list.textContent = "";
    items.forEach(function (text) {
      var li = document.createElement("li");
      li.textContent = text;
      list.appendChild(li);
    });
  }

  function legalActions() {
    var form = $("#move-form");
    if (!form || !form.dataset.legal) { return []; }
    try { return JSON.parse(form.dataset.legal); } catch (e) { return []; }
  }

  function refreshMoves() {
    var legal = legalActions();
    var key = JSON.stringify(legal.map(function (move) { return move.action; }));
    if (key === legalShown) { return; }
    legalShown = key;
    var list = $("#blind-move-list");
    var focused = panel.contains(document.activeElement) && $("#blind-moves").contains(document.activeElement);
    list.textContent = "";
    legal.forEach(function (move, i) {
      var label = document.createElement("label");
      label.className = "blind__move";
      var radio = document.createElement("input");
      radio.type = "radio";
      radio.name = "blind-action";
      radio.value = move.action;
      radio.checked = i === 0;
      label.appendChild(radio);
      label.appendChild(document.createTextNode(" " + byName(move.label)));
      list.appendChild(label);
    });
    if (!legal.length) {
      var none = document.createElement("p");
      none.textContent = words("sayNoMoves");
      list.appendChild(none);
    }
    $("#blind-play").disabled = !legal.length;
    if (focused) { goToMoves(); }
  }

  function goToMoves() {
    var first = $("#blind-move-list input:checked") || $("#blind-move-list input");
    (first || $("#blind-moves-title")).focus();
  }

  function sendChosen(event) {
    event.preventDefault();
    var chosen = $("#blind-move-list input:checked");
    var form = $("#move-form");
    var game = $("#match");
    if (!chosen || !form || (game && game.dataset.connection === "lost")) { return; }
    form.elements.action.value = chosen.value;
    if (form.requestSubmit) { form.requestSubmit(); } else { form.submit(); }
  }

  /* --- after every push: say what is new ---------------------------------------------------- */

  function sayNewLines() {
    var lines = $all("#match-log-list .movelog__item");
    if (heardLines < 0) {  // the page as loaded: its history is not said again
      heardLines = lines.length;
      return;
    }
    var fresh = lines.slice(heardLines).map(spoken);
    heardLines = lines.length;
    if (fresh.length) { say(fresh.join(". ")); }
  }

  function watchClock(mine) {
    clockTimers.forEach(window.clearTimeout);
    clockTimers = [];
    var bar = $("#match-status progress.timer[data-remaining-ms]");
    if (!mine || !bar) { return; }
    var left = Number(bar.dataset.remainingMs);
    [30, 10, 5].forEach(function (mark) {
      if (left > mark * 1000 + 500) {
        clockTimers.push(window.setTimeout(function () { say(counted("saySeconds", mark), true); }, left - mark * 1000));
      }
    });
  }

  function refresh() {
    if (!panel) { return; }
    sayNewLines();
    fill($("#blind-hand"), $all("#match-hand .hand__card svg").map(function (svg) { return svg.getAttribute("aria-label"); }));
    fill($("#blind-table"), tableItems().concat([trumpText()], $all("#match-table .pile__count").map(spoken)).filter(Boolean));
    fill($("#blind-players"), playerItems());
    refreshMoves();
    var status = $("#match-status");
    var mine = !!status && status.dataset.yourMove === "1";
    var yourMove = $("#match-status .status__text strong");
    if (mine && wasMyMove !== true && yourMove) { say(spoken(yourMove), true); }
    wasMyMove = mine;
    watchClock(mine);
    var result = $("#match-result:not([hidden]) .match-result__title");
    if (result && !panel.dataset.resultSaid) {
      panel.dataset.resultSaid = "1";
      say(spoken($("#match-result")));
    }
  }

  var KEYS = {
    h: function () { say(handText()); },
    t: function () { say(tableText()); },
    o: function () { say(playerItems().join(". ")); },
    c: function () { say(clockText()); },
    s: function () { say(statusText()); },
    l: function () { say(lastSaid); },
    m: function () { goToMoves(); }
  };

  // On the window and in the capture phase: before match.js's own keys (its t and p).
  window.addEventListener("keydown", function (event) {
    if (!panel || event.ctrlKey || event.metaKey || event.altKey) { return; }
    var tag = (event.target.tagName || "").toLowerCase();
    if (tag === "textarea" || (tag === "input" && event.target.type !== "radio")) { return; }
    var handler = KEYS[event.key.toLowerCase()];
    if (event.key.toLowerCase() === "p") { event.stopPropagation(); return; }
    if (!handler) { return; }
    event.preventDefault();
    event.stopPropagation();
    handler();
  }, true);

  document.addEventListener("DOMContentLoaded", function () {
    panel = $("#blind");
    if (!panel) { return; }
    $("#blind-moves").addEventListener("submit", sendChosen);
    refresh();
  });
  document.addEventListener("htmx:wsAfterMessage", refresh);
  document.addEventListener("htmx:afterSettle", refresh);
})();
