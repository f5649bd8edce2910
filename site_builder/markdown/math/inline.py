"""The inline ``$...$`` rule: dollarmath's, with what MathJax-era posts expect of it.

- Digits beside a ``$`` (:func:`currency_aware`): ``5$x$`` is math, ``$5/$10`` money.
- A ``$`` inside a ``\\text{...}`` group (:func:`text_dollars`): ``$\\text{at $x_0$}$``
  is one formula, as MathJax reads it, matching braces before it looks for the
  closing ``$``; dollarmath would close at the first ``$`` inside the text.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from markdown_it.rules_inline import StateInline

Rule = Callable[[StateInline, bool], bool]


def currency_aware(
    rule: Callable[[StateInline, bool], bool],
) -> Callable[[StateInline, bool], bool]:
    """Wrap dollarmath's inline rule so that digits beside a ``$`` read as MathJax-era posts
    mean them: ``5$x$``, ``$x$2`` and ``101$\\times$11`` are math, but a span that starts with
    a digit and ends against one (``$5/$10``, ``US$5 and US$10``) is currency. dollarmath's
    own ``allow_digits=False`` refuses all four; Pandoc refuses only a digit after the close."""

    def parse(state: StateInline, silent: bool) -> bool:
        start = state.pos
        if not state.src[start : start + 3].lstrip("$")[:1].isdigit():
            return rule(state, silent)  # most formulas: no digit to weigh, parse once
        if not rule(state, True):
            return False
        end, state.pos = state.pos, start
        if state.src[start:end].strip("$")[:1].isdigit() and state.src[end : end + 1].isdigit():
            return False
        return rule(state, silent)

    return parse


def text_dollars(rule: Rule) -> Rule:
    """Wrap the inline rule: a formula whose closing ``$`` comes after ``$`` pieces held
    in braces (math inside ``\\text{}``) is taken whole; any other goes to ``rule``."""

    def parse(state: StateInline, silent: bool) -> bool:
        close = brace_aware_close(state.src, state.pos)
        if close is None:
            return rule(state, silent)
        if not silent:
            token = state.push("math_inline", "math", 0)
            token.content = state.src[state.pos + 1 : close]
            token.markup = "$"
        state.pos = close + 1
        return True

    return parse


_TEXT_COMMAND = re.compile(r"\\(?:text[a-z]*|mbox|hbox)\s*$")
_TEXT_COMMAND_ANYWHERE = re.compile(r"\\(?:text[a-z]*|mbox|hbox)\s*\{")


def brace_aware_close(src: str, start: int) -> int | None:
    """The closing ``$`` of a single-``$`` formula at ``start`` whose ``\\text{}`` groups
    hold a ``$`` before it (None when none do: dollarmath's rule reads it the same, and a
    ``$`` in any other group is an error dollarmath's reading reports better)."""
    if src[start : start + 1] != "$" or src[start + 1 : start + 2] in ("$", " ", ""):
        return None
    first = src.find("$", start + 1)  # most formulas: no text command before their end
    if first < 0 or not _TEXT_COMMAND_ANYWHERE.search(src, start + 1, first):
        return None
    groups: list[bool] = []  # for each open brace: is it a text command's argument?
    nested, i = False, start + 1
    while i < len(src):
        char = src[i]
        if char == "\\":
            i += 2
            continue
        if char == "{":
            groups.append(bool(_TEXT_COMMAND.search(src, start + 1, i)))
        elif char == "}":
            if not groups:
                return None
            groups.pop()
        elif char == "$":
            if not groups:
                return i if nested and src[i - 1] != " " else None
            if not groups[-1]:
                return None
            nested = True
        i += 1
    return None
