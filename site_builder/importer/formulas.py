"""Each imported post rendered once, as the build will, so ``import`` reports what the
build would stop on: a ``\\simga`` that MathJax showed in red converted nothing there
either, and here it would stop the build with no word from ``import``.

The post goes through the Markdown stage (``site_builder.markdown.render``) with the
site's macros, exactly as the build renders it. Each problem is reported at the line
(and, when the line came across unchanged or the formula can be found in it, the
column) of the *imported* file, with the Markdown stage's message and its did-you-mean
hint, and the place in the written file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from site_builder.errors import BuildError, BuildErrors
from site_builder.importer.report import PostNotes

MATH = "math: "


def check(
    written: Path,
    shown: Path | str,
    origin: list[int],
    source: str,
    macros: dict[str, Any],
    notes: PostNotes,
) -> int:
    """Render the written post; add a note for each problem; the number of formulas that
    do not convert."""
    from site_builder import bibliography
    from site_builder.config import math_macros
    from site_builder.importer.frontmatter import split
    from site_builder.markdown import MarkdownContext, render

    text = written.read_text(encoding="utf-8")
    parsed = split(text, PostNotes(written))
    own = parsed.meta.get("math")  # the post's own macros, over the site's
    if isinstance(own, dict) and isinstance(own.get("macros"), dict):
        macros = {**macros, **{str(k).removeprefix("\\"): v for k, v in own["macros"].items()}}
    table = math_macros({"macros": macros})
    named = parsed.meta.get("bibliography")
    bundle = written.parent if written.name == "index.md" else None
    entries = None
    try:
        if isinstance(named, str) and (written.parent / named).is_file():
            entries = bibliography.load(written.parent / named, written.parent / named)
        ctx = MarkdownContext(
            path=shown,
            line_offset=parsed.body_line - 1,
            resource_dir=bundle,
            bibliography=entries,
            macros=table if isinstance(table, tuple) else (),
        )
        render(parsed.body, ctx)
    except BuildErrors as exc:
        errors = exc.errors
    except BuildError as exc:
        errors = [exc]
    else:
        return 0
    lines = source.replace("\r\n", "\n").split("\n")
    written_lines = text.split("\n")
    failed = 0
    for error in errors:
        where = error.location
        index = (where.line or 1) - 1
        line = origin[index] if index < len(origin) else None
        column = None
        if line is not None and where.column and index < len(written_lines):
            column = _column(written_lines[index], where.column, lines[line - 1 : line])
        at = f"{shown}" + (f":{where.line}" if where.line else "")
        at += f":{where.column}" if where.line and where.column else ""
        if error.message.startswith(MATH):
            failed += 1
            message = f"formula does not convert: {error.message[len(MATH) :]} ({at})"
        else:
            message = f"the build will stop here: {error.message} ({at})"
        notes.add(line, message, column)
    return failed


def _column(written: str, column: int, source: list[str]) -> int | None:
    """The column in the source line of what is at ``column`` in the written line: the
    same when the line came across unchanged, else where the text there is found."""
    if not source:
        return None
    if written == source[0]:
        return column
    for size in (24, 12, 6, 3):
        snippet = written[column - 1 : column - 1 + size]
        if len(snippet) == size and source[0].count(snippet) == 1:
            return source[0].index(snippet) + 1
    return None
