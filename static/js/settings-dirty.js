// The chronicle settings page (new-user tests 9 and 10): a changed setting is not lost without a word. Once a
// setting changes, a line beside the sticky Save says so; another form of the page (the webhook forms) and a
// boosted link ask with that line ("Unsaved changes: save them before you leave this page."), and closing the
// tab or a plain link asks the browser's own "leave page?" question. Saving the settings form asks nothing.
// Without JavaScript the page works as before. No inline scripts (the Content-Security-Policy).
(function () {
  "use strict";
  function start() {
    var form = document.querySelector("form.settings-form");
    if (!form) { return; }
    var line = form.querySelector(".settings-unsaved");
    var dirty = false, saving = false, leaving = false;
    function stay() { return !window.confirm(line ? line.textContent : "Unsaved changes: leave this page?"); }
    function mark() {
      if (dirty) { return; }
      dirty = true;
      if (line) { line.hidden = false; }
    }
    form.addEventListener("input", mark);
    form.addEventListener("change", mark);
    form.addEventListener("submit", function () { saving = true; });
    // Another form of the page (adding a webhook): the app's own words, before the browser's blank question.
    document.addEventListener("submit", function (event) {
      if (!dirty || saving || leaving || form.contains(event.target)) { return; }
      if (stay()) { event.preventDefault(); event.stopPropagation(); return; }
      leaving = true;
    }, true);
    window.addEventListener("beforeunload", function (event) {
      if (!dirty || saving || leaving) { return; }
      event.preventDefault();
      event.returnValue = "";  // older browsers need a value to ask
    });
    // A boosted link (the top bar's "waiting" badge) swaps the page without unloading it: ask the same.
    document.body.addEventListener("htmx:beforeRequest", function (event) {
      if (!dirty || saving || leaving || !event.detail.boosted || form.contains(event.detail.elt)) { return; }
      if (stay()) { event.preventDefault(); }
    });
    // Back to this page from the browser's cache after a save: the form holds what was saved.
    window.addEventListener("pageshow", function (event) {
      if (event.persisted) { saving = false; leaving = false; }
    });
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); } else { start(); }
})();
