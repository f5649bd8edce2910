"""Post titles with math: ``Why $\\sqrt{d}$ scaling`` is MathML where a title is shown as
HTML (the post's heading, listings, the archive, the older/newer links) and text where
only text fits (``<title>``, the feed, search, metadata, the APA reference).

As text, a simple formula is written in Unicode (``$\\alpha$-entmax`` with a Greek alpha);
any other keeps its LaTeX without the dollars, as Pandoc writes a title's math in
``<title>``. A formula that does not convert is shown as its source, dollars and all,
which ``check`` then reports as a visible ``$``. The site's ``math.macros`` apply; a
post's own macros are defined in its body, after the title.

Only a title with a ``$`` imports the math engine: most sites never do here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache
from html import escape

from site_builder.fonts import math_characters

# An inline formula as the body's math rules find one: ``$`` that opens before a non-space
# and closes after one, not before a digit (``$5 and $10`` is no formula). Tables use it too.
FORMULA = re.compile(r"(?<![\\$])\$(?=[^\s$])((?:\\.|[^$\\])+?)(?<=[^\s\\])\$(?!\d)")
_COMMAND = re.compile(r"\\([A-Za-z]+|.)")
_FONT = re.compile(
    r"\\(?:math(?:bb|rm|bf|cal|it|sf|tt|frak|scr)|text(?:rm|sf|bf|it|tt|up|normal)?"
    r"|operatorname|boldsymbol|bm)\{([^{}]*)\}|[{}]"
)
_SQRT = re.compile(r"\\sqrt\{(\w)\}")
_GREEK = ("alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota",
          "kappa", "lambda", "mu", "nu", "xi", "pi", "rho", "sigma", "tau", "upsilon", "phi",
          "chi", "psi", "omega")  # fmt: skip
_GREEK_LETTERS = (
    "\u03b1\u03b2\u03b3\u03b4\u03f5\u03b6\u03b7\u03b8\u03b9\u03ba\u03bb\u03bc"
    "\u03bd\u03be\u03c0\u03c1\u03c3\u03c4\u03c5\u03d5\u03c7\u03c8\u03c9"
)
_SYMBOLS = {
    **dict(zip(_GREEK, _GREEK_LETTERS, strict=True)),
    **{name.capitalize(): chr(ord(char) - 32) for name, char in (
        ("gamma", "\u03b3"), ("delta", "\u03b4"), ("theta", "\u03b8"), ("lambda", "\u03bb"),
        ("xi", "\u03be"), ("pi", "\u03c0"), ("sigma", "\u03c3"), ("upsilon", "\u03c5"),
        ("phi", "\u03c6"), ("psi", "\u03c8"), ("omega", "\u03c9"))},
    "varepsilon": "\u03b5", "vartheta": "\u03d1", "varphi": "\u03c6", "ell": "\u2113",
    "infty": "\u221e", "cdot": "\u00b7", "times": "\u00d7", "to": "\u2192",
    "rightarrow": "\u2192", "leftarrow": "\u2190", "leq": "\u2264", "le": "\u2264",
    "geq": "\u2265", "ge": "\u2265", "neq": "\u2260", "ne": "\u2260", "approx": "\u2248",
    "sim": "\u223c", "pm": "\u00b1", "in": "\u2208", "partial": "\u2202", "nabla": "\u2207",
    "sum": "\u2211", "prod": "\u220f", "int": "\u222b", "ldots": "\u2026", "dots": "\u2026",
    "cdots": "\u22ef", "log": "log", "exp": "exp", "max": "max", "min": "min",
    ",": " ", " ": " ", ";": " ", "!": "", "%": "%", "$": "$", "&": "&", "#": "#", "_": "_",
    "|": "\u2016", "lVert": "\u2016", "rVert": "\u2016", "mid": "|",
}  # fmt: skip


def has_math(title: str) -> bool:
    return "$" in title and FORMULA.search(title) is not None


@lru_cache(maxsize=4096)
def title_html(title: str, macros: tuple[tuple[str, str], ...] = ()) -> str:
    """The title as HTML (escaped), each formula as inline MathML."""
    if not has_math(title):
        return escape(title, quote=False)
    from site_builder.markdown.math.engine import MathError
    from site_builder.markdown.math.formula import render_formula

    def formula(match: re.Match[str]) -> str:
        try:
            return render_formula(match.group(1), False, macros)[0]
        except MathError:
            return escape(match.group(0), quote=False)

    return map_spans(title, lambda text: escape(text, quote=False), formula)


def map_spans(
    title: str, text: Callable[[str], str], formula: Callable[[re.Match[str]], str]
) -> str:
    """``title`` with each ``$...$`` formula through ``formula`` and the text around them
    through ``text`` (which sees every stretch, the empty ones too)."""
    parts, at = [], 0
    for match in FORMULA.finditer(title) if "$" in title else ():
        parts += [text(title[at : match.start()]), formula(match)]
        at = match.end()
    return "".join(parts) + text(title[at:])


@lru_cache(maxsize=4096)
def title_text(title: str) -> str:
    """The title as plain text: simple formulas in Unicode, others as LaTeX."""
    if not has_math(title):
        return title
    return FORMULA.sub(_formula_text, title)


def _formula_text(match: re.Match[str]) -> str:
    latex = match.group(1)
    text = _FONT.sub(lambda m: m.group(1) or "", _SQRT.sub("\u221a\\1", latex))
    text = _COMMAND.sub(lambda m: _SYMBOLS.get(m.group(1), m.group(0)), text)
    return latex if re.search(r"[\\^_]", text) else text


def math_chars(titles: Iterable[str], macros: tuple[tuple[str, str], ...] = ()) -> str:
    """The characters the titles' formulas draw, for the math font's subset."""
    return "".join(sorted(math_characters(title_html(t, macros) for t in titles if has_math(t))))
