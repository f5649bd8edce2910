"""One formula's way from the author's LaTeX to MathML, outside Markdown.

The plugin calls these two steps from its two core rules; ``render_formula``
runs both for a formula on its own (the coverage tool and tests use it).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

from markdown_it.common.utils import escapeHtml

from site_builder.markdown.math.colours import colour_edits, colours_of
from site_builder.markdown.math.engine import BROKEN, Macros, MathError, convert
from site_builder.markdown.math.expand import HERE, expand_here
from site_builder.markdown.math.macros import (
    Taken,
    as_here,
    expanded_here,
    merged,
    take_definitions,
)
from site_builder.markdown.math.numbering import Register, number
from site_builder.markdown.math.rewrite import rewrite, rewrite_body
from site_builder.markdown.math.source import Source, comments


@dataclass
class Formula:
    """A formula between preparation and conversion: its source, as rewritten so far."""

    latex: str  # as the author wrote it: the MathML's annotation
    display: bool
    macros: Macros  # in force for this formula, its own definitions included
    source: Source = field(init=False)
    tags: dict[str, str] = field(default_factory=dict)  # see numbering.number
    ids: dict[str, str] = field(default_factory=dict)  # label placeholder -> the page's id
    unknown_colours: list[str] = field(default_factory=list)  # dropped: see colour_edits
    warnings: list[MathError] = field(default_factory=list)  # offsets into ``source.text``
    lines: bool = False  # top-level ``\\\\`` breaks lines (kramdown's ``$$`` beside text)
    _colours: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.source = Source(self.latex)

    def prepare(self, ident: str | None, register: Register) -> Macros:
        """Take out definitions, rewrite, number; return the macros for the formulas after.

        Raises ``MathError`` with an offset into ``source.text``: for a definition that
        cannot be read, once the formula's other definitions are in force.
        """
        self.source.edit(comments(self.source.text))
        errors = self._define(take_definitions(self.source))
        if _expand_here(self.source, self.macros) and _DEFINES.search(self.source.text):
            errors += self._define(take_definitions(self.source))  # a macro that defines one
        if errors:
            errors[0].also = errors[1:]
            raise errors[0]
        self.source.edit(colour_edits(self.source.text, self._colours, self.unknown_colours))
        rewrite(self.source, self.display, self.lines)
        if self.display and not self.empty:
            number(self.source, ident, register, self.tags, self.ids)
        return self.macros

    def _define(self, taken: Taken) -> list[MathError]:
        """Put ``taken``'s definitions in force, in order (a body may use those before it)."""
        self._colours = colours_of(self.macros) | colours_of(tuple(taken.definitions))
        for name, body in taken.definitions:
            expanded = Source(body)
            if not name.startswith((BROKEN, HERE)):  # those expanded here: at the use
                _expand_here(expanded, self.macros)
                if _halves(expanded.text):  # ``\\lv`` = ``\\left[\\begin{matrix}``
                    name, expanded.text = as_here(name, expanded.text)
                else:
                    expanded.text = _with_colours(expanded.text, self._colours)
            self.macros = merged(self.macros, ((name, expanded.text),))
        self.warnings += taken.warnings
        return taken.errors

    @property
    def empty(self) -> bool:
        """Nothing but definitions: the formula shows nothing."""
        return not self.source.text.strip()

    @property
    def key(self) -> tuple[str, ...]:
        """What the MathML depends on, for the fragment memo: the rewritten source (numbers
        included), the macros, the author's text, and the ids and tags set after conversion."""
        after = (self.ids, self.tags, self.source.styles)
        extras = repr(after) if any(after) else ""
        macros = _fingerprint(self.macros)
        return ("math", str(int(self.display)), macros, self.source.text, self.latex, extras)

    def to_mathml(self) -> str:
        return _to_mathml(
            self.source.text,
            self.display,
            self.macros,
            self.latex,
            tuple(self.tags.items()),
            tuple(self.ids.items()),
            tuple(self.source.styles.items()),
        )


@lru_cache(maxsize=4096)
def _to_mathml(
    text: str,
    display: bool,
    macros: Macros,
    latex: str,
    tags: tuple[tuple[str, str], ...],
    ids: tuple[tuple[str, str], ...],
    styles: tuple[tuple[str, str], ...],
) -> str:
    """Memoised in the process: posts repeat their formulas (and the site's notation)."""
    mathml = convert(text, display, macros, latex)
    for colour, css in styles:  # see rewrite.Source.marker
        mathml = mathml.replace(f'style="color:#{colour};"', f'style="{css}"')
    # Tags math-core could not take as text (``\tag{$\star$}``), set as math instead.
    for placeholder, tag_latex in tags:
        tag = convert(tag_latex, False, macros)
        inner = tag[tag.index("<semantics>") + 11 : tag.index("<annotation")]
        mathml = mathml.replace(f"<mtext>{placeholder}</mtext>", f"<mrow>{inner}</mrow>", 1)
    for placeholder, ident in ids:
        mathml = mathml.replace(f'id="{placeholder}"', f'id="{escapeHtml(ident)}"', 1)
    return mathml


@lru_cache(maxsize=64)
def _fingerprint(macros: Macros) -> str:
    """The macros in a fragment's key: short, since most posts repeat the site's set."""
    return hashlib.blake2b(repr(macros).encode(), digest_size=8).hexdigest() if macros else ""


_MAX_EXPANSIONS = 50  # nested macros expanded here; a self-referent one stops here
_DEFINES = re.compile(r"\\(?:(?:re)?newcommand|providecommand|[gex]?def|let)(?![A-Za-z])")


def _expand_here(source: Source, macros: Macros) -> bool:
    """Expand the macros math-core cannot take (see ``expand``), again and again for uses
    inside their own expansions (none: one cached look-up). True if any was."""
    for count in range(_MAX_EXPANSIONS):
        edits = expand_here(source.text, macros)
        if not edits:
            return count > 0
        source.edit(edits)
    return True


@lru_cache(maxsize=64)
def rewrite_macros(macros: Macros) -> Macros:
    """The site's and the front matter's macros, rewritten once as a formula would be (those
    math-core cannot take are kept to be expanded here, see ``expand``)."""
    return tuple(
        (name, body)
        if name.startswith((HERE, BROKEN))  # rewritten already: a formula's macros after it
        else as_here(name, body)
        if expanded_here(body) or (len(name) == 1 and not name.isalpha())  # a symbol: ``\\|``
        else _rewritten(name, body)
        for name, body in macros
    )


def _rewritten(name: str, body: str) -> tuple[str, str]:
    """A body rewritten alone; one that is no formula alone (``\\left[\\begin{array}``,
    whose column spec follows at the use, as MathJax allows) is expanded where it is
    used, and the formula rewritten whole."""
    if _halves(body):  # ``\\endbmatrix``: ``\\end{array}\\right]`` closes what another opened
        return as_here(name, body)
    try:
        return name, _with_colours(body, {})
    except MathError:
        return as_here(name, body)


def _halves(body: str) -> bool:
    """Whether a body opens what it does not close, or closes what it did not open (an
    environment, a ``\\left``): only the formula that uses it, expanded, is whole."""
    return (body.count("\\begin{") != body.count("\\end{")) or (
        len(re.findall(r"\\left(?![a-zA-Z])", body))
        != len(re.findall(r"\\right(?![a-zA-Z])", body))
    )


def _with_colours(body: str, colours: dict[str, str]) -> str:
    """A macro body rewritten as a formula is, colours included (a colour's value is kept)."""
    source = Source(body)
    source.edit(colour_edits(body, colours))
    return rewrite_body(source.text)


def render_formula(latex: str, display: bool, macros: Macros = ()) -> tuple[str, Macros]:
    """One formula on its own, numbered from 1; returns its MathML ("" if it only defines
    macros) and the macros in force after it. Raises ``MathError``."""
    count = iter(range(1, 1000))
    register: Callable[[str | None, str | None], int | str | None] = lambda label, tag: (  # noqa: E731
        tag if tag is not None else next(count)
    )
    formula = Formula(latex, display, rewrite_macros(macros))
    after = formula.prepare(None, register)
    return ("" if formula.empty else formula.to_mathml()), after
