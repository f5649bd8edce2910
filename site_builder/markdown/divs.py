"""Pandoc's fenced divs: any ``:::`` block no other extension claims becomes a ``<div>``.

Figures, callouts, theorems and margin notes claim their own ``:::`` blocks
first (their plugins are wired up before this one). Whatever is left, such as
``::: {.column-page #results}`` from a Quarto post or ``::: warning`` from a
Pandoc one, is a plain ``<div>`` with the id and classes the author gave, as
Pandoc and Quarto render it; without this it showed as literal ``:::`` text.
Other ``key=value`` pairs become ``data-`` attributes, as Pandoc writes them,
except the few that HTML defines for every element.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from markdown_it.utils import OptionsDict
from mdit_py_plugins.container import container_plugin

from site_builder.markdown.attributes import Attributes, parse_attributes

_WORD = re.compile(r"[\w-]+")
_GLOBAL = ("lang", "dir", "title")  # kept as they are; any other key gets "data-"
_CONTAINER = "div"


_CODE_FENCE = re.compile(r"^[ \t>]*(`{3,}|~{3,})")
_DIV_FENCE = re.compile(r"^[ \t>]*(:{3,})(.*)$")


def nest_fences(text: str) -> str:
    """Pandoc closes the innermost open div at each ``:::``; the container rules close
    the first one opened, whatever it holds. So a div holding another gets one colon more
    than the widest inside it (lines and their number unchanged), and each fence closes
    the div it closes in Pandoc. Fences inside code blocks are code."""
    if ":::" not in text:
        return text
    lines = text.split("\n")
    code = ""  # the fence of the code block we are in
    stack: list[list[int]] = []  # per open div: its line, the colons its fences need
    widths: dict[int, int] = {}
    for index, line in enumerate(lines):
        fence = _CODE_FENCE.match(line)
        if code:
            if fence and fence.group(1)[0] == code[0] and len(fence.group(1)) >= len(code):
                code = code if line[fence.end() :].strip() else ""
            continue
        if fence:
            code = fence.group(1)
            continue
        div = _DIV_FENCE.match(line)
        if div is None:
            continue
        if div.group(2).strip():
            stack.append([index, len(div.group(1))])
        elif stack:
            start, width = stack.pop()
            widths[start] = widths[index] = max(width, len(div.group(1)))
            if stack:
                stack[-1][1] = max(stack[-1][1], widths[start] + 1)
    for index, width in widths.items():
        div = _DIV_FENCE.match(lines[index])
        if div is not None and len(div.group(1)) < width:
            lines[index] = lines[index][: div.start(1)] + ":" * width + lines[index][div.end(1) :]
    return "\n".join(lines)


def divs_plugin(md: MarkdownIt) -> None:
    """Use after every extension that claims ``:::`` blocks of its own."""
    container_plugin(md, _CONTAINER, validate=_validate, render=_render)
    md.core.ruler.after("normalize", "div_fences", _nest_fences)


def _nest_fences(state: StateCore) -> None:
    state.src = nest_fences(state.src)


def _attributes(params: str) -> Attributes | None:
    text = params.strip()
    if _WORD.fullmatch(text):  # ``::: warning`` is ``::: {.warning}``
        return None, [text], {}
    return parse_attributes(text)


def _validate(params: str, markup: str) -> bool:
    return _attributes(params) is not None


def _render(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    token = tokens[idx]
    if token.nesting == -1:
        return "</div>\n"
    ident, classes, attrs = _attributes(token.info) or (None, [], {})
    parts = [f'id="{escapeHtml(ident)}"'] if ident else []
    if classes:
        parts.append(f'class="{escapeHtml(" ".join(dict.fromkeys(classes)))}"')
    for key, value in attrs.items():
        name = key if key in _GLOBAL or key.startswith("data-") else f"data-{key}"
        parts.append(f'{name}="{escapeHtml(value)}"')
    return f"<div {' '.join(parts)}>\n" if parts else "<div>\n"
