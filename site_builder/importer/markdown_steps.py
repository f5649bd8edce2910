"""The Markdown formats' own rewrites, run on a post's body before the shared steps.

A Jekyll, Hugo, Quarto or Zola post (and its MDX and R Markdown kin) is Markdown of
another dialect: each format's converter and the dialects' blocks (Python-Markdown's
admonitions, GitHub's alerts, kramdown's definition lists) become this site's syntax.
A reStructuredText post (``rst``) is written in this site's syntax already and skips
them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from site_builder.importer import (
    admonitions,
    common,
    deflists,
    distill,
    divs,
    finding,
    html,
    hugo,
    jekyll,
    mdx,
    quarto,
    review_cards,
    zola,
)
from site_builder.importer.text import Text

Converter = Callable[[Text, common.PostContext], None]
CONVERTERS: dict[str, Converter] = {
    "jekyll": jekyll.convert,
    "hugo": hugo.convert,
    "quarto": quarto.convert,
    "zola": zola.convert,
    "distill": distill.convert,
}


def run(path: Path, text: Text, ctx: common.PostContext, fmt: str) -> None:
    """The Markdown formats' own rewrites, the format's converter among them."""
    if fmt == "distill":  # the figures its chunks drew, beside them, before they are code
        distill.figures(path, text, ctx.notes)
    if path.suffix in finding.R_MARKDOWN:  # blogdown's, in a Hugo site
        quarto.cells(text, ctx.notes)
    admonitions.admonitions(text, ctx.notes)  # before the masks: its body is Markdown
    CONVERTERS[fmt](text, ctx)
    if path.suffix == ".mdx":
        mdx.convert(text, ctx.notes)
    divs.alerts(text, ctx.notes)
    deflists.join_markers(text)
    html.break_lines(text)
    review_cards.convert(text)
    html.open_math_html(text)
