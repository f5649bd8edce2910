// Small enhancements every post gets; without JavaScript the page loses nothing.
//
// Copy buttons: <button data-copy="ID"> copies the text of the element with that
// id (the text stays selectable without the script).
//
// Note toggles: below the sidenote breakpoint (1100px, the media query in
// static/css/site.css; keep the two equal) sidenotes are hidden and each footnote number
// links to the Notes list. Here that link becomes a disclosure: it opens the
// note in place (aria-expanded, aria-controls) instead of jumping away. From the
// breakpoint up the notes sit in the margin and the link is a plain link again.
//
// Wide equations: a display equation wider than the column scrolls in its own
// box; while it does, it takes keyboard focus so it can be scrolled with the
// arrow keys (code blocks carry tabindex in the markup already). Checked again
// on resize and whenever fonts finish loading.
(function () {
  "use strict";

  var equations = document.querySelectorAll(".math-display");
  function focusableWhenScrolling() {
    equations.forEach(function (box) {
      // Strictly wider: a box that scrolls by a single pixel still scrolls.
      if (box.scrollWidth > box.clientWidth) box.setAttribute("tabindex", "0");
      else box.removeAttribute("tabindex");
    });
  }
  // Measuring widths forces a layout; after the first frame the layout is done
  // anyway, so the check is cheap and the page paints without waiting for it.
  requestAnimationFrame(function () { setTimeout(focusableWhenScrolling, 0); });
  window.addEventListener("resize", focusableWhenScrolling);
  // The web fonts swap in after this runs and change the equations' widths.
  if (document.fonts) document.fonts.addEventListener("loadingdone", focusableWhenScrolling);

  document.querySelectorAll("button[data-copy]").forEach(function (button) {
    var box = button.closest(".cite-box");
    var status = box && box.querySelector(".copy-status");
    button.addEventListener("click", function () {
      var target = document.getElementById(button.getAttribute("data-copy"));
      if (!target || !navigator.clipboard) return;
      navigator.clipboard.writeText(target.textContent).then(function () {
        button.textContent = "Copied";
        var format = document.getElementById(button.getAttribute("aria-describedby") || "");
        if (status) status.textContent = (format ? format.textContent : "Citation") + " copied to the clipboard.";
        setTimeout(function () {
          button.textContent = "Copy";
          if (status) status.textContent = "";
        }, 2000);
      });
    });
  });

  var wide = window.matchMedia("(min-width: 1100px)");
  var toggles = [];
  document.querySelectorAll(".footnote-ref > a").forEach(function (link) {
    var note = link.parentNode.nextElementSibling;
    if (note && note.classList.contains("sidenote") && note.id) {
      toggles.push({ link: link, note: note });
    }
  });

  function setOpen(toggle, open) {
    toggle.note.classList.toggle("is-open", open);
    // Open in the flow, the note is the text the reader asked for; in the
    // margin (or closed) the Notes list is where assistive technology reads it.
    if (open) toggle.note.removeAttribute("aria-hidden");
    else toggle.note.setAttribute("aria-hidden", "true");
    // Links in a hidden margin copy take no focus (tabindex=-1 in the markup).
    toggle.note.querySelectorAll("a").forEach(function (a) {
      if (open) a.removeAttribute("tabindex");
      else a.setAttribute("tabindex", "-1");
    });
    if (!wide.matches) toggle.link.setAttribute("aria-expanded", open ? "true" : "false");
  }

  function sync() {
    toggles.forEach(function (toggle) {
      setOpen(toggle, false);
      if (wide.matches) {
        toggle.link.removeAttribute("aria-expanded");
        toggle.link.removeAttribute("aria-controls");
      } else {
        toggle.link.setAttribute("aria-controls", toggle.note.id);
      }
    });
  }

  toggles.forEach(function (toggle) {
    toggle.link.addEventListener("click", function (event) {
      if (wide.matches) return;
      event.preventDefault();
      setOpen(toggle, !toggle.note.classList.contains("is-open"));
    });
  });
  if (wide.addEventListener) wide.addEventListener("change", sync);
  sync();
})();
