"""Stage 5: static assets. Copies ``static/`` and generates the code-highlighting CSS.

The Pygments CSS is generated rather than checked in so it always matches the
Pygments version that produced the class names in the HTML.
"""

from __future__ import annotations

from pathlib import Path

from pygments.formatters import HtmlFormatter

from site_builder.writer import Stage

LIGHT_STYLE = "default"
DARK_STYLE = "github-dark"


def pygments_css() -> str:
    """Light theme by default, dark theme under ``prefers-color-scheme: dark``."""
    light = HtmlFormatter(style=LIGHT_STYLE).get_style_defs(".highlight")
    dark = HtmlFormatter(style=DARK_STYLE).get_style_defs(".highlight")
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
        for path in sorted(static.rglob("*"))
        if path.is_file()
    ]


def write_assets(root: Path, stage: Stage) -> None:
    for rel, source in static_files(root):
        stage.copy(rel, source)
    stage.write("static/css/code.css", pygments_css())
