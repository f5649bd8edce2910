"""Interactive figures: a ``:::`` container with a widget, numbered, and ``@fig-`` references.

Quarto's syntax, so posts move between tools::

    ::: {#fig-temperature .figure widget="attention-temperature"}
    Caption text, with *Markdown* and $\\tau$.
    :::

The body is the caption. Figures are numbered in document order ("Figure 1")
through ``crossrefs``, which also turns ``@fig-temperature`` anywhere in the
text into a link reading "Figure 1" (the same mechanism as equations and
tables). The widget renders its no-JavaScript fallback into the page at
build time and may emit data files beside the page (``env["files"]``); the
page's script enhances the fallback.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from markdown_it.utils import OptionsDict
from mdit_py_plugins.container import container_plugin

from site_builder.markdown.crossrefs import register
from site_builder.markdown.state import report


@dataclass(frozen=True)
class Widget:
    """What a widget contributes at build time: fallback HTML and files beside the page."""

    html: str
    files: dict[str, bytes]
    data_src: str | None = None


@functools.cache
def _temperature_widget() -> Widget:
    # Imported here: NumPy costs ~0.1 s at start-up, and most pages have no widget.
    from site_builder import temperature

    data = temperature.compute()
    files = {temperature.DATA_FILE: data.to_json()}
    return Widget(temperature.fallback_html(data), files, data_src=temperature.DATA_FILE)


WIDGETS: dict[str, Callable[[], Widget]] = {"attention-temperature": _temperature_widget}


_CONTAINER = "figure"
_OURS = re.compile(r"(?:^|\s)(?:#fig-|\.figure(?=[\s}]|$))")
_ATTR = re.compile(r"""\s*(?:#([\w-]+)|\.([\w-]+)|([\w-]+)=(?:"([^"]*)"|'([^']*)'|([^\s"'}]+)))""")


def figures_plugin(md: MarkdownIt) -> None:
    """Use before ``crossrefs``, which resolves ``@fig-`` references."""
    container_plugin(md, _CONTAINER, validate=_validate, render=_render_container)
    md.core.ruler.before("text_join", "figures", _number)


# --- parse ------------------------------------------------------------------------------


def _validate(params: str, markup: str) -> bool:
    """Claim ``::: {...}`` blocks with a ``#fig-`` id or a ``.figure`` class; leave others."""
    text = params.strip()
    return text.startswith("{") and text.endswith("}") and bool(_OURS.search(text[1:-1]))


def parse_attributes(params: str) -> tuple[str | None, list[str], dict[str, str]] | None:
    """``{#id .class key="value"}`` as (id, classes, attributes); None if it does not parse."""
    text = params.strip()[1:-1].strip()
    ident: str | None = None
    classes: list[str] = []
    attrs: dict[str, str] = {}
    pos = 0
    while pos < len(text):
        match = _ATTR.match(text, pos)
        if not match or match.end() == pos:
            return None
        pos = match.end()
        hash_id, cls, key = match.group(1), match.group(2), match.group(3)
        if hash_id:
            ident = hash_id
        elif cls:
            classes.append(cls)
        elif key:
            attrs[key] = next(g for g in match.group(4, 5, 6) if g is not None)
        pos += len(text[pos:]) - len(text[pos:].lstrip())
    return ident, classes, attrs


# --- core rule: number figures and build widgets ---------------------------------------


def _number(state: StateCore) -> None:
    env = cast(dict[str, Any], state.env)  # markdown-it types it as a MutableMapping
    tokens = state.tokens
    for idx, token in enumerate(tokens):
        if token.type == f"container_{_CONTAINER}_open":
            _prepare_figure(env, tokens, idx)


def _prepare_figure(env: dict[str, Any], tokens: list[Token], idx: int) -> None:
    token = tokens[idx]
    parsed = parse_attributes(token.info)
    if parsed is None:
        report(env, token, f"cannot read figure attributes {token.info.strip()}")
        return
    ident, classes, attrs = parsed
    known = ", ".join(sorted(WIDGETS))
    if ident is None or not ident.startswith("fig-"):
        report(env, token, "a figure needs an id starting with fig-, e.g. {#fig-name .figure}")
        return
    name = attrs.get("widget")
    if name is None:
        report(env, token, f'figure #{ident} needs a widget="..." (known: {known})')
        return
    if name not in WIDGETS:
        report(env, token, f'unknown widget "{name}" in figure #{ident} (known: {known})')
        return
    number = register(env, ident, token)
    if number is None:
        return
    widget = WIDGETS[name]()
    env.setdefault("files", {}).update(widget.files)
    css = " ".join(dict.fromkeys(["figure", "widget", *classes]))
    token.meta = {"id": ident, "number": number, "widget": name, "class": css, "build": widget}
    _hide_single_caption_paragraph(tokens, idx)


def _hide_single_caption_paragraph(tokens: list[Token], idx: int) -> None:
    """A one-paragraph caption renders without ``<p>``, like a tight list item."""
    close = next(i for i in range(idx + 1, len(tokens)) if tokens[i].level == tokens[idx].level)
    body = tokens[idx + 1 : close]
    if len(body) == 3 and body[0].type == "paragraph_open":
        body[0].hidden = body[2].hidden = True


# --- render -----------------------------------------------------------------------------


def _render_container(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    token = tokens[idx]
    if token.nesting == -1:
        return "</figcaption>\n</figure>\n"
    meta = token.meta
    widget: Widget = meta["build"]
    src = f' data-src="{escapeHtml(widget.data_src)}"' if widget.data_src else ""
    following = tokens[idx + 1]
    after_label = "" if following.nesting == -1 else " " if following.hidden else "\n"
    return (
        f'<figure id="{escapeHtml(meta["id"])}" class="{escapeHtml(meta["class"])}"'
        f' data-widget="{escapeHtml(meta["widget"])}"{src}>\n'
        f"{widget.html}"
        f'<figcaption><span class="figure-label">Figure {meta["number"]}</span>{after_label}'
    )
