/* The small glue of live play. The server renders everything (htmx + its ws extension swap the
   fragments in); this script only adds what a page cannot do by itself:
   - choosing a card, then its target (which attack card to cover) or the action to play it as;
   - the turn countdown, the "your move" signal in the tab title;
   - keyboard shortcuts (arrows move along the hand, T take, P pass, Esc clears the choice);
   - following the server's data-redirect (a match dealt at the table, "play again");
   - showing only the options of the chosen variant on the new-table form.
   Every move is sent as {"action": "...", "version": N} through the #move-form (ws-send), so
   the socket and the POST fallback reach the same service. */
(function () {
  "use strict";

  var selected = [];
  var timerHandle = null;
  var baseTitle = document.title;

  function $(selector, root) { return (root || document).querySelector(selector); }
  function $all(selector, root) { return Array.prototype.slice.call((root || document).querySelectorAll(selector)); }

  function legalActions() {
    // [{action: "cover 7S>6S", label, kind: "cover", cards: ["7S"], target: "6S"}, ...]: the
    // engine's structured moves, so nothing here parses notation.
    var form = $("#move-form");
    if (!form || !form.dataset.legal) { return []; }
    try { return JSON.parse(form.dataset.legal); } catch (e) { return []; }
  }

  function isPlacement(move) { return move.kind === "cover" || move.kind === "beat"; }

  function sameSet(a, b) {
    if (a.length !== b.length) { return false; }
    var sortedA = a.slice().sort(), sortedB = b.slice().sort();
    return sortedA.every(function (card, i) { return card === sortedB[i]; });
  }

  function sendMove(action) {
    var form = $("#move-form");
    if (!form || connectionLost()) { return; }
    form.elements.action.value = action;
    selected = [];
    if (form.requestSubmit) { form.requestSubmit(); } else { form.submit(); }
  }

  /* --- choosing cards ------------------------------------------------------------------------ */

  function refreshChoice() {
    var legal = legalActions();
    $all(".hand__card").forEach(function (button) {
      var on = selected.indexOf(button.dataset.card) >= 0;
      if (!button.disabled) { button.setAttribute("aria-pressed", on ? "true" : "false"); }
    });
    // Targets on the table: pressed when the chosen card may cover (or beat) them.
    $all(".pair__target").forEach(function (target) {
      var ok = selected.length === 1 && legal.some(function (move) {
        return move.kind === "cover" && move.cards[0] === selected[0] && move.target === target.dataset.target;
      });
      target.setAttribute("aria-pressed", ok ? "true" : "false");
    });
    var box = $("#move-choice");
    if (!box) { return; }
    box.textContent = "";
    if (!selected.length) { return; }
    legal.forEach(function (move) {
      if (isPlacement(move) || !sameSet(move.cards, selected)) { return; }
      var button = document.createElement("button");
      button.type = "button";
      button.className = "table-action table-action--primary";
      button.dataset.action = move.action;
      button.textContent = move.label;
      box.appendChild(button);
    });
  }

  function toggleCard(code) {
    var legal = legalActions();
    var i = selected.indexOf(code);
    if (i >= 0) {
      selected.splice(i, 1);
    } else {
      selected.push(code);
      // Keep only choices that some legal action still allows (e.g. cards of one rank).
      var fits = legal.some(function (move) {
        return selected.every(function (c) { return move.cards.indexOf(c) >= 0; });
      });
      if (!fits) { selected = [code]; }
    }
    refreshChoice();
  }

  function chooseTarget(target) {
    var legal = legalActions();
    var candidates = legal.filter(function (move) {
      return isPlacement(move) && move.target === target &&
        (move.kind === "beat" || selected.length === 0 || move.cards[0] === selected[0]);
    });
    if (candidates.length === 1) {
      sendMove(candidates[0].action);
    } else if (candidates.length > 1) {
      var note = $("#match-error");
      if (note && note.dataset.chooseFirst) { note.textContent = note.dataset.chooseFirst; }
      // Several cards could cover it: highlight them by choosing nothing and letting the player pick.
    }
  }

  document.addEventListener("click", function (event) {
    var el = event.target.closest ? event.target : event.target.parentElement;
    var actionButton = el.closest("[data-action]");
    if (actionButton && $("#move-form")) {
      event.preventDefault();
      sendMove(actionButton.dataset.action);
      return;
    }
    var card = el.closest(".hand__card");
    if (card && !card.disabled) { toggleCard(card.dataset.card); return; }
    var target = el.closest(".pair__target");
    if (target) { chooseTarget(target.dataset.target); }
  });

  document.addEventListener("dblclick", function (event) {
    var card = event.target.closest && event.target.closest(".hand__card");
    if (!card || card.disabled) { return; }
    var plays = legalActions().filter(function (move) {
      return !isPlacement(move) && sameSet(move.cards, [card.dataset.card]);
    });
    if (plays.length === 1) { sendMove(plays[0].action); }
  });

  /* --- keyboard ------------------------------------------------------------------------------ */

  document.addEventListener("keydown", function (event) {
    var tag = (event.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "select" || tag === "textarea" || event.ctrlKey || event.metaKey || event.altKey) { return; }
    if (event.key === "Escape") { selected = []; refreshChoice(); return; }
    if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
      var cards = $all(".hand__card:not([disabled]), .pair__target");
      var at = cards.indexOf(document.activeElement);
      if (at < 0 && !cards.length) { return; }
      var next = at < 0 ? 0 : (at + (event.key === "ArrowRight" ? 1 : cards.length - 1)) % cards.length;
      cards[next].focus();
      event.preventDefault();
      return;
    }
    var key = event.key.toLowerCase();
    var shortcut = $("[data-key='" + key + "']");
    if (shortcut && (key === "t" || key === "p")) { sendMove(shortcut.dataset.action); }
  });

  /* --- the connection ------------------------------------------------------------------------
     When the socket closes or the browser goes offline the page says so at once and holds input
     (the felt is inert): a move sent now would queue with a stale version. When the browser is
     back online the socket reconnects at once instead of waiting out its back-off; the server
     sends the full view to a new socket, and its first message lifts the hold. */

  var socketWrapper = null;
  var liveSocket = null;
  var awaitingFresh = false;

  function connectionLost() {
    var game = $("#match");
    return !!game && game.dataset.connection === "lost";
  }

  function setConnection(ok) {
    var game = $("#match");
    if (!game) { return; }
    game.dataset.connection = ok ? "open" : "lost";
    var felt = $(".felt", game);
    if (felt) { felt.inert = !ok; }
    var note = $("#match-connection");
    if (note) { note.hidden = ok; }
    if (!ok && timerHandle) { clearInterval(timerHandle); timerHandle = null; }
  }

  document.addEventListener("htmx:wsOpen", function (event) {
    socketWrapper = event.detail.socketWrapper;
    liveSocket = event.detail.event && event.detail.event.target;
    awaitingFresh = true;
  });
  document.addEventListener("htmx:wsClose", function (event) {
    var closed = event.detail.event && event.detail.event.target;
    if (!liveSocket || closed === liveSocket) { setConnection(false); }
  });
  document.addEventListener("htmx:wsError", function () { setConnection(false); });
  window.addEventListener("offline", function () { setConnection(false); });
  window.addEventListener("online", function () {
    if (socketWrapper) { socketWrapper.reconnect(); }
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    if (awaitingFresh) { awaitingFresh = false; setConnection(true); }
    var game = $("#match");
    if (game) { game.dataset.synced = "1"; }  // the socket's first full view has arrived
  });

  /* --- the hand's order: the engine's (by rank, trumps last) or grouped by suit ------------- */

  var SORT_KEY = "durak.hand.bySuit";

  function bySuitWanted() {
    try { return window.localStorage.getItem(SORT_KEY) === "1"; } catch (e) { return false; }
  }

  function suitGroup(code, trump, suits) {
    // Non-trump suits in the engine's suit order (the hand's data-suits), then trumps, then the jokers.
    if (code === "RJ" || code === "BJ") { return 6; }
    var suit = code.slice(-1);
    return suit === trump ? 5 : suits.indexOf(suit);
  }

  function sortHand() {
    var hand = $("#match-hand");
    var toggle = $("#hand-sort");
    var on = bySuitWanted();
    if (toggle) { toggle.setAttribute("aria-pressed", on ? "true" : "false"); }
    if (!hand) { return; }
    var cards = $all(".hand__card", hand);
    if (!cards.length) { return; }
    if (!hand.dataset.engineOrder) {
      hand.dataset.engineOrder = cards.map(function (c) { return c.dataset.card; }).join(" ");
    }
    var engine = hand.dataset.engineOrder.split(" ");
    var trump = hand.dataset.trump || "";
    var suits = hand.dataset.suits || "";
    var ordered = cards.slice().sort(function (a, b) {
      var ia = engine.indexOf(a.dataset.card), ib = engine.indexOf(b.dataset.card);
      if (on) {
        var ga = suitGroup(a.dataset.card, trump, suits), gb = suitGroup(b.dataset.card, trump, suits);
        if (ga !== gb) { return ga - gb; }
      }
      return ia - ib;  // the engine's order within a suit is by rank
    });
    ordered.forEach(function (card) { hand.appendChild(card); });
    hand.dataset.order = on ? "suit" : "rank";
  }

  document.addEventListener("click", function (event) {
    var toggle = event.target.closest && event.target.closest("#hand-sort");
    if (!toggle) { return; }
    try { window.localStorage.setItem(SORT_KEY, bySuitWanted() ? "0" : "1"); } catch (e) { /* private mode */ }
    sortHand();
  });

  /* --- sound: a short chime when it becomes your turn (off unless switched on, remembered) --- */

  var SOUND_KEY = "durak.sound";
  var wasMyMove = null;

  function soundWanted() {
    try { return window.localStorage.getItem(SOUND_KEY) === "1"; } catch (e) { return false; }
  }

  function refreshSound() {
    var toggle = $("#sound-toggle");
    if (toggle) { toggle.setAttribute("aria-pressed", soundWanted() ? "true" : "false"); }
    var status = $("#match-status");
    if (!status) { return; }
    var mine = status.dataset.yourMove === "1";
    if (mine && wasMyMove === false && soundWanted() && toggle) {
      var root = document.documentElement;
      root.dataset.turnSounds = String(Number(root.dataset.turnSounds || 0) + 1);
      try {
        var played = new Audio(toggle.dataset.sound).play();
        if (played && played.catch) { played.catch(function () { /* no audio device */ }); }
      } catch (e) { /* no audio */ }
    }
    wasMyMove = mine;
  }

  document.addEventListener("click", function (event) {
    var toggle = event.target.closest && event.target.closest("#sound-toggle");
    if (!toggle) { return; }
    try { window.localStorage.setItem(SOUND_KEY, soundWanted() ? "0" : "1"); } catch (e) { /* private mode */ }
    refreshSound();
  });

  /* --- motion: mark what a push brought, for table.css to move (only without reduced motion) - */

  function cardOf(svg) {
    var use = svg.querySelector("use");
    var href = (use && use.getAttribute("href")) || "";
    var at = href.indexOf("#card-");
    return at < 0 ? "" : href.slice(at + 6);
  }

  function tableCards() {
    var seen = {};
    $all("#match-table .bout .playing-card").forEach(function (svg) { seen[cardOf(svg)] = true; });
    return seen;
  }

  function handCards() {
    var seen = {};
    $all("#match-hand .hand__card").forEach(function (card) { seen[card.dataset.card] = true; });
    return seen;
  }

  function discardCount() {
    var pile = $("#match-table .discard");
    return pile ? Number(pile.dataset.count || 0) : 0;
  }

  var before = null;

  function remember() {
    before = {hand: handCards(), table: tableCards(), discard: discardCount()};
  }

  function markMoves() {
    if (!before) { return; }
    var was = before;
    before = null;
    $all("#match-hand .hand__card").forEach(function (card) {
      if (!was.hand[card.dataset.card]) { card.classList.add("card-arrives"); }
    });
    $all("#match-table .bout .playing-card").forEach(function (svg) {
      if (!was.table[cardOf(svg)]) { svg.classList.add("card-played"); }
    });
    var pile = $("#match-table .discard");
    if (pile && discardCount() > was.discard) { pile.classList.add("pile-receives"); }
  }

  document.addEventListener("htmx:wsBeforeMessage", remember);
  document.addEventListener("htmx:beforeSwap", remember);

  function markDeal() {
    // The first sight of a match just dealt: the hand is dealt in.
    var status = $("#match-status");
    if (status && status.dataset.version === "0") {
      $all("#match-hand .hand__card").forEach(function (card) { card.classList.add("card-arrives"); });
    }
  }

  /* --- countdown, title, redirects --------------------------------------------------------- */

  function startTimer() {
    if (timerHandle) { clearInterval(timerHandle); timerHandle = null; }
    var bar = $("progress.timer[data-remaining-ms]");
    if (!bar) { return; }
    var end = performance.now() + Number(bar.dataset.remainingMs);
    var seconds = $(".timer__n");
    function tick() {
      var left = Math.max(0, (end - performance.now()) / 1000);
      bar.value = left;
      bar.textContent = String(Math.ceil(left));
      if (seconds) { seconds.textContent = String(Math.ceil(left)); }
      bar.classList.toggle("timer--urgent", left <= 5);
      if (left <= 0 && timerHandle) { clearInterval(timerHandle); timerHandle = null; }
    }
    tick();
    timerHandle = setInterval(tick, 250);
  }

  function refreshTitle() {
    var status = $("#match-status");
    var game = $("#match");
    if (!status || !game) { return; }
    var mine = status.dataset.yourMove === "1";
    document.title = mine ? "● " + game.dataset.yourMoveTitle + " · " + baseTitle : baseTitle;
  }

  /* Whether this page was reached with the Back (or Forward) button: then it never sends the
     player on by itself (Back from a match would land on the match again). */
  function cameBack() {
    var entries = window.performance && performance.getEntriesByType ? performance.getEntriesByType("navigation") : [];
    return entries.length > 0 && entries[0].type === "back_forward";
  }
  var returned = cameBack();

  /* A table page reached by Back while the player's game runs goes on to its data-back (the
     lobby), so Back from the match leaves it. */
  function goBackOn() {
    var link = $("[data-redirect]");
    if (link && link.dataset.back && link.dataset.redirect !== window.location.pathname) {
      window.location.replace(link.dataset.back);
    }
  }
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) { returned = true; goBackOn(); }  // restored from the back-forward cache
  });

  /* Go where the server points (a match dealt at this table, the next game), unless the player
     came back here: then Back from the match was meant to leave it. */
  function followRedirect() {
    if (returned) { goBackOn(); return; }
    var link = $("[data-redirect]");
    if (link && link.dataset.redirect !== window.location.pathname) {
      window.location.assign(link.dataset.redirect);
    }
  }

  function keepValidSelection() {
    var legal = legalActions();
    selected = selected.filter(function (code) {
      return legal.some(function (move) { return move.cards.indexOf(code) >= 0; });
    });
  }

  function scrollLog() {
    var list = $("#match-log-list");
    if (list) { list.scrollTop = list.scrollHeight; }
  }

  function refreshAll() {
    markMoves();
    sortHand();
    refreshSound();
    scrollLog();
    keepValidSelection();
    refreshChoice();
    startTimer();
    refreshTitle();
    followRedirect();
  }

  /* --- the new-table form: only the chosen variant's options --------------------------------- */

  function refreshVariantFields() {
    var form = $("[data-variant-form]");
    if (!form) { return; }
    var variant = form.elements.variant.value;
    $all("[data-variants]", form).forEach(function (field) {
      field.hidden = field.dataset.variants.split(" ").indexOf(variant) < 0;
    });
  }

  document.addEventListener("change", function (event) {
    if (event.target.name === "variant") { refreshVariantFields(); }
  });
  document.addEventListener("htmx:wsAfterMessage", refreshAll);
  document.addEventListener("htmx:afterSettle", refreshAll);
  document.addEventListener("DOMContentLoaded", function () {
    markDeal();
    refreshAll();
    refreshVariantFields();
  });
})();
