"""A Pandoc definition whose text starts on the line under its colon.

Pandoc reads ``Term``, a line holding only ``:``, then lines indented by four as one
definition. This site's parser (markdown-it's deflist, as markdown-it-deflist) wants
the text after the colon, else the colon shows as text and the indented lines run on
as a paragraph (a code cell among them as its text): the first line moves up beside
its colon, and the lines under it stay the definition's.
"""

from __future__ import annotations

import re

from site_builder.importer.text import Text

EMPTY_MARKER = re.compile(r"(?m)^([ ]{0,3}:)[ \t]*\n(?:[ ]{4}|\t)[ \t]*(?=\S)")


def join_markers(text: Text) -> None:
    """``:`` alone on its line, its text indented under it: ``:   text``."""
    text.sub(EMPTY_MARKER, lambda m, _l: m.group(1) + "   ")
