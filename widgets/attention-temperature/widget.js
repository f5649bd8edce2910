// Widget "attention-temperature": a temperature slider over weights computed at build time.
//
// The page already shows the weights at tau = 1 (fallback.html, rendered by the build,
// so they are there without JavaScript). The site's loader (static/js/widgets.js) fetches
// the JSON beside the page and calls the default export with the figure and that data;
// this adds a range input over the exported log-spaced temperatures and rewrites bars,
// values and the entropy readout in place. It never recomputes a softmax: every number
// on screen comes from widget.py.

function formatTau(tau) {
  return "τ = " + (tau >= 10 ? tau.toFixed(1) : tau.toFixed(2));
}

export default function enhance(figure, data) {
  var rows = figure.querySelectorAll(".temp-row");
  var readout = figure.querySelector(".temp-readout");
  if (!readout || rows.length !== data.tokens.length) return;
  var tauOut = readout.querySelector(".temp-tau");
  var entropyOut = readout.querySelector(".temp-entropy");

  // Only tokens the query may read get a bar; the query and masked tokens keep their labels.
  var bars = [];
  rows.forEach(function (row, j) {
    if (j === data.query || data.masked[j]) return;
    var fill = row.querySelector(".temp-fill");
    if (!fill) {
      fill = document.createElement("span");
      fill.className = "temp-fill";
      row.querySelector(".temp-bar").appendChild(fill);
    }
    bars.push({ index: j, fill: fill, value: row.querySelector(".temp-value") });
  });

  var id = (figure.id || "figure") + "-tau";
  var label = document.createElement("label");
  label.htmlFor = id;
  label.className = "temp-label";
  label.textContent = "Temperature";
  var input = document.createElement("input");
  input.type = "range";
  input.id = id;
  input.className = "temp-slider";
  input.min = "0";
  input.max = String(data.taus.length - 1);
  input.step = "1";
  input.value = String(data.tau_one);
  readout.insertBefore(label, readout.firstChild);
  readout.insertBefore(input, tauOut);

  function update() {
    var i = Number(input.value);
    var weights = data.weights[i];
    bars.forEach(function (bar) {
      var w = weights[bar.index];
      bar.fill.style.width = (100 * w).toFixed(1) + "%";
      bar.value.textContent = w.toFixed(3);
    });
    var tau = formatTau(data.taus[i]);
    input.setAttribute("aria-valuetext", tau);
    tauOut.textContent = tau;
    entropyOut.textContent = "entropy " + data.entropy[i].toFixed(2) + " bits";
  }

  input.addEventListener("input", update);
  update();
  figure.classList.add("is-interactive");
}
