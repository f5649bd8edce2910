// "/" opens search from any page, as on GitHub and MDN: on the search page it focuses the
// box, elsewhere it goes there. Not while typing in a field, nor with a modifier held.
(function () {
  "use strict";
  var target = document.currentScript && document.currentScript.getAttribute("data-search");
  document.addEventListener("keydown", function (event) {
    if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
    var el = event.target;
    if (el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName))) return;
    event.preventDefault();
    var box = document.getElementById("search-input");
    if (box) box.focus();
    else if (target) window.location.href = target;
  });
})();
