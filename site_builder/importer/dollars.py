"""Math delimiters as the old page's text held them, where the source spells them otherwise.

A ``$$`` in a sentence that nothing closes: a dollar sign the old page showed as text.

MathJax looks for a formula's closing delimiter within one paragraph (one element of
the page); kramdown, Goldmark's passthrough and Pandoc look no further either. A ``$$``
with words on both sides and no other ``$$`` in its paragraph closed nothing there, and
the reader saw two dollar signs. Here it would pair with the next formula's ``$$``,
pages away, and turn the text between into math: it is escaped instead, and reported.
A ``$$`` at the start of a line is left alone: it opens a display formula, which may
hold blank lines (``markup.display`` removes them).

``&#92;(`` ... ``&#92;)``: a backslash written as an HTML character reference, so that
kramdown or Goldmark would not eat it. The browser decoded it, MathJax found ``\\(``
... ``\\)`` in the page's text and typeset a formula: it is one here too.
"""

from __future__ import annotations

import re

from site_builder.importer.report import PostNotes
from site_builder.importer.text import Text

PARAGRAPH = re.compile(r"(?s)(?:(?<=\n\n)|\A).+?(?=\n[ \t>]*\n|\Z)")
DOUBLE = re.compile(r"(?<![\\$])\$\$(?!\$)")
_BACKSLASH = r"&(?:#0*92|#[xX]0*5[cC]|bsol);"
ENTITY_DELIMITED = re.compile(rf"(?s){_BACKSLASH}(\(|\[)(.+?){_BACKSLASH}(\)|\])")
_CLOSING = {"(": ")", "[": "]"}


def entity_delimiters(text: Text) -> None:
    """``&#92;(x&#92;)`` as the ``\\\\(x\\\\)`` that ``markup.normalise_math`` makes a
    formula of (``\\\\[...\\\\]`` a display one), in every source format."""

    def spelled(match: re.Match[str], _line: int) -> str:
        opening, body, closing = match.groups()
        if _CLOSING[opening] != closing:
            return match.group(0)
        return f"\\\\{opening}{body}\\\\{closing}"

    text.sub(ENTITY_DELIMITED, spelled)


def escape_lone_doubles(text: Text, notes: PostNotes) -> None:
    """Escape a paragraph's unpaired ``$$`` when it stands inside a line of text: its only
    one, or the last of an odd number (kramdown pairs them from the left) when none of
    them stands at a line's edge, where it could open a display formula that goes on
    past a blank line."""
    edits = []
    for match in PARAGRAPH.finditer(text.text):
        body = match.group(0)
        found = list(DOUBLE.finditer(body))
        if len(found) % 2 == 0:
            continue
        inside = [_inside_a_line(body, m.start()) for m in found]
        if not inside[-1] or (len(found) > 1 and not all(inside)):
            continue
        where = match.start() + found[-1].start()
        notes.add(text.line(where), "a $$ that closes nothing was kept as text")
        edits.append((where, where + 2, "\\$\\$"))  # the lines around keep their numbers
    text.splice(edits)


def _inside_a_line(body: str, at: int) -> bool:
    """Text on both sides of the ``$$`` at ``at``, on its line."""
    before = body[body.rfind("\n", 0, at) + 1 : at]
    end = body.find("\n", at)
    after = body[at + 2 : len(body) if end < 0 else end]
    return bool(before.strip(" \t>") and after.strip())


# ``$$`` on a line, ``$$`` on the next, blank lines around: remark-math's (and kramdown's)
# empty display formula, which showed nothing. Left, it pairs with the next formula's
# ``$$`` and turns the prose between into math.
EMPTY_DISPLAY = re.compile(
    r"(?m)(?:\A|(?<=\n\n))[ \t>]*\$\$[ \t]*\n[ \t>]*\$\$[ \t]*(?=\n[ \t>]*\n|\n?\Z)"
)


def empty_displays(text: Text) -> None:
    """Drop empty display formulas before ``$$`` lines are paired."""
    text.sub(EMPTY_DISPLAY, lambda m, _l: "")
