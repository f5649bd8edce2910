"""Quarto posts: mostly this site's syntax already; executable cells and callouts differ.

A ```` ```{python} ```` cell is code Quarto ran at render time; the importer
cannot run it, so it is kept as a plain code block (its output is lost) and
reported. Callouts become block quotes with their title in bold.
"""

from __future__ import annotations

import re
from re import Match

from site_builder.importer import markup
from site_builder.importer.common import PostContext
from site_builder.importer.text import Text

CELL = re.compile(r"(?m)^([ \t]*)(`{3,})\{(\w+)([^}\n]*)\}[ \t]*$")
CELL_OPTION = re.compile(r"(?m)^#\|.*\n")
CALLOUT = re.compile(r"(?ms)^:::+\s*\{\.callout-(\w+)([^}\n]*)\}[ \t]*\n(.*?)^:::+[ \t]*$")


def convert(text: Text, ctx: PostContext) -> None:
    def cell(match: Match[str], line: int) -> str:
        indent, ticks, lang = match.group(1), match.group(2), match.group(3)
        ctx.notes.add(line, f"executable {{{lang}}} cell kept as code; its output is not included")
        return f"{indent}{ticks}{lang}"

    text.sub(CELL, cell)
    markup.mask_code(text)
    markup.normalise_math(text, ctx.notes, kramdown=False, backslash=False)
    markup.mask_math(text, ctx.notes, mathjax=False)

    def callout(match: Match[str], _line: int) -> str:
        kind, attrs, body = match.group(1), match.group(2), match.group(3)
        title = re.search(r"""title=["']([^"']*)["']""", attrs)
        heading = title.group(1) if title else kind.capitalize()
        lines = [f"**{heading}.**", *body.strip("\n").split("\n")]
        return "\n".join(("> " + line).rstrip() for line in lines)

    text.sub(CALLOUT, callout)
