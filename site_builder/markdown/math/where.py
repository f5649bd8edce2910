"""Where a formula is in the file: its line, and the column of an error inside it.

Only block tokens carry source lines; a formula is found in its block's source
text (in order, so a repeated formula is found again where it is), and an
offset in the rewritten LaTeX maps back through ``Source.origin``. An inline
footnote (``^[...]``) is moved to the end with no source lines; its formulas are
found in the whole text, at the first place no earlier formula took.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from typing import Any

from markdown_it.token import Token

from site_builder.markdown.math.formula import Formula
from site_builder.markdown.state import source_line


@dataclass(frozen=True)
class Where:
    """Where a formula is in the file: its line, and its offset in the body if found."""

    finder: Finder
    line: int | None
    start: int | None = None

    def position(
        self, formula: Formula, offset: int | None, original: bool = False
    ) -> tuple[int | None, int | None]:
        """File line and column of ``offset`` in the rewritten source (None: the start), or
        in the author's text if ``original``."""
        if self.start is None:
            return self.line, None
        if offset is None:  # the formula as a whole: its first character
            at = self.start + len(formula.latex) - len(formula.latex.lstrip())
        else:
            at = self.start + (offset if original else formula.source.origin(offset))
        return self.finder.position(at)


class Finder:
    """File line and column of a formula, found in the source lines of its block."""

    def __init__(self, src: str, env: dict[str, Any]) -> None:
        self.src = src
        self.env = env
        self.starts = [0, *(m.end() for m in re.finditer("\n", src))]
        self.cursor: dict[int, int] = {}  # per block: where the last formula was found
        self.taken: set[int] = set()  # where formulas were found, for those of no block

    def locate(self, block: Token, text: str, line: int | None = None) -> Where:
        """Where ``text`` (a formula of ``block``, in order) starts; ``line`` if not found."""
        line = line or source_line(self.env, block)
        if block.map is None:  # an inline footnote's: the first place no formula took
            at = self.src.find(text)
            while at in self.taken:
                at = self.src.find(text, at + 1)
        else:
            begin = self.starts[block.map[0]]
            end = self.starts[block.map[1]] if block.map[1] < len(self.starts) else len(self.src)
            at = self.src.find(text, max(begin, self.cursor.get(id(block), begin)), end)
        if at < 0:
            return Where(self, line)
        self.cursor[id(block)] = at + 1
        self.taken.add(at)
        return Where(self, self.position(at)[0], at)

    def position(self, at: int) -> tuple[int | None, int | None]:
        """1-based file line and column of the absolute offset ``at`` in the body."""
        index = bisect_right(self.starts, at) - 1  # a post with thousands of formulas: log n
        offset: int = self.env["ctx"].line_offset
        return offset + index + 1, at - self.starts[index] + 1
