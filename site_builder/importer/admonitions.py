"""Python-Markdown's admonitions (MkDocs, Material, Pelican) as this site's callouts.

``!!! note "Title"`` followed by lines indented by four spaces is an admonition;
pymdownx.details writes a collapsible one as ``???`` (``???+`` starts open), and
pymdownx.tabbed a content tab as ``=== "Title"`` (each tab is shown here, its
title in bold over its body).
CommonMark reads the same lines as a paragraph and an indented code block: the
reader would see ``!!! note`` and the body's formulas as code. Each becomes a
callout (``::: {.callout-note title="Title"}``) or a ``<details>`` with its
summary, its body moved back four spaces, so it is Markdown again. Nested ones
come out nested. Every line keeps its number: the body's lines are only moved
left, and the closing fence joins the last of them. A ``!!!`` inside fenced code
is code, left alone.
"""

from __future__ import annotations

import re
from re import Match

from site_builder.importer.divs import callout_kind
from site_builder.importer.markup import FENCE
from site_builder.importer.report import PostNotes
from site_builder.importer.text import Text

# The marker, the kind, more classes (``inline end``), an optional quoted title; then the
# body: indented lines, with blank lines only between them. pymdownx.tabbed's content tab
# (``=== "Python"``, ``===+``/``===!``) has a title and no kind.
_BODY = r"((?:(?:[ \t]*\n)*(?: {4}|\t)[^\n]*(?:\n|\Z))*)"
ADMONITION = re.compile(
    r'(?m)^(!!!|\?\?\?\+?|===[+!]?)[ \t]+(?:([\w-]+)((?:[ \t]+[\w-]+)*))?(?:[ \t]*"([^"\n]*)")?'
    r"[ \t]*\n" + _BODY
)
_INDENT = re.compile(r"(?m)^(?: {4}|\t)")
_DEPTH = 6  # nested admonitions come to the margin one level a pass


def admonitions(text: Text, notes: PostNotes) -> None:
    """Every admonition outside fenced code, as a callout or a ``<details>``."""
    for _ in range(_DEPTH):
        code = [m.span() for m in FENCE.finditer(text.text)]
        found = [
            m for m in ADMONITION.finditer(text.text)
            if not any(start <= m.start() < end for start, end in code)
        ]  # fmt: skip
        if not found:
            return
        edits: list[tuple[int, int, str]] = []
        for match in found:
            edits += _edits(match, text.line(match.start()), notes)
        text.splice(sorted(edits))


def _edits(match: Match[str], line: int, notes: PostNotes) -> list[tuple[int, int, str]]:
    marker, name, title = match.group(1), match.group(2) or "", match.group(4)
    if title is None:  # no title given: the kind's name, as Python-Markdown shows it
        title = name.replace("-", " ").capitalize()
    if marker.startswith("==="):  # a content tab: its title over its body, all shown
        head, tail = f"**{title}**\n", ""
    elif marker.startswith("???"):
        opened = " open" if marker.endswith("+") else ""
        head, tail = f"<details{opened}>\n<summary>{title}</summary>\n", "\n\n</details>"
    else:
        title = title.replace('"', "'")  # the attribute parser reads no escapes
        kind = callout_kind(name)
        if kind is None:
            notes.add(line, f"admonition {name!r} has no kind here: it is a note")
            kind = "note"
        head = f'::: {{.callout-{kind} title="{title}"}}' if title else f"::: {{.callout-{kind}}}"
        tail = "\n:::"
    header_end = match.start(5)
    edits = [(match.start(), header_end - 1, head)]
    body = match.group(5)
    for indent in _INDENT.finditer(body):
        edits.append((match.start(5) + indent.start(), match.start(5) + indent.end(), ""))
    end = match.start(5) + len(body.rstrip("\n"))
    edits.append((end, end, tail))
    return edits
