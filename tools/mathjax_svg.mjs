// MathJax 3 (mathjax-full 3.2.2, from node_modules) as a reference renderer for
// tools/math_compare.py: TeX in, self-contained SVG out, no browser and no network.
//
// stdin:  a JSON list of {"tex": "...", "display": true|false}, each optionally with the
//         page's metrics in px: "em" and "ex" (of the font around the formula) and
//         "containerWidth" (of its column), for the layout choices MathJax makes before
//         the browser sees the SVG (where a \tag goes, how wide multline is).
// stdout: a JSON list, one item per input: the <mjx-container> HTML holding the SVG
//         (a string), or {"error": "message"} when MathJax rejects the TeX.
//
// Why these settings:
//  - packages: base, ams, newcommand, boldsymbol, color, mathtools, the LaTeX a blog post
//    plausibly uses. 'noerrors' and 'noundefined' are left out on purpose, and
//    formatError rethrows, so a bad formula is reported as an error instead of being
//    drawn in red inside the SVG (the comparison should show that MathJax refused it).
//  - tags: 'ams', so \begin{equation} and \tag{} are numbered as amsmath numbers them.
//  - fontCache: 'none', so every SVG draws its own glyph paths and can be pasted into a
//    page on its own (no shared <defs> that another SVG must provide).
//
// Usage: node tools/mathjax_svg.mjs < formulas.json > svgs.json
//        node tools/mathjax_svg.mjs --css > mathjax.css   (MathJax's own CSS for these SVGs:
//        display centring, overflow, tag layout; a page showing them needs it once)

import { createRequire } from "node:module";
import { readFileSync } from "node:fs";

// mathjax-full's js/ tree is CommonJS; require() avoids relying on Node's guess at its
// named exports.
const require = createRequire(import.meta.url);
const { mathjax } = require("mathjax-full/js/mathjax.js");
const { TeX } = require("mathjax-full/js/input/tex.js");
const { SVG } = require("mathjax-full/js/output/svg.js");
const { liteAdaptor } = require("mathjax-full/js/adaptors/liteAdaptor.js");
const { RegisterHTMLHandler } = require("mathjax-full/js/handlers/html.js");
require("mathjax-full/js/input/tex/base/BaseConfiguration.js");
require("mathjax-full/js/input/tex/ams/AmsConfiguration.js");
require("mathjax-full/js/input/tex/newcommand/NewcommandConfiguration.js");
require("mathjax-full/js/input/tex/boldsymbol/BoldsymbolConfiguration.js");
require("mathjax-full/js/input/tex/color/ColorConfiguration.js");
require("mathjax-full/js/input/tex/mathtools/MathtoolsConfiguration.js");

const PACKAGES = ["base", "ams", "newcommand", "boldsymbol", "color", "mathtools"];
// Default metrics (px), when an item does not bring its own. The SVG itself is sized in
// ex, so it scales with the CSS font whatever these are; they only set line widths.
const EM = 16;
const EX = 8;
const CONTAINER_WIDTH = 40 * EM;

const adaptor = liteAdaptor();
RegisterHTMLHandler(adaptor);

const tex = new TeX({
  packages: PACKAGES,
  tags: "ams",
  formatError: (_jax, err) => {
    throw err;
  },
});
const svg = new SVG({ fontCache: "none" });
const html = mathjax.document("", { InputJax: tex, OutputJax: svg });

/** One formula to its SVG container HTML, or {error}. */
function render({ tex: source, display, em, ex, containerWidth }) {
  try {
    tex.reset(); // equation numbers start at (1) for every formula, as in its own document
    const node = html.convert(String(source), {
      display: Boolean(display),
      em: Number(em) || EM,
      ex: Number(ex) || EX,
      containerWidth: Number(containerWidth) || CONTAINER_WIDTH,
    });
    return adaptor.outerHTML(node);
  } catch (err) {
    return { error: String(err && err.message ? err.message : err) };
  }
}

if (process.argv.includes("--css")) {
  html.convert("x", { display: true }); // the stylesheet covers what has been rendered
  process.stdout.write(adaptor.textContent(svg.styleSheet(html)));
  process.stdout.write("\n");
  process.exit(0);
}

const items = JSON.parse(readFileSync(0, "utf8"));
if (!Array.isArray(items)) {
  throw new Error("expected a JSON list of {tex, display} on stdin");
}
process.stdout.write(JSON.stringify(items.map(render)));
process.stdout.write("\n");
