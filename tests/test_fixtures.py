"""Markdown in, HTML out: one case per block of ``tests/fixtures/*.md``.

Each case is a title line, ``.``, the Markdown, ``.``, the expected HTML, ``.``
(markdown-it-py's format). An expected block of ``ERROR path:line: message``
lines means the document must fail with exactly those errors.

Citation fixtures (files named ``citations*.md``) cite ``refs.bib`` beside them;
``*_author_year.md`` renders them in the author-year style. Image fixtures
(``image*.md``) find their files in ``images/`` beside them. Every case sees this
repository's widgets (``widgets/``). The References list, when there is one,
follows the HTML.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from markdown_it.utils import read_fixture_file

from site_builder.bibliography import parse
from site_builder.errors import BuildErrors
from site_builder.markdown import MarkdownContext, render
from site_builder.widgets import discover, runners

FIXTURES = Path(__file__).parent / "fixtures"
ROOT = FIXTURES.parent.parent
WIDGETS = runners(discover(ROOT), ROOT)
CASES = [
    pytest.param(path.stem, text, expected, id=f"{path.stem}:{line}:{title}")
    for path in sorted(FIXTURES.glob("*.md"))
    for line, title, text, expected in read_fixture_file(path)
]


def context(stem: str) -> MarkdownContext:
    if stem.startswith("image"):
        return MarkdownContext("post.md", resource_dir=FIXTURES / "images", widgets=WIDGETS)
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
    return result.html + result.notes_html + result.references_html


@pytest.mark.parametrize(("stem", "text", "expected"), CASES)
def test_fixture(stem: str, text: str, expected: str) -> None:
    assert render_case(text, stem) == expected
