// Copy buttons: <button data-copy="ID"> copies the text of the element with that id.
// Without JavaScript the text stays selectable, so nothing is lost.
(function () {
  "use strict";
  document.querySelectorAll("button[data-copy]").forEach(function (button) {
    var status = button.closest(".cite-box") && button.closest(".cite-box").querySelector(".copy-status");
    button.addEventListener("click", function () {
      var target = document.getElementById(button.getAttribute("data-copy"));
      if (!target || !navigator.clipboard) return;
      navigator.clipboard.writeText(target.textContent).then(function () {
        button.textContent = "Copied";
        if (status) status.textContent = "BibTeX copied to the clipboard.";
        setTimeout(function () { button.textContent = "Copy"; if (status) status.textContent = ""; }, 2000);
      });
    });
  });
})();
