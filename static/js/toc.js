// Marks the section being read in the table of contents (templates/_toc.html). The
// list itself is plain HTML and works without this script; this only sets
// aria-current="location" on the link of the last heading scrolled past the top
// quarter of the window, which the stylesheet shows with a colour and a rule that
// is always there (transparent when inactive), so nothing moves.
(function () {
  "use strict";

  var links = document.querySelectorAll(".toc a[href^='#']");
  var headings = [];
  links.forEach(function (link) {
    var target = document.getElementById(decodeURIComponent(link.getAttribute("href").slice(1)));
    if (target) headings.push({ link: link, target: target });
  });
  if (!headings.length) return;

  var current = null;
  function mark() {
    var line = window.innerHeight * 0.25;
    var found = null;
    for (var i = 0; i < headings.length; i++) {
      if (headings[i].target.getBoundingClientRect().top <= line) found = headings[i];
      else break;
    }
    // At the very bottom the last sections may never reach the line: the last one wins.
    if (window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2) {
      found = headings[headings.length - 1];
    }
    if (found === current) return;
    if (current) current.link.removeAttribute("aria-current");
    if (found) found.link.setAttribute("aria-current", "location");
    current = found;
  }

  var queued = false;
  function schedule() {
    if (queued) return;
    queued = true;
    requestAnimationFrame(function () { queued = false; mark(); });
  }
  window.addEventListener("scroll", schedule, { passive: true });
  window.addEventListener("resize", schedule);
  window.addEventListener("hashchange", schedule);
  mark();
})();
