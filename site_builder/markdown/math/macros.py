"""Macros: the site's (``site.yaml``), the post's (front matter) and those a post defines.

ICLR-style posts define their notation in a hidden display block at the top
(``$$\\newcommand{\\R}{\\mathbb{R}}$$``) and use it in every later formula, as
MathJax allows. So definitions are taken out of each formula here, in document
order, and join the post's macro set for that formula and every one after it;
math-core then expands them (``engine``). ``\\newcommand``, ``\\renewcommand``,
``\\providecommand``, ``\\def``, ``\\let`` and ``\\DeclareMathOperator`` are read;
a formula holding nothing but definitions shows nothing.
"""

from __future__ import annotations

import re
from functools import lru_cache

from site_builder.markdown.math.colours import defined_colour
from site_builder.markdown.math.engine import Macros, MathError
from site_builder.markdown.math.source import Source, group_end

_DEFINITION = re.compile(
    r"\\(?P<kind>(?:re)?newcommand|providecommand|DeclareMathOperator|def|let|definecolor)"
    r"(?P<star>\*?)"
    r"(?![A-Za-z])\s*"
)
_NAME = re.compile(r"\{\s*\\(?P<braced>[^{}\s]+)\s*\}|\\(?P<bare>[A-Za-z]+|.)")
_ARITY = re.compile(r"\s*\[\s*(\d)\s*\]")
_PARAMETERS = re.compile(r"(?:\s*#\d)*\s*")
_LET_TARGET = re.compile(r"\s*=?\s*(\\[A-Za-z]+|\\.|[^\s\\{}])")
_COLOUR = re.compile(r"\{\s*([A-Za-z][\w!.-]*)\s*\}\s*\{([^{}]*)\}\s*\{([^{}]*)\}")
VALID_NAME = re.compile(r"[A-Za-z]+")  # what math-core accepts


def take_definitions(source: Source) -> list[tuple[str, str]]:
    """Remove every definition from ``source``; return them as (name, body) in order.

    ``\\definecolor`` is one too: its colour travels with the macros (see ``colours``).
    """
    found: list[tuple[str, str]] = []
    edits = []
    text = source.text
    pos = 0
    while match := _DEFINITION.search(text, pos):
        if match.group("kind") == "definecolor":
            colour = _COLOUR.match(text, match.end())
            if colour is None:
                raise MathError("\\definecolor takes {name}{model}{value}", match.start())
            found.append(defined_colour(*colour.groups()))
            end = colour.end()
        else:
            name, body, end = _definition(text, match)
            found.append((name, body))
        edits.append((match.start(), end, ""))
        pos = end
    source.edit(edits)
    return found


def _definition(text: str, match: re.Match[str]) -> tuple[str, str, int]:
    kind, at = match.group("kind"), match.end()
    name_match = _NAME.match(text, at)
    if name_match is None:
        raise MathError(f"\\{kind} needs a command name, as in \\{kind}{{\\name}}", match.start())
    name = name_match.group("braced") or name_match.group("bare")
    if not VALID_NAME.fullmatch(name):
        raise MathError(f"\\{name} cannot be defined: macro names are letters only", at)
    at = name_match.end()
    if kind == "let":
        target = _LET_TARGET.match(text, at)
        if target is None:
            raise MathError(f"\\let\\{name} needs a command to copy", match.start())
        return name, target.group(1), target.end()
    if kind == "def":
        params = _PARAMETERS.match(text, at)
        at = params.end() if params else at
    elif kind != "DeclareMathOperator" and (arity := _ARITY.match(text, at)):
        at = arity.end()
        rest = text[at:].lstrip()
        if rest.startswith("["):  # ``[1][default]``: math-core has no optional arguments
            open_at = len(text) - len(rest)
            close = _bracket_end(text, open_at)
            if close is None:
                raise MathError(f"\\{name}: the default argument's '[' is never closed", open_at)
            default = text[open_at + 1 : close]
            name, body, end = _definition(text[:open_at] + text[close + 1 :], match)
            shift = close + 1 - open_at
            return OPTIONAL_PREFIX + name, f"{arity.group(1)}\x00{default}\x00{body}", end + shift
    at += len(text[at:]) - len(text[at:].lstrip())
    if text[at : at + 1] != "{":
        raise MathError(f"the definition of \\{name} needs a body in braces", at)
    close = group_end(text, at)
    if close is None:
        raise MathError(f"the definition of \\{name} is never closed: a '{{' lacks its '}}'", at)
    body = text[at + 1 : close]
    if kind == "DeclareMathOperator":
        # math-core's \operatorname takes text; an operator made of math (``\mu^*``) is a
        # \mathop, as amsmath sets it.
        plain = re.fullmatch(r"(?:[\w\s.,'*-]|\\[,;:! ])+", body)
        body = f"\\operatorname{match.group('star')}{{{body}}}" if plain else f"\\mathop{{{body}}}"
    return name, body, close + 1


def _bracket_end(text: str, start: int) -> int | None:
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


# A macro with an optional first argument (``\newcommand{\x}[2][d]{...}``), kept among a
# post's macros under this prefix (not a TeX name: math-core never sees it) and expanded
# here before conversion.
OPTIONAL_PREFIX = "optional@"
_ARGUMENT = re.compile(r"\s*(\{|\\[A-Za-z]+|\\.|[^\s{}])")


def expand_optional(text: str, macros: Macros) -> list[tuple[int, int, str]]:
    """Edits that expand every use of an optional-argument macro in ``text`` (one pass;
    call again while it finds any, for uses inside arguments or expansions)."""
    table, pattern = _optional_macros(macros)
    if pattern is None:
        return []
    edits: list[tuple[int, int, str]] = []
    for match in pattern.finditer(text):
        if edits and match.start() < edits[-1][1]:
            continue
        arity, default, body = table[match.group(1)].split("\x00")
        at, args = match.end(), []
        rest = text[at:].lstrip()
        if rest.startswith("["):
            open_at = len(text) - len(rest)
            close = _bracket_end(text, open_at)
            if close is None:
                raise MathError(f"\\{match.group(1)}: '[' is never closed", open_at)
            args.append(text[open_at + 1 : close])
            at = close + 1
        else:
            args.append(default)
        for _ in range(int(arity) - 1):
            arg = _ARGUMENT.match(text, at)
            if arg is None:
                raise MathError(f"\\{match.group(1)} needs {arity} arguments", match.start())
            if arg.group(1) == "{":
                end = group_end(text, arg.start(1))
                if end is None:
                    raise MathError("unbalanced braces: a '{' is never closed", arg.start(1))
                args.append(text[arg.start(1) + 1 : end])
                at = end + 1
            else:
                args.append(arg.group(1))
                at = arg.end()
        expansion = _substitute(body, args)
        edits.append((match.start(), at, "{" + expansion + "}"))
    return edits


@lru_cache(maxsize=64)
def _optional_macros(macros: Macros) -> tuple[dict[str, str], re.Pattern[str] | None]:
    """The optional-argument macros by name, and a pattern for their uses: built once per
    set of macros, not per formula and pass."""
    table = {n.removeprefix(OPTIONAL_PREFIX): b for n, b in macros if n.startswith(OPTIONAL_PREFIX)}
    if not table:
        return table, None
    return table, re.compile(r"\\(" + "|".join(map(re.escape, table)) + r")(?![A-Za-z])")


def _substitute(body: str, args: list[str]) -> str:
    """``#1``..``#9`` in ``body`` replaced by the arguments."""

    def argument(match: re.Match[str]) -> str:
        index = int(match.group(1))
        if not 1 <= index <= len(args):
            raise MathError(f"#{index} in a macro that takes {len(args)} argument(s)")
        return args[index - 1]

    return re.sub(r"#(\d)", argument, body)


def merged(*sets: Macros) -> Macros:
    """Later definitions win (the post's over the site's), in a stable order for the cache."""
    table: dict[str, str] = {}
    for macros in sets:
        for name, body in macros:
            table.pop(name, None)
            table[name] = body
    return tuple(table.items())
