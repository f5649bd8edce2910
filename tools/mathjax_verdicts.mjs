// MathJax 3's verdict on each formula (mathjax-full 3.2.2 from node_modules), for
// tools/measure_sites.py: does MathJax's TeX input read the formula without an error?
//
// Why: an imported blog's formulas were drawn by MathJax on the old site. The share
// MathJax reads, with the same macros, is the bar the build's own conversion is held to.
//
//   node tools/mathjax_verdicts.mjs < formulas.jsonl > verdicts.jsonl
//
// stdin:  JSONL, one formula a line: {"tex": "...", "display": true|false,
//         "macros": {name: body | [body, n] | [body, n, default]}, "packages": [...],
//         "doc": "..."}. "doc" is optional: consecutive lines with the same "doc" share one
//         MathJax document, as the formulas of one page do (a \newcommand holds for the
//         formulas after it, a \label used twice is an error); a line without it is a
//         document of its own. Every line of one document must bring the same macros
//         and packages.
// stdout: JSONL, one verdict a line, in the same order: {"ok": true} or
//         {"ok": false, "message": "..."}.
//
// A formula fails when the TeX input reports an error (formatError rethrows it instead
// of drawing an <merror>), when the result still holds an <merror>, or when it uses a
// command nobody defined: 'noundefined' draws those in red instead of failing (as the
// old site did), so its mark, a colour no author writes, is looked for in the result.
// tags: 'ams', so \label, \eqref and \tag work as on the sites that number equations.

import { createRequire } from "node:module";
import { readFileSync } from "node:fs";

// mathjax-full's js/ tree is CommonJS; require() avoids relying on Node's guess at its
// named exports.
const require = createRequire(import.meta.url);
const { mathjax } = require("mathjax-full/js/mathjax.js");
const { TeX } = require("mathjax-full/js/input/tex.js");
const { liteAdaptor } = require("mathjax-full/js/adaptors/liteAdaptor.js");
const { RegisterHTMLHandler } = require("mathjax-full/js/handlers/html.js");
const { STATE } = require("mathjax-full/js/core/MathItem.js");
// Registers every TeX package's configuration; a document names the ones it uses.
require("mathjax-full/js/input/tex/AllPackages.js");

const BASE = ["base", "ams", "newcommand", "noundefined", "configmacros", "boldsymbol"];
// Packages that need MathJax's loader (absent here), an output jax (bussproofs measures
// its boxes) or would hide errors: never loaded.
const NEVER = new Set(["require", "autoload", "noerrors", "bussproofs"]);
const UNDEFINED_MARK = "#fe01fe"; // noundefined's colour for an unknown command

const adaptor = liteAdaptor();
RegisterHTMLHandler(adaptor);

/** A fresh MathJax document (its own labels and definitions) for these settings. */
function newDocument(macros, packages) {
  const wanted = [...BASE, ...(packages || [])].filter((name) => !NEVER.has(name));
  const tex = new TeX({
    packages: [...new Set(wanted)],
    tags: "ams",
    macros: macros || {},
    noundefined: { color: UNDEFINED_MARK },
    formatError: (_jax, err) => {
      throw err;
    },
  });
  return mathjax.document("", { InputJax: tex });
}

/** The first node of `root`'s tree that `test` accepts, or null. */
function find(root, test) {
  let found = null;
  root.walkTree((node) => {
    if (found === null && test(node)) found = node;
  });
  return found;
}

/** {ok} or {ok: false, message} for one formula in `doc`. */
function verdict(doc, tex, display) {
  let root;
  try {
    root = doc.convert(String(tex), { display: Boolean(display), end: STATE.COMPILED });
  } catch (err) {
    return { ok: false, message: String(err && err.message ? err.message : err) };
  }
  const error = find(root, (node) => node.isKind("merror"));
  if (error) {
    const text = error.attributes.get("data-mjx-error") || "merror in the output";
    return { ok: false, message: String(text) };
  }
  const unknown = find(
    root,
    (node) => node.isKind("mtext") && node.attributes.get("mathcolor") === UNDEFINED_MARK,
  );
  if (unknown) {
    const name = unknown.childNodes.map((child) => child.text || "").join("");
    return { ok: false, message: `Undefined control sequence ${name}` };
  }
  return { ok: true };
}

const lines = readFileSync(0, "utf8").split("\n").filter((line) => line.trim());
let current = null; // the document of the previous line, and its "doc"
const out = [];
for (const line of lines) {
  const item = JSON.parse(line);
  const docId = item.doc === undefined || item.doc === null ? null : String(item.doc);
  if (current === null || docId === null || current.id !== docId) {
    let doc;
    try {
      doc = newDocument(item.macros, item.packages);
    } catch (err) {
      // A macro table MathJax refuses fails every formula of its document, as on the page.
      doc = null;
      current = { id: docId, doc, why: String(err && err.message ? err.message : err) };
    }
    if (doc !== null) current = { id: docId, doc, why: "" };
  }
  const result = current.doc
    ? verdict(current.doc, item.tex, item.display)
    : { ok: false, message: `configuration: ${current.why}` };
  out.push(JSON.stringify(result));
  if (out.length >= 1000) {
    process.stdout.write(out.join("\n") + "\n");
    out.length = 0;
  }
}
if (out.length) process.stdout.write(out.join("\n") + "\n");
