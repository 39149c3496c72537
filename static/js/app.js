// larp client behaviour. No inline scripts (the Content-Security-Policy forbids them).
(function () {
  "use strict";
  function banner(show) {
    var el = document.getElementById("offline-banner");
    if (el) { el.hidden = !show; }
  }
  // A request that never reached the server (Wi-Fi dropped, server gone, timeout):
  // say so where the narrator is looking, instead of silently doing nothing.
  document.addEventListener("htmx:sendError", function () { banner(true); });
  document.addEventListener("htmx:timeout", function () { banner(true); });
  document.addEventListener("htmx:afterRequest", function (evt) {
    if (evt.detail && evt.detail.xhr && evt.detail.xhr.status) { banner(false); }
  });
  window.addEventListener("online", function () { banner(false); });
  // Every htmx request carries the CSRF token from the page's meta tag (Flask-WTF reads
  // the X-CSRFToken header). htmx attribute inheritance is off, so this is the one place.
  document.addEventListener("htmx:configRequest", function (evt) {
    var meta = document.querySelector('meta[name="csrf-token"]');
    if (meta) { evt.detail.headers["X-CSRFToken"] = meta.content; }
  });
  // The card sheet's Print button (no inline handlers: the Content-Security-Policy forbids them).
  document.addEventListener("click", function (evt) {
    if (evt.target.closest && evt.target.closest("[data-print]")) { window.print(); }
  });
})();
