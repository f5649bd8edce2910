"""Markdown in, HTML out: one case per block of ``tests/fixtures/*.md``.

Each case is a title line, ``.``, the Markdown, ``.``, the expected HTML, ``.``
(markdown-it-py's format). An expected block of ``ERROR path:line: message``
lines means the document must fail with exactly those errors.

Citation fixtures (files named ``citations*.md``) cite ``refs.bib`` beside them;
``*_author_year.md`` renders them in the author-year style. Image fixtures
(``image*.md``) find their files in ``images/`` beside them. Every case sees this
repository's widgets (``widgets/``); plot fixtures (``plots*.md``) a stand-in for
a post folder's Python (:func:`fake_plot`). The References list, when there is one,
follows the HTML. ``math_errors_show.md`` renders with site.yaml's ``math: {errors: show}``,
and its warnings follow the HTML as ``WARNING path:line:column: ...`` lines.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest
from markdown_it.utils import read_fixture_file

from site_builder.bibliography import parse
from site_builder.errors import BuildErrors
from site_builder.markdown import FigureError, MarkdownContext, PlotOutput, render
from site_builder.widgets import discover, runners

FIXTURES = Path(__file__).parent / "fixtures"
ROOT = FIXTURES.parent.parent
WIDGETS = runners(discover(ROOT), ROOT)
CASES = [
    pytest.param(path.stem, text, expected, id=f"{path.stem}:{line}:{title}")
    for path in sorted(FIXTURES.glob("*.md"))
    for line, title, text, expected in read_fixture_file(path)
]


def fake_plot(spec: str, params: Mapping[str, str]) -> PlotOutput:
    """``plots.py:light`` draws one SVG, ``plots.py:both`` light and dark, ``plots.py:fail``
    fails at line 3 of the author's file."""
    svg = f'<svg xmlns="http://www.w3.org/2000/svg" data-params="{sorted(params.items())}"/>'
    if spec == "plots.py:fail":
        raise FigureError("fail() raised ValueError: no data", "posts/p/plots.py", 3)
    dark = svg.replace("/>", ' class="dark"/>') if spec == "plots.py:both" else None
    return PlotOutput(svg.encode(), dark and dark.encode(), (400, 300))


def context(stem: str) -> MarkdownContext:
    if stem.startswith("plots"):
        images = FIXTURES / "images"
        return MarkdownContext("post.md", resource_dir=images, widgets=WIDGETS, plot=fake_plot)
    if stem.startswith("image"):
        return MarkdownContext("post.md", resource_dir=FIXTURES / "images", widgets=WIDGETS)
    if stem == "math_errors_show":
        return MarkdownContext("post.md", widgets=WIDGETS, math_errors="show")
    if not stem.startswith("citations"):
        return MarkdownContext("post.md", widgets=WIDGETS)
    bib = parse((FIXTURES / "refs.bib").read_text(encoding="utf-8"), "refs.bib")
    style = "author-year" if stem.endswith("_author_year") else "numeric"
    return MarkdownContext("post.md", bibliography=bib, citation_style=style, widgets=WIDGETS)


def render_case(text: str, stem: str = "") -> str:
    try:
        result = render(text, context(stem))
    except BuildErrors as exc:
        return "".join(f"ERROR {error}\n" for error in exc.errors)
    warnings = "".join(f"WARNING {w}\n" for w in result.warnings) if stem.endswith("_show") else ""
    return result.html + result.notes_html + result.references_html + warnings


@pytest.mark.parametrize(("stem", "text", "expected"), CASES)
def test_fixture(stem: str, text: str, expected: str) -> None:
    assert render_case(text, stem) == expected
