/* The CSRF token for forms a socket drew.
 *
 * A fragment pushed over a websocket (the table chat's panel, a table's seats, the quick-pairing
 * grid, a match's controls) is rendered with no request, so Django's {% csrf_token %} draws
 * nothing there. htmx requests carry the page's token in the X-CSRFToken header (hx-headers on
 * <body>, the django-htmx idiom); a plain form posts its fields only, so on its way out this adds
 * the same token as the hidden field Django reads, to every same-origin POST form that lacks one.
 */
(function () {
  "use strict";

  function pageToken() {
    try { return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || ""; }
    catch (e) { return ""; }
  }

  // Capture: runs before htmx or the browser reads the form's fields on the same submit event.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form || form.tagName !== "FORM" || (form.getAttribute("method") || "").toLowerCase() !== "post") { return; }
    if (new URL(form.action, window.location.href).origin !== window.location.origin) { return; }
    if (form.querySelector('input[name="csrfmiddlewaretoken"]')) { return; }
    var token = pageToken();
    if (!token) { return; }
    var input = document.createElement("input");
    input.type = "hidden";
    input.name = "csrfmiddlewaretoken";
    input.value = token;
    form.appendChild(input);
  }, true);
}());
