"""A ``$`` or ``$$`` left in a paragraph's text: math that never closed, or a ``$ x $``.

dollarmath reads ``$...$`` by Pandoc's rule: no space may follow the opening ``$`` or
come before the closing one (so ``$5 and $10`` is money). Jupyter and MyST read
``$ \\tilde X $`` and ``$U^\\top $`` as math, so posts written there hold many; the error
names the formula and the fix at its first ``$``, where "unclosed $" at the second
misled.
"""

from __future__ import annotations

import re
from typing import Any

from markdown_it.token import Token

from site_builder.markdown.math.where import Finder
from site_builder.markdown.state import report, warn

# A "$" that opens math (not currency, not "$ "), or any "$$", left over in text: unclosed.
_UNCLOSED = re.compile(r"\$\$|(?<![\w$])\$(?=[^\s\d$])")
# ``$ \\tilde X $`` (Jupyter's and MyST's math, spaces inside): here, as in Pandoc, a ``$``
# before a space is a dollar sign, so the second ``$`` opens math that never closes.
_SPACED = re.compile(r"(?<![\w$])\$\s+([^$\s][^$]*?)\s*\$\Z")
_SPACED_CLOSE = re.compile(r"\$([^$\s][^$]*?)\s+\$(?!\$)")  # ``$U^\top $``: Pandoc's rule too
_SPACED_CLOSE_END = re.compile(r"\$[^$\s][^$]*?\s+\$\Z")
_SPACED_HINT = "a space inside the dollars makes '{0}' text: no space may {1} $ (write ${2}$)"


def text_run(children: list[Token], index: int) -> tuple[str, int]:
    """The text around ``children[index]`` up to the formulas and breaks on either side
    (markdown-it splits it at each ``$``), and where that child starts in it."""
    start = end = index
    while start > 0 and children[start - 1].type.startswith("text"):
        start -= 1
    while end + 1 < len(children) and children[end + 1].type.startswith("text"):
        end += 1
    before = "".join(c.content for c in children[start:index])
    return before + "".join(c.content for c in children[index : end + 1]), len(before)


def check(
    env: dict[str, Any],
    finder: Finder,
    block: Token,
    child: Token,
    line: int | None,
    run: tuple[str, int],
) -> None:
    """The first ``$`` or ``$$`` of ``child`` that opens math never closed. ``run`` (see
    :func:`text_run`) shows whether it is math with a space inside its dollars."""
    text, offset = run
    for match in _UNCLOSED.finditer(child.content):
        mark, start = match.group(), match.start()
        hint = (
            "display math must close with $$ before the next blank line"
            if mark == "$$"
            else "write \\$ for a literal dollar sign"
        )
        message = f"math: unclosed {mark} ({hint})"
        at_text = offset + start
        opened = _SPACED.search(text, 0, at_text + 1) if mark == "$" else None
        if opened and text.count("$", 0, opened.start()) % 2:
            opened = None  # ``$a $ and $b``: that ``$`` closed a formula, it opens none
        closed = _SPACED_CLOSE.match(text, at_text) if mark == "$" else None
        if opened:  # ``$ x $``: the formula starts at the first ``$``
            start = opened.start() - offset
            words = _SPACED_HINT.format(opened.group(), "follow the opening", opened.group(1))
            message = f"math: {words}"
        elif closed:  # ``$x $``
            words = _SPACED_HINT.format(closed.group(), "come before the closing", closed.group(1))
            message = f"math: {words}"
        elif mark == "$" and _SPACED_CLOSE_END.search(text, 0, at_text + 1):
            continue  # the closing ``$`` of a ``$x $`` reported at its opening one
        where = finder.locate(block, child.content, line)
        at = None if where.start is None or where.start + start < 0 else where.start + start
        line, column = (line, None) if at is None else finder.position(at)
        if env["ctx"].math_errors == "show":  # as MathJax showed it: the text, dollar and all
            warn(env, message, line, column)
        else:
            report(env, None, message, line=line, column=column)
        return
