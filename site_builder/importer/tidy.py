"""A formula's TeX as MathJax tolerated it, in the spelling LaTeX means the same by.

The import's delimiter rules (``markup``) find the formulas; each one's body passes
through :func:`tidy_formula` on its way to this site's ``$...$`` or ``$$`` lines:
``\\require{ext}`` loaded a MathJax extension (nothing to load here), an HTML character
reference is the character the browser decoded before MathJax read it, ``\\bbox`` and
plain TeX's ``\\eqalign`` are amsmath's, a subscript Markdown left escaped is a
subscript, and a backslash ending a line is a control space.
"""

from __future__ import annotations

import html
import re
from re import Match

REQUIRE = re.compile(r"\\require\s*\{[\w-]*\}")
# ``$T(\cdot &#124; x)$``, ``$&Omega;$``: a character reference (a table's pipe), which the browser
# decoded before MathJax saw the formula.
ENTITY = re.compile(r"&(?:#\d{2,4}|#[xX][0-9A-Fa-f]{2,4}|[A-Za-z][A-Za-z0-9]{1,31});")
CONTROL_SPACE = re.compile(r"(?<!\\)((?:\\\\)*)\\[ \t]*\n")


def tidy_formula(tex: str) -> str:
    """What MathJax tolerated and LaTeX means the same by: ``\\require{ext}`` loaded a MathJax
    extension (nothing to load here); a backslash ending a line is a control space; an HTML
    character reference is its character."""
    tex = REQUIRE.sub("", tex)
    tex = ENTITY.sub(_entity, tex)
    tex = BBOX.sub(r"\\boxed{", tex)
    tex = EQALIGN.sub(_eqalign, tex)
    tex = _escaped_subscripts(tex)
    return CONTROL_SPACE.sub(lambda m: m.group(1) + "\\ \n", tex)


def _entity(match: Match[str]) -> str:
    char = html.unescape(match.group())
    return "\\vert " if char == "|" else char  # a | would split a table's cell


# MathJax's ``\\bbox[options]{x}`` and plain TeX's ``\\eqalign{a &= b \\cr ...}``.
BBOX = re.compile(r"\\bbox\s*(?:\[[^\]]*\])?\s*\{")
EQALIGN = re.compile(r"\\eqalign(?:no)?\s*\{((?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*)\}")


def _eqalign(match: Match[str]) -> str:
    rows = re.sub(r"\\cr\b", r"\\\\", match.group(1)).strip()
    return "\\begin{aligned}" + rows.removesuffix("\\\\").rstrip() + "\\end{aligned}"


_TEXT_GROUPS = frozenset(
    {"text", "textrm", "texttt", "textit", "textbf", "textsf", "mbox", "mathrm", "mathtt"}
    | {"operatorname", "mathit", "mathsf", "label", "tag"}
)


def _escaped_subscripts(tex: str) -> str:
    """``\\underbrace{x}\\_{p}``: a subscript escaped for Markdown that the Markdown did not
    unescape (kramdown keeps ``$$`` verbatim). In text (``\\text{a\\_b}``) it is an
    underscore and stays."""
    if "\\_" not in tex:
        return tex
    out: list[str] = []
    groups: list[str] = []  # the command that opened each brace group
    i = 0
    while i < len(tex):
        char = tex[i]
        if char == "\\":
            command = re.match(r"\\([A-Za-z]+|.)", tex[i:])
            name = command.group(1) if command else ""
            if name == "_" and not _TEXT_GROUPS & set(groups):
                out.append("_")
                i += 2
                continue
            out.append(command.group(0) if command else char)
            i += len(command.group(0)) if command else 1
            if tex[i : i + 1] == "{":
                groups.append(name)
                out.append("{")
                i += 1
            continue
        if char == "{":
            groups.append("")
        elif char == "}" and groups:
            groups.pop()
        out.append(char)
        i += 1
    return "".join(out)
