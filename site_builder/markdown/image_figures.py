"""Image figures: ``![Caption](img.png){#fig-x}`` alone in a paragraph, and subfigures.

Quarto's syntax, so posts move between tools::

    ![Loss over training, with $\\eta = 0.1$.](loss.png){#fig-loss width=60%}

    ::: {#fig-panels}
    ![Before](before.png){#fig-before}

    ![After](after.png){#fig-after}

    The whole figure's caption: the last paragraph of the block.
    :::

The image's bracketed text is the caption, with Markdown, math, links and
references. This rule runs right after inline parsing and lifts the caption
out of the image into an ``inline`` token of its own, so math, citations and
cross-references treat it like any paragraph (they only walk the children of
block-level ``inline`` tokens). ``figures`` numbers the result in document
order along with the widget figures; a subfigure's number is its figure's
with a letter ("Figure 2b"), as LaTeX's ``subcaption`` writes it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from markdown_it.utils import OptionsDict

from site_builder.markdown.attributes import parse_attributes
from site_builder.markdown.images import IMAGE_ATTRS
from site_builder.markdown.state import report

GROUP_OPEN = "container_figure_open"


def image_figures_plugin(md: MarkdownIt) -> None:
    """Use after ``figures`` (whose container this reads) and the math plugin."""
    md.core.ruler.after("inline", "image_figures", _split)
    for name, render in (
        ("image_figure_open", _render_open),
        ("image_figure_close", _render_close),
        ("image_caption_open", _render_caption_open),
        ("image_caption_close", _render_caption_close),
        ("figure_group_caption_open", _render_group_caption_open),
        ("figure_group_caption_close", _render_caption_close),
    ):
        md.add_render_rule(name, render)


def is_group(token: Token) -> bool:
    """A ``::: {#fig-x}`` block without a widget or a plot: a figure made of its images."""
    parsed = parse_attributes(token.info)
    return parsed is not None and "widget" not in parsed[2] and "plot" not in parsed[2]


# --- core rule: lift captions out of images ------------------------------------------------


def _split(state: StateCore) -> None:
    env = cast(dict[str, Any], state.env)
    tokens = state.tokens
    out: list[Token] = []
    groups: list[int] = []  # indexes in ``out`` of the open group containers
    idx = 0
    while idx < len(tokens):
        token = tokens[idx]
        if token.type == GROUP_OPEN:
            groups.append(len(out) if is_group(token) else -1)
        elif token.type == "container_figure_close" and groups:
            start = groups.pop()
            if start >= 0:
                _close_group(out, start, token)
        elif token.type == "paragraph_open" and tokens[idx + 1].children:
            inline = tokens[idx + 1]
            _pandoc_image_attributes(inline)
            images = _lone_images(inline.children or [])
            in_group = bool(groups) and groups[-1] >= 0 and token.level == out[groups[-1]].level + 1
            if images and (in_group or _figure_id(images[0])) and (in_group or len(images) == 1):
                for image in images:
                    out.extend(_figure_tokens(image, inline, sub=in_group))
                idx += 3
                continue
            _misplaced_ids(env, inline)
        out.append(token)
        idx += 1
    state.tokens = out


def _pandoc_image_attributes(inline: Token) -> None:
    """``{width=60%}``: Pandoc reads a bare ``60%`` as a value, mdit-py-plugins' attrs does
    not (it leaves the braces as text). Read what it left after an image ourselves."""
    children = inline.children or []
    for index, child in enumerate(children[:-1]):
        after = children[index + 1]
        if child.type != "image" or after.type != "text" or not after.content.startswith("{"):
            continue
        end = after.content.find("}")
        parsed = parse_attributes(after.content[: end + 1]) if end > 0 else None
        if parsed is None:
            continue
        ident, classes, attrs = parsed
        if ident:
            child.attrs["id"] = ident
        if classes:
            child.attrs["class"] = " ".join([*str(child.attrs.get("class", "")).split(), *classes])
        child.attrs.update((k, v) for k, v in attrs.items() if k in IMAGE_ATTRS)
        after.content = after.content[end + 1 :]


def _lone_images(children: list[Token]) -> list[Token]:
    """The images of a paragraph made of nothing else (spaces and line breaks aside)."""
    images = []
    for child in children:
        if child.type == "image":
            images.append(child)
        elif not (
            child.type in ("softbreak", "hardbreak")
            or (child.type == "text" and not child.content.strip())
        ):
            return []
    return images


def _figure_id(image: Token) -> str | None:
    ident = str(image.attrs.get("id", ""))
    return ident if ident.startswith("fig-") else None


def _misplaced_ids(env: dict[str, Any], inline: Token) -> None:
    """A ``#fig-`` image among words would number nothing and break every ``@fig-`` to it."""
    for child in inline.children or []:
        if child.type == "image" and (ident := _figure_id(child)):
            report(env, inline, f"figure image #{ident} must be alone in its paragraph")


def _figure_tokens(image: Token, inline: Token, sub: bool) -> list[Token]:
    caption = image.children or []
    ident = _figure_id(image)
    if ident:
        del image.attrs["id"]
    classes = str(image.attrs.pop("class", "")).split()
    if "inline" in classes:  # ``{.inline}``: the SVG itself, not an <img> (see ``svg``)
        classes.remove("inline")
        image.meta["inline"] = True
    image.meta["figure_id"] = ident
    image.children = []
    meta: dict[str, Any] = {"id": ident, "sub": sub, "classes": classes}
    level = inline.level - 1
    where = inline.map
    words = Token("inline", "", 0, map=where, level=level + 2, children=caption)
    # The alt text is made when rendering, from the caption as resolved ("Figure 2", not
    # "@fig-b"); cross-references replace the children list, so keep the token.
    image.meta["caption"] = words
    return [
        Token("image_figure_open", "figure", 1, map=where, level=level, block=True, meta=meta),
        Token("inline", "", 0, map=where, level=level + 1, children=[image]),
        Token("image_caption_open", "figcaption", 1, level=level + 1, block=True, meta=meta),
        words,
        Token("image_caption_close", "figcaption", -1, level=level + 1, block=True),
        Token("image_figure_close", "figure", -1, level=level, block=True),
    ]


def _close_group(out: list[Token], start: int, close: Token) -> None:
    """The group's last paragraph is its caption: it renders after the subfigures."""
    opening = out[start]
    opening.meta["group"] = True
    close.meta["group"] = True
    last = out[-3:] if len(out) - start > 3 else []
    if [t.type for t in last] == ["paragraph_open", "inline", "paragraph_close"]:
        last[0].type, last[2].type = "figure_group_caption_open", "figure_group_caption_close"
        last[0].meta = opening.meta
        opening.meta["caption"] = True


# --- render -------------------------------------------------------------------------------


def _render_open(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    meta = tokens[idx].meta
    base = ["subfigure"] if meta["sub"] else ["figure", "image-figure"]
    css = " ".join(dict.fromkeys([*base, *meta["classes"]]))
    ident = f' id="{escapeHtml(meta["id"])}"' if meta["id"] else ""
    return f'<figure{ident} class="{escapeHtml(css)}">\n'


def _render_close(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    return "</figure>\n"


def _render_caption_open(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    meta = tokens[idx].meta
    empty = tokens[idx + 1].children == []
    space = "" if empty else " "
    if meta["sub"]:
        label = f'<span class="subfigure-label">({meta.get("letter", "")})</span>'
    else:
        label = f'<span class="figure-label">Figure {meta.get("number", "")}</span>'
    return f"\n<figcaption>{label}{space}"


def _render_caption_close(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    return "</figcaption>\n"


def _render_group_caption_open(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    number = tokens[idx].meta.get("number", "")
    return f'</div>\n<figcaption><span class="figure-label">Figure {number}</span> '
