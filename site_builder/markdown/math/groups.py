r"""The rewrites that follow a group or an environment to its end (see ``rewrite``).

Each takes the formula's current text and returns the edits it makes (or, for
``eqnarray``, the replacement of one match), so ``rewrite.rewrite_common`` can
apply them in order on one :class:`~site_builder.markdown.math.source.Source`.
"""

from __future__ import annotations

import re

from site_builder.markdown.math.engine import MathError
from site_builder.markdown.math.source import TOKEN, Edit, group_end, rows_of, top_level

_SUBSTACK = re.compile(r"\\substack\s*\{")
_ARRAY_SPEC = re.compile(r"(\\begin\s*\{(?:array|tabular)\})\s*(\[[^\]]*\]\s*)?(~[\s~]*)?\{")
_ARRAY = re.compile(r"\\begin\s*\{(?:array|tabular)\}(?!\s*(?:\[[^\]]*\]\s*)?[~\s]*\{)")
# ``\begin{array} ~a & b``: MathJax took the ``~`` for the spec, every column centred.
_TILDE_SPEC = re.compile(r"(\\begin\s*\{array\})\s*~(?!\s*~*\s*\{)")
_SCRIPT_COLOUR = re.compile(r"[_^]\s*(\\color\s*(?:\[[^\]]*\])?\s*\{[^{}]*\}\s*\{)")
EQNARRAY = re.compile(r"\\begin\s*\{eqnarray(\*?)\}(.*?)\\end\s*\{eqnarray\1\}", re.DOTALL)
_TEXT = re.compile(r"\\(?:text|textrm|textbf|textit|textsf|texttt|mbox|emph)\s*\{")
_DOLLAR = re.compile(r"(?<!\\)\$")  # as ``math_in_text`` splits a text
_LITERAL_HASH = re.compile(r"#(?![1-9#])")  # ``#1`` is a macro's parameter
_TAG_ARGUMENT = re.compile(r"\\tag\*?\s*\{")
_MATHOP = re.compile(r"\\mathop\s*\{")
_LIMITS = re.compile(r"\s*\\(no)?limits(?![A-Za-z])")
_SCRIPT = re.compile(r"\s*([_^])\s*(\\[A-Za-z]+|\\.|[^{\s\\])?")


def text_underscores(text: str) -> list[Edit]:
    """``\\text{cross_entropy}``: an underscore in text is a literal one, as is a ``#`` that
    is no macro's parameter (``\\text{# max}``); so is an ampersand there or in a ``\\tag``
    (``\\tag{if A & B commute}``: MathJax read the braces whole). Not inside ``$...$`` in
    the text (``\\text{at $x_0$}``): that is math again."""
    edits: list[Edit] = []
    for pattern, specials in ((_TEXT, "_&"), (_TAG_ARGUMENT, "&")):
        for match in pattern.finditer(text):
            close = group_end(text, match.end() - 1)
            if close is None:
                continue
            dollars = len(_DOLLAR.findall(text, match.end(), close))
            in_math = False
            for at in range(match.end(), close):
                if text[at] == "$" and text[at - 1] != "\\" and dollars % 2 == 0:
                    in_math = not in_math
                if in_math:
                    continue
                if text[at] in specials and text[at - 1] != "\\":
                    edits.append((at, at + 1, "\\" + text[at]))
                elif _LITERAL_HASH.match(text, at) and specials != "&" and text[at - 1] != "\\":
                    edits.append((at, at + 1, "\\#"))
                if text[at] in "&%_#$" and text[at + 1] == " ":  # math-core drops that space
                    edits.append((at + 1, at + 2, "\\ "))
    return sorted(set(edits))


def math_in_text(text: str) -> list[Edit]:
    """``\\text{if $x > 0$}``: the ``$...$`` pieces leave the text as math of their own."""
    edits: list[Edit] = []
    for match in _TEXT.finditer(text):
        close = group_end(text, match.end() - 1)
        body = text[match.end() : close]
        if close is None or "$" not in body or (edits and match.start() < edits[-1][1]):
            continue
        command = match.group().rstrip("{").rstrip()
        parts = re.split(r"(?<!\\)\$", body)
        if len(parts) % 2 == 0:
            continue  # an odd number of $: math-core says what is wrong
        pieces = [p if i % 2 else (f"{command}{{{p}}}" if p else "") for i, p in enumerate(parts)]
        edits.append((match.start(), close + 1, "{" + "".join(pieces) + "}"))
    return edits


_SWITCH = re.compile(r"\\color\s*(?:\[[^\]]*\])?\s*\{[^{}]*\}")


def text_switches(text: str) -> list[Edit]:
    """``\\text{The dog \\color{green}chased}``: a colour (or a size, which is a colour
    marker by now) switched inside text, which MathJax allows and math-core does not.
    The text is split where it switches, the rest in a coloured group of its own."""
    edits: list[Edit] = []
    for match in _TEXT.finditer(text):
        close = group_end(text, match.end() - 1)
        if close is None or (edits and match.start() < edits[-1][1]):
            continue
        command = match.group().rstrip("{").rstrip()
        split = _split_at_switch(command, text[match.end() : close])
        if split is not None:
            edits.append((match.start(), close + 1, split))
    return edits


def _split_at_switch(command: str, body: str) -> str | None:
    depth, i = 0, 0
    while i < len(body):
        if body[i] == "\\":
            switch = _SWITCH.match(body, i)
            if switch is None or depth:
                i += 2
                continue
            rest = body[switch.end() :]
            after = _split_at_switch(command, rest) or f"{command}{{{rest}}}"
            before = f"{command}{{{body[:i]}}}" if body[:i] else ""
            return f"{before}{{{switch.group()}{after}}}"
        depth += {"{": 1, "}": -1}.get(body[i], 0)
        i += 1
    return None


_PLAIN_MATRIX = re.compile(r"\\(matrix|pmatrix|cases|displaylines)\s*\{")
_ENVIRONMENT = {"displaylines": "gathered"}  # plain TeX's centred lines


def plain_matrices(text: str) -> list[Edit]:
    """Plain TeX's ``\\matrix{a & b \\cr c & d}`` (and ``\\pmatrix``, ``\\cases``,
    ``\\displaylines``), which MathJax reads, as LaTeX's environments (``\\cr`` is
    ``\\\\`` by now)."""
    edits: list[Edit] = []
    for match in _PLAIN_MATRIX.finditer(text):
        close = group_end(text, match.end() - 1)
        if close is None or (edits and match.start() < edits[-1][1]):
            continue
        name, body = _ENVIRONMENT.get(match.group(1), match.group(1)), text[match.end() : close]
        edits.append((match.start(), close + 1, f"\\begin{{{name}}}{body}\\end{{{name}}}"))
    return edits


def mathop_limits(text: str) -> list[Edit]:
    """``\\mathop{X}\\limits_{a}^{b}`` as ``\\overset{b}{\\underset{a}{\\mathop{X}}}``."""
    edits: list[Edit] = []
    for match in _MATHOP.finditer(text):
        close = group_end(text, match.end() - 1)
        limits = _LIMITS.match(text, close + 1) if close is not None else None
        if close is None or limits is None or (edits and match.start() < edits[-1][1]):
            continue
        operator, end = text[match.start() : close + 1], limits.end()
        if limits.group(1):  # \nolimits: what math-core does anyway
            edits.append((close + 1, end, ""))
            continue
        scripts: dict[str, str] = {}
        while (script := _SCRIPT.match(text, end)) and script.group(1) not in scripts:
            if script.group(2):
                scripts[script.group(1)], end = script.group(2), script.end()
            elif (arg_end := group_end(text, script.end())) is not None:
                scripts[script.group(1)], end = text[script.end() + 1 : arg_end], arg_end + 1
            else:
                break
        if "_" in scripts:
            operator = f"\\underset{{{scripts['_']}}}{{{operator}}}"
        if "^" in scripts:
            operator = f"\\overset{{{scripts['^']}}}{{{operator}}}"
        edits.append((match.start(), end, operator))
    return edits


def scripted_colours(text: str) -> list[Edit]:
    r"""``x^\color{red}{y}``: MathJax 2 read ``\color`` with two arguments, so authors put
    one where a script's argument goes; math-core, like LaTeX, wants a group there."""
    edits: list[Edit] = []
    for match in _SCRIPT_COLOUR.finditer(text):
        close = group_end(text, match.end() - 1)
        if close is not None:
            edits += [(match.start(1), match.start(1), "{"), (close + 1, close + 1, "}")]
    return sorted(edits)


def array_specs(text: str) -> list[Edit]:
    r"""``\begin{array}{@{}c*{2}{r}p{2cm}}``: the column letters math-core takes (``crrl``).

    ``@{..}``, ``!{..}``, ``>{..}`` and ``<{..}`` go (spacing and material between
    columns, which MathJax drew), ``*{n}{cols}`` is repeated out, a paragraph column
    (``p{2cm}``) is a left-aligned one, and the vertical position (``[t]``) goes, and so
    does a ``~`` before the spec (MathJax skipped it). An array without a spec is an error
    in plain words (math-core's is about "string literals")."""
    edits: list[Edit] = []
    for tilde in _TILDE_SPEC.finditer(text):  # ``\begin{array} ~a & b``
        columns = _top_level(text[tilde.end() :]).split("\\\\", 1)[0].count("&") + 1
        edits.append((tilde.start(), tilde.end(), f"{tilde.group(1)}{{{'c' * columns}}}"))
    tildes = {start for start, _, _ in edits}
    if missing := next((m for m in _ARRAY.finditer(text) if m.start() not in tildes), None):
        raise MathError(
            "\\begin{array} needs its columns in braces right after it, as in \\begin{array}{cc}",
            missing.end() + len(text[missing.end() :]) - len(text[missing.end() :].lstrip()),
        )
    for match in _ARRAY_SPEC.finditer(text):
        close = group_end(text, match.end() - 1)
        if close is None:
            continue
        spec = text[match.end() : close]
        simple = simple_spec(spec)
        if simple is not None and (simple != spec or match.group(2) or match.group(3)):
            edits.append((match.start(), close, f"{match.group(1)}{{{simple}"))
    return sorted(edits)


def _top_level(text: str) -> str:
    """``text`` up to its array's end, with every brace group taken out (its ``&`` and
    ``\\\\`` belong to a nested one)."""
    out, depth = [], 0
    for char in text.split("\\end{array}", 1)[0]:
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth == 0 and char not in "{}":
            out.append(char)
    return "".join(out)


def simple_spec(spec: str) -> str | None:
    out: list[str] = []
    i = 0
    while i < len(spec):
        char = spec[i]
        if char in "@!><*pmb":
            args = 2 if char == "*" else 1
            groups: list[str] = []
            j = i + 1
            for _ in range(args):
                while j < len(spec) and spec[j].isspace():
                    j += 1
                end = group_end(spec, j) if spec[j : j + 1] == "{" else None
                if end is None:
                    return None
                groups.append(spec[j + 1 : end])
                j = end + 1
            if char == "*":
                inner = simple_spec(groups[1])
                if inner is None or not groups[0].strip().isdigit():
                    return None
                out.append(inner * min(int(groups[0]), 100))
            elif char in "pmb":
                out.append("l")
            i = j
            continue
        out.append(char)
        i += 1
    return "".join(out)


def substacks(text: str) -> list[Edit]:
    """``\\substack{a\\\\b}`` is amsmath's shorthand for a centred ``subarray``."""
    edits: list[Edit] = []
    for match in _SUBSTACK.finditer(text):
        close = group_end(text, match.end() - 1)
        if close is None or (edits and match.start() < edits[-1][1]):
            continue
        body = text[match.end() : close]
        edits.append((match.start(), close + 1, f"\\begin{{subarray}}{{c}}{body}\\end{{subarray}}"))
    return edits


def eqnarray(match: re.Match[str]) -> str:
    """``a &=& b`` in three columns becomes ``a &= b`` in align's two."""
    star, body = match.group(1), match.group(2)
    rows = [drop_second_ampersand(body[s:e]) for s, e in rows_of(body)]
    return f"\\begin{{align{star}}}" + "\\\\".join(rows) + f"\\end{{align{star}}}"


def drop_second_ampersand(row: str) -> str:
    first = top_level(row, "&")
    if len(first) < 2:
        return row
    at = first[1]
    return row[:at] + row[at + 1 :]


def nested_breaks(text: str) -> list[Edit]:
    """A ``\\\\`` inside a brace group or ``\\left...\\right`` and no environment
    closer in (``\\left( a \\\\, b \\right)``): MathJax 3 set it as a line break it
    never draws, math-core refuses it; it goes."""
    edits: list[Edit] = []
    stack: list[bool] = []  # per open group: may a row break stand in it?
    for match in TOKEN.finditer(text):
        token = match.group()
        if token in ("{", "\\left") or token.startswith("\\begin"):
            stack.append(token.startswith("\\begin"))
        elif token in ("}", "\\right") or token.startswith("\\end"):
            if stack:
                stack.pop()
        elif token == "\\\\" and stack and not stack[-1]:
            edits.append((match.start(), match.end(), " "))
    return edits


def top_level_lines(text: str) -> list[Edit]:
    """Lines broken with ``\\\\`` outside any environment: wrap them so they are set as lines."""
    if not top_level(text, "\\\\"):
        return []
    name = "aligned" if top_level(text, "&") else "gathered"
    return [(0, 0, f"\\begin{{{name}}}"), (len(text), len(text), f"\\end{{{name}}}")]


_OPERATORNAME = re.compile(r"\\operatorname(\*?)\s*\{")
# What math-core's \operatorname cannot read as text: fonts, scripts (``\mathbb{E}``).
_NOT_TEXT = re.compile(r"\\(?:math[a-z]+|rm|bf|it|sf|tt|cal|bm|boldsymbol|pmb)(?![A-Za-z])|[_^]")


def operator_names(text: str, display: bool) -> list[Edit]:
    """``\\operatorname{\\mathbb{E}}``: math-core's ``\\operatorname`` takes text only; an
    operator made of math is a ``\\mathop``, as amsmath sets it (scripts beside; the
    starred form's under and over in display math)."""
    edits: list[Edit] = []
    for match in _OPERATORNAME.finditer(text):
        close = group_end(text, match.end() - 1)
        if close is None or not _NOT_TEXT.search(text, match.end(), close):
            continue
        limits = "\\limits" if match.group(1) and display else ""
        edits.append((match.start(), close + 1, f"\\mathop{{{text[match.end() : close]}}}{limits}"))
    return edits


# A row break that ends an environment's last row (``1 \\ 2 \\ \end{bmatrix}``) or the
# formula; after an even run of backslashes only (``\\\\`` is a break, ``\\\{`` a brace).
_LAST_BREAK = re.compile(r"(?<!\\)((?:\\\\)*)\\\\\s*(?=\\end\s*\{)")
_FINAL_BREAK = re.compile(r"(?<!\\)((?:\\\\)*)\\\\\s*$")


def last_breaks(text: str, formula: bool = False) -> list[Edit]:
    """``\\begin{bmatrix} 1 \\\\ 2 \\\\ \\end{bmatrix}``: KaTeX and MathJax drop the empty row
    that a break before ``\\end`` (or at the end of a ``formula``, not of a macro's body,
    which may be a break) opens; math-core sets it, a blank line that makes the brackets
    taller. Real posts write it often (one break per row)."""
    pattern = _FINAL_BREAK if formula else _LAST_BREAK
    return [(m.start(), m.end(), m.group(1)) for m in pattern.finditer(text)]
