// The viewer's time zone for the server (durak_site.middleware): the browser's IANA zone goes
// into the "tz" cookie, and every request after that shows and reads times in it. The server
// names the zone it drew the page in on <html data-time-zone> (UTC until the cookie exists), and
// pages with times say which zone they are in, so even the very first page is never misread.
(function () {
  "use strict";
  var zone;
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch (error) {
    return;
  }
  // IANA names are letters, digits and "/_+-": anything else is no zone the server knows.
  if (!zone || !/^[A-Za-z0-9_+\-\/]{1,64}$/.test(zone)) return;
  if (zone === document.documentElement.getAttribute("data-time-zone")) return;
  document.cookie = "tz=" + zone + "; path=/; max-age=31536000; samesite=lax";
})();
