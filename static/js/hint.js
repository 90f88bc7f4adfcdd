/* The first-game hint of the match page (templates/games/_first_game_hint.html): shown until
   the player says "Got it", then never again in this browser. */
(function () {
  "use strict";
  var KEY = "durak.firstHint";
  function remembered() {
    try { return window.localStorage.getItem(KEY) === "dismissed"; } catch (error) { return false; }
  }
  document.addEventListener("DOMContentLoaded", function () {
    var hint = document.querySelector("[data-first-hint]");
    if (!hint || remembered()) { return; }
    hint.hidden = false;
    hint.querySelector("[data-first-hint-close]").addEventListener("click", function () {
      hint.hidden = true;
      try { window.localStorage.setItem(KEY, "dismissed"); } catch (error) { /* private mode: hide for now */ }
    });
  });
})();
