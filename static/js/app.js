// larp client behaviour. No inline scripts (the Content-Security-Policy forbids them).
(function () {
  "use strict";
  function banner(show) {
    var el = document.getElementById("offline-banner");
    if (el) { el.hidden = !show; }
  }
  // A request that never reached the server (Wi-Fi dropped, server gone, timeout):
  // say so where the narrator is looking, instead of silently doing nothing.
  // Truthful on bad Wi-Fi (issue 18): a form that can record something carries a one-time token. When
  // its reply is lost, the request may have been recorded or not: ask the server by that token and say
  // which ("Recorded as ruling #12", or "Not recorded: tap again"). The same token is never recorded
  // twice, so tapping again is always safe.
  function lostBanner(text, link) {
    var el = document.getElementById("lost-reply-banner");
    if (!el) { return; }
    el.textContent = text;
    if (link) {
      var a = document.createElement("a");
      a.href = link.href; a.textContent = link.text; a.className = "banner-link";
      el.textContent = "";
      el.appendChild(a);
      if (link.after) { el.appendChild(document.createTextNode(link.after)); }
    }
    el.hidden = !text && !link;
  }
  function sentToken(evt) {
    var form = evt.detail && evt.detail.elt;
    return form && form.getAttribute && form.getAttribute("data-sent-token");
  }
  function lostReply(evt) {
    var token = sentToken(evt);
    if (!token) { banner(true); return; }
    banner(false);
    lostBanner("The answer was lost: asking the server whether it was recorded…");
    var lost = document.getElementById("lost-reply-banner");
    // The page's chronicle is in its URLs (/chronicles/<id>/...): ask in the same one.
    var ask = (lost && lost.getAttribute("data-ask")) || "/rulings/by-token/";
    fetch(ask + encodeURIComponent(token), {credentials: "same-origin", headers: {"Accept": "application/json"}})
      .then(function (response) {
        if (response.status === 404) { lostBanner("Not recorded: tap again."); return null; }
        if (!response.ok) { throw new Error("status " + response.status); }
        return response.json().then(function (ruling) {
          lostBanner("", {href: ruling.url, text: "Recorded as ruling #" + ruling.id,
                          after: ": " + String(ruling.summary || "").replace(/\.$/, "") + ". The screen is behind: open it, or reload."});
        });
      })
      .catch(function () {
        lostBanner("No answer from the server: it is not known whether it was recorded. Check the Wi-Fi, then tap again: the same form is never recorded twice.");
      });
  }
  document.addEventListener("htmx:sendError", lostReply);
  document.addEventListener("htmx:timeout", lostReply);
  document.addEventListener("htmx:afterRequest", function (evt) {
    if (evt.detail && evt.detail.xhr && evt.detail.xhr.status) { banner(false); lostBanner(""); }
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
    // The one-time token this request carries (the first, as the server reads it), for a lost reply.
    var token = (evt.detail.requestConfig && evt.detail.requestConfig.verb !== "get") ? form.querySelector("[name=request_token]") : null;
    if (token) { form.setAttribute("data-sent-token", token.value); } else { form.removeAttribute("data-sent-token"); }
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
