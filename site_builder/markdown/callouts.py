"""Callouts: ``::: {.callout-note}`` (and ``-tip``, ``-warning``, ``-important``, ``-caution``).

Quarto's syntax, so posts move between tools. The title is ``title="..."``,
or a heading that opens the block (Quarto takes it out of the outline, and so
do we: it is the callout's title, not a section), or else the kind's name::

    ::: {.callout-warning title="Numerical stability"}
    Subtract the row maximum before ``exp``.
    :::

The box is a ``role="note"`` element named by its title (``aria-label``), and
the title is visible text, so the kind never rests on colour alone. Not an
``<aside>``: that is a landmark, and axe rejects one nested in ``<main>``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, cast

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from markdown_it.utils import OptionsDict
from mdit_py_plugins.container import container_plugin

from site_builder.markdown.attributes import braced_match, parse_attributes
from site_builder.markdown.images import alt_text
from site_builder.markdown.state import report

# kind -> (default title, icon). The icon is decoration (aria-hidden): the title says it.
KINDS = {
    "note": ("Note", "i"),
    "tip": ("Tip", "✓"),
    "warning": ("Warning", "!"),
    "important": ("Important", "!"),
    "caution": ("Caution", "!"),
}
_OURS = re.compile(r"(?:^|\s)\.callout-[\w-]+(?=[\s}]|$)")
_CONTAINER = "callout"


def callouts_plugin(md: MarkdownIt) -> None:
    container_plugin(md, _CONTAINER, validate=_validate, render=_render_container)
    # Right after inline parsing: a title's ``$x$`` is parsed here, then prepared and
    # converted with the post's other formulas.
    md.core.ruler.after("inline", "callouts", _prepare)
    md.add_render_rule("callout_title_open", _render_title_open)
    md.add_render_rule("callout_title_close", _render_title_close)


def _validate(params: str, markup: str) -> bool:
    return braced_match(params, _OURS)


# --- core rule: kind and title ------------------------------------------------------------


def _prepare(state: StateCore) -> None:
    env = cast(dict[str, Any], state.env)
    tokens = state.tokens
    for idx, token in enumerate(tokens):
        if token.type != f"container_{_CONTAINER}_open":
            continue
        parsed = parse_attributes(token.info)
        if parsed is None:
            report(env, token, f"cannot read callout attributes {token.info.strip()}")
            continue
        ident, classes, attrs = parsed
        kinds = [c.removeprefix("callout-") for c in classes if c.startswith("callout-")]
        kind = kinds[0]
        if kind not in KINDS:
            known = ", ".join(f"callout-{k}" for k in KINDS)
            report(env, token, f"unknown callout .callout-{kind} (known: {known})")
            continue
        meta: dict[str, Any] = {"kind": kind, "id": ident, "classes": classes}
        heading = tokens[idx + 1] if idx + 1 < len(tokens) else None
        if "title" in attrs:  # Markdown, as Quarto reads it: ``title="Lion-$\\mathcal{K}$"``
            children: list[Token] = []
            state.md.inline.parse(attrs["title"], state.md, state.env, children)
            title = Token("inline", "", 0, content=attrs["title"], map=token.map)
            title.children = children
            opening = Token("callout_title_open", "p", 1, meta=meta)
            tokens[idx + 1 : idx + 1] = [opening, title, Token("callout_title_close", "p", -1)]
            meta["label"] = alt_text(children)
        elif heading is not None and heading.type == "heading_open":
            # The heading becomes the title: out of the outline and the id sequence.
            heading.type, tokens[idx + 3].type = "callout_title_open", "callout_title_close"
            heading.meta = meta
            meta["label"] = alt_text(tokens[idx + 2].children or [])
        else:
            meta["title_html"] = KINDS[kind][0]
            meta["label"] = KINDS[kind][0]
        token.meta = meta


# --- render -------------------------------------------------------------------------------


def _icon(kind: str) -> str:
    return f'<span class="callout-icon" aria-hidden="true">{KINDS[kind][1]}</span>'


def _render_container(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    token = tokens[idx]
    if token.nesting == -1:
        return "</div>\n</div>\n"
    meta = token.meta
    if not meta:  # reported as an error: the build stops before the page is written
        return "<div>\n<div>\n"
    kind = meta["kind"]
    css = " ".join(dict.fromkeys(["callout", f"callout-{kind}", *meta["classes"]]))
    ident = f' id="{escapeHtml(meta["id"])}"' if meta["id"] else ""
    label = escapeHtml(meta["label"])
    opening = f'<div{ident} class="{escapeHtml(css)}" role="note" aria-label="{label}">\n'
    if "title_html" not in meta:  # the heading that follows renders the title
        return opening
    title = f'<p class="callout-title">{_icon(kind)}{meta["title_html"]}</p>\n'
    return f'{opening}{title}<div class="callout-body">\n'


def _render_title_open(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    return f'<p class="callout-title">{_icon(tokens[idx].meta["kind"])}'


def _render_title_close(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    return '</p>\n<div class="callout-body">\n'
