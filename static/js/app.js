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
  // The server could not record it just now (the database busy with an import, a full disk): it
  // answers 503 without changing the screen, so the form keeps what was entered; say why, and that
  // the same button can be tapped again. The next answer that is not such a refusal hides it.
  document.addEventListener("larp:retry", function (evt) {
    var el = document.getElementById("retry-banner");
    if (el) { el.textContent = (evt.detail && evt.detail.message) || "Try again in a moment."; el.hidden = false; }
  });
  document.addEventListener("htmx:afterRequest", function (evt) {
    var el = document.getElementById("retry-banner");
    if (el && evt.detail && evt.detail.xhr && evt.detail.xhr.status !== 503) { el.hidden = true; }
  });
  // Busy (issue 18): while a form's request is in flight, the button that sent it spins and
  // every submit button of the form is disabled, so a second tap cannot send it again.
  // Boosted links and chips spin through htmx's own "htmx-request" class (app.css).
  function submitButtons(form) {
    // form.elements includes buttons outside the form that name it with form="...".
    return Array.prototype.filter.call(form.elements, function (el) {
      return (el.tagName === "BUTTON" && (el.type || "submit") === "submit") || (el.tagName === "INPUT" && el.type === "submit");
    });
  }
  document.addEventListener("htmx:beforeRequest", function (evt) {
    var form = evt.detail.elt;
    if (!form || form.tagName !== "FORM") { return; }
    var trigger = evt.detail.requestConfig && evt.detail.requestConfig.triggeringEvent;
    var buttons = submitButtons(form);
    var sender = (trigger && trigger.submitter) || buttons[0];
    if (sender) { sender.classList.add("is-busy"); }
    form.setAttribute("aria-busy", "true");
    buttons.forEach(function (button) {
      if (!button.disabled) { button.disabled = true; button.setAttribute("data-busy-disabled", ""); }
    });
  });
  document.addEventListener("htmx:afterRequest", function (evt) {
    var form = evt.detail.elt;
    if (!form || form.tagName !== "FORM") { return; }
    form.removeAttribute("aria-busy");
    submitButtons(form).forEach(function (button) {
      button.classList.remove("is-busy");
      if (button.hasAttribute("data-busy-disabled")) {
        button.disabled = false;
        button.removeAttribute("data-busy-disabled");
      }
    });
  });
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
