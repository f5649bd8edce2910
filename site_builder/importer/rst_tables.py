"""reStructuredText tables (grid, simple, ``list-table``, ``csv-table``) as pipe tables.

A pipe table holds one line of inline text per cell and no spans. A table whose cells
are each one paragraph (or empty) becomes one, its first header row (or, without one,
an empty header, as GFM needs a header) on top. Any other table, with a list, several
paragraphs or a spanning cell, is kept as an HTML table of its cells' text, so nothing
in it is lost, and the report names it.
"""

from __future__ import annotations

import html
from collections.abc import Callable

from docutils import nodes

from site_builder.importer.report import PostNotes


def table(
    node: nodes.Element, inline: Callable[[nodes.Node], str], notes: PostNotes, line: int
) -> str:
    """The table as a pipe table, or as HTML when its cells do not fit one."""
    group = node.next_node(nodes.tgroup)
    if group is None:
        return ""
    head = group.next_node(nodes.thead)
    body = group.next_node(nodes.tbody)
    head_rows = list(head.children) if head is not None else []
    body_rows = list(body.children) if body is not None else []
    columns = int(group.get("cols", 0))
    title = node.next_node(nodes.title)
    caption = f"**{inline(title)}**\n\n" if title is not None else ""
    if _simple([*head_rows, *body_rows], columns):
        cells = [[_cell(entry, inline) for entry in row.children] for row in head_rows]
        top = cells[0] if cells else [""] * columns
        rows = cells[1:] + [[_cell(e, inline) for e in row.children] for row in body_rows]
        lines = [_row(top), "|" + "|".join(" --- " for _ in range(columns)) + "|"]
        lines += [_row(r) for r in rows]
        return caption + "\n".join(lines)
    notes.add(line, "table with spanning or multi-paragraph cells kept as an HTML table")
    parts = ["<table>"]
    for group_rows, tag in ((head_rows, "th"), (body_rows, "td")):
        for row in group_rows:
            shown = "".join(_html_cell(entry, tag) for entry in row.children)
            parts.append(f"<tr>{shown}</tr>")
    parts.append("</table>")
    return caption + "\n".join(parts)


def _simple(rows: list[nodes.Node], columns: int) -> bool:
    for row in rows:
        if len(row.children) != columns:
            return False
        for entry in row.children:
            if entry.get("morecols") or entry.get("morerows"):
                return False
            blocks = [c for c in entry.children if not isinstance(c, nodes.Invisible)]
            if len(blocks) > 1 or (blocks and not isinstance(blocks[0], nodes.paragraph)):
                return False
    return True


def _cell(entry: nodes.Node, inline: Callable[[nodes.Node], str]) -> str:
    paragraph = entry.next_node(nodes.paragraph)
    text = inline(paragraph) if paragraph is not None else ""
    return " ".join(text.split("\n")).strip()  # its | escaped as all text is


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _html_cell(entry: nodes.Element, tag: str) -> str:
    spans = ""
    if entry.get("morecols"):
        spans += f' colspan="{int(entry["morecols"]) + 1}"'
    if entry.get("morerows"):
        spans += f' rowspan="{int(entry["morerows"]) + 1}"'
    text = "<br>".join(html.escape(" ".join(c.astext().split())) for c in entry.children)
    return f"<{tag}{spans}>{text}</{tag}>"
