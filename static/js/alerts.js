// Alerts (pairing app, docs §6): when a pairing starts a match, a challenge comes or it becomes
// the player's move while the tab is hidden, say so in the tab title, and, as the player chose on
// the settings page (/pair/alerts/, read from the "pairing-alerts" JSON), with a browser
// notification and a short sound. Permission for notifications is asked only after a click (the
// settings checkbox). window.durakAlert(text) is what pairing.js calls.
(function () {
  "use strict";
  var settings = { browser: false, sound: false };
  var node = document.getElementById("pairing-alerts");
  if (node) { try { settings = JSON.parse(node.textContent); } catch (error) { /* defaults */ } }
  var plainTitle = null;
  var audio = null;

  function beep() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    try {
      audio = audio || new Context();
      var now = audio.currentTime;
      [660, 880].forEach(function (pitch, i) {
        var tone = audio.createOscillator();
        var gain = audio.createGain();
        tone.frequency.value = pitch;
        gain.gain.setValueAtTime(0.0001, now + i * 0.16);
        gain.gain.exponentialRampToValueAtTime(0.2, now + i * 0.16 + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.16 + 0.15);
        tone.connect(gain).connect(audio.destination);
        tone.start(now + i * 0.16);
        tone.stop(now + i * 0.16 + 0.16);
      });
    } catch (error) { /* no sound is no harm */ }
  }

  function notify(text) {
    if (!settings.browser || !("Notification" in window) || Notification.permission !== "granted") return;
    try { new Notification(text, { tag: "durak", icon: "/static/img/favicon.svg" }); } catch (error) { /* some browsers need a service worker */ }
  }

  function markTitle(text) {
    if (plainTitle === null) plainTitle = document.title;
    document.title = "● " + text + " · " + plainTitle;
  }

  document.addEventListener("visibilitychange", function () {
    if (!document.hidden && plainTitle !== null) { document.title = plainTitle; plainTitle = null; }
  });

  // options.title: false where the page keeps its own title (the match page's "your move").
  window.durakAlert = function (text, options) {
    options = options || {};
    if (document.hidden || options.always) {
      if (options.title !== false && document.hidden) markTitle(text);
      notify(text);
    }
    if (settings.sound && (document.hidden || options.always)) beep();
    document.documentElement.dataset.lastAlert = text;
  };

  // The match page: its own script writes the title; the sound and notification are ours.
  var wasMine = null;
  function watchTurn() {
    var status = document.getElementById("match-status");
    var words = document.getElementById("pairing-notices");
    if (!status || !words) return;
    var mine = status.dataset.yourMove === "1";
    if (mine && wasMine === false && document.hidden) {
      window.durakAlert(words.dataset.wordsYourTurn, { title: false });
    }
    wasMine = mine;
  }
  document.addEventListener("htmx:wsAfterMessage", watchTurn);
  document.addEventListener("DOMContentLoaded", watchTurn);

  // The settings page: ask for permission on the click that ticks the box, and let them try.
  document.addEventListener("change", function (event) {
    var box = event.target;
    if (!box.closest || !box.closest("[data-alerts-form]") || box.name !== "browser" || !box.checked) return;
    if (!("Notification" in window)) return;
    Notification.requestPermission().then(function (answer) {
      var note = document.querySelector("[data-alerts-denied]");
      if (note) note.hidden = answer !== "denied";
      settings.browser = answer === "granted";
    });
  });
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-alerts-try]");
    if (!button) return;
    var form = button.closest("form");
    if (form.elements.sound.checked) beep();
    if (form.elements.browser.checked) { settings.browser = true; notify(document.title); }
  });
})();
