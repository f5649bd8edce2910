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

from site_builder.markdown.math.colours import defined_colour
from site_builder.markdown.math.engine import Macros, MathError
from site_builder.markdown.math.rewrite import Source, group_end

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
        if text[at:].lstrip().startswith("["):
            raise MathError(
                f"\\{name}: optional arguments in \\{kind} are not supported; "
                "make the argument required",
                at,
            )
    at += len(text[at:]) - len(text[at:].lstrip())
    if text[at : at + 1] != "{":
        raise MathError(f"the definition of \\{name} needs a body in braces", at)
    close = group_end(text, at)
    if close is None:
        raise MathError(f"the definition of \\{name} is never closed: a '{{' lacks its '}}'", at)
    body = text[at + 1 : close]
    if kind == "DeclareMathOperator":
        body = f"\\operatorname{match.group('star')}{{{body}}}"
    return name, body, close + 1


def merged(*sets: Macros) -> Macros:
    """Later definitions win (the post's over the site's), in a stable order for the cache."""
    table: dict[str, str] = {}
    for macros in sets:
        for name, body in macros:
            table.pop(name, None)
            table[name] = body
    return tuple(table.items())
