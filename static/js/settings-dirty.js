// The chronicle settings page (new-user test 9): a changed setting is not lost without a word. Once a setting
// changes, a line beside the sticky Save says so, and leaving the page another way (a link, the webhook forms,
// closing the tab) asks the browser's own "leave page?" question. Saving the settings form itself asks nothing.
// Without JavaScript the page works as before. No inline scripts (the Content-Security-Policy).
(function () {
  "use strict";
  function start() {
    var form = document.querySelector("form.settings-form");
    if (!form) { return; }
    var line = form.querySelector(".settings-unsaved");
    var dirty = false, saving = false;
    function mark() {
      if (dirty) { return; }
      dirty = true;
      if (line) { line.hidden = false; }
    }
    form.addEventListener("input", mark);
    form.addEventListener("change", mark);
    form.addEventListener("submit", function () { saving = true; });
    window.addEventListener("beforeunload", function (event) {
      if (!dirty || saving) { return; }
      event.preventDefault();
      event.returnValue = "";  // older browsers need a value to ask
    });
    // A boosted link (the top bar's "waiting" badge) swaps the page without unloading it: ask the same.
    document.body.addEventListener("htmx:beforeRequest", function (event) {
      if (!dirty || saving || !event.detail.boosted || form.contains(event.detail.elt)) { return; }
      if (!window.confirm(line ? line.textContent : "Unsaved changes: leave this page?")) { event.preventDefault(); }
    });
    // Back to this page from the browser's cache after a save: the form holds what was saved.
    window.addEventListener("pageshow", function (event) {
      if (event.persisted) { saving = false; }
    });
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
})();
