"""Numbered display equations: Quarto's ``$$ ... $$ {#eq-name}`` and LaTeX's ``\\label{eq:name}``.

dollarmath reads ``$$ ... $$ (label)`` but not Quarto's attribute form, so a
small block rule before it reads ``$$`` blocks whose closing line ends in
``{#eq-...}``. A core rule then takes ``\\label{...}`` out of the LaTeX (the
converter does not know it) and numbers each labelled equation through
``crossrefs.register``; ``math_ext`` renders the number beside the formula.
"""

from __future__ import annotations

import re
from typing import Any, cast

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore

from site_builder.markdown.crossrefs import equation_id, register
from site_builder.markdown.state import report

_CLOSE = re.compile(r"\$\$\s*\{#(eq-[\w:-]+)\}\s*$")
_LABEL = re.compile(r"\\label\s*\{([^{}]*)\}")


def equations_plugin(md: MarkdownIt) -> None:
    """Use after ``math_ext`` (dollarmath's block rule must exist) and before ``crossrefs``."""
    md.block.ruler.before("math_block", "math_block_attrs", _parse_block, {"alt": []})
    md.core.ruler.before("text_join", "equations", _number)


def _parse_block(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """``$$`` ... ``$$ {#eq-x}``, on one line or several, without blank lines inside."""
    if state.sCount[start] - state.blkIndent >= 4:
        return False
    begin = state.bMarks[start] + state.tShift[start]
    if not state.src.startswith("$$", begin):
        return False
    line = start
    while line < end:
        text = state.src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]]
        if not text.strip():
            return False
        body = text[2:] if line == start else text
        match = _CLOSE.search(body)
        if match:
            break
        if line > start and "$$" in text:
            return False  # closed without an id: dollarmath's block
        line += 1
    else:
        return False
    if silent:
        return True
    first = state.src[begin + 2 : state.eMarks[start]]
    if line == start:
        content = first[: match.start()]
    else:
        inner = [
            state.src[state.bMarks[n] + state.tShift[n] : state.eMarks[n]]
            for n in range(start + 1, line)
        ]
        last = text[: match.start()]
        content = "\n".join([first, *inner, last])
    token = state.push("math_block", "math", 0)
    token.block = True
    token.content = content
    token.markup = "$$"
    token.info = match.group(1)
    token.map = [start, line + 1]
    state.line = line + 1
    return True


def _number(state: StateCore) -> None:
    env = cast(dict[str, Any], state.env)
    for token in state.tokens:
        if token.type not in ("math_block", "math_block_label"):
            continue
        labels = _LABEL.findall(token.content)
        ident = token.info if token.type == "math_block" and token.info else None
        token.content = _LABEL.sub("", token.content)
        if len(labels) + bool(ident) > 1:
            report(env, token, "an equation takes one label: {#eq-...} or one \\label{...}")
            continue
        if labels:
            ident = equation_id(labels[0])
        if ident is None:
            continue
        number = register(env, ident, token)
        if number is not None:
            token.meta["id"] = ident
            token.meta["number"] = number
