r"""GFM tables wrapped in a box that scrolls sideways on its own, with Quarto-style captions.

A wide table must never make the whole page scroll horizontally on a phone.
The wrapper is a focusable, labelled region so keyboard users can scroll it.

A paragraph right after a table that starts with ``: `` is its caption, as in
Pandoc and Quarto; ``: Caption {#tbl-name}`` also numbers the table ("Table 1", like "Figure 1")
through ``crossrefs`` so ``@tbl-name`` can refer to it.

A ``|`` inside a formula in a table row (``$|x|$``, ``$p(x|y)$``) belongs to the
formula, as in Pandoc, Quarto and kramdown: GFM alone would split the cell there,
losing the rest of the row. Before the block rules run, such pipes are swapped for
a placeholder of the same length (line and column positions stay true), and swapped
back before the cells are parsed. ``\|`` keeps its GFM meaning, a literal ``|``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from markdown_it.utils import OptionsDict

from site_builder.markdown.crossrefs import register
from site_builder.markdown.state import extension_state
from site_builder.titles import FORMULA


@dataclass
class TableState:
    count: int = 0  # tables rendered so far: each scrolling region is named "Table N"


_ID = re.compile(r"\s*\{#(tbl-[\w-]+)\}\s*$")


def tables_plugin(md: MarkdownIt) -> None:
    """Use before ``crossrefs``."""
    md.core.ruler.after("normalize", "table_math_pipes", _hide_math_pipes)
    md.core.ruler.after("block", "table_math_pipes_back", _restore_math_pipes)
    md.core.ruler.before("text_join", "table_captions", _captions)
    md.add_render_rule("table_open", _render_open)
    md.add_render_rule("table_close", _render_close)
    md.add_render_rule("table_caption_open", _render_caption_open)
    md.add_render_rule("table_caption_close", _render_caption_close)


_PLACEHOLDER = "\ue000"  # a private-use character: one character, like the "|" it stands for
_LEAD = re.compile(r"[\s>]*(?:[-*+]\s+|\d+[.)]\s+)?")  # a blockquote's or list item's start
_DELIMITER_ROW = re.compile(_LEAD.pattern + r"\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*")
_FENCE = re.compile(_LEAD.pattern + r"(`{3,}|~{3,})")
# A code span, or a formula: $$..$$, or $..$ as ``titles.FORMULA`` finds one.
_SPAN = re.compile(
    r"(?P<code>(`+).*?(?<!`)\2(?!`))"
    rf"|(?P<math>(?<![\\$])\$\$.+?\$\$|{FORMULA.pattern})"
)


def _hide_math_pipes(state: StateCore) -> None:
    """Swap each ``|`` inside a formula of a table row for the placeholder, in the rows that
    have more cells than the table has columns and the right number without those pipes
    (a row GFM splits well is left alone: ``($/1M tokens) | ($/1M tokens)`` is no formula)."""
    src = state.src
    if "|" not in src or "$" not in src or _PLACEHOLDER in src:
        return
    lines = src.split("\n")
    changed = False
    for delimiter, rows in _tables(lines):
        columns = _cells(lines[delimiter])
        for i in rows:
            if _cells(lines[i]) > columns:
                hidden = _SPAN.sub(_hide, lines[i])
                if _cells(hidden) == columns:
                    lines[i], changed = hidden, True
    if changed:
        state.src = "\n".join(lines)


def _hide(match: re.Match[str]) -> str:
    text = match.group(0)
    if match.group("math") is None:
        return text
    return re.sub(r"(?<!\\)\|", _PLACEHOLDER, text)


def _cells(line: str) -> int:
    """The cells GFM makes of a row: split at each unescaped ``|``, outer ones aside."""
    row = _LEAD.sub("", line, count=1).strip()
    return len(re.split(r"(?<!\\)\|", row.removeprefix("|").removesuffix("|") or " "))


def _tables(lines: list[str]) -> list[tuple[int, list[int]]]:
    """Each delimiter row of a pipe table with the rows around it: the line above and the
    lines below up to a blank one, outside fenced code."""
    found: list[tuple[int, list[int]]] = []
    fence = ""
    for i, line in enumerate(lines):
        opened = _FENCE.match(line)
        if fence:
            if opened and opened.group(1).startswith(fence):
                fence = ""
            continue
        if opened:
            fence = opened.group(1)
            continue
        if i and "|" in line and _DELIMITER_ROW.fullmatch(line):
            rows = [i - 1]
            j = i + 1
            while j < len(lines) and lines[j].strip() and not _FENCE.match(lines[j]):
                rows.append(j)
                j += 1
            found.append((i, rows))
    return found


def _restore_math_pipes(state: StateCore) -> None:
    if _PLACEHOLDER not in state.src:
        return
    state.src = state.src.replace(_PLACEHOLDER, "|")
    for token in state.tokens:
        if _PLACEHOLDER in token.content:
            token.content = token.content.replace(_PLACEHOLDER, "|")


def _captions(state: StateCore) -> None:
    """Move each ``: Caption`` paragraph into the table before it, as its ``<caption>``."""
    env = cast(dict[str, Any], state.env)
    tokens = state.tokens
    idx = 0
    while idx < len(tokens):
        if tokens[idx].type == "table_close" and _is_caption(tokens, idx + 1):
            close = idx
            opening = next(i for i in range(close, -1, -1) if tokens[i].type == "table_open")
            paragraph, inline = tokens[close + 1], tokens[close + 2]
            children = inline.children or []
            children[0].content = children[0].content[1:].lstrip()
            meta: dict[str, Any] = {}
            last = children[-1]
            match = _ID.search(last.content) if last.type == "text" else None
            if match:
                last.content = last.content[: match.start()]
                number = register(env, match.group(1), paragraph)
                if number is not None:
                    meta = {"id": match.group(1), "number": number}
            inline.children = [c for c in children if c.type != "text" or c.content]
            tokens[opening].meta.update(meta)
            caption_open = Token("table_caption_open", "caption", 1, meta=meta)
            caption_close = Token("table_caption_close", "caption", -1)
            del tokens[close + 1 : close + 4]
            tokens[opening + 1 : opening + 1] = [caption_open, inline, caption_close]
            idx = close + 3
        idx += 1


def _is_caption(tokens: list[Token], idx: int) -> bool:
    if idx + 2 >= len(tokens) or tokens[idx].type != "paragraph_open":
        return False
    children = tokens[idx + 1].children or []
    return bool(children) and children[0].type == "text" and children[0].content.startswith(": ")


def _render_open(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    tables = extension_state(env, "tables", TableState)
    tables.count += 1
    meta = tokens[idx].meta
    if "id" in meta:
        ident = escapeHtml(meta["id"])
        label = f'id="{ident}" role="region" tabindex="0" aria-labelledby="{ident}-caption"'
    else:
        label = f'role="region" tabindex="0" aria-label="Table {tables.count}"'
    return f'<div class="table-wrap" {label}>\n<table>\n'


def _render_close(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    return "</table>\n</div>\n"


def _render_caption_open(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    meta = tokens[idx].meta
    if "id" not in meta:
        return "<caption>"
    return (
        f'<caption id="{escapeHtml(meta["id"])}-caption">'
        f'<span class="table-label">Table {meta["number"]}</span> '
    )


def _render_caption_close(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    return "</caption>\n"
