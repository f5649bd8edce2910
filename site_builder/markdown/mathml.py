"""LaTeX to MathML with latex2mathml, checked and post-processed for MathML Core.

latex2mathml is permissive: an unknown command becomes ``<mi>\\foo</mi>`` and
unbalanced braces are silently closed. A typo must not reach the page, so we
check its output and raise :class:`MathError` instead.
"""

from __future__ import annotations

import re
from functools import lru_cache

from latex2mathml.converter import convert


class MathError(ValueError):
    """LaTeX that cannot be typeset faithfully."""


@lru_cache(maxsize=8192)
def latex_to_mathml(latex: str, display: bool) -> str:
    """Convert one formula; memoised because posts repeat the same symbols."""
    _check_braces(latex)
    try:
        out: str = convert(latex, display="block" if display else "inline")
    except Exception as exc:  # latex2mathml raises a zoo of types for bad input
        raise MathError(f"cannot convert {latex!r}: {exc}") from None
    unknown = re.search(r"<mi>(\\[A-Za-z]+)</mi>", out)
    if unknown:
        raise MathError(f"unknown LaTeX command {unknown.group(1)}")
    return _with_annotation(out, latex)


def _with_annotation(out: str, latex: str) -> str:
    """Keep the LaTeX source in the MathML (``<semantics>``) for copy, search and assistive tech."""
    head, _, rest = out.partition(">")
    body = rest.removesuffix("</math>")
    tex = latex.strip().replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return (
        f'{head}><semantics>{body}<annotation encoding="application/x-tex">{tex}</annotation>'
        "</semantics></math>"
    )


def _check_braces(latex: str) -> None:
    depth = 0
    escaped = False
    for char in latex:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth < 0:
                raise MathError(f"unbalanced braces: unexpected '}}' in {latex!r}")
    if depth:
        raise MathError(f"unbalanced braces: {depth} unclosed '{{' in {latex!r}")
