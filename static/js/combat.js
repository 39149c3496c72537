// The combat board's own script (issue 31, wave 5), loaded by its page only so that the first narrator page (the
// challenge screen) stays within its 30 KB; once, however often a boosted visit brings the page back.
(function () {
  "use strict";
  if (window.larpCombatBoard) { return; }
  window.larpCombatBoard = true;
  document.addEventListener("change", function (evt) {
    // The attackers come onto the board in the order they are ticked (they act in it), kept in the roster's
    // hidden "add_order"; without this script, in the roster's order.
    var box = evt.target, order = box.name === "add_pick" && box.form && box.form.querySelector(".tick-order");
    if (order) {
      var ids = order.value.split(",").filter(function (id) { return id && id !== box.value; });
      if (box.checked) { ids.push(box.value); }
      order.value = ids.join(",");
    }
    // The tap on a retester's new sign reveals the other side's: bring it into view (above the sticky buttons).
    var pair = box.closest && box.closest(".retest-pick") && box.closest(".pair-result");
    var next = pair && [].filter.call(pair.querySelectorAll(".retest-throws > fieldset"), function (f) { return f.offsetParent; })[0];
    if (next) { next.scrollIntoView({block: "nearest"}); }
  });
})();
