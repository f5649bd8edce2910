"""Edits on math-core's MathML, each for a defect seen in Chromium or the validator.

Primes, after the base instead of in a superscript. math-core writes ``f'`` as
``<msup><mi>f</mi><mo>&#x2032;</mo></msup>``, as TeX does; but TeX's prime glyph
is made to be raised, while the Unicode prime of an OpenType math font (U+2032)
already sits high. Chromium shrinks it to script size and raises it again: a
speck above the ``f``, far from ``(x)`` (Pagella Math's ``ssty`` variant, which
would fix it, is not applied). MathML Core's advice is to put the prime after its
base, so ``f'`` becomes ``<mrow><mi>f</mi><mo>&#x2032;</mo></mrow>`` and ``x'_i``
becomes ``<msub><mrow><mi>x</mi><mo>&#x2032;</mo></mrow><mi>i</mi></msub>``.

Integrals, marked ``largeop``. math-core writes ``<mo>∫</mo>`` and leaves the size
to the operator dictionary, and a display integral was seen drawn at text size in
Chromium (issue 25; an integral after ``=`` is not first in its row, so the
dictionary's prefix entry may not apply). ``largeop="true"`` says what TeX's
``\\int`` is, a large operator, whatever its place: in display style the browser takes
the font's display variant, and in inline math (not display style) the attribute
changes nothing. The limits stay beside it, where TeX sets an integral's.

``scriptlevel`` on ``<mtable>``: MathML Core allows it on every element, the
W3C validator's MathML only on ``<mstyle>``. A table at the top of display math
is at level 0 anyway, so the attribute goes; elsewhere (a matrix in a script,
whose cells TeX sets at text size) the table is wrapped in an ``<mstyle>`` that
says the same.
"""

from __future__ import annotations

import re

PRIMES = "\u2032\u2033\u2034\u2057"  # prime, double, triple, quadruple
# A script that is nothing but primes, as the last child of <msup> or <msubsup>.
_PRIME_SCRIPT = re.compile(r"<mo[^>]*>([" + PRIMES + r"]+)</mo></(msup|msubsup)>")
_TAG = re.compile(r"<(/?)([a-z]+)[^>]*?(/?)>")
_PRIME_MO = '<mo lspace="0" rspace="0">{}</mo>'


# The integral signs (U+222B to U+2233, and the ⨋ to ⨜ block) as operators.
_INTEGRAL = re.compile(r"<mo((?: [a-z]+=\"[^\"]*\")*)>([\u222b-\u2233\u2a0b-\u2a1c])</mo>")
_TABLE_LEVEL = re.compile(r'<mtable( displaystyle="\w+")? scriptlevel="(\d)"([^>]*)>')


def fix_output(mathml: str) -> str:
    """Each edit only when its construct is present (most formulas have none)."""
    if any(p in mathml for p in PRIMES):
        mathml = fix_primes(mathml)
    if _INTEGRAL.search(mathml):
        mathml = _INTEGRAL.sub(r'<mo largeop="true"\1>\2</mo>', mathml)
    if "<mtable" in mathml:
        mathml = fix_table_levels(mathml)
    return mathml


def fix_table_levels(mathml: str) -> str:
    while match := _TABLE_LEVEL.search(mathml):
        display, level, rest = match.groups()
        table = f"<mtable{display or ''}{rest}>"
        if 'style="width: 100%"' in rest:  # a numbered or full-width environment: level 0
            mathml = mathml[: match.start()] + table + mathml[match.end() :]
            continue
        close = _closing(mathml, match.end(), "mtable")
        if close is None:
            return mathml
        mathml = (
            f'{mathml[: match.start()]}<mstyle scriptlevel="{level}">{table}'
            f"{mathml[match.end() : close]}</mstyle>{mathml[close:]}"
        )
    return mathml


def _closing(mathml: str, start: int, kind: str) -> int | None:
    """The offset just past the ``</kind>`` that closes the element opened before ``start``."""
    depth = 1
    for tag in _TAG.finditer(mathml, start):
        closing, name, empty = tag.groups()
        if name != kind or empty:
            continue
        depth += -1 if closing else 1
        if depth == 0:
            return tag.end()
    return None


def fix_primes(mathml: str) -> str:
    """Move every prime superscript onto its base's line."""
    while match := _PRIME_SCRIPT.search(mathml):
        primes, kind = match.groups()
        start = _opening(mathml, match.start(), kind)
        if start is None:  # not ours to understand: leave it as it was
            return mathml
        open_end = mathml.index(">", start) + 1
        children = _children(mathml[open_end : match.start()])
        prime = _PRIME_MO.format(primes)
        if kind == "msup" and len(children) == 1:
            new = f"<mrow>{children[0]}{prime}</mrow>"
        elif kind == "msubsup" and len(children) == 2:
            new = f"<msub><mrow>{children[0]}{prime}</mrow>{children[1]}</msub>"
        else:
            return mathml
        mathml = mathml[:start] + new + mathml[match.end() :]
    return mathml


def _opening(mathml: str, end: int, kind: str) -> int | None:
    """Where the ``<kind>`` element that closes just after ``end`` opens."""
    depth = 0
    for tag in reversed(list(_TAG.finditer(mathml, 0, end))):
        closing, name, empty = tag.groups()
        if name != kind or empty:
            continue
        if closing:
            depth += 1
        elif depth == 0:
            return tag.start()
        else:
            depth -= 1
    return None


def _children(inner: str) -> list[str]:
    """The top-level elements of a fragment of well-formed MathML."""
    out: list[str] = []
    depth = 0
    start = 0
    for tag in _TAG.finditer(inner):
        closing, _, empty = tag.groups()
        if depth == 0 and not closing:
            start = tag.start()
        if empty:
            pass
        elif closing:
            depth -= 1
        else:
            depth += 1
        if depth == 0:
            out.append(inner[start : tag.end()])
    return out
