// Figure widget "attention-temperature": a temperature slider over weights computed at build time.
//
// The page already shows the weights at tau = 1 (rendered by the build, so they are
// there without JavaScript). This script fetches the JSON beside the page, adds a
// range input over the exported log-spaced temperatures and rewrites bars, values
// and the entropy readout in place. It never recomputes a softmax: every number on
// screen comes from site_builder/temperature.py.
(function () {
  "use strict";

  function formatTau(tau) {
    return "τ = " + (tau >= 10 ? tau.toFixed(1) : tau.toFixed(2));
  }

  function enhance(figure, data) {
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

  document
    .querySelectorAll('figure[data-widget="attention-temperature"][data-src]')
    .forEach(function (figure) {
      // Relative to the page, so the site works under any base path.
      var url = new URL(figure.getAttribute("data-src"), document.baseURI);
      fetch(url)
        .then(function (response) {
          if (!response.ok) throw new Error(response.status + " " + url);
          return response.json();
        })
        .then(function (data) {
          enhance(figure, data);
        })
        .catch(function () {
          // The figure keeps its build-time weights at tau = 1.
        });
    });
})();
