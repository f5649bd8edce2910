"""LaTeX to MathML with latex2mathml, checked and post-processed for MathML Core.

latex2mathml is permissive: an unknown command becomes ``<mi>\\foo</mi>`` and
unbalanced braces are silently closed. A typo must not reach the page, so we
check the source (``mathml_check``) and the output, and raise
:class:`MathError`. Its output also targets MathML 3, which Chromium only
partly implements, so ``mathml_fix`` rewrites the tree into MathML Core.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from functools import lru_cache

from site_builder.markdown import mathml_fix
from site_builder.markdown.mathml_check import MathError, check_source

__all__ = ["MathError", "latex_to_mathml"]

MATHML_NS = "http://www.w3.org/1998/Math/MathML"
_COMMAND = re.compile(r"\\([A-Za-z]+)")
_TEXT_ESCAPE = re.compile(r"\\([$%&#_{} ])")
# latex2mathml leaves the "&" of an environment it lays out as a row as a bare
# (ill-formed) "&"; "aligned" is the common one, and "align*" is its table twin.
_ALIGNED = re.compile(r"\\(begin|end)\s*\{aligned\}")
# Characters that are invisible or look like a space in source: written as
# references so the HTML says what it holds.
_INVISIBLE = {"\u00a0": "&#xA0;", "\u2061": "&#x2061;", "\u2062": "&#x2062;"}


@lru_cache(maxsize=8192)
def latex_to_mathml(latex: str, display: bool) -> str:
    """Convert one formula; memoised because posts repeat the same symbols."""
    from latex2mathml.converter import convert  # loaded on the first formula, not at start-up

    check_source(latex)
    source = _ALIGNED.sub(lambda m: f"\\{m.group(1)}{{align*}}", latex)
    try:
        out: str = convert(source, display="block" if display else "inline")
    except Exception as exc:  # latex2mathml raises a zoo of types for bad input
        detail = str(exc) or type(exc).__name__
        raise MathError(f"latex2mathml cannot convert this formula: {detail}") from None
    root = _parse(out)
    _check_output(root)
    mathml_fix.fix(root, display)
    return _serialize(_with_annotation(root, latex))


def _parse(out: str) -> ET.Element:
    """Parse without the namespace, so the tree has plain tag names and no ``ns0:`` prefixes."""
    out = out.replace(f' xmlns="{MATHML_NS}"', "", 1)
    if "<mi>&</mi>" in out:  # a bare "&" (\& is written &#x00026;): ill-formed, and a typo
        raise MathError(
            "'&' outside an alignment: use \\begin{aligned}, cases or a matrix environment"
        )
    try:
        return ET.fromstring(out)
    except ET.ParseError as exc:  # pragma: no cover - latex2mathml output we do not expect
        raise MathError(f"latex2mathml produced malformed MathML ({exc})") from None


def _check_output(root: ET.Element) -> None:
    """What source checks miss: commands latex2mathml did not know, a stray ``\\\\``."""
    for element in root.iter():
        if element.tag == "mtext" and element.text:
            # latex2mathml keeps \text{costs \$5} verbatim; in text mode \$ is a dollar.
            element.text = _TEXT_ESCAPE.sub(r"\1", element.text)
        text = element.text or ""
        match = _COMMAND.search(text)
        if match:
            raise MathError(f"unknown LaTeX command \\{match.group(1)}")
        if "\\" in text:
            raise MathError(f"stray backslash: {text}")
        if element.tag == "mspace" and element.get("linebreak"):
            raise MathError(
                "line break '\\\\' outside an environment: wrap the lines in "
                "\\begin{aligned} ... \\end{aligned}"
            )


def _with_annotation(root: ET.Element, latex: str) -> ET.Element:
    """Keep the LaTeX source in the MathML (``<semantics>``) for copy, search and assistive tech."""
    children = list(root)
    for child in children:
        root.remove(child)
    semantics = ET.SubElement(root, "semantics")
    if len(children) == 1:
        semantics.append(children[0])
    else:
        ET.SubElement(semantics, "mrow").extend(children)
    annotation = ET.SubElement(semantics, "annotation", encoding="application/x-tex")
    annotation.text = latex.strip()
    return root


def _serialize(root: ET.Element) -> str:
    head, rest = ET.tostring(root, encoding="unicode").split(">", 1)
    # xmlns first: it is what makes the element MathML for XML tools reading the page.
    head = head.replace("<math", f'<math xmlns="{MATHML_NS}"', 1)
    out = f"{head}>{rest}"
    for char, ref in _INVISIBLE.items():
        out = out.replace(char, ref)
    return out
