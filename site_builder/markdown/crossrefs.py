"""Cross-references: numbered equations, figures and tables, and the links that point at them.

One mechanism for every kind, as in Quarto: a target's id says its kind
(``#eq-``, ``#fig-``, ``#tbl-``), each kind counts on its own in document
order, and ``@eq-variance`` becomes a link reading "Equation 1"
(``[-@eq-variance]`` just "1"). LaTeX's ``\\eqref{eq:x}`` ("(1)") and
``\\ref{eq:x}`` ("1") work too, bare in prose or as ``$\\eqref{eq:x}$``.

The extensions that own a kind of target (``math.numbering``, ``figures``,
``tables``, ``theorems``) call :func:`register` from their own core rules; this module's core
rule runs after them, when every number is known, and turns the ``cite``
tokens that name a target (see ``citations``) into links. It runs before
``text_join`` so an escaped ``\\@eq-x`` stays text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, NamedTuple, cast

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from site_builder.markdown.state import extension_state, inline_lines, report, source_line, warn

# prefix -> (label in text, noun in messages and the link's class)
KINDS = {
    "eq": ("Equation", "equation"),
    "fig": ("Figure", "figure"),
    "tbl": ("Table", "table"),
    # Theorem-like blocks (``theorems``): Quarto's prefixes.
    "thm": ("Theorem", "theorem"),
    "lem": ("Lemma", "lemma"),
    "cor": ("Corollary", "corollary"),
    "prp": ("Proposition", "proposition"),
    "def": ("Definition", "definition"),
    "exm": ("Example", "example"),
    "exr": ("Exercise", "exercise"),
    # A heading's own id (``## Method {#sec-method}``, ``headings``): sections in order.
    "sec": ("Section", "section"),
}
_LATEX_REF = re.compile(r"\\(eqref|ref)\{([^{}]+)\}")
_MATH_REF = re.compile(r"\s*\\(eqref|ref)\{([^{}]+)\}\s*")


class Target(NamedTuple):
    kind: str
    number: int | str  # str: an equation's own \\tag
    line: int | None


@dataclass
class CrossrefState:
    targets: dict[str, Target] = field(default_factory=dict)  # by id
    counts: dict[str, int] = field(default_factory=dict)  # numbers given so far, by kind


def crossrefs_plugin(md: MarkdownIt) -> None:
    """Use after the extensions that register targets and after ``citations``."""
    md.core.ruler.before("text_join", "crossrefs", _link_references)


def is_crossref(key: str) -> bool:
    return key.split("-", 1)[0] in KINDS and "-" in key


def equation_id(label: str) -> str:
    """``\\label{eq:x}`` and ``{#eq-x}`` name the same anchor, ``eq-x``: ids stay CSS-friendly
    (and ASCII, which is what math-core accepts in a label)."""
    ident = re.sub(r"[^A-Za-z0-9_-]", "-", label.strip())
    return ident if ident.startswith("eq-") else f"eq-{ident}"


def state_of(env: dict[str, Any]) -> CrossrefState:
    return extension_state(env, "crossrefs", CrossrefState)


def register(
    env: dict[str, Any],
    ident: str | None,
    token: Token | None,
    kind: str = "",
    tag: str | None = None,
    line: int | None = None,
) -> int | str | None:
    """Number a target in document order; a second target with the same id is an error.

    ``ident`` None numbers an unlabelled target (an ``equation`` environment's row) of
    ``kind``; a ``tag`` (LaTeX's ``\\tag{A}``) is shown instead and takes no number.
    """
    line = line or source_line(env, token)
    refs = state_of(env)
    kind = ident.split("-", 1)[0] if ident else kind
    noun = KINDS[kind][1]
    first = refs.targets.get(ident) if ident else None
    if first is not None:
        where = f" (first defined on line {first.line})" if first.line else ""
        report(env, token, f"duplicate {noun} id #{ident}{where}", line=line)
        return None
    number: int | str
    if tag is not None:
        number = tag
    else:
        number = refs.counts.get(kind, 0) + 1
        refs.counts[kind] = number
    if ident:
        refs.targets[ident] = Target(kind, number, line)
    return number


# --- core rule: resolve references ------------------------------------------------------


def _link_references(state: StateCore) -> None:
    env = cast(dict[str, Any], state.env)
    for token in state.tokens:
        if token.type == "inline" and token.children and _has_references(token.children):
            token.children = _resolve(env, token)


def _has_references(children: list[Token]) -> bool:
    """Most paragraphs refer to nothing; rebuilding their tokens costs time and changes
    nothing, so look for anything ``_resolve`` would act on first. "ef{", not "ref{": the
    inline parser may have split ``\\ref{x}`` into ``\\r`` and ``ef{x}``."""
    return any(
        child.type == "cite" or ("ef{" in child.content and child.type != "code_inline")
        for child in children
    )


def _resolve(env: dict[str, Any], block: Token) -> list[Token]:
    out: list[Token] = []
    in_link = 0
    for child, line in _join_backslash_words(inline_lines(env, block)):
        in_link += child.type == "link_open"
        in_link -= child.type == "link_close"
        if child.type == "cite" and in_link:
            out.append(text_token(child.content))  # a link's text is not a reference
        elif child.type == "cite" and all(is_crossref(i["key"]) for i in child.meta["items"]):
            out.extend(_cite_links(env, child, line))
        elif child.type == "math_inline" and (match := _MATH_REF.fullmatch(child.content)):
            out.extend(_latex_ref(env, match.group(1), match.group(2), line))
        elif child.type == "text" and not in_link and "ref{" in child.content:
            out.extend(_latex_refs_in_text(env, child.content, line))
        else:
            out.append(child)
    return [t for t in out if t.type != "text" or t.content]


def _join_backslash_words(
    children: list[tuple[Token, int | None]],
) -> list[tuple[Token, int | None]]:
    """The inline parser splits ``\\eqref{x}`` into ``\\e`` and ``qref{x}`` (a backslash before a
    letter is no escape, but still its own token): join them again. ``\\\\eqref`` (an escaped
    backslash) stays apart, so it can still be written literally."""
    out: list[tuple[Token, int | None]] = []
    for child, line in children:
        previous = out[-1][0] if out else None
        literal = child.type == "text_special" and child.content == child.markup
        if previous is not None and previous.type == "text" and (child.type == "text" or literal):
            out[-1] = (text_token(previous.content + child.content), out[-1][1])
        elif literal:
            out.append((text_token(child.content), line))
        else:
            out.append((child, line))
    return out


def _cite_links(env: dict[str, Any], cite: Token, line: int | None) -> list[Token]:
    """``@eq-x``, ``[@eq-x]`` ("Equation 1"), ``[-@eq-x]`` ("1"), with any prefix and suffix."""
    out: list[Token] = []
    for index, item in enumerate(cite.meta["items"]):
        target = _lookup(env, item["key"], f"@{item['key']}", line)
        if index:
            out.append(text_token("; "))
        out.append(text_token(item["prefix"]))
        if target is not None:
            label = KINDS[target.kind][0]
            text = str(target.number) if item["suppress"] else f"{label} {target.number}"
            out.extend(_link(item["key"], target, text))
        out.append(text_token(item["suffix"]))
    return out


def _latex_refs_in_text(env: dict[str, Any], text: str, line: int | None) -> list[Token]:
    out: list[Token] = []
    pos = 0
    for match in _LATEX_REF.finditer(text):
        out.append(text_token(text[pos : match.start()]))
        out.extend(_latex_ref(env, match.group(1), match.group(2), line))
        pos = match.end()
    out.append(text_token(text[pos:]))
    return out


def _latex_ref(env: dict[str, Any], command: str, label: str, line: int | None) -> list[Token]:
    """``\\eqref`` reads "(1)" and ``\\ref`` "1", as in LaTeX; labels name equations.

    One to no label is math's to judge, as MathJax judged it: an error ("math: ..."),
    or with ``math: {errors: show}`` a warning, and a formula token the math plugin draws
    as it draws one that does not convert: the TeX in a marked box (MathJax showed
    "(???)")."""
    ident = label if is_crossref(label) and not label.startswith("eq-") else equation_id(label)
    written = f"\\{command}{{{label}}}"
    target = state_of(env).targets.get(ident)
    if target is None:
        message = f"{written} refers to no equation in this post"
        if env["ctx"].math_errors != "show":
            report(env, None, f"math: {message}", line=line)
            return []
        warn(env, f"math: {message}", line)
        box = Token("math_inline", "math", 0)  # drawn as the math plugin draws a failed one
        box.content = written
        box.meta["failed"] = message
        return [box]
    text = f"({target.number})" if command == "eqref" else str(target.number)
    return _link(ident, target, text)


def _lookup(env: dict[str, Any], ident: str, written: str, line: int | None) -> Target | None:
    target = state_of(env).targets.get(ident)
    if target is None:
        kind = ident.split("-", 1)[0]
        noun = KINDS[kind][1] if kind in KINDS else "equation"
        report(env, None, f"{written} refers to no {noun} in this post", line=line)
    return target


def _link(ident: str, target: Target, text: str) -> list[Token]:
    """Ordinary link tokens, so the link checker sees ``#eq-...`` like any other anchor."""
    css = f"{KINDS[target.kind][1]}-ref"
    link = Token("link_open", "a", 1, attrs={"class": css, "href": f"#{ident}"})
    return [link, text_token(text), Token("link_close", "a", -1)]


def text_token(content: str) -> Token:
    token = Token("text", "", 0)
    token.content = content
    return token
