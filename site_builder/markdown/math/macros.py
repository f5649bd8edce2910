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
from dataclasses import dataclass, field

from site_builder.markdown.math.colours import defined_colour
from site_builder.markdown.math.engine import BROKEN, Macros, MathError
from site_builder.markdown.math.expand import HERE, bracket_end, here_macro
from site_builder.markdown.math.source import Source, group_end

# ``\\gdef``, ``\\edef`` and ``\\xdef`` are ``\\def`` here: a post's macros are global anyway,
# and a body is expanded at its use (KaTeX's reading).
_DEFINITION = re.compile(
    r"\\(?P<kind>(?:re)?newcommand|providecommand|DeclareMathOperator|[gex]?def|let|definecolor)"
    r"(?P<star>\*?)"
    r"(?![A-Za-z])\s*"
)
_NAME = re.compile(r"\{\s*\\(?P<braced>[^{}\s]+)\s*\}|\\(?P<bare>[A-Za-z]+|.)")
_PLAIN_NAME = re.compile(r"\{\s*(?P<bare>[A-Za-z]+)\s*\}")
_ARITY = re.compile(r"\s*\[\s*(\d)\s*\]")
_PARAMETERS = re.compile(r"(?:\s*#\d)*\s*")
_LET_TARGET = re.compile(r"\s*=?\s*(\\[A-Za-z]+|\\.|[^\s\\{}])")
_COLOUR = re.compile(r"\{\s*([A-Za-z][\w!.-]*)\s*\}\s*\{([^{}]*)\}\s*\{([^{}]*)\}")
VALID_NAME = re.compile(r"[A-Za-z]+")  # what math-core accepts


@dataclass
class Taken:
    """What :func:`take_definitions` found: the definitions in order, and the problems.

    A definition that cannot be read is an error where it is written; the others in
    the formula still count (MathJax kept them too), and a name that failed is kept
    under :data:`BROKEN` so that each use says why, at its own column.
    """

    definitions: list[tuple[str, str]] = field(default_factory=list)
    errors: list[MathError] = field(default_factory=list)
    warnings: list[MathError] = field(default_factory=list)


def take_definitions(source: Source) -> Taken:
    """Remove every definition from ``source``; return them as (name, body) in order.

    ``\\definecolor`` is one too: its colour travels with the macros (see ``colours``).
    """
    taken = Taken()
    edits = []
    text = source.text
    pos = 0
    while match := _DEFINITION.search(text, pos):
        try:
            if match.group("kind") == "definecolor":
                colour = _COLOUR.match(text, match.end())
                if colour is None:
                    raise MathError("\\definecolor takes {name}{model}{value}", match.start())
                taken.definitions.append(defined_colour(*colour.groups()))
                end = colour.end()
            else:
                name, body, end = _definition(text, match, taken)
                taken.definitions.append((name, body))
        except MathError as exc:
            taken.errors.append(exc)
            failed = _NAME.match(text, match.end()) or _PLAIN_NAME.match(text, match.end())
            if failed and match.group("kind") != "definecolor":
                name = failed.groupdict().get("braced") or failed.group("bare")
                message = f"\\{name} is not defined: its definition failed"
                taken.definitions.append((BROKEN + name, message))
            pos = match.end()
            continue
        edits.append((match.start(), end, ""))
        pos = end
    for problem in (*taken.errors, *taken.warnings):  # offsets into the text before the edit
        if problem.offset is not None:
            problem.offset, problem.original = source.origin(problem.offset), True
    source.edit(edits)
    return taken


def _definition(text: str, match: re.Match[str], taken: Taken) -> tuple[str, str, int]:
    kind, at = match.group("kind"), match.end()
    kind = "def" if kind.endswith("def") else kind
    name_match = _NAME.match(text, at)
    if name_match is None and (plain := _PLAIN_NAME.match(text, at)) and kind != "def":
        # ``\newcommand{iid}{...}``: MathJax reads the name without its backslash too.
        name_match = plain
        message = f"\\{kind}{{{plain.group('bare')}}}: write \\{plain.group('bare')}, with"
        taken.warnings.append(MathError(message + " a backslash", at))
    if name_match is None:
        raise MathError(f"\\{kind} needs a command name, as in \\{kind}{{\\name}}", match.start())
    name = name_match.groupdict().get("braced") or name_match.group("bare")
    here = len(name) == 1 and not VALID_NAME.fullmatch(name)  # ``\def\|{|}``: a symbol's
    if not (here or VALID_NAME.fullmatch(name)):
        raise MathError(f"\\{name} cannot be defined: macro names are letters or one symbol", at)
    at = name_match.end()
    if kind == "let":
        target = _LET_TARGET.match(text, at)
        if target is None:
            raise MathError(f"\\let\\{name} needs a command to copy", match.start())
        return (HERE + name if here else name), target.group(1), target.end()
    arity, default = 0, None
    if kind == "def":
        params = _PARAMETERS.match(text, at)
        if params:
            arity, at = params.group().count("#"), params.end()
    elif kind != "DeclareMathOperator" and (count := _ARITY.match(text, at)):
        arity, at = int(count.group(1)), count.end()
        rest = text[at:].lstrip()
        if rest.startswith("["):  # ``[1][default]``: math-core has no optional arguments
            open_at = len(text) - len(rest)
            close = bracket_end(text, open_at)
            if close is None:
                raise MathError(f"\\{name}: the default argument's '[' is never closed", open_at)
            default, at = text[open_at + 1 : close], close + 1
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
    if here or default is not None or expanded_here(body):
        return (*here_macro(name, arity, default, body), close + 1)
    return name, body, close + 1


# ``\operatorname*{\mathbb{E}}``: set as ``\mathop``, whose limits go under and over only
# in display math, which a body does not know; expanded here, the formula does.
_STARRED_MATH_OPERATOR = re.compile(r"\\operatorname\*\s*\{[^{}]*[\\_^]")


# ``\newcommand{\nl}[1]{\textsf{#1}}``: the argument is text, where ``ho_`` is a literal
# underscore (MathJax's reading); only once expanded can the rewrite see it in the text.
_ARGUMENT_IN_TEXT = re.compile(r"\\(?:text\w*|mbox|emph)\s*\{[^{}]*#\d")
# A number (``\qed`` as ``\tag*{$\square$}``): numbering reads a formula's tags before math-core.
_TAG = re.compile(r"\\(?:tag|label)(?![A-Za-z])")


def expanded_here(body: str) -> bool:
    """Whether a body is for :mod:`expand` rather than math-core (besides a symbol's name or
    an optional argument): ``##`` in it, a starred operator made of math, or an argument
    set as text, or a tag."""
    return "##" in body or any(
        p.search(body) is not None for p in (_STARRED_MATH_OPERATOR, _ARGUMENT_IN_TEXT, _TAG)
    )


def as_here(name: str, body: str) -> tuple[str, str]:
    """A site.yaml or front-matter macro as one expanded here, its arity its highest ``#n``."""
    arity = max((int(n) for n in re.findall(r"(?<!#)#(\d)", body)), default=0)
    return here_macro(name, arity, None, body)


def merged(*sets: Macros) -> Macros:
    """Later definitions win (the post's over the site's), in a stable order for the cache.

    A failed definition (:data:`BROKEN`) leaves an earlier one of the name in force, as a
    failed ``\\renewcommand`` does in TeX; a later good one replaces it."""
    table: dict[str, str] = {}
    for macros in sets:
        for name, body in macros:
            bare = name.removeprefix(BROKEN).removeprefix(HERE)
            if name.startswith(BROKEN) and (bare in table or HERE + bare in table):
                continue
            for old in (bare, HERE + bare, BROKEN + bare):
                table.pop(old, None)
            table[name] = body
    return tuple(table.items())
