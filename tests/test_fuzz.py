"""Property-based tests: hostile Markdown, math and front matter never crash the build.

The renderer either succeeds or raises the project's own error type with a
location; never another exception, never a hang. ``make test`` runs 300 examples a
property; ``make fuzz`` (FUZZ_EXAMPLES=..., 20000 unless set) runs many more.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from site_builder.config import SiteConfig
from site_builder.errors import BuildError, BuildErrors
from site_builder.frontmatter import parse_post
from site_builder.markdown import MarkdownContext, render
from site_builder.markdown.math import MathError, render_formula

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "300"))
SECONDS_PER_DOCUMENT = 5
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
CONFIG = SiteConfig(root=Path("."), title="T", author="A B", base_url="https://example.org/")

# Fragments that exercise every syntax extension, glued together at random.
MARKDOWN_PIECES = [
    "$",
    "$$",
    "\\$",
    "$x$",
    "$$\nx\n$$\n",
    "[^a]",
    "[^a]: note\n",
    "^[inline]",
    "[t]{.aside}",
    "::: {.column-margin}\n",
    ":::\n",
    '```python filename="a.py"\n',
    "```\n",
    "```{.nosuch}\n",
    "| a | b |\n|---|---|\n| 1 | 2 |\n",
    "# H\n",
    "## H\n",
    "![i](x.png)",
    "[l](javascript:x)",
    "<div>",
    "</div>",
    "\n",
    "\n\n",
    "    ",
    "*",
    "_",
    "`",
    "{",
    "}",
    "\\",
    "&amp;",
    "<script>",
    "{#fig-x}",
    "@fig-x",
    "~~s~~",
]
LATEX_PIECES = [
    "\\frac{",
    "}{",
    "}",
    "{",
    "\\sqrt",
    "\\left(",
    "\\right)",
    "\\sum_{",
    "^",
    "_",
    "x",
    "\\operatorname{",
    "\\newcommand{\\x}{",
    "\\newcommand{\\x}[1]{#1",
    "\\newcommand{\\z}[2][d]{#1#3",
    "\\z",
    "[",
    "]",
    "\\def\\y#1{",
    "\\DeclareMathOperator{\\z}{",
    "\\x",
    "#1",
    "\\tag{",
    "\\tag*{$",
    "\\label{eq:",
    "\\notag",
    "\\\\[6pt]",
    "\\begin{align}",
    "\\end{align}",
    "\\begin{equation}",
    "\\end{equation}",
    "\\begin{eqnarray}",
    "\\end{eqnarray}",
    "\\substack{",
    "\\text{<script>",
    "'",
    "\\begin{aligned}",
    "\\end{aligned}",
    "\\begin{cases}",
    "\\end{cases}",
    "&",
    "\\\\",
    "\\!",
    "\\,",
    "-",
    "\\infty",
    "\\mathbb{R}",
    "\\foo",
    "\\",
    "\\tau",
    "1",
    "\\begin{pmatrix}",
    "\\end{pmatrix}",
    "\\text{",
    "\\left.",
    "\\right|",
    " ",
]


@contextmanager
def time_limit(seconds: int) -> Iterator[None]:
    """Fail (rather than hang) if one document takes too long."""

    def on_alarm(signum: int, frame: object) -> None:
        raise TimeoutError(f"document took longer than {seconds} s")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def check_render(text: str) -> None:
    with time_limit(SECONDS_PER_DOCUMENT):
        try:
            render(text, MarkdownContext("post.md", line_offset=4))
        except BuildErrors as exc:
            for error in exc.errors:
                assert str(error.location.path) == "post.md"
                assert error.location.line is None or error.location.line >= 5


@FUZZ
@given(st.lists(st.sampled_from(MARKDOWN_PIECES) | st.text(max_size=8), max_size=40))
def test_markdown_pieces_never_crash(pieces: list[str]) -> None:
    check_render("".join(pieces))


@FUZZ
@given(st.text(max_size=300))
def test_arbitrary_text_never_crashes(text: str) -> None:
    check_render(text)


@FUZZ
@given(st.lists(st.sampled_from(LATEX_PIECES), min_size=1, max_size=25), st.booleans())
def test_math_converts_or_raises_math_error(pieces: list[str], display: bool) -> None:
    latex = "".join(pieces)
    with time_limit(SECONDS_PER_DOCUMENT):
        try:
            out, _ = render_formula(latex, display)
        except MathError:
            return
    if not out:  # nothing but macro definitions
        return
    assert out.startswith("<math") and out.endswith("</math>")
    assert "<script" not in out and "javascript:" not in out.split("<annotation")[0]
    assert "\\" not in out.split("<annotation")[0], "a LaTeX command leaked into MathML"


FRONT_VALUES = st.one_of(
    st.text(max_size=20),
    st.integers(),
    st.booleans(),
    st.none(),
    st.sampled_from(["2026-01-01", "2026-02-30", "2026-01-01T10:00:00+02:00", "[a, b", "{", "'"]),
)


@FUZZ
@given(
    st.dictionaries(
        st.sampled_from(
            ["title", "date", "tags", "draft", "slug", "author", "description", "updated", "x"]
        ),
        FRONT_VALUES,
        max_size=8,
    )
)
def test_front_matter_parses_or_raises_build_error(fields: dict[str, object]) -> None:
    yaml_text = "\n".join(f"{key}: {value}" for key, value in fields.items())
    try:
        post, _ = parse_post(f"---\n{yaml_text}\n---\nbody\n", Path("p.md"), CONFIG)
    except BuildError as exc:
        assert str(exc.location.path) == "p.md"
        return
    assert post.title and post.slug
