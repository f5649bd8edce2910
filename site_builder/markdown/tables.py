"""GFM tables wrapped in a box that scrolls sideways on its own.

A wide table must never make the whole page scroll horizontally on a phone.
The wrapper is a focusable, labelled region so keyboard users can scroll it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token
from markdown_it.utils import OptionsDict


def tables_plugin(md: MarkdownIt) -> None:
    md.add_render_rule("table_open", _render_open)
    md.add_render_rule("table_close", _render_close)


def _render_open(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    env["table_count"] = env.get("table_count", 0) + 1
    return (
        f'<div class="table-wrap" role="region" tabindex="0" '
        f'aria-label="Table {env["table_count"]}">\n<table>\n'
    )


def _render_close(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    return "</table>\n</div>\n"
