"""A Markdown cell as the pipeline must read it: Jupyter's math, attachments as files.

Jupyter renders Markdown cells with MathJax, where ``$$...$$`` is display math
wherever it stands, even in the middle of a sentence, and a bare
``\\begin{align}...\\end{align}`` is display math too. The pipeline reads a
``$$...$$`` inside a paragraph as inline (kramdown's rule, which Jekyll posts
rely on), so each such formula is moved onto lines of its own, between blank
lines, and a bare environment is wrapped in ``$$``. Code (fenced or inline) is
left alone. Lines are inserted, never joined, and each output line remembers
the cell line it came from, so an error in a formula names that line.

``![](attachment:plot.png)`` refers to an image stored inside the cell; it is
written beside the page under a name made from its bytes' hash, and the link
follows. A missing attachment stops the build naming the cell.
"""

from __future__ import annotations

import base64
import binascii
import re
from bisect import bisect_right
from typing import Any

from site_builder.notebooks.outputs import file_name

_DISPLAY = re.compile(
    r"\\\$|\$\$(?:[^$]|\$(?!\$))+?\$\$"
    r"|\\begin\{((?:equation|align|alignat|gather|multline|eqnarray|flalign)\*?)\}.*?\\end\{\1\}",
    re.DOTALL,
)
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})", re.MULTILINE)
_CODE_SPAN = re.compile(r"(`+)(?:.|\n)*?(?<!`)\1(?!`)")
_INDENT = re.compile(r"^(?:\s*(?:[-+*]|\d+[.)])\s+|\s*)")
_ATTACHMENT = re.compile(r"attachment:([^)\s\"'>]+)")
_SUFFIX = {"image/png": "png", "image/jpeg": "jpg", "image/gif": "gif", "image/svg+xml": "svg"}


class AttachmentError(ValueError):
    """A missing or unreadable attachment; the caller adds the notebook and the cell."""


def display_math(text: str) -> tuple[str, list[int]]:
    """``text`` with display math on lines of its own, and the 0-based source line of each
    output line."""
    newlines = [i for i, char in enumerate(text) if char == "\n"]

    def line_of(offset: int) -> int:
        return bisect_right(newlines, offset - 1)

    protected = _protected(text)
    pieces: list[tuple[str, int | None, int]] = []  # text, its source offset, anchor
    pos = 0
    for match in _DISPLAY.finditer(text):
        start, end = match.span()
        if match.group(0) == "\\$" or _inside(protected, start):
            continue
        line_start = text.rfind("\n", 0, start) + 1
        line_end = text.find("\n", end)
        line_end = len(text) if line_end < 0 else line_end
        indent = " " * len(_INDENT.match(text[line_start:]).group(0))  # type: ignore[union-attr]
        before_text = text[line_start:start]
        previous = text[: max(line_start - 1, 0)].rsplit("\n", 1)[-1] if line_start else ""
        pieces.append((text[pos:start], pos, pos))
        if before_text.strip() and not _INDENT.fullmatch(before_text):
            last, offset, anchor = pieces[-1]
            pieces[-1] = (last.rstrip(" \t"), offset, anchor)  # no trailing space left
            pieces.append(("\n\n" + indent, None, start))
        elif previous.strip():
            pieces.append(("\n", None, start))
        wrap = match.group(1) is not None
        if wrap:
            pieces.append(("$$", None, start))
        pieces.append((text[start:end], start, start))
        if wrap:
            pieces.append(("$$", None, end))
        after_text = text[end:line_end]
        following = text[line_end + 1 :].split("\n", 1)[0] if line_end < len(text) else ""
        if after_text.strip():
            pieces.append(("\n\n" + indent, None, end))
            pos = end + len(after_text) - len(after_text.lstrip())
            continue
        if following.strip():
            pieces.append(("\n", None, end))
        pos = end
    pieces.append((text[pos:], pos, pos))
    out = "".join(piece for piece, _, _ in pieces)
    origins = [0]
    for piece, offset, anchor in pieces:
        for index, char in enumerate(piece):
            if char == "\n":
                origins.append(
                    line_of(offset + index + 1) if offset is not None else line_of(anchor)
                )
    return out, origins


# A single ``$`` (not ``\\$``, not part of ``$$``): MathJax pairs them in order in a line.
_DOLLAR = re.compile(r"(?<![\\$])\$(?!\$)")


def spaced_inline(text: str) -> str:
    """``text`` with each inline formula spaced inside its dollars (``$ u_0 = 1.0 $``)
    closed up, outside code: Jupyter's MathJax pairs the dollars of a line in order and
    reads such a formula, which Pandoc's rule (and this site's) does not. A pair with a
    digit right after its opening ``$`` is left alone (``$5 and $10`` is money); a spaced
    number (``$ 0 $``, QuantEcon's lectures) is a formula."""
    if "$ " not in text and " $" not in text:
        return text
    spans = _protected(text)
    edits: list[tuple[int, int, str]] = []
    for line in re.finditer(r"[^\n]+", text):
        marks = [m.start() + line.start() for m in _DOLLAR.finditer(line.group())]
        marks = [m for m in marks if not any(a <= m < b for a, b in spans)]
        for opening, closing in zip(marks[::2], marks[1::2], strict=False):
            inside = text[opening + 1 : closing]
            bare = inside.strip()
            if bare != inside and bare and not inside[0].isdigit():
                edits.append((opening + 1, closing, bare))
    for start, end, bare in reversed(edits):
        text = text[:start] + bare + text[end:]
    return text


def _protected(text: str) -> list[tuple[int, int]]:
    """Fenced code blocks and inline code spans, where a ``$`` is just a dollar."""
    spans: list[tuple[int, int]] = []
    fences = list(_FENCE.finditer(text))
    index = 0
    while index < len(fences):
        opener = fences[index]
        mark = opener.group(1)
        closer = next(
            (
                f
                for f in fences[index + 1 :]
                if f.group(1)[0] == mark[0] and len(f.group(1)) >= len(mark)
            ),
            None,
        )
        end = closer.end() if closer is not None else len(text)
        spans.append((opener.start(), end))
        index = fences.index(closer) + 1 if closer is not None else len(fences)
    for match in _CODE_SPAN.finditer(text):
        if not _inside(spans, match.start()):
            spans.append(match.span())
    return spans


def _inside(spans: list[tuple[int, int]], offset: int) -> bool:
    return any(start <= offset < end for start, end in spans)


def attachments(source: str, cell: Any) -> tuple[str, dict[str, bytes]]:
    """The source with ``attachment:name`` links pointing at files, and those files."""
    if "attachment:" not in source:
        return source, {}
    stored = cell.get("attachments") or {}
    files: dict[str, bytes] = {}

    def replace(match: re.Match[str]) -> str:
        name = match.group(1)
        bundle = stored.get(name)
        if not isinstance(bundle, dict) or not bundle:
            known = ", ".join(sorted(stored)) or "none"
            raise AttachmentError(
                f"attachment '{name}' is missing from the cell (attachments: {known})"
            )
        mime = next((m for m in _SUFFIX if m in bundle), None)
        if mime is None:
            raise AttachmentError(f"attachment '{name}' is not an image ({', '.join(bundle)})")
        value = bundle[mime]
        raw = "".join(value) if isinstance(value, list) else str(value)
        if mime == "image/svg+xml":
            data = raw.encode("utf-8")
        else:
            try:
                data = base64.b64decode("".join(raw.split()), validate=True)
            except (binascii.Error, ValueError):
                raise AttachmentError(f"attachment '{name}' is not valid base64") from None
        file = file_name(data, _SUFFIX[mime])
        files[file] = data
        return file

    return _ATTACHMENT.sub(replace, source), files


_STYLE = re.compile(r"<style\b[^>]*>.*?</style\s*>", re.IGNORECASE | re.DOTALL)
_IFRAME = re.compile(r"<iframe\b[^>]*>", re.IGNORECASE)
_FRAMEBORDER = re.compile(r"""\s+frameborder\s*=\s*["']?(\w*)["']?""", re.IGNORECASE)


def page_html(source: str) -> str:
    """A Markdown cell's own HTML, fitted to the page it now sits in. A ``<style>`` block
    styled the notebook viewer, not this site (and is invalid inside the page's body): it
    goes, its lines kept blank so every later line keeps its cell line. An ``<iframe>``'s
    obsolete ``frameborder`` becomes the CSS it stood for."""

    def blank(match: re.Match[str]) -> str:
        return "\n" * match.group().count("\n")

    def border(match: re.Match[str]) -> str:
        tag = match.group()
        found = _FRAMEBORDER.search(tag)
        if found is None:
            return tag
        css = ' style="border:0"' if found.group(1) == "0" and "style=" not in tag else ""
        return tag[: found.start()] + css + tag[found.end() :]

    return _IFRAME.sub(border, _STYLE.sub(blank, source))
