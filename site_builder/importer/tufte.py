"""Tufte-Jekyll's Liquid tags (its ``_plugins/*.rb``), with their meaning here.

- ``{% math %}...{% endmath %}`` and ``{% m %}...{% em %}``: TeX that reached MathJax
  verbatim, display and inline;
- ``{% sidenote 'id' 'text' %}`` is a numbered note (a footnote, drawn in the margin),
  ``{% marginnote 'id' 'text' %}`` an unnumbered one (an aside);
- ``{% newthought 'In this post' %}`` opens a section in small capitals: its words stay
  where they were (the tag was their only copy);
- ``{% maincolumn 'path' 'caption' %}``, ``{% fullwidth 'path' 'caption' %}`` and
  ``{% marginfigure 'id' 'path' 'caption' %}`` are figures;
- ``{% epigraph 'text' 'author' 'source' %}`` is a quotation with its attribution.
"""

from __future__ import annotations

import re
from re import Match

from site_builder.importer.common import PostContext, comment_out
from site_builder.importer.text import Text

MATH = re.compile(r"(?s)\{%-?\s*(math|m)\s*-?%\}(.*?)\{%-?\s*(?:endmath|em)\s*-?%\}")
_QUOTED = r"""(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")"""
NOTE = re.compile(
    r"""(?s)\{%-?\s*(sidenote|marginnote)\s+(?:'[^']*'|"[^"]*"|[^\s'"%]+)\s+"""
    rf"""{_QUOTED}\s*-?%\}}"""
)
# Any other Tufte tag: its name, then its quoted arguments.
TAG = re.compile(
    r"""(?s)\{%-?\s*(newthought|maincolumn|fullwidth|marginfigure|epigraph)\s+"""
    r"""((?:(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")\s*)+)-?%\}"""
)
_ARGUMENT = re.compile(_QUOTED)


def convert(text: Text, ctx: PostContext) -> None:
    """Every Tufte tag above, once code is masked."""
    text.sub(MATH, lambda m, _l: _math(m.group(1), m.group(2)))
    text.sub(NOTE, lambda m, _l: _note(m.group(1), m.group(2) or m.group(3) or ""))

    def tag(match: Match[str], line: int) -> str:
        name = match.group(1)
        args = [" ".join((a or b).split()) for a, b in _ARGUMENT.findall(match.group(2))]
        if name == "newthought":
            return args[0]
        if name == "epigraph":
            quote, by = args[0], ", ".join(f"*{a}*" if i else a for i, a in enumerate(args[1:]))
            return f"\n\n> {quote}\n>\n> — {by}\n\n" if by else f"\n\n> {quote}\n\n"
        image = args[1:] if name == "marginfigure" else args  # a margin figure's id first
        path, caption = [*image, "", ""][:2]
        local = ctx.assets.local(path) if path else None
        if local is None:
            ctx.notes.add(line, f"{name} {path!r}: file not found; left out")
            return comment_out(match.group(0))
        figure = f"![{caption}]({local}){{#{ctx.figure_id(local)}}}" if caption else f"![]({local})"
        return f"\n\n{figure}\n\n"

    text.sub(TAG, tag)


def _math(tag: str, tex: str) -> str:
    if tag == "math":
        return "\n$$\n" + tex.strip() + "\n$$\n"
    return "$$" + " ".join(tex.split()) + "$$"


def _note(tag: str, note: str) -> str:
    """A sidenote as an inline footnote (drawn in the margin, numbered), a margin note as
    an aside (in the margin, unnumbered), as Tufte-Jekyll drew them."""
    note = " ".join(note.split())
    return f"^[{note}]" if tag == "sidenote" else f"[{note}]{{.aside}}"
