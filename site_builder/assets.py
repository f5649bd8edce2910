"""Stage 5: static assets. Copies ``static/``; generates the code CSS and the math font.

The Pygments CSS is generated rather than checked in so it always matches the
Pygments version that produced the class names in the HTML. The math font is
generated because it depends on the content: it holds only the characters the
site's formulas use (see ``fonts.py``).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from site_builder import fonts
from site_builder.cache import Cache, code_version, hash_parts
from site_builder.sitefiles import files_under
from site_builder.writer import Output

if TYPE_CHECKING:
    from concurrent.futures import Future

LIGHT_STYLE = "xcode"
DARK_STYLE = "github-dark"
MATH_FONT = "static/fonts/math.woff2"
FONTS_CSS = "static/css/fonts.css"


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


def write_math_font(
    root: Path,
    stage: Output,
    math_chars: frozenset[str],
    cache: Cache,
    early: EarlyFont | None = None,
) -> None:
    """Subset the math font to ``math_chars`` and write it with its ``@font-face`` stylesheet.

    Subsetting takes ~0.4 s, so the result is cached by font file and characters,
    and a build with many posts starts it early (``early``) on a worker.
    """
    source = fonts.find_font(root)
    url = None
    if source is not None and math_chars:
        key = font_key(source, math_chars)
        data = cache.get_bytes("font", key)
        if data is None:
            data = early.result(source, math_chars) if early is not None else None
            if data is None:
                data = fonts.subset_woff2(source, math_chars)
            cache.put("font", key, data)
        stage.write(MATH_FONT, data)
        # Relative to fonts.css, so it works under any base path.
        url = "../fonts/" + MATH_FONT.rsplit("/", 1)[1]
    stage.write(FONTS_CSS, fonts.font_face_css(url))


def font_key(source: Path, chars: frozenset[str]) -> str:
    return hash_parts(code_version(), source.read_bytes(), "".join(sorted(chars)))


class EarlyFont:
    """The font subset started on a worker before the last posts are rendered.

    Its characters are those of the posts rendered so far; the bytes are used only if
    the final set is the same (it almost always is: a site's formulas reuse a few
    dozen symbols), so the output never depends on when it was started.
    """

    def __init__(self, source: Path, chars: frozenset[str], future: Future[bytes]) -> None:
        self.source = source
        self.chars = chars
        self.future = future

    def result(self, source: Path, chars: frozenset[str]) -> bytes | None:
        if source != self.source or chars != self.chars:
            self.future.cancel()
            return None
        try:
            return self.future.result()
        except Exception:  # e.g. a worker lost: subset here instead
            return None


def write_assets(
    root: Path,
    stage: Output,
    math_chars: frozenset[str],
    cache: Cache,
    early: EarlyFont | None = None,
) -> None:
    """Copy ``static/`` and write the generated CSS and the math font for ``math_chars``."""
    for rel, source in static_files(root):
        stage.copy(rel, source)
    stage.write("static/css/code.css", pygments_css())
    write_math_font(root, stage, math_chars, cache, early)
