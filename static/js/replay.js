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
