"""Links to a notebook's own sections, from Jupyter's heading ids to the page's.

Jupyter (the classic notebook, JupyterLab, nbconvert) gives a heading the id of its
text with spaces as ``-``, case kept: a notebook's hand-made table of contents links
``[Asking for help](#Asking-for-Help)``. The page's headings have the site's ids
(``asking-for-help``, as in a ``.md`` post), so such a link would land nowhere and
``check`` would fail it. A link whose target is not the site's spelling but names a
heading of the notebook once slugified is pointed at that heading; a target the
notebook defines itself (``<a id="Foo">``) is left alone.
"""

from __future__ import annotations

import re

from site_builder.slug import slugify

_ATX = re.compile(r"^ {0,3}#{1,6}[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$")
SETEXT = re.compile(r"^ {0,3}(?:=+|-+)[ \t]*$")  # a setext heading's underline
_LINK = re.compile(r"""(\]\(\s*<?#|\bhref=["']#)([^)\s"'>]+)""")
_DEFINED = re.compile(r"""\b(?:id|name)\s*=\s*["']([^"']+)["']""")
_MARKUP = re.compile(r"[*_`]+|<[^>]*>")


def section_links(lines: list[str]) -> list[str]:
    """``lines`` (the notebook's Markdown, one list item a line) with Jupyter-style
    ``#Heading-Text`` targets rewritten to the site's heading ids; lines are not added
    or removed, so messages keep their cell and line."""
    text = "\n".join(lines)
    if "#" not in text or not _LINK.search(text):
        return lines
    headings = {slugify(_MARKUP.sub("", title)) for title in _titles(lines)}
    defined = set(_DEFINED.findall(text))

    def target(match: re.Match[str]) -> str:
        name = match.group(2)
        site = slugify(name)
        if name == site or name in defined or site not in headings:
            return match.group(0)
        return match.group(1) + site

    return [_LINK.sub(target, line) if "#" in line else line for line in lines]


def _titles(lines: list[str]) -> list[str]:
    titles = []
    for number, line in enumerate(lines):
        atx = _ATX.match(line)
        if atx:
            titles.append(atx.group(1))
        elif number and SETEXT.match(line) and lines[number - 1].strip():
            titles.append(lines[number - 1].strip())
    return titles
