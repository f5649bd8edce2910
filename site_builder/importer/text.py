"""A post body being rewritten, that still knows which source line each of its lines came from.

Conversions are a series of regular-expression rewrites over the whole body.
The report must name the line in the *original* file, and every rewrite that
adds or removes lines shifts the ones after it, so each rewrite also rewrites
the map from current lines to source lines: a replacement maps all its lines to
the line its match started on; untouched text keeps its own.

Code must come across byte for byte, and math must not be taken for Liquid
(``{{a, b}}`` is LaTeX), so regions can be *masked*: swapped for a one-line
placeholder that no conversion matches, and put back at the end.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from re import Match, Pattern

_PLACEHOLDER = re.compile("\x00(\\d+)\x00")


class Text:
    """The body under conversion: ``text`` plus, per current line, its 1-based source line."""

    def __init__(self, text: str, first_line: int = 1) -> None:
        self.text = text
        self.origin = list(range(first_line, first_line + text.count("\n") + 1))
        self._masked: list[str] = []

    def line(self, offset: int) -> int:
        """The source line of the character at ``offset`` in the current text."""
        return self.origin[self.text.count("\n", 0, offset)]

    def sub(self, pattern: Pattern[str], replace: Callable[[Match[str], int], str]) -> None:
        """Replace every match with ``replace(match, source_line)``, keeping the line map."""
        edits = []
        for match in pattern.finditer(self.text):
            edits.append((match.start(), match.end(), replace(match, self.line(match.start()))))
        self.splice(edits)

    def splice(self, edits: list[tuple[int, int, str]]) -> None:
        """Replace the spans ``(start, end, new)`` (sorted, not overlapping) in one pass.

        The new text of an edit takes the source line of its start; untouched text keeps
        its own, so later reports still name the line the author wrote.
        """
        if not edits:
            return
        pieces: list[str] = []
        origin: list[int] = [self.origin[0]]
        pos = 0
        old_line = 0  # index into self.origin of the line holding ``pos``

        def keep(segment: str) -> None:
            nonlocal old_line
            pieces.append(segment)
            for _ in range(segment.count("\n")):
                old_line += 1
                origin.append(self.origin[old_line])

        for start, end, new in edits:
            keep(self.text[pos:start])
            pieces.append(new)
            origin.extend([self.origin[old_line]] * new.count("\n"))
            old_line += self.text.count("\n", start, end)
            pos = end
        keep(self.text[pos:])
        self.text = "".join(pieces)
        self.origin = origin

    def mask(self, pattern: Pattern[str], keep: Callable[[Match[str]], str] | None = None) -> None:
        """Hide each match (as ``keep(match)`` when given) from later rewrites until ``unmask``."""

        def hide(match: Match[str], _line: int) -> str:
            self._masked.append(keep(match) if keep else match.group(0))
            return f"\x00{len(self._masked) - 1}\x00"

        self.sub(pattern, hide)

    def hide(self, content: str) -> str:
        """A placeholder for ``content``, for a rewrite whose result must not be touched again."""
        self._masked.append(content)
        return f"\x00{len(self._masked) - 1}\x00"

    def unmask(self) -> None:
        """Put every masked region back (placeholders inside masked text too)."""
        while _PLACEHOLDER.search(self.text):
            self.sub(_PLACEHOLDER, lambda m, _line: self._masked[int(m.group(1))])

    def rehide(self, index_text: str, change: Callable[[str], str]) -> None:
        """Rewrite the text hidden behind a placeholder (its placeholder stays)."""
        index = int(index_text.strip("\x00"))
        self._masked[index] = change(self._masked[index])

    def masked(self, index_text: str) -> str:
        """The text hidden behind a placeholder such as ``"\\x003\\x00"``."""
        return self._masked[int(index_text.strip("\x00"))]
