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
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.core import publish_doctree
from docutils.readers import standalone

from site_builder.importer import nikola, pelican, rst_directives
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
    header = nikola.header(lines)
    meta = dict(header) if header else nikola.meta_file(path)
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
