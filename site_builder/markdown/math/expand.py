r"""Macros expanded here, before conversion, because math-core cannot take them.

math-core expands the macros it is given, but only those named with letters, with
mandatory arguments and a body of plain parameters. TeX and MathJax take more,
and real posts use it:

- an optional first argument: ``\newcommand{\x}[2][d]{...}``;
- a control-symbol name: ``\def\|{|}``;
- ``##`` in a body (a macro that defines a macro: ``##1`` is the inner one's ``#1``).

Such a macro is kept among a formula's macros under :data:`HERE` (not a TeX name:
math-core never sees it) and each use is replaced by its expansion, as TeX would
expand it, keeping the offsets (a ``Source`` edit), so an error inside points at the use.
"""

from __future__ import annotations

import re
from functools import lru_cache

from site_builder.markdown.math.engine import Macros, MathError
from site_builder.markdown.math.source import Edit, group_end

HERE = "here@"
_ARGUMENT = re.compile(r"\s*(\{|\\[A-Za-z]+|\\.|[^\s{}])")
_TOKEN = re.compile(r"\\([A-Za-z]+|.)", re.DOTALL)
_CONTROL_WORD_END = re.compile(r"\\[A-Za-z]+$")


def here_macro(name: str, arity: int, default: str | None, body: str) -> tuple[str, str]:
    """The (name, body) entry of a macro expanded here; ``default`` is the optional
    first argument's, None when the first argument is mandatory."""
    optional = "" if default is None else "[" + default
    return HERE + name, f"{arity}\x00{optional}\x00{body}"


def expand_here(text: str, macros: Macros) -> list[Edit]:
    """Edits that expand every use of a macro kept :data:`HERE` in ``text`` (one pass;
    call again while it finds any, for uses inside arguments or expansions)."""
    table = _here_macros(macros)
    if not table or not any(f"\\{name}" in text for name in table):
        return []
    edits: list[Edit] = []
    for match in _TOKEN.finditer(text):  # token by token: ``\\|`` is a row break and a bar
        name = match.group(1)
        if name not in table or (edits and match.start() < edits[-1][1]):
            continue
        arity, optional, body = table[name].split("\x00")
        at, args = match.end(), []
        if optional:
            rest = text[at:].lstrip()
            if rest.startswith("["):
                open_at = len(text) - len(rest)
                close = bracket_end(text, open_at)
                if close is None:
                    raise MathError(f"\\{name}: '[' is never closed", open_at)
                args.append(text[open_at + 1 : close])
                at = close + 1
            else:
                args.append(optional[1:])
        while len(args) < int(arity):
            arg = _ARGUMENT.match(text, at)
            if arg is None:
                raise MathError(f"\\{name} needs {arity} arguments", match.start())
            if arg.group(1) == "{":
                end = group_end(text, arg.start(1))
                if end is None:
                    raise MathError("unbalanced braces: a '{' is never closed", arg.start(1))
                args.append(text[arg.start(1) + 1 : end])
                at = end + 1
            else:
                args.append(arg.group(1))
                at = arg.end()
        expansion = substitute(body, args)
        if optional or int(arity):
            expansion = "{" + expansion + "}"  # as before: the group math-core would make
        elif _CONTROL_WORD_END.search(expansion) and text[at : at + 1].isalpha():
            expansion += " "  # ``\def\x{\alpha}`` then ``\x b``: not ``\alphab``
        edits.append((match.start(), at, expansion))
    return edits


@lru_cache(maxsize=64)
def _here_macros(macros: Macros) -> dict[str, str]:
    """The macros kept here, by name: built once per set of macros, not per formula."""
    return {n.removeprefix(HERE): b for n, b in macros if n.startswith(HERE)}


def substitute(body: str, args: list[str]) -> str:
    """``#1``..``#9`` in ``body`` replaced by the arguments, and ``##`` by ``#`` (TeX's
    parameter of a definition inside the body)."""

    def argument(match: re.Match[str]) -> str:
        if match.group(1) == "#":
            return "#"
        index = int(match.group(1))
        if not 1 <= index <= len(args):
            raise MathError(f"#{index} in a macro that takes {len(args)} argument(s)")
        return args[index - 1]

    return re.sub(r"#([#\d])", argument, body)


def bracket_end(text: str, start: int) -> int | None:
    """The ``]`` closing the ``[`` at ``start``, outside braces."""
    depth = 0
    for index in range(start, len(text)):
        char = text[index]
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
        elif char == "]" and depth == 0:
            return index
    return None
