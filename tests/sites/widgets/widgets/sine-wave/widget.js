// Adds a frequency slider to the sine-wave figure and redraws the curve from the build's data.
export default function mount(figure, data) {
  const line = figure.querySelector(".sine-plot polyline");
  const out = figure.querySelector(".sine-k");
  const slider = document.createElement("input");
  slider.type = "range";
  slider.min = "0";
  slider.max = String(data.frequencies.length - 1);
  slider.value = "0";
  slider.setAttribute("aria-label", "Frequency");
  slider.className = "sine-slider";
  figure.querySelector(".sine-readout").prepend(slider);
  slider.addEventListener("input", () => {
    const i = Number(slider.value);
    line.setAttribute("points", data.curves[i].map((y, x) => `${x},${-y}`).join(" "));
    out.textContent = String(data.frequencies[i]);
  });
  figure.classList.add("is-interactive");
}
