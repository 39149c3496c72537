// The player's card page (issue 31 item 7): what changed since this phone last looked. The page's "tonight"
// block carries its figures (data-seen); the phone keeps the last ones it showed in localStorage, per
// character, and says what differs ("2 lethal, 1 Trait lost, 21:14") with a highlight that fades. Nothing
// is kept on the server: the card page has no login. No inline scripts (the Content-Security-Policy).
(function () {
  "use strict";
  function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }
  function changes(before, now) {
    var parts = [];
    ["aggravated", "lethal", "bashing"].forEach(function (kind) {
      var d = (now[kind] || 0) - (before[kind] || 0);
      if (d > 0) { parts.push(d + " " + kind); } else if (d < 0) { parts.push(-d + " " + kind + " healed"); }
    });
    var blood = now.blood - before.blood, will = now.willpower - before.willpower, traits = now.traits - before.traits;
    if (blood < 0) { parts.push(plural(-blood, "blood point") + " spent"); } else if (blood > 0) { parts.push(plural(blood, "blood point") + " back"); }
    if (will < 0) { parts.push(-will + " Willpower spent"); } else if (will > 0) { parts.push(will + " Willpower back"); }
    if (traits < 0) { parts.push(plural(-traits, "Trait") + " lost"); } else if (traits > 0) { parts.push(plural(traits, "Trait") + " back"); }
    return parts;
  }
  function clock(date) {
    return String(date.getHours()).padStart(2, "0") + ":" + String(date.getMinutes()).padStart(2, "0");
  }
  function check() {
    var block = document.querySelector("[data-seen-key]");
    if (!block) { return; }
    var key = "larp-card-seen:" + block.getAttribute("data-seen-key");
    var now, stored = null;
    try { now = JSON.parse(block.getAttribute("data-seen")); } catch (e) { return; }
    try { stored = JSON.parse(window.localStorage.getItem(key)); } catch (e) { stored = null; }
    var line = (stored && stored.line) || "";
    var fresh = stored && stored.state ? changes(stored.state, now) : [];
    if (fresh.length) { line = fresh.join(", ") + ", " + clock(new Date()); }
    try { window.localStorage.setItem(key, JSON.stringify({state: now, line: line})); } catch (e) { /* private mode: no memory */ }
    var out = document.getElementById("changed-line");
    if (!out || !line) { return; }
    out.textContent = "Changed: " + line;
    out.hidden = false;
    if (fresh.length) {
      var panel = out.closest(".panel");
      if (panel) { panel.classList.add("just-changed"); }
      out.classList.add("just-changed");
    }
  }
  document.addEventListener("DOMContentLoaded", check);
  document.addEventListener("htmx:afterSettle", check);
})();
