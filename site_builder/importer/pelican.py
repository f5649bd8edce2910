"""Pelican's link placeholders and Python-Markdown's CodeHilite, which CommonMark reads as text.

- ``![plot]({static}/images/plot.png)``, ``{attach}`` and ``{filename}`` (or the old
  ``|filename|``): Pelican's placeholders for a file of the site, from its content
  folder with a leading ``/`` or else from the post's folder. The placeholder goes
  and the file is found as any other image; a ``{filename}`` to another post (a
  Markdown or reST source) links to that post here.
- ``{tag}x`` and ``{category}x`` link to the tag's page (a category is a tag here),
  ``{index}`` to the home page.
- An indented code block whose first line is ``:::python`` or ``#!python``
  (CodeHilite, in Pelican and MkDocs) names its language: a fenced block here, so it
  is highlighted and the marker line is not shown as code.
"""

from __future__ import annotations

import re
from re import Match
from typing import Any

from site_builder.importer.common import page_link
from site_builder.importer.text import Text
from site_builder.slug import slugify

# In a Markdown link or image target, or an HTML ``src``/``href``.
_TARGET = r"(\]\(\s*<?|\b(?:src|href)\s*=\s*[\"'])"
FILE_LINK = re.compile(_TARGET + r"[{|](?:static|attach|filename)[}|]([^)\s\"'>]*)")
TAXONOMY_LINK = re.compile(_TARGET + r"[{|](tag|category|index)[}|]([^)\s\"'>#]*)")
_SOURCES = (".md", ".markdown", ".mdown", ".rst", ".ipynb", ".html")
# CodeHilite: a blank line, then an indented block whose first line names the language.
CODEHILITE = re.compile(
    r"(?m)(?:^|(?<=\n\n))((?: {4}|\t))(?::::|#!)([\w+#.-]+)[ \t]*\n"
    r"((?:(?:[ \t]*\n)*\1[^\n]*(?:\n|$))*)"
)


def convert(text: Text) -> None:
    """Pelican's placeholders and CodeHilite's language lines, before any other rewrite."""
    text.sub(FILE_LINK, lambda m, _l: m.group(1) + _file(m.group(2)))
    text.sub(TAXONOMY_LINK, lambda m, _l: m.group(1) + _taxonomy(m.group(2), m.group(3)))
    text.sub(CODEHILITE, _fenced)


def _file(target: str) -> str:
    """A file of the site: a post's page, or the file itself (found as any image is)."""
    path, _, anchor = target.partition("#")
    if path.lower().endswith(_SOURCES):
        return page_link(path) + (f"#{anchor}" if anchor else "")
    return target


def _taxonomy(kind: str, name: str) -> str:
    return "../../" if kind == "index" else f"../../tags/{slugify(name)}/"


def _fenced(match: Match[str], _line: int) -> str:
    indent, language, body = match.group(1), match.group(2), match.group(3)
    lines = [
        line[len(indent) :] if line.startswith(indent) else line.lstrip()
        for line in body.rstrip("\n").split("\n")
    ]
    end = "\n" if body.endswith("\n") else ""
    return f"```{language.lower()}\n" + "\n".join(lines) + f"\n```{end}"


# Pelican's (and MultiMarkdown's) metadata: ``Title: x`` lines up to the first blank line.
METADATA_LINE = re.compile(r"^([A-Za-z][\w-]*):[ \t]*(.*?)[ \t]*$")
PELICAN_KEYS = {"category": "categories", "modified": "lastmod", "authors": "author"}


def metadata(lines: list[str]) -> tuple[dict[str, Any], int] | None:
    """A file that opens with ``Title:``/``Date:`` lines and a blank line (Pelican): its
    metadata, and the index of the blank line. A first paragraph that only looks so
    (``Note: ...``) names neither a title nor a date, and stays text."""
    end = next((i for i, line in enumerate(lines) if not line.strip()), len(lines))
    found = [METADATA_LINE.match(line) for line in lines[:end]]
    if not end or not all(found):
        return None
    meta: dict[str, Any] = {}
    for match in found:
        assert match is not None  # every line matched, above
        key = match.group(1).lower()
        meta[PELICAN_KEYS.get(key, key)] = match.group(2)
    if not {"title", "date"} & set(meta):
        return None
    if str(meta.get("status", "")).lower() == "draft":
        meta["draft"] = True
    return meta, end


# Pelican reads its metadata's keys in any case (``Title:``, ``Date:``).
CASELESS_KEYS = {"title", "date", "tags", "category", "slug", "summary", "status", "modified"}


def lower_keys(meta: dict[Any, Any]) -> dict[Any, Any]:
    """``Title``, ``Date``... as the lower-case keys they mean, where those are not given."""
    found = {k.lower(): k for k in meta if isinstance(k, str) and k.lower() in CASELESS_KEYS}
    renamed = {k: low for low, k in found.items() if k != low and low not in meta}
    if not renamed:
        return meta
    out = {renamed.get(k, k): v for k, v in meta.items()}
    if "category" in out and "categories" not in out and "category" in renamed.values():
        out["categories"] = out.pop("category")
    return out
