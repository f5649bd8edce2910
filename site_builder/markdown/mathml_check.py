"""Checks on the LaTeX source that latex2mathml would otherwise paper over.

latex2mathml silently closes unbalanced braces, swallows ``\\begin{foo}`` of an
environment it does not know, and raises bare exception classes for a lone
``\\left``. A typo must fail the build with a message an author can act on, so
the source is checked before conversion and each problem named precisely.
"""

from __future__ import annotations

import re

# Environments latex2mathml lays out as an <mtable>; "aligned" is rewritten to
# "align*" (see mathml.py) because latex2mathml leaves its "&" as an identifier.
ENVIRONMENTS = frozenset(
    {
        "aligned",
        "align",
        "align*",
        "split",
        "cases",
        "array",
        "matrix",
        "pmatrix",
        "bmatrix",
        "Bmatrix",
        "vmatrix",
        "Vmatrix",
        "smallmatrix",
    }
)

_TOKEN = re.compile(r"\\[A-Za-z]+\*?|\\.|[^\\]", re.DOTALL)
_ENV = re.compile(r"\\(begin|end)\s*\{([^{}]*)\}")
_FENCE = re.compile(r"\\(left|right)(?![A-Za-z])\s*(\\[A-Za-z]+|\\.|.)?", re.DOTALL)


class MathError(ValueError):
    """LaTeX that cannot be typeset faithfully."""


def check_source(latex: str) -> None:
    """Raise MathError for the first problem latex2mathml would not report itself."""
    check_braces(latex)
    check_environments(latex)
    check_fences(latex)


def check_braces(latex: str) -> None:
    """Braces must balance; ``\\{`` and ``\\}`` are delimiters, not grouping."""
    depth = 0
    for token in _TOKEN.findall(latex):
        if token == "{":
            depth += 1
        elif token == "}":
            depth -= 1
            if depth < 0:
                raise MathError("unbalanced braces: '}' without a matching '{'")
    if depth:
        plural = "s" if depth > 1 else ""
        raise MathError(f"unbalanced braces: {depth} '{{'{plural} never closed")


def check_environments(latex: str) -> None:
    """Every ``\\begin{X}`` names a known environment and is closed by ``\\end{X}``."""
    stack: list[str] = []
    for kind, name in _ENV.findall(latex):
        if kind == "begin":
            if name not in ENVIRONMENTS:
                known = ", ".join(sorted(ENVIRONMENTS, key=lambda env: (env.lower(), env)))
                raise MathError(f"unknown environment {{{name}}} (known: {known})")
            stack.append(name)
        elif not stack:
            raise MathError(f"\\end{{{name}}} without \\begin{{{name}}}")
        elif stack[-1] != name:
            raise MathError(f"\\begin{{{stack[-1]}}} ended by \\end{{{name}}}")
        else:
            stack.pop()
    if stack:
        raise MathError(f"\\begin{{{stack[-1]}}} without \\end{{{stack[-1]}}}")


def check_fences(latex: str) -> None:
    """``\\left`` and ``\\right`` come in pairs (``\\right.`` is an invisible one)."""
    opened: list[str] = []
    for kind, delimiter in _FENCE.findall(_without_escaped_backslashes(latex)):
        if kind == "left":
            opened.append(delimiter)
        elif not opened:
            raise MathError(f"\\right{delimiter} without a matching \\left")
        else:
            opened.pop()
    if opened:
        raise MathError(
            f"\\left{opened[-1]} without a matching \\right (use \\right. for an invisible one)"
        )


def _without_escaped_backslashes(latex: str) -> str:
    """Blank out ``\\\\`` (a row break) so ``\\\\left`` is not read as ``\\left``."""
    return latex.replace("\\\\", "  ")
