"""LaTeX to MathML Core with math-core, and its errors in plain words with a column.

math-core (a Rust converter) does the real work: it knows the commands and
environments real posts use, escapes text safely and writes MathML Core, the
MathML that Chromium draws. This module only configures it once per set of
macros, keeps the author's own LaTeX in the ``<annotation>`` (the source it
was given may have been rewritten, see ``rewrite``), and turns its error
messages ("12: Unknown command ...") into a :class:`MathError` with an offset.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from markdown_it.common.utils import escapeHtml

from site_builder.markdown.math.output import fix_output

if TYPE_CHECKING:
    from math_core import LatexToMathML

Macros = tuple[tuple[str, str], ...]  # (name without backslash, body), in definition order

_ERROR = re.compile(r"^(?:macro(\d+):)?(\d+): (.*)$", re.DOTALL)
_UNKNOWN = re.compile(r'^Unknown (command|environment) "\\?([^"]*)"')
# What math-core knows (and the rewrites add), for "did you mean" hints.
ENVIRONMENTS = (
    "align", "align*", "aligned", "alignat", "array", "Bmatrix", "bmatrix", "cases",
    "dcases", "eqnarray", "equation", "equation*", "flalign", "gather", "gather*",
    "gathered", "matrix", "multline", "multline*", "pmatrix", "rcases", "smallmatrix",
    "split", "subarray", "Vmatrix", "vmatrix",
)  # fmt: skip
_ANNOTATION = '<annotation encoding="application/x-tex">'


class MathError(ValueError):
    """LaTeX that cannot be typeset faithfully; ``offset`` is where, in the source given."""

    def __init__(self, message: str, offset: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.also: list[MathError] = []  # more in the same formula (definitions), reported too
        self.original = False  # ``offset`` is into the author's text, not the rewritten one


def convert(latex: str, display: bool, macros: Macros = (), annotation: str | None = None) -> str:
    """One formula as ``<math>``, with ``annotation`` (default: ``latex``) as its TeX source.

    A macro whose definition fails fails only the formulas that use it, at the use (as
    MathJax checks a macro where it is expanded): see :func:`checked`.
    """
    from math_core import LatexError

    macros, broken = checked(macros)
    if broken:
        for use in _CONTROL.finditer(latex):
            if use.group(1) in broken:
                raise MathError(broken[use.group(1)], use.start())
    try:
        out = _converter(macros).convert_with_local_state(latex, displaystyle=display)
    except LatexError as exc:
        error = _error(str(exc), macros)
        brace = _unclosed_brace(latex) if error.message.startswith(_UNCLOSED) else None
        past_end = error.offset is not None and error.offset > len(latex)
        unmatched = error.message.startswith(_UNCLOSED) and brace is None
        if (past_end or unmatched) and _uses_macro(latex, macros):
            raise MathError(f"{error.message} (in a macro)") from None
        if brace is not None:
            error.offset = brace  # math-core points at the end; the author wants the '{'
        elif error.message.startswith("\\left without"):
            error.offset = _unclosed_left(latex)
        raise error from None
    # math-core annotates with what it was given; the page keeps what the author wrote.
    start = out.rindex(_ANNOTATION) + len(_ANNOTATION)
    end = out.rindex("</annotation>")
    source = latex if annotation is None else annotation
    out = out[:start] + escapeHtml(source.strip()) + out[end:]
    return fix_output(out)


_CONTROL = re.compile(r"\\([A-Za-z]+|.)", re.DOTALL)
BROKEN = "broken@"  # a name whose definition could not be read: its body is the message


@lru_cache(maxsize=64)
def checked(macros: Macros) -> tuple[Macros, dict[str, str]]:
    """The macros math-core takes, and why each other one fails, by name.

    math-core checks every body when it is configured, so one bad body (``\\vcenter``,
    which it lacks) would fail every formula. Each body it refuses is left out, with its
    message, and so is each body that uses one left out (the first cause is kept). Macros
    math-core never sees (names with ``@``: colours, those expanded here) pass through.
    """
    from math_core import LatexError

    good = list(macros)
    broken = {n.removeprefix(BROKEN): body for n, body in macros if n.startswith(BROKEN)}
    for _ in range(len(macros)):
        try:
            _converter(tuple(good))
            break
        except LatexError as exc:
            index = _ERROR.match(str(exc).strip())
            names = [name for name, _ in good if "@" not in name]
            if index is None or index.group(1) is None or int(index.group(1)) >= len(names):
                break  # not a body's fault: every conversion reports it
            name = names[int(index.group(1))]
            unknown = _UNKNOWN.match(index.group(3))
            cause = unknown and broken.get(unknown.group(2))
            broken[name] = cause or _error(str(exc), tuple(good)).message
            good = [(n, body) for n, body in good if n != name]
    return tuple(good), broken


@lru_cache(maxsize=64)
def _converter(macros: Macros) -> LatexToMathML:
    """One converter per macro set (a post's, usually the site's): creating one costs ~40 µs."""
    from math_core import LatexToMathML

    return LatexToMathML(
        macros={name: body for name, body in macros if "@" not in name},  # colours aren't TeX
        xml_namespace=True,  # the feed and XML tools read the page's MathML too
        annotation=True,
        fancy_error=False,
        # \widetilde, \widehat and friends: "unreliable" across browsers, fine in Chromium.
        allow_unreliable_rendering=True,
    )


_UNCLOSED = "unbalanced braces: a '{' is never closed"


def _unclosed_left(latex: str) -> int | None:
    """Where the first ``\\left`` without its ``\\right`` is."""
    opened: list[int] = []
    for match in re.finditer(r"\\(left|right)(?![A-Za-z])|\\.", latex):
        if match.group(1) == "left":
            opened.append(match.start())
        elif match.group(1) == "right" and opened:
            opened.pop()
    return opened[0] if opened else None


def _uses_macro(latex: str, macros: Macros) -> bool:
    return any(re.search(rf"\\{name}(?![A-Za-z])", latex) for name, _ in macros)


def _unclosed_brace(latex: str) -> int | None:
    """Where the first '{' that is never closed opens (``\\{`` is a delimiter, not a group)."""
    opened: list[int] = []
    for match in re.finditer(r"\\.|[{}]", latex, re.DOTALL):
        if match.group() == "{":
            opened.append(match.start())
        elif match.group() == "}" and opened:
            opened.pop()
    return opened[0] if opened else None


def _error(text: str, macros: Macros) -> MathError:
    """math-core says ``12: message``, or ``macro3:4: message`` for a fault in a macro body."""
    match = _ERROR.match(text.strip())
    if match is None:
        return MathError(plain(text.strip()))
    index, offset, message = match.groups()
    words = plain(message) + _hint(message, macros)
    names = [name for name, _ in macros if "@" not in name]  # as given to math-core
    if index is not None and int(index) < len(names):
        name = names[int(index)]
        return MathError(f"in the definition of \\{name}: {words}")
    return MathError(words, int(offset))


def _hint(message: str, macros: Macros) -> str:
    """`` (did you mean \\theta?)`` for a near miss of a known command or environment."""
    unknown = _UNKNOWN.match(message)
    if unknown is None:
        return ""
    kind, name = unknown.groups()
    if kind == "command":
        close = _closest_command(name, tuple(m for m, _ in macros))
        return f" (did you mean \\{close}?)" if close else ""
    close = _closest(name, ENVIRONMENTS)
    return f" (did you mean {{{close}}}?)" if close else ""


@lru_cache(maxsize=1024)
def _closest_command(name: str, macros: tuple[str, ...]) -> str | None:
    """Memoised: a post that uses a macro it never defines (the site's MathJax config had
    it) names it in every formula, and each look-up measures ~2,000 commands (~10 ms)."""
    return _closest(name, [*known_commands(), *macros])


def _closest(name: str, known: list[str] | tuple[str, ...]) -> str | None:
    """The nearest by edit distance (``\\tetha``: ``\\theta``); among equals, the one with
    the same first letter, then the same length (typos rarely hit the first letter)."""
    limit = 1 if len(name) <= 3 else 2
    near = (k for k in known if abs(len(k) - len(name)) <= limit)  # no need to measure others
    best = min(
        ((_distance(name, k), k[:1] != name[:1], abs(len(k) - len(name)), k) for k in near),
        default=None,
    )
    return best[3] if best is not None and best[0] <= limit else None


def _distance(a: str, b: str) -> int:
    """Edit distance counting a swap of neighbours as one edit (``\\alpah``: ``\\alpha``)."""
    before: list[int] = []
    row = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            current[j] = min(row[j] + 1, current[j - 1] + 1, row[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                current[j] = min(current[j], before[j - 2] + 1)
        before, row = row, current
    return row[-1]


@cache
def known_commands() -> tuple[str, ...]:
    """Written by ``tools/math_commands.py`` from KaTeX's list, checked against math-core."""
    text = (Path(__file__).parent / "commands.txt").read_text(encoding="utf-8")
    return tuple(text.split())


_PLAIN = [
    (re.compile(r'^Unknown command "(\\[^"]*)"\.?$'), r"unknown LaTeX command \1"),
    (re.compile(r'^Unknown environment "([^"]*)"\.?$'), r"unknown environment {\1}"),
    (
        re.compile(r'^Found "&", which may only appear in a table-like environment\.?$'),
        "'&' outside an alignment: use \\\\begin{aligned}, cases or a matrix environment",
    ),
    (
        re.compile(r'^Expected closing token "\}", but reached end of input\.?$'),
        "unbalanced braces: a '{' is never closed",
    ),
    (
        re.compile(r'^Unmatched closing token: "\}"\.?$'),
        "unbalanced braces: '}' without a matching '{'",
    ),
    (
        re.compile(r'^Expected closing token "\\right", but reached end of input\.?$'),
        "\\\\left without a matching \\\\right (use \\\\right. for an invisible one)",
    ),
    (
        re.compile(r'^Unmatched closing token: "\\right"\.?$'),
        "\\\\right without a matching \\\\left",
    ),
    (
        re.compile(r'^Expected "\\end\{([^"]*)\}", but found "\\end\{([^"]*)\}"\.?$'),
        r"\\begin{\1} ended by \\end{\2}",
    ),
    (
        re.compile(r'^Unmatched closing token: "\\end\{\.\.\.\}"\.?$'),
        "\\\\end without a matching \\\\begin",
    ),
]


def plain(message: str) -> str:
    """math-core's message, with the common ones in the words the README uses."""
    for pattern, words in _PLAIN:
        if pattern.match(message):
            return pattern.sub(words, message)
    return message.rstrip(".")
