"""reStructuredText posts (Pelican, Nikola, ABlog), read with docutils.

docutils parses the post into a doctree and ``rst_markdown`` writes that as this
site's Markdown. The front matter comes from where each tool keeps it:

- Pelican: the document's title, then a field list (docutils' docinfo: ``:date:``,
  ``:tags:``, ``:category:``, ``:slug:``, ``:summary:``, ``:status: draft``...);
- Nikola: ``.. title: X`` comment lines at the top, or a ``<name>.meta`` file beside
  the post holding them (or, in its oldest form, title, slug and date one a line);
- ABlog (Sphinx): a ``.. post:: 2020-01-31`` directive with ``:tags:`` and friends.

docutils must never print or raise: its messages go to the report with their line,
it reads no other file (``include``, ``csv-table :file:``) and no configuration. The
directives and roles of Pelican's plugins and of Sphinx that posts use
(``code-block`` with ``:linenos:``, ``youtube``, ``:ref:``, ``:cite:``, ``:eq:``) are
registered in a light form, so they come across rather than becoming errors.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.core import publish_doctree
from docutils.readers import standalone

from site_builder.importer import pelican, rst_directives
from site_builder.importer.report import PostNotes
from site_builder.importer.rst_markdown import Writer
from site_builder.importer.text import Text

SETTINGS = {
    "report_level": 5,  # nothing printed: every message is an observer's note
    "halt_level": 5,  # nothing raised, however bad the input
    "exit_status_level": 5,
    "file_insertion_enabled": False,  # a post reads no other file
    "raw_enabled": True,
    "_disable_config": True,  # nor the machine's docutils.conf
    "syntax_highlight": "none",  # code stays text: the build highlights it
    "smart_quotes": False,
    "input_encoding": "unicode",
    "language_code": "en",
    "traceback": True,
    "line_length_limit": 1_000_000,  # 10 000 by default: a post with a longer line was lost
}
# Nikola's ``.. key: value`` lines, and the comment lines a post may start with.
NIKOLA_LINE = re.compile(r"^\.\.\s+([A-Za-z][\w-]*):[ \t]*(.*?)\s*$")
NIKOLA_ZONE = re.compile(r"\s*\bUTC([+-]\d{1,2}:?\d{2})?\s*$")
NIKOLA_KEYS = {"category": "categories", "updated": "lastmod"}


@dataclass
class RstPost:
    """What a reST post brings: its front matter, its body and that body's first line."""

    meta: dict[str, Any]
    text: Text
    front: dict[str, Any]  # what the body says of the post (a ``contents`` directive: toc)


class _Reader(standalone.Reader):  # type: ignore[misc]
    """The standalone reader, whose document hands every message to ``sink``."""

    def __init__(self, sink: list[nodes.system_message]) -> None:
        super().__init__()
        self.sink = sink

    def new_document(self) -> nodes.document:
        document = super().new_document()
        document.reporter.attach_observer(self.sink.append)
        return document


def convert(
    raw: str, path: Path, notes: PostNotes, slug_of: Callable[[dict[str, Any]], str]
) -> RstPost:
    """The post at ``path`` (its text ``raw``) as front matter and a Markdown body;
    ``slug_of(meta)`` is its slug, which names its figures."""
    lines = raw.split("\n")
    header = _nikola_header(lines)
    meta = dict(header) if header else _meta_file(path)
    messages: list[nodes.system_message] = []
    settings = {**SETTINGS, "warning_stream": io.StringIO(), "doctitle_xform": not meta}
    doc = publish_doctree(
        raw, source_path=str(path), reader=_Reader(messages), settings_overrides=settings
    )
    meta = {**_docinfo(doc), **meta}
    for message in messages:
        if message["level"] >= 2:
            first = message.children[0].astext() if message.children else ""
            notes.add(message.get("line"), "reST: " + " ".join(first.split()))
    text = Text("")
    writer = Writer(notes, text, slug_of(meta))
    blocks = writer.document(doc)
    body, origin = [], []
    for line, block in blocks:
        body.append(block)
        origin += [line] * (block.count("\n") + 2)
    text.text = "\n\n".join(body) + "\n"
    text.origin = (origin or [1])[: text.text.count("\n") + 1]
    return RstPost(meta, text, writer.front)


def _nikola_header(lines: list[str]) -> dict[str, Any]:
    """Nikola's ``.. title: X`` lines opening the post (before any other text)."""
    meta: dict[str, Any] = {}
    for line in lines:
        found = NIKOLA_LINE.match(line)
        if found is None:
            if line.strip():
                break
            continue
        key, value = found.group(1).lower(), found.group(2)
        if value:
            meta[NIKOLA_KEYS.get(key, key)] = value
    return _nikola_meta(meta) if "title" in meta or "slug" in meta else {}


def _meta_file(path: Path) -> dict[str, Any]:
    """Nikola's ``post.meta`` beside ``post.rst``: ``.. key: value`` lines, or its first
    form, the title, the slug and the date one a line."""
    meta_path = path.with_suffix(".meta")
    try:
        lines = meta_path.read_text(encoding="utf-8").split("\n")
    except (OSError, UnicodeDecodeError):
        return {}
    found = _nikola_header(lines)
    if found:
        return found
    keys = ("title", "slug", "date", "tags", "link", "description")
    return _nikola_meta({k: v.strip() for k, v in zip(keys, lines, strict=False) if v.strip()})


def _nikola_meta(meta: dict[str, Any]) -> dict[str, Any]:
    """A ``draft`` tag (Nikola's older way) or ``status: draft`` as a draft; Nikola's
    ``2015-03-16 00:49:00 UTC+11:00`` as the offset it means."""
    if isinstance(meta.get("date"), str):
        meta["date"] = NIKOLA_ZONE.sub(lambda m: " " + (m.group(1) or "Z"), meta["date"])
    tags = [t.strip() for t in str(meta.get("tags", "")).split(",") if t.strip()]
    if "draft" in tags or str(meta.get("status", "")).lower() == "draft":
        meta["draft"] = True
    if tags:
        meta["tags"] = [t for t in tags if t != "draft"]
    return meta


def _docinfo(doc: nodes.document) -> dict[str, Any]:
    """The document's title and Pelican's field list (docinfo), or ABlog's ``post``."""
    meta: dict[str, Any] = {}
    title = doc.next_node(nodes.title) if doc.children else None
    if title is not None and title.parent is doc:
        meta["title"] = _plain(title)
    for info in list(doc.findall(nodes.docinfo)):
        for item in info.children:
            value: str | list[str]
            if isinstance(item, nodes.field):
                key, value = item.children[0].astext().lower(), _plain(item.children[1])
            elif isinstance(item, nodes.authors):
                key, value = "authors", [a.astext() for a in item.children]
            else:
                key, value = item.tagname, item.astext()
            meta[pelican.PELICAN_KEYS.get(key, key)] = value
        info.parent.remove(info)
    for post in list(doc.findall(rst_directives.ablog_post)):
        meta.update(post["meta"])
        post.parent.remove(post)
    if str(meta.get("status", "")).lower() == "draft":
        meta["draft"] = True
    for key in ("tags", "categories"):  # Pelican's lists: split at ``;`` if any, else ``,``
        listed = meta.get(key)
        if isinstance(listed, str):
            parts = listed.split(";" if ";" in listed else ",")
            meta[key] = [t.strip() for t in parts if t.strip()]
    return meta


def _plain(node: nodes.Element) -> str:
    """A title's or a field's text, its math as ``$x$`` (a title or description here
    renders it)."""
    parts = []
    for child in node.children:
        if isinstance(child, nodes.math):
            parts.append(f"${child.astext()}$")
        elif isinstance(child, nodes.Text):
            parts.append(child.astext())
        else:
            parts.append(_plain(child) + (" " if isinstance(child, nodes.paragraph) else ""))
    return "".join(parts).strip()


rst_directives.register()
