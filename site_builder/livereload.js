/* Injected by `site-builder serve` into the HTML it sends (never into public/).
   The server writes the build number the page came from into data-generation, so a
   build that finishes while the page loads still reloads it; a failed build shows
   its error over the page until the next good one. */
(() => {
  const script = document.currentScript;
  const served = Number(script.dataset.generation);
  const overlay = script.dataset.overlay;
  const show = (message) => {
    let box = document.getElementById(overlay);
    if (!box) {
      box = document.createElement("pre");
      box.id = overlay;
      box.setAttribute("role", "alert");
      box.style.cssText = "position:fixed;inset:auto 0 0 0;max-height:60vh;overflow:auto;" +
        "margin:0;padding:1rem 1.25rem;background:#3b0d0d;color:#ffe9e9;z-index:2147483647;" +
        "font:14px/1.45 ui-monospace,monospace;white-space:pre-wrap;border-top:4px solid #e5484d";
      document.body.append(box);
    }
    box.textContent = "Build failed; fix the file and this page reloads.\n\n" + message;
  };
  const events = new EventSource(script.dataset.events);
  events.addEventListener("build", (event) => {
    const state = JSON.parse(event.data);
    if (state.error) show(state.error);
    else if (state.generation !== served) location.reload();
  });
})();
