"""LaTeX under rewriting, and scanning a formula at its top level.

A :class:`Source` keeps every edit made to a formula, so an offset math-core
reports in the rewritten text maps back to the author's own column; the
scanners find groups, rows and alignment marks outside nested braces.
"""

from __future__ import annotations

import re
from collections.abc import Callable

Edit = tuple[int, int, str]  # replace text[start:end] with the string


class Source:
    """LaTeX under rewriting: the current text and the way back to the original offsets."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._passes: list[list[tuple[int, int, int, int]]] = []
        # Marker colour -> the CSS it stands for (see ``_marker``).
        self.styles: dict[str, str] = {}

    def marker(self, css: str) -> str:
        """A group ``{\\color[HTML]{M}...}`` that becomes ``css`` after conversion.

        math-core has no font sizes in math, ``\\colorbox`` or ``\\rule``; a colour is
        a switch with the same reach (to the end of its group), so a marker colour
        carries the place and ``formula`` swaps in the real style.
        """
        colour = f"0C0C{len(self.styles):02X}"
        self.styles[colour] = css
        return f"\\color[HTML]{{{colour}}}"

    def edit(self, edits: list[Edit]) -> None:
        """Apply non-overlapping edits, given in order of position in the current text."""
        if not edits:
            return
        out: list[str] = []
        spans: list[tuple[int, int, int, int]] = []
        pos = 0
        length = 0
        for start, end, new in edits:
            out.append(self.text[pos:start])
            length += start - pos
            spans.append((length, length + len(new), start, end))
            out.append(new)
            length += len(new)
            pos = end
        out.append(self.text[pos:])
        self.text = "".join(out)
        self._passes.append(spans)

    def sub(self, pattern: re.Pattern[str], replace: Callable[[re.Match[str]], str]) -> None:
        self.edit([(m.start(), m.end(), replace(m)) for m in pattern.finditer(self.text)])

    def origin(self, offset: int) -> int:
        """The offset in the original text of ``offset`` in the current one."""
        for spans in reversed(self._passes):
            shifted = offset
            for new_start, new_end, old_start, old_end in spans:
                if offset < new_start:
                    break
                if offset < new_end:
                    shifted = old_start
                    break
                shifted = offset - new_end + old_end
            offset = shifted
        return offset


TOKEN = re.compile(r"\\begin\s*\{[^{}]*\}|\\end\s*\{[^{}]*\}|\\[A-Za-z]+|\\.|[{}&%]", re.DOTALL)


def top_level(text: str, what: str) -> list[int]:
    """Offsets of ``what`` (``&`` or ``\\\\``) outside braces and nested environments."""
    found: list[int] = []
    depth = 0
    for match in TOKEN.finditer(text):
        token = match.group()
        if token == "{" or token.startswith("\\begin"):
            depth += 1
        elif token == "}" or token.startswith("\\end"):
            depth -= 1
        elif token == what and depth == 0:
            found.append(match.start())
    return found


def rows_of(body: str) -> list[tuple[int, int]]:
    """The rows of an environment's body: spans between its top-level ``\\\\``."""
    spans: list[tuple[int, int]] = []
    start = 0
    for at in top_level(body, "\\\\"):
        spans.append((start, at))
        start = at + 2
    spans.append((start, len(body)))
    return spans


def group_end(text: str, open_brace: int) -> int | None:
    """The offset of the ``}`` closing the ``{`` at ``open_brace``; None if it never closes."""
    depth = 0
    for match in TOKEN.finditer(text, open_brace):
        token = match.group()
        if token == "{":
            depth += 1
        elif token == "}":
            depth -= 1
            if depth == 0:
                return match.start()
    return None


# A comment runs from an unescaped ``%`` to the end of its line (``\%`` is a percent sign,
# ``\\%`` a row break and then a comment); a URL's ``%20`` is no comment.
_COMMENT = re.compile(r"\\(?:url|href)\s*\{[^{}]*\}|\\.|%[^\n]*", re.DOTALL)


def comments(text: str) -> list[Edit]:
    """Remove TeX comments, their line break kept. math-core skips them too, but a rewrite
    that adds text after one (``3\\\\%``: the ``\\end`` that closes the lines) would be
    commented out, and a commented-out ``\\newcommand`` would still be taken."""
    if "%" not in text:
        return []
    return [(m.start(), m.end(), "") for m in _COMMENT.finditer(text) if m.group()[0] == "%"]
