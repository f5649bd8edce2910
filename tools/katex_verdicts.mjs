// Set KaTeX's verdict on each formula of a math corpus (tools/math_corpus.py).
//
// Why: the corpus records whether KaTeX, the reference renderer of most ML
// blogs, accepts each formula, so the math engine's acceptance can be compared
// with it on real formulas; the verdicts are committed, KaTeX never runs in tests.
//
//   node tools/katex_verdicts.mjs < corpus.jsonl > tests/data/math_corpus.jsonl
//
// Reads JSONL on stdin, writes it on stdout in the same order with
//   katex:      renderToString succeeds with the post's preamble (if any);
//   katex_bare: renderToString succeeds on the formula alone.
// Options: {displayMode: record.display, throwOnError: true, strict: "ignore",
// trust: false}. With a preamble, a fresh macros object is shared: the preamble
// is rendered first with globalGroup: true, then the formula with the same
// macros. A command of the preamble that KaTeX lacks (MathJax's \require,
// \definecolor) is cut out with its brace arguments and the preamble rendered
// again, so that the definitions hold; any other preamble error is ignored and
// the definitions made before it stay.
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";

const require = createRequire(import.meta.url);
const katex = require("katex");

const BASE = { throwOnError: true, strict: "ignore", trust: false };

/** True if KaTeX renders tex without throwing. */
function accepts(tex, options) {
  try {
    katex.renderToString(tex, { ...BASE, ...options });
    return true;
  } catch {
    return false;
  }
}

/** Index just past the brace groups (and spaces) that follow position i. */
function skipGroups(tex, i) {
  for (;;) {
    let j = i;
    while (/\s/.test(tex[j] ?? "")) j++;
    if (tex[j] !== "{") return i;
    let depth = 0;
    for (; j < tex.length; j++) {
      if (tex[j] === "\\") j++;
      else if (tex[j] === "{") depth++;
      else if (tex[j] === "}" && --depth === 0) break;
    }
    i = j + 1;
  }
}

/**
 * Define the preamble's macros in `macros`. A command KaTeX lacks (MathJax's
 * \require{...}, \definecolor{...}{...}{...}) is cut out with its brace
 * arguments and the preamble retried, so the definitions around it still hold.
 */
function definePreamble(preamble, macros) {
  let tex = preamble;
  for (let tries = 0; tries < 50; tries++) {
    for (const key of Object.keys(macros)) delete macros[key];
    try {
      katex.renderToString(tex, { ...BASE, displayMode: false, globalGroup: true, macros });
      return;
    } catch (error) {
      const undefinedCs = /^Undefined control sequence: (\\\S+)/.exec(error.rawMessage ?? "");
      const at = error.position;
      if (!undefinedCs || typeof at !== "number" || !tex.startsWith(undefinedCs[1], at)) return;
      tex = tex.slice(0, at) + tex.slice(skipGroups(tex, at + undefinedCs[1].length));
    }
  }
}

/** Verdict with the preamble's macros defined first. */
function withPreamble(record) {
  const macros = {};
  definePreamble(record.preamble, macros);
  return accepts(record.tex, { displayMode: record.display, macros });
}

const lines = readFileSync(0, "utf8").split("\n").filter((line) => line.trim());
const out = [];
for (const line of lines) {
  const record = JSON.parse(line);
  const bare = accepts(record.tex, { displayMode: record.display });
  const verdict = record.preamble ? withPreamble(record) : bare;
  out.push(JSON.stringify({ ...record, katex: verdict, katex_bare: bare }));
}
process.stdout.write(out.join("\n") + (out.length ? "\n" : ""));
process.stderr.write(`katex ${katex.version}: ${out.length} formulas\n`);
