r"""The physics package's commands whose arguments vary, which no macro can define.

A site whose MathJax loaded ``physics`` gets the package's fixed-argument commands as
macros on import (``importer.physics``). These three take one argument or more, so they
are rewritten here, as the package draws them:

- ``\dv{x}`` is d/dx, ``\dv{f}{x}`` df/dx, ``\dv[n]{f}{x}`` the n-th derivative;
- ``\pdv`` likewise with ∂, and ``\pdv{f}{x}{y}`` the mixed second derivative;
- ``\qty(...)``, ``\qty[...]``, ``\qty{...}`` and ``\qty|...|`` are delimiters sized to
  their content.

No other package defines these names, so a formula that uses them meant the package.
"""

from __future__ import annotations

import re

from site_builder.markdown.math.source import Edit, Source, group_end

_DERIVATIVE = re.compile(r"\\(dv|pdv)(?![A-Za-z])\s*(?:\[([^\]]*)\])?\s*(?=\{)")
_QTY = re.compile(r"\\qty(?![A-Za-z])\s*([(\[{|])")
_CLOSING = {"(": ")", "[": "]", "{": "}", "|": "|"}
_SIZED = {"(": ("\\left(", "\\right)"), "[": ("\\left[", "\\right]"),
          "{": ("\\left\\{", "\\right\\}"), "|": ("\\left\\vert", "\\right\\vert")}  # fmt: skip


def rewrite(source: Source) -> None:
    """Every ``\\dv``, ``\\pdv`` and ``\\qty`` of ``source``, nested ones a pass each."""
    for edits_of in (derivatives, sized):
        for _ in range(4):
            if not (edits := edits_of(source.text)):
                break
            source.edit(edits)


def derivatives(text: str) -> list[Edit]:
    """Each ``\\dv`` and ``\\pdv`` of ``text`` as a fraction (inner ones on a later pass)."""
    edits: list[Edit] = []
    for match in _DERIVATIVE.finditer(text):
        if edits and match.start() < edits[-1][1]:
            continue
        groups, end = _groups(text, match.end(), 3 if match.group(1) == "pdv" else 2)
        if groups:
            edits.append((match.start(), end, _derivative(match.group(1), match.group(2), groups)))
    return edits


def sized(text: str) -> list[Edit]:
    """Each outermost ``\\qty`` of ``text`` as ``\\left...\\right`` (inner ones on a later pass)."""
    edits: list[Edit] = []
    for match in _QTY.finditer(text):
        if edits and match.start() < edits[-1][1]:
            continue
        opening = match.group(1)
        close = _matching(text, match.end() - 1, opening)
        if close is not None:
            left, right = _SIZED[opening]
            edits.append((match.start(), close + 1, f"{left} {text[match.end() : close]} {right}"))
    return edits


def _groups(text: str, at: int, most: int) -> tuple[list[str], int]:
    """Up to ``most`` brace groups from ``at`` (spaces between allowed), and where they end."""
    groups: list[str] = []
    while len(groups) < most:
        start = at + len(text[at:]) - len(text[at:].lstrip(" "))
        if text[start : start + 1] != "{":
            break
        close = group_end(text, start)
        if close is None:
            break
        groups.append(text[start + 1 : close])
        at = close + 1
    return groups, at


def _derivative(kind: str, order: str | None, groups: list[str]) -> str:
    d = "\\mathrm{d}" if kind == "dv" else "\\partial"
    power = f"^{{{order}}}" if order else ""
    if len(groups) == 1:  # the operator alone: d/dx
        return f"\\frac{{{d}{power}}}{{{d} {groups[0]}{power}}}"
    top = f"{d}{power} {groups[0]}"
    if len(groups) == 3:  # mixed partial: d^2 f / dx dy
        return f"\\frac{{{d}^{{2}} {groups[0]}}}{{{d} {groups[1]}\\, {d} {groups[2]}}}"
    return f"\\frac{{{top}}}{{{d} {groups[1]}{power}}}"


def _matching(text: str, opening_at: int, opening: str) -> int | None:
    """Where the delimiter opened at ``opening_at`` closes, nested pairs counted."""
    if opening == "{":
        return group_end(text, opening_at)
    closing, depth = _CLOSING[opening], 0
    for index in range(opening_at, len(text)):
        if index > 0 and text[index - 1] == "\\":
            continue  # ``\|``, ``\(``: a symbol, not this delimiter
        if text[index] == closing and ((opening == closing and index > opening_at) or depth == 1):
            return index
        if text[index] == opening and opening != closing:
            depth += 1
        elif text[index] == closing:
            depth -= 1
    return None
