"""One stored output of a code cell as a piece of the page: HTML, Markdown or an image file.

``execute_result`` and ``display_data`` hold several representations of one
value; the first of :data:`MIME_ORDER` present is shown, in the order nbconvert's
HTML export (and JupyterLab) prefers them: HTML, Markdown, SVG, LaTeX (SymPy's
results are formulas, not their PNG), then bitmaps and text. HTML that shows nothing
once its scripts are removed (an Altair or Plotly chart) gives way to the next
representation, an image or the text (``alt.Chart(...)``), as Jupyter shows when it
cannot draw one; a text that is only Python's default repr (``<IPython.core.display.HTML
object>``, for a ``<style>`` or a video) says nothing, and is not shown.

Images become files named by their content's hash (``nb-<hash>.png``: the same
bytes, the same name, in any build), with their width and height so the page does
not jump; the metadata's ``width``/``height`` (a Retina figure shown at half its
pixels; IRkernel puts them at the top) win over the file's, when they are sizes.
``text/markdown`` and ``text/latex`` go through the Markdown pipeline with the
cells' text (math, cross-references); everything else is escaped or sanitised HTML. A widget's
view needs a live kernel, so its ``text/plain`` is shown.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import io
import re
from dataclasses import dataclass
from html import escape
from typing import Any

from site_builder.notebooks.ansi import ansi_to_html
from site_builder.notebooks.reader import text_of
from site_builder.notebooks.sanitize import is_visible, sanitize_html

MIME_ORDER = (
    "text/html",
    "text/markdown",
    "image/svg+xml",
    "text/latex",
    "image/png",
    "image/jpeg",
    "text/plain",
)
# ``<IPython.core.display.HTML object>``; IPython 2 and 3 wrote ``<IPython.core.display.HTML
# at 0x10d46b550>`` (old notebooks' ``css_styling()`` cell ends with one).
_DEFAULT_REPR = re.compile(r"^\s*<[\w.]+(?: object(?: at 0x[0-9a-fA-F]+)?| at 0x[0-9a-fA-F]+)>\s*$")
_DATA_IMAGE = re.compile(
    r"(<img\b[^>]*?\ssrc=)([\"'])data:image/(png|jpeg|jpg|gif)(?:;[^,\"']*)?;base64,"
    r"([A-Za-z0-9+/=\s]+)\2",
    re.IGNORECASE,
)
# Matplotlib's ``anim.to_html5_video()``: ``<video><source src="data:video/mp4;base64,...">``
_DATA_VIDEO = re.compile(
    r"(<(?:source|video)\b[^>]*?\ssrc=)([\"'])data:video/(mp4|webm|ogg)(?:;[^,\"']*)?;base64,"
    r"([A-Za-z0-9+/=\s]+)\2",
    re.IGNORECASE,
)
_INLINE_SVG = re.compile(r"<svg\b.*?</svg>", re.DOTALL | re.IGNORECASE)
_LARGEST = 100_000  # CSS pixels: a width or height past this is a mistake, not a size
WIDGET = "application/vnd.jupyter.widget-view+json"
# gif only inside HTML outputs (``_inline_images``): MIME_ORDER never picks one on its own.
_SUFFIX = {"image/svg+xml": "svg", "image/png": "png", "image/jpeg": "jpg", "image/gif": "gif"}
_SVG_LENGTH = re.compile(r"^\s*([\d.]+)\s*(px|pt)?\s*$")
_SVG_ROOT = re.compile(rb"<svg\b[^>]*>", re.DOTALL)
_ATTR = re.compile(rb"""\b(width|height|viewBox)\s*=\s*["']([^"']*)["']""")


@dataclass(frozen=True)
class Image:
    name: str  # file name beside the page
    data: bytes
    width: int | None
    height: int | None


@dataclass(frozen=True)
class Piece:
    """``kind`` is ``"html"`` (sanitised or escaped), ``"markdown"`` or ``"image"``."""

    kind: str
    text: str = ""
    image: Image | None = None
    stream: str = ""  # ``stdout``/``stderr`` for stream text, so neighbours can merge
    files: tuple[Image, ...] = ()  # images an HTML output held inline, written beside it


class OutputError(ValueError):
    """An output that cannot be shown (bad base64): the caller names the cell."""


def render_output(output: Any) -> Piece | None:
    """The piece of page for one output, or None when it shows nothing."""
    kind = output.get("output_type")
    if kind == "stream":
        name = "stderr" if output.get("name") == "stderr" else "stdout"
        return Piece("html", text_of(output.get("text")), stream=name)
    if kind == "error":
        traceback = "\n".join(text_of(line) for line in output.get("traceback") or [])
        if not traceback.strip():
            traceback = f"{output.get('ename', 'Error')}: {output.get('evalue', '')}"
        return Piece("html", f'<pre class="nb-error" tabindex="0">{ansi_to_html(traceback)}</pre>')
    if kind in ("execute_result", "display_data"):
        return _rich(output.get("data") or {}, output.get("metadata") or {})
    return None


def stream_html(name: str, text: str) -> str:
    shown = ansi_to_html(_overwritten(text.rstrip("\n")))
    return f'<pre class="nb-stream nb-{name}" tabindex="0">{shown}</pre>'


def _overwritten(text: str) -> str:
    """Stream text as a terminal leaves it, as Jupyter shows it: after a ``\\r`` the text
    is written over the line from its start (a progress bar rewrites itself; ``abc\\rX``
    shows ``Xbc``), and a ``\\r`` that ends a line changes nothing."""
    if "\r" not in text:
        return text
    lines = []
    for line in text.replace("\r\n", "\n").split("\n"):
        shown = ""
        for part in line.split("\r"):
            shown = part + shown[len(part) :]
        lines.append(shown)
    return "\n".join(lines)


def _rich(data: dict[str, Any], metadata: dict[str, Any]) -> Piece | None:
    for mime in MIME_ORDER:
        if mime not in data:
            continue
        value = data[mime]
        if mime in _SUFFIX:
            return Piece("image", image=_image(mime, value, _image_metadata(mime, metadata)))
        text = text_of(value)
        if mime == "text/html":
            text, files = _inline_images(text)
            cleaned = sanitize_html(text)
            if is_visible(cleaned):  # else: drawn by a script; show the next one
                html = f'<div class="nb-html" tabindex="0">\n{cleaned}\n</div>'
                return Piece("html", html, files=files)
            drawing = _INLINE_SVG.search(text)
            if drawing is not None:  # Plots.jl's figures: an SVG sent as HTML, shown as one
                return Piece("image", image=_image("image/svg+xml", drawing.group(), {}))
            if _DEFAULT_REPR.match(text_of(data.get("text/plain"))):
                data = {key: val for key, val in data.items() if key != "text/plain"}
        elif mime == "text/markdown":
            return Piece("markdown", text) if text.strip() else None
        elif mime == "text/latex":
            return Piece("markdown", latex_markdown(text)) if text.strip() else None
        elif text.strip():
            return Piece("html", f'<pre class="nb-result" tabindex="0">{ansi_to_html(text)}</pre>')
    return None


def _inline_images(html: str) -> tuple[str, tuple[Image, ...]]:
    """An HTML output's ``<img src="data:image/png;base64,...">`` (RDKit's molecules in a
    DataFrame) and ``data:`` videos (Matplotlib's animations) as files beside the page,
    named by their bytes as image outputs are: the page holds no base64, and the
    sanitiser drops a ``data:`` source."""
    images: list[Image] = []

    def written(match: re.Match[str]) -> str:
        mime = "image/jpeg" if match.group(3).lower() == "jpg" else f"image/{match.group(3)}"
        try:
            image = _image(mime.lower(), match.group(4), {})
        except OutputError:
            return match.group(0)  # unreadable: the sanitiser drops it
        images.append(image)
        sized = image.width and not re.search(r"\s(?:width|height)=", match.group(1))
        sides = f' width="{image.width}" height="{image.height}"' if sized else ""
        return f"{match.group(1)}{match.group(2)}{image.name}{match.group(2)}{sides}"

    def video(match: re.Match[str]) -> str:
        try:
            data = _base64(match.group(4), "video")
        except OutputError:
            return match.group(0)  # unreadable: the sanitiser drops it
        name = file_name(data, match.group(3).lower())
        images.append(Image(name, data, None, None))
        return f"{match.group(1)}{match.group(2)}{name}{match.group(2)}"

    html = _DATA_VIDEO.sub(video, html) if "data:video/" in html else html
    return _DATA_IMAGE.sub(written, html), tuple(images)


def latex_markdown(text: str) -> str:
    """IPython's ``Math`` and SymPy write ``$\\displaystyle ...$`` or ``$$...$$``; a bare
    formula (``Latex(r"\\frac{a}{b}")``) is shown as display math, as MathJax would."""
    stripped = text.strip()
    if "$" in stripped or stripped.startswith("\\begin"):
        return stripped
    return f"$$\n{stripped}\n$$"


def _image_metadata(mime: str, metadata: dict[str, Any]) -> dict[str, Any]:
    """The image's size as its output's metadata gives it: under its MIME type (IPython),
    or at the top (IRkernel's ``display_png(x, width=64)``)."""
    own = metadata.get(mime)
    if isinstance(own, dict):
        return own
    return metadata if isinstance(metadata, dict) else {}


def _side(value: Any) -> float | None:
    """A usable width or height: a positive finite number of pixels (not ``Infinity``)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if 0 < value <= _LARGEST else None


def _image(mime: str, value: Any, metadata: dict[str, Any]) -> Image:
    if mime == "image/svg+xml":
        data = text_of(value).encode("utf-8")
        size = _svg_size(data)
    else:
        data = _base64(text_of(value), mime)
        size = _bitmap_size(data)
    width, height = _side(metadata.get("width")), _side(metadata.get("height"))
    if width is not None:
        if height is not None:
            size = (round(width), round(height))
        elif size is not None:  # one side given: keep the file's aspect ratio
            size = (round(width), round(size[1] * width / size[0]))
    return Image(file_name(data, _SUFFIX[mime]), data, *(size or (None, None)))


def _base64(text: str, mime: str) -> bytes:
    try:
        return base64.b64decode("".join(text.split()), validate=True)
    except (binascii.Error, ValueError):
        raise OutputError(f"its {mime} output is not base64") from None


def file_name(data: bytes, suffix: str) -> str:
    """A file beside the page, named by its bytes: the same output is one file."""
    return f"nb-{hashlib.sha256(data).hexdigest()[:16]}.{suffix}"


def _bitmap_size(data: bytes) -> tuple[int, int] | None:
    import imagesize  # a dependency already: images in posts are sized with it

    try:
        width, height = imagesize.get(io.BytesIO(data))
    except (OSError, ValueError):
        return None
    return (int(width), int(height)) if width > 0 and height > 0 else None


def _svg_size(data: bytes) -> tuple[int, int] | None:
    """CSS pixels from the root's ``width``/``height`` (Matplotlib writes points), else its
    ``viewBox``."""
    root = _SVG_ROOT.search(data[:8192])
    if root is None:
        return None
    attrs = {key.decode(): value.decode() for key, value in _ATTR.findall(root.group())}
    sides = []
    for key in ("width", "height"):
        match = _SVG_LENGTH.match(attrs.get(key, ""))
        if match is None:
            break
        scale = 4 / 3 if match.group(2) == "pt" else 1
        sides.append(round(float(match.group(1)) * scale))
    if len(sides) == 2 and all(sides):
        return sides[0], sides[1]
    box = attrs.get("viewBox", "").replace(",", " ").split()
    try:
        width, height = float(box[2]), float(box[3])
    except (IndexError, ValueError):
        return None
    return (round(width), round(height)) if width > 0 and height > 0 else None


def escape_text(text: str) -> str:
    return escape(text, quote=False)
