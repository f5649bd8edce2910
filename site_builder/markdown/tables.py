"""GFM tables wrapped in a box that scrolls sideways on its own, with Quarto-style captions.

A wide table must never make the whole page scroll horizontally on a phone.
The wrapper is a focusable, labelled region so keyboard users can scroll it.

A paragraph right after a table that starts with ``: `` is its caption, as in
Pandoc and Quarto; ``: Caption {#tbl-name}`` also numbers the table ("Table 1", like "Figure 1")
through ``crossrefs`` so ``@tbl-name`` can refer to it.
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


@dataclass
class TableState:
    count: int = 0  # tables rendered so far: each scrolling region is named "Table N"


_ID = re.compile(r"\s*\{#(tbl-[\w-]+)\}\s*$")


def tables_plugin(md: MarkdownIt) -> None:
    """Use before ``crossrefs``."""
    md.core.ruler.before("text_join", "table_captions", _captions)
    md.add_render_rule("table_open", _render_open)
    md.add_render_rule("table_close", _render_close)
    md.add_render_rule("table_caption_open", _render_caption_open)
    md.add_render_rule("table_caption_close", _render_caption_close)


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
