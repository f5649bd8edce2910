"""Assets: copies ``static/``; generates the code CSS and the math font.

The Pygments CSS is generated rather than checked in so it always matches the
Pygments version that produced the class names in the HTML. The math font is
generated because it depends on the content: it holds only the characters the
site's formulas use (see ``fonts.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from site_builder import fonts
from site_builder.sitefiles import files_under
from site_builder.writer import Output

LIGHT_STYLE = "xcode"
DARK_STYLE = "github-dark"
MATH_FONT = "static/fonts/math.woff2"
FONTS_CSS = "static/css/fonts.css"
CODE_CSS = "static/css/code.css"


def pygments_css() -> str:
    """Light theme by default, dark theme under ``prefers-color-scheme: dark``."""
    from pygments.formatters import HtmlFormatter

    light = HtmlFormatter(style=LIGHT_STYLE).get_style_defs(".highlight")  # type: ignore[no-untyped-call]
    dark = HtmlFormatter(style=DARK_STYLE).get_style_defs(".highlight")  # type: ignore[no-untyped-call]
    dark_indented = "\n".join("  " + line for line in dark.splitlines())
    return (
        f"/* Generated from Pygments styles '{LIGHT_STYLE}' and '{DARK_STYLE}'. */\n"
        f"{light}\n@media (prefers-color-scheme: dark) {{\n{dark_indented}\n}}\n"
    )


def static_files(root: Path) -> list[tuple[str, Path]]:
    """(site-relative path, source) for every file under ``static/``, in a stable order."""
    static = root / "static"
    if not static.is_dir():
        return []
    return [
        ("static/" + path.relative_to(static).as_posix(), path)
        for path in files_under(static, root)
    ]


Subset = Callable[[Path, frozenset[str]], bytes]


def write_math_font(
    root: Path, stage: Output, math_chars: frozenset[str], subset: Subset = fonts.subset_woff2
) -> None:
    """Subset the math font to ``math_chars`` and write it with its ``@font-face`` stylesheet.

    Subsetting takes ~0.4 s: the incremental layer passes a ``subset`` that remembers
    the result by font file and characters.
    """
    source = fonts.find_font(root)
    url = None
    if source is not None and math_chars:
        stage.write(MATH_FONT, subset(source, math_chars))
        # Relative to fonts.css, so it works under any base path.
        url = "../fonts/" + MATH_FONT.rsplit("/", 1)[1]
    stage.write(FONTS_CSS, fonts.font_face_css(url))


def write_assets(
    root: Path,
    stage: Output,
    static: Iterable[tuple[str, Path]],
    math_chars: frozenset[str],
    subset: Subset = fonts.subset_woff2,
) -> None:
    """Copy ``static/`` (the route table's list) and write the generated CSS and the math
    font for ``math_chars``."""
    for rel, source in static:
        stage.copy(rel, source)
    stage.write(CODE_CSS, pygments_css())
    write_math_font(root, stage, math_chars, subset)
    stage.write(".nojekyll", "")
