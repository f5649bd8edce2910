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

import re
from pathlib import Path
from urllib.parse import unquote

from site_builder.errors import BuildError
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


def notebook_markdown(path: Path, raw: str) -> str:
    """The Markdown post the build makes of a notebook (read and validated by nbformat,
    as ``importer.notebooks`` and the build read it): its front matter as YAML, then its
    cells (a front matter cell is not among them); "" when it does not load (``import``
    reported that already)."""
    from site_builder.notebooks import loads_notebook

    try:  # import never runs a notebook: its stored outputs are what it has
        source = loads_notebook(raw, path, cwd=path.parent, run=lambda notebook, _key: notebook)
    except BuildError:
        return ""
    return source.text


def ids_of(path: Path, text: str) -> set[str]:
    """The ids of a written post or notebook: of its body (its front matter would parse
    as a heading)."""
    markdown = notebook_markdown(path, text) if path.suffix == ".ipynb" else text
    return ids(frontmatter.split(markdown, PostNotes(path)).body)


def fragment(value: str, known: set[str]) -> str:
    """The id here of the heading ``value`` named on the old page, else ``value``."""
    if unquote(value) in known:
        return value
    slug = slugify(unquote(value))
    return slug if slug in known else value


def rewrite(text: str, known: set[str]) -> str:
    """``text`` with each in-page link re-aimed at the heading it meant, where known."""
    return IN_PAGE.sub(lambda m: m.group(1) + fragment(m.group(2), known), text)
