// larp client behaviour. No inline scripts (the Content-Security-Policy forbids them).
(function () {
  "use strict";
  // The page's words in the reader's language (static/js/words.js, issue 36), else the English given here.
  var say = window.larpSay;
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
  // A form that can show its recorded ruling names the screen that does (data-redraw, a URL) and the
  // fields that screen keeps (data-redraw-keep, names separated by spaces): the lost reply's ruling is
  // shown there, ``ruling=<id>`` added.
  function redrawUrl(form, rulingId) {
    if (!form || !form.getAttribute || !form.getAttribute("data-redraw")) { return null; }
    var query = new URLSearchParams();
    var data = new FormData(form);
    (form.getAttribute("data-redraw-keep") || "").split(/\s+/).forEach(function (name) {
      if (name && data.get(name)) { query.set(name, data.get(name)); }
    });
    query.set("ruling", rulingId);
    return form.getAttribute("data-redraw") + "?" + query.toString();
  }
  function lostReply(evt) {
    var token = sentToken(evt);
    if (!token) { banner(true); return; }
    banner(false);
    lostBanner(say("lost_asking", "The answer was lost: asking the server whether it was recorded…"));
    var lost = document.getElementById("lost-reply-banner");
    // The page's chronicle is in its URLs (/chronicles/<id>/...): ask in the same one.
    var ask = (lost && lost.getAttribute("data-ask")) || "/rulings/by-token/";
    fetch(ask + encodeURIComponent(token), {credentials: "same-origin", headers: {"Accept": "application/json"}})
      .then(function (response) {
        if (response.status === 404) { lostBanner(say("lost_not_recorded", "Not recorded: tap again.")); return null; }
        if (!response.ok) { throw new Error("status " + response.status); }
        return response.json().then(function (ruling) {
          var redraw = redrawUrl(evt.detail.elt, ruling.id);
          if (!redraw) {
            lostBanner("", {href: ruling.url, text: say("recorded_as", "Recorded as ruling #%(id)s", {id: ruling.id}),
                        after: say("lost_behind", ": %(summary)s. The screen is behind: open it, or reload.",
                                   {summary: String(ruling.summary || "").replace(/\.$/, "")})});
            return;
          }
          // Issue 31 item 1: the screen is redrawn showing the narrator's own ruling (with its Undo),
          // so its sides are drawn as they are now and its poll has nothing to blame on anyone else.
          lostBanner("", {href: ruling.url, text: say("recorded_as", "Recorded as ruling #%(id)s", {id: ruling.id}),
                          after: say("lost_shown_below", ": the answer was lost on the way, the ruling is shown below.")});
          htmx.ajax("GET", redraw, {target: "#main", swap: "innerHTML"}).then(function () {
            // In view below the banner (sticky at the top): the recorded line and its Undo.
            var shown = document.getElementById("ruling-now");
            var over = document.getElementById("lost-reply-banner");
            if (shown) { window.scrollBy(0, shown.getBoundingClientRect().top - (over ? over.offsetHeight : 0) - 8); }
          });
        });
      })
      .catch(function () {
        lostBanner(say("no_answer", "No answer from the server: it is not known whether it was recorded. Check the Wi-Fi, then tap again: the same form is never recorded twice."));
      });
  }
  document.addEventListener("htmx:sendError", lostReply);
  document.addEventListener("htmx:timeout", lostReply);
  // What the lost-reply banner says stays until the narrator acts (issue 31 item 1): an answer to a poll
  // (hx-trigger "every", no triggering event) or to the redraw above proves the Wi-Fi is back, not that
  // the banner is out of date, so only an answer to a tap, a key or a submit hides it.
  document.addEventListener("htmx:afterRequest", function (evt) {
    if (!(evt.detail && evt.detail.xhr && evt.detail.xhr.status)) { return; }
    banner(false);
    if (evt.detail.requestConfig && evt.detail.requestConfig.triggeringEvent) { lostBanner(""); }
  });
  window.addEventListener("online", function () { banner(false); });
  // The server could not record it just now (the database busy with an import, a full disk): it
  // answers 503 without changing the screen, so the form keeps what was entered; say why, and that
  // the same button can be tapped again. The next answer that is not such a refusal hides it.
  document.addEventListener("larp:retry", function (evt) {
    var el = document.getElementById("retry-banner");
    if (el) { el.textContent = (evt.detail && evt.detail.message) || say("try_again", "Try again in a moment."); el.hidden = false; }
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
  // A search box over a list of chips (the combat board's roster, issue 31 item 3; the sheet's powers, item 6)
  // shows only the names holding what is typed (a ticked one stays); a card code matches no name, and Find or
  // Enter still searches on the server.
  document.addEventListener("input", function (evt) {
    var box = evt.target;
    var list = box.getAttribute && box.getAttribute("data-filters") && document.getElementById(box.getAttribute("data-filters"));
    if (!list) { return; }
    var text = box.value.trim().toLowerCase();
    var shown = 0;
    list.querySelectorAll("[data-name]").forEach(function (chip) {
      var name = (chip.getAttribute("data-name") || "").toLowerCase();
      var ticked = chip.querySelector("input:checked");
      var show = !text || ticked || name.indexOf(text) !== -1;
      chip.hidden = !show;
      if (show) { shown += 1; }
    });
    // The sheet's powers (issue 31 item 6): a group with a match opens, one without hides while a name is typed.
    list.querySelectorAll("details[data-group]").forEach(function (group) {
      var hits = group.querySelectorAll("[data-name]:not([hidden])").length;
      group.hidden = Boolean(text) && hits === 0;
      if (text && hits) { group.open = true; }
    });
    var none = list.querySelector(".roster-none");
    if (none) { none.hidden = shown > 0; }
  });
  // A sheet section that saves at each tap shows its Save button once something is typed or changed (issue 31
  // item 6); "js" on <html> says this script runs, so without it the button always shows.
  document.documentElement.classList.add("js");
  ["input", "change"].forEach(function (type) {
    document.addEventListener(type, function (evt) {
      var form = evt.target.closest && evt.target.closest("form.sheet-form");
      if (form && evt.target.name && evt.target.name !== "add_count") { form.classList.add("changed"); }
    });
  });
  // A screen's settings folded on a phone (issue 31 item 2): the summary says what the chips and selects say
  // now, not what they said when the screen was drawn (the combat board's darkness and range change with no swap).
  document.addEventListener("change", function (evt) {
    var field = evt.target;
    var details = field.closest && field.closest("details.screen-settings, details[class*=fold-]");
    var shows = details && details.querySelector('summary [data-shows="' + field.name + '"]');
    if (!shows) { return; }
    var text = field.tagName === "SELECT" ? field.selectedOptions[0].textContent
      : (field.closest("label") || field).textContent;
    if (field.name === "range" && !field.value) { text = say("range_not_said", "Range not said"); }
    if (/_weapon$/.test(field.name)) { text = text.split(" (")[0]; }
    shows.textContent = text.trim();
    if (field.name === "darkness") { shows.classList.toggle("dark-on", field.value !== "none"); }
  });
  // Issue 31: once the challenger is picked (by code, name or chip), the keyboard goes to the defender's box, so
  // the second card code is typed at once. The pick redraws only the challenger's side (the defender's, with what
  // is typed there, stays), so the box's autofocus is not applied by the swap.
  document.addEventListener("htmx:afterSettle", function (evt) {
    var from = evt.detail && evt.detail.requestConfig && evt.detail.requestConfig.elt;
    if (!from || from.id !== "pick-challenger" || !document.querySelector("#side-challenger .who-name")) { return; }
    var next = document.querySelector("#side-defender input[type=search]");
    var active = document.activeElement;
    if (next && !next.value && (!active || active === document.body)) { next.focus(); }
  });
  // A form's text the server cannot store (a NUL from a paste: new-user test 12, finding 9) is refused at the top of
  // the form that sent it, the form left as typed (larp.app._unstorable_in_place): name the field as the page
  // labels it, mark it, put the keyboard there, and keep one such message (the newest) per form.
  document.addEventListener("htmx:afterSwap", function (evt) {
    var form = evt.detail && evt.detail.target;
    if (!form || !form.querySelectorAll) { return; }
    var notes = form.querySelectorAll(".unstorable-refusal");
    if (!notes.length) { return; }
    for (var i = 1; i < notes.length; i++) { notes[i].remove(); }
    var note = notes[0];
    var input = null;
    Array.prototype.forEach.call(form.elements || [], function (el) {
      if (!input && el.name === note.getAttribute("data-field")) { input = el; }
    });
    if (!input) { return; }
    var label = input.labels && input.labels.length ? input.labels[0].cloneNode(true) : null;
    if (label) { Array.prototype.forEach.call(label.querySelectorAll("input, select, textarea, .hint, .field-error"), function (el) { el.remove(); }); }
    var words = ((label && label.textContent) || input.getAttribute("aria-label") || "").replace(/\s+/g, " ").trim();
    var slot = note.querySelector(".field-label");
    if (words && slot) { slot.textContent = words.slice(0, 80); }
    input.setAttribute("aria-invalid", "true");
    input.setAttribute("aria-describedby", note.id);
    input.focus();
  });
})();
