// An arena's page and the banner of its games (templates/tournaments/_arena_status.html,
// _banner_body.html): the clocks count down between pushes, and when the player's next game is
// dealt ([data-follow]), the page goes to it, once per game (a player who has been on their
// game's page, [data-seen-game], and comes back to the arena's page during it stays there).
(function () {
  "use strict";

  function pad(n) { return (n < 10 ? "0" : "") + n; }

  function clockText(ms) {
    var seconds = Math.max(0, Math.ceil(ms / 1000));
    var hours = Math.floor(seconds / 3600);
    var minutes = Math.floor((seconds % 3600) / 60);
    var rest = seconds % 60;
    return hours ? hours + ":" + pad(minutes) + ":" + pad(rest) : minutes + ":" + pad(rest);
  }

  function startClocks() {
    var now = performance.now();
    document.querySelectorAll("[data-ends-in-ms]").forEach(function (clock) {
      if (!clock.arenaEnd) { clock.arenaEnd = now + Number(clock.dataset.endsInMs); }
    });
  }

  function tick() {
    var now = performance.now();
    document.querySelectorAll("[data-ends-in-ms]").forEach(function (clock) {
      if (clock.arenaEnd) { clock.textContent = clockText(clock.arenaEnd - now); }
    });
  }

  function remember(id) {
    try { window.sessionStorage.setItem("arena-followed-" + id, "1"); } catch (error) { /* no storage */ }
  }

  function follow() {
    // A player on their own game's page has been there: the arena's page no longer sends them.
    document.querySelectorAll("[data-seen-game]").forEach(function (seen) { remember(seen.dataset.seenGame); });
    var next = document.querySelector("[data-follow]");
    if (!next) { return; }
    var key = "arena-followed-" + next.dataset.followId;
    try {
      if (window.sessionStorage.getItem(key)) { return; }
      window.sessionStorage.setItem(key, "1");
    } catch (error) {
      return; // without storage the page cannot tell a return from a first visit: stay
    }
    window.location.assign(next.dataset.follow);
  }

  function refresh() { startClocks(); tick(); follow(); }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", refresh);
  } else {
    refresh();
  }
  document.addEventListener("htmx:afterSettle", refresh);
  window.setInterval(tick, 1000);
})();
