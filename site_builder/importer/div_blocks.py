"""Indented ``<div>`` boxes, nested, whose text holds math: Markdown at the margin.

Theorem and proof boxes are often raw ``<div>`` blocks with their text indented inside,
boxes within boxes. kramdown left a block's text to the browser and MathJax found its
formulas; Eleventy's markdown-it has indented code turned off. Here (CommonMark) the
block would end at the first blank line and the indented text after it would be code.
So each such box's lines move back to the margin, level by level, and its opening and
closing tags stand apart, which makes its text Markdown. A box whose text holds no
math is left as it was. Lines keep their numbers but for the blank lines added.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from site_builder.importer.text import Text

OPEN = re.compile(r"^[ \t]*<(div|section|aside|blockquote)\b[^>]*>[ \t]*$", re.I)
PLACEHOLDER = re.compile("\x00\\d+\x00")
CLOSE = re.compile(r"^[ \t]*</(div|section|aside|blockquote)\s*>[ \t]*$", re.I)


def open_boxes(text: Text, holds_math: Callable[[str], bool]) -> None:
    """Every outermost box holding math, and the boxes inside it, set as Markdown."""
    lines = text.text.split("\n")
    pairs = _pairs(lines)
    outer = [(a, b) for a, b in pairs if not any(c < a and b < d for c, d in pairs)]
    chosen = [
        (a, b)
        for a, b in pairs
        if any(c <= a and b <= d and holds_math("\n".join(lines[c : d + 1])) for c, d in outer)
    ]
    if not chosen:
        return
    new = list(lines)
    for start, end in sorted(chosen):  # outer boxes first: the inner ones move with them
        body = [i for i in range(start + 1, end) if new[i].strip()]
        margin = min((len(new[i]) - len(new[i].lstrip(" \t")) for i in body), default=0)
        for i in range(start + 1, end):
            new[i] = new[i][margin:] if new[i].strip() else ""
            for placeholder in PLACEHOLDER.findall(new[i]):  # a display's own lines too
                text.rehide(placeholder, _dedent_by(margin))
        new[start] = new[start].strip() + "\n"  # the text after it is Markdown
        new[end] = "\n" + new[end].strip()
    edits, offset = [], 0
    for old, line in zip(lines, new, strict=True):
        if old != line:
            edits.append((offset, offset + len(old), line))
        offset += len(old) + 1
    text.splice(edits)


def _pairs(lines: list[str]) -> list[tuple[int, int]]:
    """(opening line, closing line) of each box whose tags stand on lines of their own."""
    stack: list[int] = []
    pairs = []
    for index, line in enumerate(lines):
        if OPEN.match(line):
            stack.append(index)
        elif CLOSE.match(line) and stack:
            pairs.append((stack.pop(), index))
    return pairs


def _dedent_by(margin: int) -> Callable[[str], str]:
    at_margin = re.compile(rf"(?m)^[ \t]{{0,{margin}}}")
    return lambda hidden: at_margin.sub("", hidden)
