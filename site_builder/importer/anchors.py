"""A post's links to its own headings, pointed at the ids this site gives them.

Each generator makes a heading's id its own way: Hexo, Hugo and kramdown keep Chinese
as it is (``#机器字和字节序``, often percent-encoded), nbconvert keeps case and
punctuation (``#Fundamental-Matrix``). Here every id is ``slugify`` of the heading
(``ji-qi-zi-he-zi-jie-xu``, ``fundamental-matrix``), so such links were broken. A link
whose fragment names no heading here, but whose fragment slugified is one, is rewritten
to it; the rest (an explicit ``{#id}``, an anchor of raw HTML) stay as they were.

The ids here are the build's own (``markdown.heading_ids`` parses the written post as the
build does), so a second ``## X`` is ``x-1`` as on the page, and a ``# comment`` in a
code block is no heading.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import unquote

from site_builder.importer import frontmatter
from site_builder.importer.report import PostNotes
from site_builder.slug import slugify

_ID = re.compile(r"""\bid=["']([^"']+)["']""")
# ``](#frag)`` and ``href="#frag"`` (a notebook's JSON escapes the quote)
IN_PAGE = re.compile(r"""(\]\(\s*<?#|\bhref=\\?["']#)([^\s)"'<>\\]+)""")


def ids(markdown: str) -> set[str]:
    """The ids the build gives the headings of the Markdown body ``markdown``, and those
    set by hand in its raw HTML."""
    from site_builder.markdown import heading_ids  # markdown-it: paid for on first use

    return set(_ID.findall(markdown)) | set(heading_ids(markdown))


def notebook_markdown(raw: str) -> str:
    """A notebook's Markdown cells, one after another (for :func:`ids`)."""
    try:
        cells = json.loads(raw).get("cells", [])
    except (ValueError, AttributeError):
        return ""
    return "\n\n".join(
        "".join(c.get("source", "")) for c in cells if c.get("cell_type") == "markdown"
    )


def ids_of(path: Path, text: str) -> set[str]:
    """The ids of a written post: of its body (its front matter would parse as a heading),
    or a notebook's Markdown cells."""
    if path.suffix == ".ipynb":
        return ids(notebook_markdown(text))
    return ids(frontmatter.split(text, PostNotes(path)).body)


def fragment(value: str, known: set[str]) -> str:
    """The id here of the heading ``value`` named on the old page, else ``value``."""
    if unquote(value) in known:
        return value
    slug = slugify(unquote(value))
    return slug if slug in known else value


def rewrite(text: str, known: set[str]) -> str:
    """``text`` with each in-page link re-aimed at the heading it meant, where known."""
    return IN_PAGE.sub(lambda m: m.group(1) + fragment(m.group(2), known), text)
