"""Markdown to HTML (called by ``render``, pipeline step 3). Knows nothing about posts or
the site.

It takes a small :class:`MarkdownContext` and returns a :class:`Rendered`
record: body HTML, notes HTML, headings, the links it found and a word count.
Each syntax extension lives in its own module and is wired up here, in one
factory, with options as data.

Parsing never fails; converting LaTeX can. Fallible work happens in core rules
that know the source line of each block token; they report problems into
the document's errors (``state.Document``) so one run lists every mistake in a document.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from math import ceil  # not ``import math``: the ``math`` subpackage would shadow it
from pathlib import Path
from typing import TYPE_CHECKING, Any

from site_builder.bibliography import Entry
from site_builder.errors import BuildWarning

if TYPE_CHECKING:
    from site_builder.markdown.pipeline import create_parser, heading_ids, render

WORDS_PER_MINUTE = 200


@dataclass(frozen=True)
class MarkdownContext:
    """What the renderer needs to know about the document it is rendering."""

    path: Path | str
    line_offset: int = 0  # file line of the body's first line, minus one
    raw_html: bool = True
    # Where relative image paths resolve (a post folder), or None when the
    # document has no files of its own.
    resource_dir: Path | None = None
    # Fragments of an earlier render of this document, (kind, ..., source) -> HTML.
    memo: dict[tuple[str, ...], str] | None = field(default=None, compare=False)
    # The post's references by key (see ``site_builder.bibliography``), parsed outside
    # this stage; None when the post has no bibliography.
    bibliography: Mapping[str, Entry] | None = field(default=None, compare=False)
    citation_style: str = "numeric"  # or "author-year" (site.yaml's citation_style)
    # Math macros in force from the first formula: site.yaml's, then the front matter's,
    # as (name without backslash, LaTeX body).
    macros: tuple[tuple[str, str], ...] = ()
    # site.yaml's ``math: {errors: ...}``: "stop" (a formula that does not convert is an
    # error) or "show" (a warning, and the formula is shown as its TeX in a marked box).
    math_errors: str = "stop"
    # The site's widgets by name (see ``site_builder.widgets``): a figure's
    # ``widget="name"`` calls one with the figure's other attributes. Passed in, so this
    # stage never imports a site's code.
    widgets: Mapping[str, Callable[[Mapping[str, str]], WidgetOutput]] = field(
        default_factory=dict, compare=False
    )
    # Runs ``plot="file.py:function"`` in the post's folder (see ``site_builder.plots``);
    # None where the document has no folder of its own.
    plot: Callable[[str, Mapping[str, str]], PlotOutput] | None = field(default=None, compare=False)
    # Made before Markdown by a trusted stage (a notebook's outputs, see
    # ``site_builder.notebooks``): HTML by key, placed where a ```` ```{=prerendered} ````
    # fence holds the key (``markdown.prerendered``), and files by name, written beside
    # the page, which images may show although they are not on disk yet.
    prerendered: Mapping[str, str] = field(default_factory=dict, compare=False)
    files: Mapping[str, bytes] = field(default_factory=dict, compare=False)


class FigureError(Exception):
    """A widget's or a plot's code failed. ``path``/``line`` point into the author's code
    (not the post), so the message can name both."""

    def __init__(self, message: str, path: Path | str | None = None, line: int | None = None):
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line


@dataclass(frozen=True)
class WidgetOutput:
    """What a widget gives a figure: its no-JavaScript HTML, its data file beside the page,
    and the site-relative URLs of its script (an ES module) and optional stylesheet."""

    html: str
    data_file: str
    data: bytes
    script: str
    stylesheet: str | None = None


@dataclass(frozen=True)
class PlotOutput:
    """A plot's SVG, light and (when the function takes ``dark``) dark."""

    light: bytes
    dark: bytes | None = None
    size: tuple[int, int] | None = None  # CSS pixels, for the <img>'s width and height


@dataclass(frozen=True)
class Assets:
    """What a page needs beside its HTML, so templates never search the HTML for it."""

    math: bool = False  # MathML: the math font's stylesheet
    code: bool = False  # highlighted code: the Pygments stylesheet
    scripts: tuple[str, ...] = ()  # ES modules (site-relative), e.g. a widget's
    stylesheets: tuple[str, ...] = ()  # site-relative


@dataclass(frozen=True)
class Heading:
    level: int
    id: str
    text: str


@dataclass(frozen=True)
class Rendered:
    """The result of rendering one document."""

    html: str
    notes_html: str
    headings: tuple[Heading, ...]
    links: tuple[str, ...]
    words: int
    warnings: tuple[BuildWarning, ...] = ()
    # Files an extension produced for this document (e.g. a figure's JSON data),
    # as (path relative to the page, bytes); the writer puts them beside the page.
    files: tuple[tuple[str, bytes], ...] = ()
    # The fragments this render used (see ``state.memoised``), for the next render.
    fragments: dict[tuple[str, ...], str] = field(default_factory=dict, compare=False)
    # The post's References list (the entries it cites), shown after the notes.
    references_html: str = ""
    assets: Assets = Assets()

    @property
    def reading_minutes(self) -> int:
        return max(1, ceil(self.words / WORDS_PER_MINUTE))

    def summary(self) -> Summary:
        return Summary(
            self.reading_minutes,
            self.warnings,
            tuple(link for link in self.links if link.startswith("../")),
        )


@dataclass(frozen=True)
class Summary:
    """What listings and checks need of a render, without its bodies: the site model holds
    this for every post (a thousand posts' HTML would be most of a build's memory), and
    the few pages that show a body (the feed, the home text) ask for it whole."""

    reading_minutes: int
    warnings: tuple[BuildWarning, ...]
    links: tuple[str, ...]  # to other posts (``../slug/``): ``routes.links_to_missing_posts``


def __getattr__(name: str) -> Any:
    """``render``, ``create_parser`` and ``heading_ids`` load markdown-it, Pygments and
    math-core on first use: a build that reuses every post from the cache never pays for
    importing them."""
    if name in ("render", "create_parser", "heading_ids"):
        from site_builder.markdown import pipeline

        return getattr(pipeline, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "Assets",
    "FigureError",
    "Heading",
    "MarkdownContext",
    "PlotOutput",
    "Rendered",
    "WidgetOutput",
    "create_parser",
    "heading_ids",
    "render",
]
