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

from site_builder.markdown.attributes import braced_match, parse_attributes
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


def figures_plugin(md: MarkdownIt) -> None:
    """Use before ``crossrefs``, which resolves ``@fig-`` references."""
    container_plugin(md, _CONTAINER, validate=_validate, render=_render_container)
    md.core.ruler.before("text_join", "figures", _number)


# --- parse ------------------------------------------------------------------------------


def _validate(params: str, markup: str) -> bool:
    """Claim ``::: {...}`` blocks with a ``#fig-`` id or a ``.figure`` class; leave others."""
    return braced_match(params, _OURS)


# --- core rule: number figures and build widgets ---------------------------------------


def _number(state: StateCore) -> None:
    """Number every figure in document order: widgets, images and groups of images alike."""
    env = cast(dict[str, Any], state.env)  # markdown-it types it as a MutableMapping
    tokens = state.tokens
    group: dict[str, Any] = {}
    panels = 0
    for idx, token in enumerate(tokens):
        if token.type == f"container_{_CONTAINER}_open":
            _prepare_figure(env, tokens, idx)
            if token.meta.get("group"):
                group, panels = token.meta, 0
        elif token.type == "image_figure_open":
            meta = token.meta
            if not meta["sub"]:
                meta["number"] = register(env, meta["id"], token)
                continue
            meta["letter"] = letter = _letter(panels)
            panels += 1
            if meta["id"] and group.get("number") is not None:
                register(env, meta["id"], token, tag=f"{group['number']}{letter}")


def _letter(index: int) -> str:
    """Subfigures a, b, ... z, then aa, bb: LaTeX's ``subcaption`` stops at z."""
    return "abcdefghijklmnopqrstuvwxyz"[index % 26] * (index // 26 + 1)


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
        _prepare_group(env, tokens, idx, ident, classes, known)
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


def _prepare_group(
    env: dict[str, Any], tokens: list[Token], idx: int, ident: str, classes: list[str], known: str
) -> None:
    """A figure made of the images in the block (see ``image_figures``), captioned by its
    last paragraph. The meta dict is shared with that caption, so update it in place."""
    token = tokens[idx]
    close = next(i for i in range(idx + 1, len(tokens)) if tokens[i].level == token.level)
    panels = sum(
        t.type == "image_figure_open" and t.level == token.level + 1 for t in tokens[idx:close]
    )
    if not panels:
        message = f'figure #{ident} holds no images: add some, or a widget="..." (known: {known})'
        report(env, token, message)
        return
    if not token.meta.get("caption"):
        report(env, token, f"figure #{ident} needs a caption: a paragraph after its images")
        return
    number = register(env, ident, token)
    css = " ".join(dict.fromkeys(["figure", "figure-group", *classes]))
    token.meta.update({"id": ident, "number": number, "class": css})


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
    meta = token.meta
    if token.nesting == -1:
        return "</figure>\n" if meta.get("group") else "</figcaption>\n</figure>\n"
    if meta.get("group"):
        return (
            f'<figure id="{escapeHtml(meta["id"])}" class="{escapeHtml(meta["class"])}">\n'
            '<div class="subfigures">\n'
        )
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
