"""Figures made by code: a ``:::`` container with a widget or a plot, numbered, and ``@fig-``.

Quarto's syntax, so posts move between tools::

    ::: {#fig-temperature .figure widget="attention-temperature"}
    Caption text, with *Markdown* and $\\tau$.
    :::

    ::: {#fig-loss plot="plots.py:loss_curve" steps=50}
    Caption.
    :::

The body is the caption. Figures are numbered in document order ("Figure 1")
through ``crossrefs``, which also turns ``@fig-temperature`` anywhere in the
text into a link reading "Figure 1" (the same mechanism as equations and
tables). The code behind a figure belongs to the site (``widgets/<name>/``) or
the post (its folder's Python): this stage only calls what the context hands
it (``MarkdownContext.widgets`` and ``.plot``) and turns a failure into an
error at the author's line. A widget renders its no-JavaScript fallback into
the page and its data beside it (``state.Document.files``), and notes its script in
``Rendered.assets``; a plot is an SVG beside the page.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from typing import Any, cast

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from markdown_it.utils import OptionsDict
from mdit_py_plugins.container import container_plugin

from site_builder.errors import BuildError
from site_builder.markdown import FigureError, PlotOutput, WidgetOutput
from site_builder.markdown.attributes import braced_match, parse_attributes
from site_builder.markdown.crossrefs import register
from site_builder.markdown.images import alt_text
from site_builder.markdown.state import document, needs, report, source_line

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
    widgets = env["ctx"].widgets
    known = ", ".join(sorted(widgets))
    if ident is None or not ident.startswith("fig-"):
        report(env, token, "a figure needs an id starting with fig-, e.g. {#fig-name .figure}")
        return
    name = attrs.get("widget")
    if "plot" in attrs:
        _prepare_plot(env, tokens, idx, ident, classes, attrs)
        return
    if name is None:
        _prepare_group(env, tokens, idx, ident, classes, known)
        return
    if name not in widgets:
        hint = _did_you_mean(name, sorted(widgets))
        report(env, token, f'unknown widget "{name}" in figure #{ident}{hint}')
        return
    number = register(env, ident, token)
    if number is None:
        return
    params = {key: value for key, value in attrs.items() if key != "widget"}
    try:
        widget: WidgetOutput = widgets[name](params)
    except FigureError as exc:
        report_code_error(env, token, f'widget "{name}" (figure #{ident})', exc)
        return
    document(env).files[widget.data_file] = widget.data
    css = " ".join(dict.fromkeys(["figure", "widget", *classes]))
    token.meta = {"id": ident, "number": number, "widget": name, "class": css, "build": widget}
    _hide_single_caption_paragraph(tokens, idx)


def _prepare_plot(
    env: dict[str, Any],
    tokens: list[Token],
    idx: int,
    ident: str,
    classes: list[str],
    attrs: dict[str, str],
) -> None:
    """``plot="plots.py:loss"``: an SVG made by the post's own Python (``ctx.plot``)."""
    token = tokens[idx]
    make = env["ctx"].plot
    spec = attrs["plot"]
    if make is None:
        message = f'plot="{spec}" needs the post in a folder with its Python beside it'
        report(env, token, f"{message} (content/posts/<slug>/index.md)")
        return
    number = register(env, ident, token)
    if number is None:
        return
    params = {key: value for key, value in attrs.items() if key not in ("plot", "fig-alt")}
    try:
        plot: PlotOutput = make(spec, params)
    except FigureError as exc:
        report_code_error(env, token, f'plot "{spec}" (figure #{ident})', exc)
        return
    files = document(env).files
    made = {f"{ident}.svg": plot.light, **({f"{ident}-dark.svg": plot.dark} if plot.dark else {})}
    for name in made.keys() & files.keys():  # #fig-a's dark variant and #fig-a-dark
        report(env, token, f"figure #{ident} would write {name}, which another figure writes")
    files.update(made)
    css = " ".join(dict.fromkeys(["figure", "plot-figure", *classes]))
    meta = {"id": ident, "number": number, "class": css, "plot": plot, "alt": attrs.get("fig-alt")}
    token.meta = meta
    _hide_single_caption_paragraph(tokens, idx)


def _did_you_mean(name: str, known: list[str]) -> str:
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    if close:
        return f' (did you mean "{close[0]}"?)'
    return f" (known: {', '.join(known)})" if known else " (the site has no widgets/ folder)"


def report_code_error(env: dict[str, Any], token: Token, what: str, exc: FigureError) -> None:
    """An author's code failed: the error is at its own line when known, naming the post's."""
    post = f"{env['ctx'].path}:{source_line(env, token)}"
    if exc.path is None:
        report(env, token, f"{what}: {exc.message}")
        return
    document(env).errors.append(BuildError(exc.path, exc.line, f"{what} in {post}: {exc.message}"))


def _prepare_group(
    env: dict[str, Any], tokens: list[Token], idx: int, ident: str, classes: list[str], known: str
) -> None:
    """A figure made of the images in the block (see ``image_figures``), or of its HTML (an
    embedded video, a notebook's Plotly or Altair output), captioned by its last paragraph.
    The meta dict is shared with that caption, so update it in place."""
    token = tokens[idx]
    close = next(i for i in range(idx + 1, len(tokens)) if tokens[i].level == token.level)
    panels = sum(
        t.type in ("image_figure_open", "html_block") and t.level == token.level + 1
        for t in tokens[idx:close]
    )
    if not panels:
        hint = f" (known: {known})" if known else ""
        message = f'figure #{ident} holds no images: add some, or a widget="..."{hint}'
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
    following = tokens[idx + 1]
    after_label = "" if following.nesting == -1 else " " if following.hidden else "\n"
    label = f'<figcaption><span class="figure-label">Figure {meta["number"]}</span>{after_label}'
    if "plot" in meta:
        return _render_plot(tokens, idx, meta) + label
    widget: WidgetOutput = meta["build"]
    needs(env, "script", widget.script)
    if widget.stylesheet:
        needs(env, "stylesheet", widget.stylesheet)
    src = f' data-src="{escapeHtml(widget.data_file)}"'
    return (
        f'<figure id="{escapeHtml(meta["id"])}" class="{escapeHtml(meta["class"])}"'
        f' data-widget="{escapeHtml(meta["widget"])}"{src}>\n'
        f"{widget.html}{label}"
    )


def _render_plot(tokens: Sequence[Token], idx: int, meta: dict[str, Any]) -> str:
    """The SVG as an image, with its dark variant as a ``<picture>`` source when there is one."""
    plot: PlotOutput = meta["plot"]
    ident = escapeHtml(meta["id"])
    alt = meta["alt"]
    if alt is None:
        close = next(i for i in range(idx + 1, len(tokens)) if tokens[i].level == tokens[idx].level)
        alt = alt_text([c for t in tokens[idx + 1 : close] for c in t.children or []])
    size = f' width="{plot.size[0]}" height="{plot.size[1]}"' if plot.size else ""
    img = f'<img src="{ident}.svg" alt="{escapeHtml(alt)}"{size} loading="lazy" decoding="async" />'
    if plot.dark is not None:
        dark = f'<source srcset="{ident}-dark.svg" media="(prefers-color-scheme: dark)" />'
        img = f"<picture>{dark}{img}</picture>"
    return f'<figure id="{ident}" class="{escapeHtml(meta["class"])}">\n{img}\n'
