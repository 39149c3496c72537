// The page's words in the reader's language (issue 36): a page that is not in English carries them in a
// <meta name="js-words"> element (larp.i18n.js_words); the scripts say their English otherwise. ``%(name)s``
// placeholders are filled from ``params``. No inline scripts (the Content-Security-Policy).
(function () {
  "use strict";
  var words = null;
  window.larpSay = function (key, english, params) {
    if (words === null) {
      var meta = document.querySelector('meta[name="js-words"]');
      try { words = meta ? JSON.parse(meta.getAttribute("content")) : {}; } catch (e) { words = {}; }
    }
    var text = words[key] || english;
    return text.replace(/%\((\w+)\)s/g, function (all, name) { return params && name in params ? String(params[name]) : all; });
  };
})();
