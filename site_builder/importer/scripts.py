"""The old site's own scripts that may configure its math, found as the page found them.

A layout's ``<script src>``, the modules a script imports (by a relative path or the
``@/`` alias of ``src/``, with or without its extension), a JavaScript generator's
configuration (Astro's, Gatsby's, Docusaurus's: their KaTeX options), and, failing
those, any small script of the site's own that configures MathJax or KaTeX. ``macros``
reads each for its ``macros`` objects.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from site_builder.importer.assets import untemplate
from site_builder.importer.jsobject import decode

SCRIPT_SRC = re.compile(r"""(?is)<script\b[^>]*?\bsrc\s*=\s*(["'])(.*?)\1""")
LIBRARY_SIZE = 64_000  # a vendored library (KaTeX, MathJax, jQuery) is larger than a config
# ``import "./katex-setup.js"`` in a script the page loads as a module, or a generator's
# configuration importing ``./macros`` or ``../x.ts``, or by the ``@/`` and ``~/`` aliases
# of ``src/`` (Astro, Next.js, Vite).
JS_IMPORT = re.compile(
    r"""(?m)^\s*(?:import|export)\s+(?:[^'";]*?\bfrom\s+)?["']((?:\.{1,2}|[@~])/[^"']+)["']"""
)
SCRIPTS = (".js", ".mjs", ".cjs", ".ts", ".mts")
# JavaScript generators' configurations: their Markdown plugins' KaTeX options.
GENERATOR_CONFIGS = (
    "astro.config.mjs", "astro.config.ts", "gatsby-config.js", "gatsby-config.ts",
    "docusaurus.config.js", "docusaurus.config.ts", "quartz.config.ts", "next.config.js",
    "next.config.mjs", ".eleventy.js", "eleventy.config.js", "svelte.config.js",
)  # fmt: skip
# A script of the site's own that configures MathJax or KaTeX, wherever the page loads it
# from (Hugo's asset pipeline, a bundler): read after the ones a layout names.
MATH_CONFIG = re.compile(
    r"renderMathInElement|katex\.render|MathJax\s*=|MathJax\.Hub\.Config|rehype-?[Kk]atex"
    r"|rehype-?[Mm]athjax|[Kk]atex[Mm]acros"
)


def loaded(text: str, page: Path, source: Path) -> list[Path]:
    """The site's own script files a layout or header loads: a ``macros`` object there
    counts as if it were written in the page. A library (``katex.min.js``) defines none."""
    found = []
    for match in SCRIPT_SRC.finditer(text):
        src = untemplate(match.group(2)).split("?")[0].split("#")[0].strip()
        if not src or re.match(r"(?i)^[a-z][a-z0-9+.-]*:|^//", src) or src.endswith(".min.js"):
            continue
        bases = (page.parent, source, source / "static", source / "assets")
        name = src.lstrip("/")
        for base in bases if not src.startswith("/") else bases[1:]:
            candidate = base / name
            if candidate.suffix == ".js" and candidate.is_file():
                if candidate.stat().st_size < LIBRARY_SIZE:
                    found.append(candidate)
                break
    return found


def imported(text: str, script: Path, source: Path) -> list[Path]:
    """The scripts a module imports by a relative path or the ``@/`` alias of ``src/``,
    with or without its extension (TypeScript leaves it out)."""
    found = []
    for match in JS_IMPORT.finditer(text):
        spec = match.group(1)
        base = source / "src" / spec[2:] if spec[0] in "@~" else script.parent / spec
        # Spelled as the other files are (not resolved), so one read each and notes
        # relative to the old site.
        stem = Path(os.path.normpath(base))
        for candidate in (stem, *(stem.with_name(stem.name + s) for s in SCRIPTS)):
            if candidate.suffix in SCRIPTS and candidate.is_file():
                if candidate.stat().st_size < LIBRARY_SIZE:
                    found.append(candidate)
                break
    return found


def math_scripts(source: Path) -> list[Path]:
    """The site's own small scripts that configure MathJax or KaTeX, in path order; a
    built site, dependencies and minified libraries are not the site's own."""
    skip = {"_site", "public", "node_modules", "vendor", "resources"}
    found = []
    for folder, subfolders, names in os.walk(source):
        subfolders[:] = sorted(d for d in subfolders if d not in skip and not d.startswith("."))
        for name in sorted(names):
            path = Path(folder) / name
            if not name.endswith(SCRIPTS) or name.endswith((".min.js", ".d.ts")):
                continue
            try:
                if not path.is_file() or path.stat().st_size >= LIBRARY_SIZE:
                    continue
                text = path.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            if MATH_CONFIG.search(text):
                found.append(path)
    return found


# MathJax's ``inlineMath: [['$','$'], ['\\(','\\)']]`` (versions 2 and 3) and KaTeX
# auto-render's ``delimiters: [{left: '$', right: '$', display: false}, ...]``.
INLINE_MATH = re.compile(r"""\binlineMath["']?\s*[:=]\s*\[""")
KATEX_DELIMITERS = re.compile(r"""\bdelimiters["']?\s*[:=]\s*\[""")
QUOTED = re.compile(r"""(["'])((?:\\.|(?!\1).)*)\1""")
KATEX_INLINE = re.compile(
    r"""\bleft["']?\s*:\s*(["'])((?:\\.|(?!\1).)*)\1[^{}]*?\bdisplay["']?\s*:\s*false"""
)


def inline_openers(text: str) -> set[str]:
    """The openers of inline formulas a MathJax or KaTeX configuration in ``text`` lists.

    Why: neither reads ``$...$`` unless told to (MathJax's default is ``\\(...\\)`` alone;
    KaTeX's auto-render adds ``$$`` and ``\\[``), so on a Jekyll site whose configuration
    lists other openers, the dollar signs in its posts were text on the old page.
    """
    found: set[str] = set()
    for match in INLINE_MATH.finditer(text):
        strings = [decode(q[1])[0] for q in QUOTED.findall(_bracketed(text, match.end() - 1))]
        found.update(strings[0::2])
    for match in KATEX_DELIMITERS.finditer(text):
        found.update(
            decode(m[2])[0] for m in KATEX_INLINE.finditer(_bracketed(text, match.end() - 1))
        )
    return found


def _bracketed(text: str, start: int) -> str:
    """The ``[...]`` that opens at ``start``, brackets in strings not counted."""
    depth, i = 0, start
    while i < len(text):
        char = text[i]
        if char in "\"'":
            end = QUOTED.match(text, i)
            i = end.end() if end else i + 1
            continue
        depth += {"[": 1, "]": -1}.get(char, 0)
        i += 1
        if depth == 0:
            break
    return text[start:i]
