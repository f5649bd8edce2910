"""Images: checked, sized from their files, and described in words.

A broken image is invisible to the author in the Markdown and obvious to every
reader, so a missing local file is an error with the line, not a 404 after
deploy.

Every local image gets ``width`` and ``height`` read from the file (PyPI
``imagesize``: it reads the header only, in pure Python): the browser then
reserves the box before the bytes arrive, so the text below never jumps.
Lazy loading is for images below the first screen only; a lazy image in view
at load time waits for layout and slows the page's largest paint. Which
images are on the first screen is a guess made without a browser: the first
image of a post, when fewer than ``ABOVE_FOLD_WORDS`` words come before it.

The ``alt`` text is the caption's text with math as its LaTeX source: a
screen reader saying "rotation by \\theta" beats one saying "rotation by".
Quarto's ``fig-alt="..."`` replaces it. Quarto's ``width=60%`` sets the
shown width (a length in pixels replaces the ``width`` attribute and scales
``height``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from markdown_it.utils import OptionsDict

from site_builder.markdown.state import document, inline_lines, report
from site_builder.markdown.svg import SvgError, inline_svg

# Attributes ``{...}`` may put on an image besides id and class; other tokens drop them.
IMAGE_ATTRS = ("width", "height", "fig-alt")
ABOVE_FOLD_WORDS = 120
_WORD = re.compile(r"\w+")
_PIXELS = re.compile(r"(\d+(?:\.\d+)?)(?:px)?")
_CSS_LENGTH = re.compile(r"\d+(?:\.\d+)?(?:%|em|rem|vw|ch)")
_VIEWBOX = re.compile(rb"""viewBox\s*=\s*["']\s*[-\d.]+[\s,]+[-\d.]+[\s,]+([\d.]+)[\s,]+([\d.]+)""")


def images_plugin(md: MarkdownIt) -> None:
    md.core.ruler.push("image_check", _check)
    md.add_render_rule("image", _render_image)


def is_local(src: str) -> bool:
    """A path relative to the page: no scheme, no host, not site-absolute, not a fragment."""
    parts = urlsplit(src)
    return not (parts.scheme or parts.netloc or src.startswith(("/", "#")) or not parts.path)


def alt_text(children: Sequence[Token]) -> str:
    """A caption's words for ``alt``: text, code and math (as LaTeX), in one line."""
    parts: list[str] = []
    for child in children:
        if child.type in ("text", "code_inline", "text_special", "cite"):
            parts.append(child.content)
        elif child.type.startswith("math_inline"):
            parts.append(child.content.strip())
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif child.type == "image":
            parts.append(alt_text(child.children or []))
    return " ".join("".join(parts).split())


def image_size(path: Path) -> tuple[int, int] | None:
    """Pixel size from the file's header; an SVG without width and height, from its viewBox."""
    import imagesize  # only posts with images pay for the import

    try:
        width, height = imagesize.get(str(path))
    except (OSError, ValueError):
        return None
    if width > 0 and height > 0:
        return round(width), round(height)
    if path.suffix.lower() == ".svg":
        match = _VIEWBOX.search(path.read_bytes()[:4096])
        if match:
            w, h = float(match.group(1)), float(match.group(2))
            if w > 0 and h > 0:
                return round(w), round(h)
    return None


# --- core rule: check files, read sizes, choose what loads lazily --------------------------


def _check(state: StateCore) -> None:
    resource_dir: Path | None = state.env["ctx"].resource_dir
    words = 0
    seen_image = False
    for token in state.tokens:
        children = token.children
        if not children:
            continue
        if not seen_image and words < ABOVE_FOLD_WORDS:
            words += sum(len(_WORD.findall(c.content)) for c in children if c.type == "text")
        if not any(c.type == "image" or c.attrs for c in children):
            continue
        for child, line in inline_lines(state.env, token):
            if child.type != "image":
                for key in IMAGE_ATTRS:  # ``[text]{width=3}`` means nothing on a span
                    child.attrs.pop(key, None)
                continue
            # ``words`` counted this paragraph too: close enough for "near the top".
            child.meta["eager"] = not seen_image and words < ABOVE_FOLD_WORDS
            seen_image = True
            _size_attributes(state.env, child, line)
            src = str(child.attrs.get("src", ""))
            if not is_local(src):
                continue
            relative = unquote(urlsplit(src).path)
            if relative in state.env["ctx"].files:  # made for this page (a notebook output)
                continue
            if resource_dir is None:
                index = "index" + (Path(str(state.env["ctx"].path)).suffix or ".md")  # .ipynb
                report(
                    state.env,
                    None,
                    f"image '{relative}' not found: put the post in a folder "
                    f"(content/posts/<slug>/{index}) with its images beside it",
                    line=line,
                )
            elif not _inside(resource_dir, relative):
                # ``../../site.yaml`` exists, but nothing outside the folder is copied:
                # the page would ship a broken image.
                report(
                    state.env,
                    None,
                    f"image '{relative}' is outside the post's folder: keep images beside "
                    "index.md (or under static/, linked as /static/...)",
                    line=line,
                )
            elif not (resource_dir / relative).is_file():
                report(
                    state.env,
                    None,
                    f"image '{relative}' not found in {resource_dir.name}/",
                    line=line,
                )
            else:
                size = image_size(resource_dir / relative)
                if size is not None:
                    child.meta["size"] = size
                if _wants_inline(child):
                    _read_inline_svg(state.env, child, resource_dir / relative, line)


def _wants_inline(image: Token) -> bool:
    classes = str(image.attrs.get("class", "")).split()
    if "inline" in classes:
        image.attrs["class"] = " ".join(c for c in classes if c != "inline")
        if not image.attrs["class"]:
            del image.attrs["class"]
        image.meta["inline"] = True
    return bool(image.meta.get("inline"))


def _read_inline_svg(env: Any, image: Token, path: Path, line: int | None) -> None:
    """``{.inline}``: keep the file's bytes for the renderer, checked here (errors need the
    line); only an SVG can be part of the page."""
    if path.suffix.lower() != ".svg":
        report(
            env, None, f"image '{path.name}' is not an SVG: only SVG can be {{.inline}}", line=line
        )
        return
    data = path.read_bytes()
    try:
        inline_svg(data, "check", "")
    except SvgError as exc:
        report(env, None, f"cannot inline '{path.name}': {exc}", line=line)
        return
    image.meta["svg"] = data


def _inside(folder: Path, relative: str) -> bool:
    """Does ``relative`` stay inside ``folder`` once ``..`` and links are followed?"""
    base = folder.resolve()
    return (base / relative).resolve().is_relative_to(base)


def _size_attributes(env: Any, image: Token, line: int | None) -> None:
    """Move ``width``/``height`` from ``{...}`` to meta, checking their form."""
    for key in ("width", "height"):
        value = image.attrs.pop(key, None)
        if value is None:
            continue
        text = str(value).strip()
        if _PIXELS.fullmatch(text) or _CSS_LENGTH.fullmatch(text):
            image.meta[key] = text
        else:
            message = f"image {key} '{text}' must be pixels (300 or 300px) or a length (60%, 20em)"
            report(env, None, message, line=line)


# --- render -------------------------------------------------------------------------------


def _render_image(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    token = tokens[idx]
    meta = token.meta
    alt = token.attrs.pop("fig-alt", None)
    if alt is None:
        caption: Token | None = meta.get("caption")  # a figure's: see ``image_figures``
        words = caption.children if caption is not None else token.children
        alt = alt_text(words or [])
    token.attrs.pop("alt", None)  # the parser's, from the children without their math
    if "svg" in meta:
        doc = document(env)
        doc.inline_svgs += 1
        return inline_svg(meta["svg"], meta.get("figure_id") or f"svg{doc.inline_svgs}", str(alt))
    attrs: dict[str, str | int | float] = {"src": token.attrs.pop("src", ""), "alt": str(alt)}
    attrs.update(token.attrs)
    size: tuple[int, int] | None = meta.get("size")
    style = []
    width, height = meta.get("width"), meta.get("height")
    for key, value, index in (("width", width, 0), ("height", height, 1)):
        if value is None:
            continue
        pixels = _PIXELS.fullmatch(value)
        if pixels is None:
            style.append(f"{key}:{value}")
        elif size is not None and (width is None or height is None):
            # One side given in pixels: the other follows the file's aspect ratio.
            scale = float(pixels.group(1)) / size[index]
            size = (round(size[0] * scale), round(size[1] * scale))
        else:
            attrs[key] = pixels.group(1)
    if size is not None:
        attrs.setdefault("width", size[0])
        attrs.setdefault("height", size[1])
    if style:
        attrs["style"] = ";".join(style)
    if not meta.get("eager"):
        attrs["loading"] = "lazy"
    attrs["decoding"] = "async"
    rendered = "".join(f' {key}="{escapeHtml(str(value))}"' for key, value in attrs.items())
    return f"<img{rendered} />"
