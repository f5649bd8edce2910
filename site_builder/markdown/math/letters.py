"""Letters math-core sets in the wrong alphabet, put right in the source.

math-core maps ``\\mathfrak{I}`` to U+210D (double-struck H, the ``\\mathbb{H}`` of
quaternions) instead of U+2111, the Fraktur capital I that Unicode keeps outside the
Fraktur block (as ``\\Im``). Every other letter and digit of ``\\mathfrak``,
``\\mathbb``, ``\\mathcal``, ``\\mathscr``, ``\\mathbf``, ``\\mathsf``, ``\\mathtt``,
``\\mathit`` and ``\\boldsymbol`` was checked and is right. The fix writes the
character itself, which math-core keeps as it is inside the ``\\mathfrak`` group.
"""

from __future__ import annotations

import re

from site_builder.markdown.math.source import Edit, group_end

_FRAKTUR = re.compile(r"\\mathfrak\s*(?:(\{)|(I)(?![A-Za-z]))|\{\s*\\frak(?![A-Za-z])")
_FRAKTUR_I = "\u2111"
_OTHER_FONT = re.compile(r"\\(?:math|text|bm|bold|pmb|operatorname|mbox|rm|cal|bf|it|sf|tt)")


def fraktur_i(text: str) -> list[Edit]:
    """``\\mathfrak{I}``, ``\\mathfrak I`` and ``{\\frak I}``: the ``I`` as U+2111."""
    edits: list[Edit] = []
    for match in _FRAKTUR.finditer(text):
        if match.group(2):  # ``\mathfrak I``: the letter is the argument
            edits.append((match.start(2), match.end(2), _FRAKTUR_I))
            continue
        open_brace = match.start(1) if match.group(1) else match.start()
        close = group_end(text, open_brace)
        if close is None or _OTHER_FONT.search(text, open_brace, close):
            continue  # ``\mathfrak{\mathcal{I}}``: the inner font wins; left to math-core
        for at in range(open_brace + 1, close):
            if text[at] == "I" and not _in_command(text, at):
                edits.append((at, at + 1, _FRAKTUR_I))
    return sorted(set(edits))


def _in_command(text: str, at: int) -> bool:
    """Whether the ``I`` at ``at`` belongs to a command's name (``\\Im``, ``\\IJ``)."""
    start = at
    while start > 0 and text[start - 1].isalpha():
        start -= 1
    return start > 0 and text[start - 1] == "\\" and (start - 1 == 0 or text[start - 2] != "\\")
