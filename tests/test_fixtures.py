"""Markdown in, HTML out: one case per block of ``tests/fixtures/*.md``.

Each case is a title line, ``.``, the Markdown, ``.``, the expected HTML, ``.``
(markdown-it-py's format). An expected block of ``ERROR path:line: message``
lines means the document must fail with exactly those errors.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from markdown_it.utils import read_fixture_file

from site_builder.errors import BuildErrors
from site_builder.markdown import MarkdownContext, render

FIXTURES = Path(__file__).parent / "fixtures"
CASES = [
    pytest.param(text, expected, id=f"{path.stem}:{line}:{title}")
    for path in sorted(FIXTURES.glob("*.md"))
    for line, title, text, expected in read_fixture_file(path)
]


def render_case(text: str) -> str:
    try:
        result = render(text, MarkdownContext("post.md"))
    except BuildErrors as exc:
        return "".join(f"ERROR {error}\n" for error in exc.errors)
    return result.html + result.notes_html


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_fixture(text: str, expected: str) -> None:
    assert render_case(text) == expected
