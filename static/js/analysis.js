// The board editor's card chips: a click adds the card to the zone field last focused (the
// first hand at first), or takes it out when it is there already. Without script the fields
// are typed into.
(function () {
  "use strict";
  var target = null;
  document.addEventListener("focusin", function (event) {
    var field = event.target;
    if (field && field.closest && field.closest("[data-editor]") && field.tagName === "INPUT" && field.type === "text") target = field;
  });
  document.addEventListener("click", function (event) {
    var chip = event.target.closest && event.target.closest("[data-editor] [data-card]");
    if (!chip) return;
    var form = chip.closest("[data-editor]");
    var field = target && form.contains(target) ? target : form.querySelector("input[name=hand0]");
    var code = chip.getAttribute("data-card");
    var cards = field.value.split(/[\s,]+/).filter(Boolean);
    var at = cards.indexOf(code);
    if (at >= 0) cards.splice(at, 1); else cards.push(code);
    field.value = cards.join(" ");
    field.focus();
  });
})();
