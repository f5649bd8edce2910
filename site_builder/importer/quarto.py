"""Quarto posts: mostly this site's syntax already; executable cells and callouts differ.

A ```` ```{python} ```` cell is code Quarto ran at render time; the importer
cannot run it, so it is kept as a plain code block (its output is lost) and
reported. Callouts, figures and theorems are this site's syntax too; other ``:::``
blocks (page layout) are unwrapped.
"""

from __future__ import annotations

import re
from re import Match

from site_builder.importer import divs, markup
from site_builder.importer.common import PostContext
from site_builder.importer.text import Text

CELL = re.compile(r"(?m)^([ \t]*)(`{3,})\{(\w+)([^}\n]*)\}[ \t]*$")
CELL_OPTION = re.compile(r"(?m)^#\|.*\n")


def convert(text: Text, ctx: PostContext) -> None:
    def cell(match: Match[str], line: int) -> str:
        indent, ticks, lang = match.group(1), match.group(2), match.group(3)
        ctx.notes.add(line, f"executable {{{lang}}} cell kept as code; its output is not included")
        return f"{indent}{ticks}{lang}"

    text.sub(CELL, cell)
    markup.mask_code(text)
    markup.normalise_math(text, ctx.notes, kramdown=False, backslash=False)
    markup.mask_math(text, ctx.notes, mathjax=False)

    divs.unwrap_unknown_divs(text, ctx.notes)
