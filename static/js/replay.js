// The replay's keyboard: ← / → step back and forth, Home / End jump to the deal / the end.
// The buttons are links (with htmx attributes) in the server-rendered #replay fragment, so this
// only clicks them; without script they still work as plain links.
(function () {
  "use strict";
  var keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (target && (target.isContentEditable || /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName))) return;
    var which = keys[event.key];
    if (!which) return;
    var link = document.querySelector('#replay [data-replay="' + which + '"]');
    if (!link) return;
    event.preventDefault();
    link.click();
  });
})();

// "Copy position": the step's position (docs/position.md) to the clipboard. The clipboard API
// needs a secure context; elsewhere the text is selected and copied the old way.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("#replay [data-copy]");
    if (!button) return;
    var field = document.querySelector(button.getAttribute("data-copy"));
    var status = document.querySelector("#replay .replay__copied");
    if (!field) return;
    function done() { if (status) status.textContent = button.getAttribute("data-copied") || ""; }
    function fallback() {
      field.focus();
      field.select();
      if (document.execCommand("copy")) done();
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(done, fallback);
    } else {
      fallback();
    }
  });
})();
