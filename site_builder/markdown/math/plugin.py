"""The markdown-it side of math: parsing, checks, numbering, conversion and rendering.

Parsing is mdit-py-plugins' dollarmath (``$...$``, ``$$...$$`` on their own
lines, and kramdown's ``$$...$$`` inside a paragraph, which Jekyll posts use
for inline math), plus a block rule for Quarto's ``$$ ... $$ {#eq-x}``. Two
core rules do the fallible work, where each formula's source line is known:

- ``math_prepare`` (before cross-references resolve) walks the formulas in
  document order: it takes out macro definitions, rewrites what math-core
  lacks, numbers display equations, and reports a ``$`` or ``$$`` that never
  closes;
- ``math_convert`` (last) converts each formula with the macros in force at
  that point, once every equation number is known for ``\\eqref`` inside math.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, cast

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from markdown_it.utils import OptionsDict
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.dollarmath.index import math_inline_dollar

from site_builder.markdown.crossrefs import equation_id, is_crossref, register, state_of
from site_builder.markdown.math import dollars, inline
from site_builder.markdown.math.engine import Macros, MathError
from site_builder.markdown.math.formula import Formula, rewrite_macros
from site_builder.markdown.math.where import Finder, Where
from site_builder.markdown.state import (
    inline_lines,
    memoised,
    needs,
    report,
    source_line,
    warn,
)

BLOCKS = ("math_block", "math_block_label")
INLINE = ("math_inline", "math_inline_double")
_CLOSE = re.compile(r"\$\$\s*\{#(eq-[\w:-]+)\}\s*$")
_REF_IN_MATH = re.compile(r"\\(eqref|ref)\s*\{([^{}]*)\}")


def math_plugin(md: MarkdownIt) -> None:
    """Use before ``crossrefs``: numbering registers targets that references resolve against."""
    # Digits next to a "$" are settled by ``_currency_aware`` below. No blank lines in
    # display math, as in LaTeX: an unclosed $$ then stops at the paragraph's end, where it
    # is reported, instead of pairing with the next formula's $$ and swallowing the text.
    dollarmath_plugin(
        md,
        allow_space=False,
        allow_digits=True,
        allow_labels=True,
        allow_blank_lines=False,
        double_inline=True,
    )
    rule = math_inline_dollar(allow_space=False, allow_digits=True, allow_double=True)
    md.inline.ruler.at("math_inline", inline.text_dollars(inline.currency_aware(rule)))
    md.block.ruler.before("math_block", "math_block_attrs", _parse_block, {"alt": []})
    md.core.ruler.before("text_join", "math_prepare", _prepare)
    md.core.ruler.push("math_convert", _convert)
    for name in INLINE:
        md.add_render_rule(name, _render_inline)
    for name in BLOCKS:
        md.add_render_rule(name, _render_block)


# --- block rule: $$ ... $$ {#eq-x} -------------------------------------------------------


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
        content = "\n".join([first, *inner, text[: match.start()]])
    token = state.push("math_block", "math", 0)
    token.block = True
    token.content = content
    token.markup = "$$"
    token.info = match.group(1)
    token.map = [start, line + 1]
    state.line = line + 1
    return True


# --- core rule: prepare ------------------------------------------------------------------


def _prepare(state: StateCore) -> None:
    env = cast(dict[str, Any], state.env)
    macros = rewrite_macros(env["ctx"].macros)
    finder = Finder(state.src, env)
    for token in state.tokens:
        if token.type in BLOCKS:
            macros = _prepare_one(env, token, True, macros, finder.locate(token, token.content))
        elif token.children:
            children = inline_lines(env, token)
            for index, (child, line) in enumerate(children):
                if child.type in INLINE:
                    where = finder.locate(token, child.content, line)
                    macros = _prepare_one(env, child, False, macros, where)
                elif child.type == "text" and "$" in child.content:
                    run = dollars.text_run([c for c, _ in children], index)
                    dollars.check(env, finder, token, child, line, run)


def _prepare_one(
    env: dict[str, Any], token: Token, display: bool, macros: Macros, where: Where
) -> Macros:
    """Definitions, rewrites and numbers for one formula; returns the macros from here on."""
    formula = Formula(token.content, display, macros)
    formula.lines = token.type == "math_inline_double"  # display math pasted beside text
    repeated: list[str] = []

    def register_row(label: str | None, tag: str | None) -> int | str | None:
        """A label used again is LaTeX's warning, not an error: the equation is numbered,
        references go to the first (MathJax refused to draw the second)."""
        first = state_of(env).targets.get(label) if label else None
        if label is None or first is None or first.kind != "eq":
            return register(env, label, token, "eq", tag)
        repeated.append(label)
        shown = f" (first on line {first.line})" if first.line else ""
        line = source_line(env, token) or where.line  # the line register gives the first
        warn(env, f"math: equation label {label} used again{shown}; it names the first", line)
        return register(env, None, token, "eq", tag)

    try:
        macros = formula.prepare(_attribute_id(token), register_row)
    except MathError as exc:
        _report(env, formula, where, exc, token)
        _warn(env, formula, where)
        return formula.macros
    _warn(env, formula, where)
    # The page's ids stay unique: each repeat gives up its id, the last ones in the formula
    # (the first may be in it too, and keeps its id: references go to it).
    for marker, ident in reversed(list(formula.ids.items())):
        if ident in repeated:
            repeated.remove(ident)
            formula.ids[marker] = f"{ident}-{marker}"
    line = where.position(formula, None)[0] if formula.unknown_colours else None
    for name in dict.fromkeys(formula.unknown_colours):
        warn(env, f"math: unknown colour {name!r} left out (MathJax ignored it too)", line)
    token.meta["formula"] = (formula, where)
    return macros


def _attribute_id(token: Token) -> str | None:
    """``{#eq-x}`` (Quarto) or dollarmath's ``$$ ... $$ (label)``."""
    if not token.info:
        return None
    return token.info if token.type == "math_block" else equation_id(token.info)


# --- core rule: convert ------------------------------------------------------------------


def _convert(state: StateCore) -> None:
    env = cast(dict[str, Any], state.env)
    for token in state.tokens:
        if token.type in BLOCKS:
            _convert_one(env, token)
        elif token.children:
            for child in token.children:
                if child.type in INLINE:
                    _convert_one(env, child)


def _convert_one(env: dict[str, Any], token: Token) -> None:
    token.meta["mathml"] = ""
    if "formula" not in token.meta:
        return  # reported already
    formula, where = token.meta["formula"]
    if formula.empty:
        return  # nothing but definitions
    try:
        if "ref" in formula.source.text:  # \eqref{...} or \ref{...}: most formulas hold none
            formula.source.sub(_REF_IN_MATH, lambda m: _reference_text(env, m))
        token.meta["mathml"] = memoised(env, formula.key, formula.to_mathml)
    except MathError as exc:
        _report(env, formula, where, exc, token)


def _reference_text(env: dict[str, Any], match: re.Match[str]) -> str:
    """``\\eqref{x}`` inside a larger formula: the number as text ("(3)")."""
    command, label = match.groups()
    ident = label if is_crossref(label) and not label.startswith("eq-") else equation_id(label)
    target = state_of(env).targets.get(ident)
    if target is None:
        raise MathError(f"\\{command}{{{label}}} refers to no equation in this post", match.start())
    shown = f"({target.number})" if command == "eqref" else str(target.number)
    return f"\\text{{{shown}}}"


def _report(
    env: dict[str, Any], formula: Formula, where: Where, exc: MathError, token: Token
) -> None:
    """An error at the formula's line and column; with ``math: {errors: show}`` a warning
    there, and the formula is shown as its TeX (see ``_failed``)."""
    show = env["ctx"].math_errors == "show"
    for error in (exc, *exc.also):
        line, column = where.position(formula, error.offset, error.original)
        if show:
            warn(env, f"math: {error.message}", line, column)
        else:
            report(env, None, f"math: {error.message}", line=line, column=column)
    if show:
        token.meta["failed"] = exc.message


def _warn(env: dict[str, Any], formula: Formula, where: Where) -> None:
    for warning in formula.warnings:
        line, column = where.position(formula, warning.offset, warning.original)
        warn(env, f"math: {warning.message}", line, column)


# --- renderers ---------------------------------------------------------------------------


def _render_inline(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    token = tokens[idx]
    if "failed" in token.meta:
        return _failed(token, "code")
    mathml = str(token.meta["mathml"])
    if mathml:
        needs(env, "math")
    return mathml


def _render_block(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    """A box that scrolls sideways when the formula is wider than the column."""
    token = tokens[idx]
    if "failed" in token.meta:
        return _failed(token, "pre") + "\n"
    mathml = token.meta["mathml"]
    if not mathml:
        return ""
    needs(env, "math")
    return f'<div class="math-display">{mathml}</div>\n'


def _failed(token: Token, element: str) -> str:
    """A formula that did not convert (``math: {errors: show}``), as MathJax and KaTeX show
    one: its TeX in a marked box, the message in its title and, for screen readers and
    keyboards (a title is neither), in hidden words before it."""
    message = escapeHtml(str(token.meta["failed"]))
    hidden = f'<span class="visually-hidden">Formula not converted ({message}): </span>'
    tex = escapeHtml(token.content.strip())
    return f'<{element} class="math-error" title="{message}">{hidden}{tex}</{element}>'
