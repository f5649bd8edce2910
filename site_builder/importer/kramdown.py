"""kramdown's own syntax that CommonMark reads differently: hard line breaks, and ``$$``
in a raw HTML paragraph.

kramdown ends a line with ``\\\\`` to break it; CommonMark reads ``\\\\`` as an escaped
backslash, which would show. CommonMark's own hard break is one backslash before the
line's end; at the end of a paragraph it breaks nothing (and a lone ``\\`` would
show), so there it goes.

kramdown leaves a raw ``<p>`` alone, so MathJax found ``$$...$$`` in it and set it as
display math; kramdown's own rule (``$$`` beside text is inline) never saw it.
"""

from __future__ import annotations

import re
from re import Match

from site_builder.importer.text import Text

# Two backslashes (not four: an escaped backslash, then one more) ending a line.
HARD_BREAK = re.compile(r"(?m)(?<!\\)\\\\[ \t]*$(\n[ \t>]*(?=\S))?")
# ``<p>$$...$$</p>``: a paragraph holding only a display formula, on one line or several.
HTML_DISPLAY = re.compile(
    r"(?im)^([ \t]*)<p(?:\s[^>]*)?>\s*(\$\$(?!\$).+?\$\$)\s*</p\s*>[ \t]*$", re.S
)


def hard_breaks(text: Text) -> None:
    """``line\\\\`` as CommonMark's hard break ``line\\``; none at a paragraph's end.

    Run once code and math are masked: ``\\\\`` ending a line of a formula is its row end.
    """

    def hard_break(match: Match[str], _line: int) -> str:
        return "\\" + match.group(1) if match.group(1) else ""

    text.sub(HARD_BREAK, hard_break)


def html_display(text: Text) -> None:
    """A raw ``<p>`` holding only ``$$...$$`` as the formula on lines of its own: display
    math (what MathJax drew), which the kramdown rule that follows keeps display."""
    text.sub(HTML_DISPLAY, lambda m, _l: f"\n{m.group(1)}{m.group(2)}\n")


# ``$$$$``: an empty formula, which MathJax set as nothing. Pandoc export leaves one on each
# side of a ``\begin{equation}``, which MathJax found and set by itself.
EMPTY_MATH = re.compile(r"(?<![\\$])\$\$\$\$(?!\$)")


def empty_math(text: Text) -> None:
    """Drop ``$$$$`` before kramdown's ``$$`` rule pairs its dollars with the wrong ones."""
    text.sub(EMPTY_MATH, lambda m, _l: " ")
