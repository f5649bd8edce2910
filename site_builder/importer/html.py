"""Raw HTML that only laid a page out for the old theme: unwrap it so its Markdown renders.

al-folio posts put images in Bootstrap grids (``<div class="row"><div
class="col-sm">``) and Distill layouts (``<div class="l-page">``), and kramdown
renders Markdown inside ``<div markdown="1">``. CommonMark renders nothing
inside an HTML block, so math and figures in those wrappers would stay raw
text. The wrappers carry no meaning here (the column is the column), so the
importer removes them and dedents what they held, which would otherwise be an
indented code block.
"""

from __future__ import annotations

import re
import textwrap

from site_builder.importer.text import Text

_DIV_OPEN = re.compile(r"<div\b([^>]*)>", re.IGNORECASE)
_DIV_ANY = re.compile(r"<(/?)div\b[^>]*>", re.IGNORECASE)
_LAYOUT_CLASS = re.compile(
    r"^(?:row|col(?:-[\w]+)*|l-[\w-]+|[mp][tbxyse]?-(?:\w+-)?(?:\d|auto)|container(?:-fluid)?"
    r"|justify-content-\w+|align-items-\w+|d-flex|d-block|text-center|mx-auto|img-fluid|rounded"
    r"|z-depth-\d|w-\d+|h-\d+|figure|center|d-figure|fake-img|g-\d|gx-\d|gy-\d)$"
)
_HIDDEN = re.compile(r"display\s*:\s*none", re.IGNORECASE)
_DEFINITIONS = re.compile(
    r"(?s)\s*(?:(?:\$\$|\\\[)\s*(?:\\(?:new|renew|provide)command|\\def|\\let|\\Declare"
    r"MathOperator|\\definecolor|\s)[^$]*(?:\$\$|\\\])\s*)+"
)
CAPTION = re.compile(r'(?is)<div\s+class="(?:caption|figcaption)[^"]*"\s*>(.*?)</div\s*>')


def _attributes(raw: str) -> dict[str, str]:
    return {
        k.lower(): v1 if v1 is not None else v2
        for k, v1, v2 in re.findall(r"""([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""", raw)
    }


def _unwrappable(raw_attrs: str, inner: str) -> bool:
    attrs = _attributes(raw_attrs)
    if "markdown" in attrs or (inner.strip() and _DEFINITIONS.fullmatch(inner)):
        return True
    if _HIDDEN.search(attrs.get("style", "")):
        return _DEFINITIONS.fullmatch(inner) is not None  # a hidden macro preamble
    if set(attrs) - {"class", "style", "align"}:
        return False
    classes = attrs.get("class", "").split()
    return all(_LAYOUT_CLASS.match(c) for c in classes)


def _closing(text: str, start: int) -> tuple[int, int] | None:
    """The span of the ``</div>`` that closes the ``<div>`` ending at ``start``."""
    depth = 1
    for match in _DIV_ANY.finditer(text, start):
        depth += -1 if match.group(1) else 1
        if depth == 0:
            return match.start(), match.end()
    return None


def unwrap_layout(text: Text) -> None:
    """Remove layout-only ``<div>`` wrappers (innermost first), keeping what they hold."""
    for _ in range(20):  # each pass removes one level of nesting
        edits: list[tuple[int, int, str]] = []
        taken_until = -1
        for match in _DIV_OPEN.finditer(text.text):
            if match.start() < taken_until:
                continue
            close = _closing(text.text, match.end())
            if close is None:
                continue
            inner = text.text[match.end() : close[0]]
            if not _unwrappable(match.group(1), inner):
                continue
            if _DIV_OPEN.search(inner):  # unwrap from the inside out, so dedent sees it all
                nested = [m for m in _DIV_OPEN.finditer(inner) if _closing(inner, m.end())]
                if any(_unwrappable(m.group(1), "") for m in nested):
                    continue
            body = textwrap.dedent(inner.strip("\n")).strip()
            edits.append((match.start(), close[1], f"\n\n{body}\n\n"))
            taken_until = close[1]
        if not edits:
            return
        text.splice(edits)


def caption_text(raw: str) -> str:
    """A caption div's content on one line, as Markdown (simple inline HTML kept)."""
    raw = re.sub(r"(?i)<br\s*/?>", " ", raw)
    return " ".join(raw.split())
