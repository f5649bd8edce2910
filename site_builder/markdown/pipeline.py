"""The configured parser and the render function (see the package docstring).

Imported lazily: this module pulls in markdown-it, every syntax extension and
the libraries behind them.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.deflist import deflist_plugin

from site_builder.errors import BuildErrors, BuildWarning, Location
from site_builder.markdown import (
    Assets,
    MarkdownContext,
    Rendered,
    code,
    divs,
    footnotes,
    headings,
    images,
    margin,
    nesting,
    tables,
)
from site_builder.markdown.callouts import callouts_plugin
from site_builder.markdown.citations import CitationState, citations_plugin
from site_builder.markdown.crossrefs import crossrefs_plugin
from site_builder.markdown.figures import figures_plugin
from site_builder.markdown.footnotes import SidenoteState
from site_builder.markdown.image_figures import image_figures_plugin
from site_builder.markdown.math import math_plugin
from site_builder.markdown.prerendered import prerendered_plugin
from site_builder.markdown.state import document, extension_state
from site_builder.markdown.theorems import theorems_plugin

_LINK_HINTS = ("://", "www.", "@")


@lru_cache(maxsize=4)
def create_parser(raw_html: bool = True) -> MarkdownIt:
    """One configured parser per option set; cached because building one costs ~1 ms."""
    md = MarkdownIt("commonmark", {"html": raw_html, "linkify": True, "typographer": False})
    md.enable(["table", "strikethrough", "linkify"])
    md.use(deflist_plugin)  # Pandoc's (and kramdown's) ``Term`` then ``: definition``
    # linkify-it's pretest runs a large regex over every text token (a sixth of
    # a parse). GFM autolinks all contain one of these hints, so look for those
    # first; this also keeps bare "example.com" as text, as GFM does.
    assert md.linkify is not None, "linkify-it-py is a dependency"
    full_pretest = md.linkify.pretest
    md.linkify.pretest = lambda text: any(h in text for h in _LINK_HINTS) and full_pretest(text)
    md.use(prerendered_plugin)  # before any rule that reads fences
    md.use(math_plugin)
    md.use(footnotes.footnotes_plugin)
    md.use(margin.margin_plugin)
    md.use(code.code_plugin)
    md.use(headings.headings_plugin)
    md.use(tables.tables_plugin)
    md.use(images.images_plugin)
    md.use(figures_plugin)
    md.use(image_figures_plugin)
    md.use(callouts_plugin)
    md.use(theorems_plugin)
    md.use(divs.divs_plugin)  # after every extension that claims ::: blocks of its own
    # After every extension that numbers targets (equations, tables, figures):
    # cross-references resolve first, then what is left of the citations.
    md.use(crossrefs_plugin)
    md.use(citations_plugin)
    md.use(nesting.nesting_plugin)  # last: its rule goes before every block rule
    return md


def render(text: str, ctx: MarkdownContext) -> Rendered:
    """Render a Markdown document. Raises BuildErrors listing every problem found."""
    md = create_parser(ctx.raw_html)
    env: dict[str, Any] = {"ctx": ctx}
    doc = document(env)
    tokens = md.parse(text, env)
    if doc.errors:
        raise BuildErrors(doc.errors)
    sidenotes = extension_state(env, "sidenotes", SidenoteState)
    split = next((i for i, t in enumerate(tokens) if t.type == "footnote_block_open"), len(tokens))
    html = md.renderer.render(tokens[:split], md.options, env)
    notes_html = md.renderer.render(tokens[split:], md.options, env) if split < len(tokens) else ""
    return Rendered(
        html=html,
        notes_html=notes_html,
        references_html=extension_state(env, "citations", CitationState).references_html,
        headings=tuple(extension_state(env, "headings", headings.HeadingState).found),
        links=tuple(_links(tokens)),
        words=_count_words(tokens),
        warnings=(*doc.warnings, *_unused_footnotes(text, ctx, sidenotes.unused)),
        files=tuple(sorted(doc.files.items())),
        fragments=doc.fragments,
        assets=_assets(doc.needs),
    )


def heading_ids(text: str, ctx: MarkdownContext | None = None) -> list[str]:
    """The ids the build gives the headings of the Markdown body ``text``, in order.

    For callers that aim links at a page's headings (``importer.anchors``): the ids come
    from this parse, not re-derived, so repeats (``x``, ``x-1``), ``{#id}``, reserved ids
    and a ``# comment`` in a code block agree with the page. What the parse finds wrong
    (a formula that does not convert) is not raised: a render reports it.
    """
    env: dict[str, Any] = {"ctx": ctx or MarkdownContext(path="")}
    document(env)
    create_parser(env["ctx"].raw_html).parse(text, env)
    return [h.id for h in extension_state(env, "headings", headings.HeadingState).found]


def _assets(wanted: dict[str, dict[str, None]]) -> Assets:
    """``state.needs`` notes, in the order first needed (a page loads them in that order)."""
    return Assets(
        math="math" in wanted,
        code="code" in wanted,
        scripts=tuple(wanted.get("script", ())),
        stylesheets=tuple(wanted.get("stylesheet", ())),
    )


def _unused_footnotes(text: str, ctx: MarkdownContext, labels: list[str]) -> list[BuildWarning]:
    """A definition nobody references is usually a typo in the reference."""
    lines = text.split("\n")
    warnings = []
    for label in labels:
        where = next(
            (n for n, ln in enumerate(lines, 1) if ln.lstrip().startswith(f"[^{label}]:")), None
        )
        line = None if where is None else where + ctx.line_offset
        message = f"footnote [^{label}] is defined but never referenced"
        warnings.append(BuildWarning(Location(ctx.path, line), message))
    return warnings


def _links(tokens: list[Token]) -> list[str]:
    """Every link and image target, in order, for the link checker."""
    found: list[str] = []
    for token in tokens:
        for child in token.children or []:
            if child.type == "link_open":
                found.append(str(child.attrs.get("href", "")))
            elif child.type == "image":
                found.append(str(child.attrs.get("src", "")))
    return found


_WORD = re.compile(r"\w+")


def _count_words(tokens: list[Token]) -> int:
    """Words a reader reads: prose, inline code and code blocks; math counts as one word."""
    count = 0
    for token in tokens:
        if token.type in ("fence", "code_block"):
            count += len(_WORD.findall(token.content))
        for child in token.children or []:
            if child.type in ("text", "code_inline"):
                count += len(_WORD.findall(child.content))
            elif child.type in ("math_inline", "math_inline_double"):
                count += 1
    return count
