"""Math: ``$...$`` inline and ``$$...$$`` display, converted to MathML at build time.

Parsing is mdit-py-plugins' dollarmath. Conversion happens in a core rule rather
than in dollarmath's ``renderer`` hook because conversion can fail, and only the
core stage knows each formula's source line for the error message.
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping, Sequence
from functools import cache
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from markdown_it.utils import OptionsDict
from mdit_py_plugins.dollarmath import dollarmath_plugin

from site_builder.markdown.mathml_check import MathError
from site_builder.markdown.state import inline_lines, memoised, report, source_line


def math_plugin(md: MarkdownIt) -> None:
    """Wire up parsing (dollarmath), conversion (core rule) and rendering."""
    # allow_digits=False keeps "$5 and $10" as currency, as Pandoc does.
    dollarmath_plugin(md, allow_space=False, allow_digits=False, allow_labels=True)
    md.core.ruler.push("math_to_mathml", _convert)
    md.add_render_rule("math_inline", _render_inline)
    md.add_render_rule("math_block", _render_block)
    md.add_render_rule("math_block_label", _render_block)


def _convert(state: StateCore) -> None:
    """Convert every formula once, storing MathML in ``token.meta``; report failures by line."""
    for token in state.tokens:
        if token.type in ("math_block", "math_block_label"):
            _convert_one(state.env, token, True, source_line(state.env, token))
        elif token.children:
            for child, line in inline_lines(state.env, token):
                if child.type == "math_inline":
                    _convert_one(state.env, child, False, line)


def _convert_one(
    env: MutableMapping[str, Any], token: Token, display: bool, line: int | None
) -> None:
    try:
        token.meta["mathml"] = memoised(
            env,
            ("math", str(display), token.content),
            lambda: _latex_to_mathml(token.content, display),
        )
    except MathError as exc:
        report(env, None, f"math: {exc}", line=line)
        token.meta["mathml"] = ""


def _latex_to_mathml(latex: str, display: bool) -> str:
    return _converter()(latex, display)


@cache
def _converter() -> Callable[[str, bool], str]:
    """Imported on the first formula not in the memo: an edit that changes no formula never
    loads latex2mathml or ElementTree."""
    from site_builder.markdown.mathml import latex_to_mathml

    return latex_to_mathml


def _render_inline(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    return str(tokens[idx].meta["mathml"])


def _render_block(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    token = tokens[idx]
    box = f'<div class="math-display">{token.meta["mathml"]}</div>'
    if "number" not in token.meta:
        return box + "\n"
    # Numbered (see ``equations``): a two-column row, the number at the column's right edge.
    return (
        f'<div class="equation" id="{escapeHtml(token.meta["id"])}">{box}'
        f'<span class="equation-number">({token.meta["number"]})</span></div>\n'
    )
