"""The floor: the same Markdown through the bare libraries, no templates, no writes.

markdown-it-py (+ dollarmath, footnotes, tables) with math-core for math,
Pygments for code and PyYAML's default loader for front matter, as in the
issue's reference measurement. A site generator cannot be much faster than
this, so the benchmark reports the build as a ratio to it.
"""

from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import yaml
from markdown_it import MarkdownIt
from math_core import LatexToMathML
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.footnote import footnote_plugin
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name

_MD: MarkdownIt | None = None


def _highlight(code: str, lang: str, attrs: Any) -> str:
    name = lang.split()[0] if lang else "text"
    return str(highlight(code, get_lexer_by_name(name), HtmlFormatter()))


def _parser() -> MarkdownIt:
    global _MD
    if _MD is None:
        md = MarkdownIt("commonmark", {"highlight": _highlight}).enable("table")
        math = LatexToMathML()
        md.use(
            dollarmath_plugin,
            renderer=lambda latex, opts: math.convert_with_local_state(
                latex, displaystyle=opts["display_mode"]
            ),
        )
        md.use(footnote_plugin)
        _MD = md
    return _MD


def render_file(path: Path) -> int:
    text = path.read_text(encoding="utf-8")
    _, front, body = text.split("---\n", 2)
    yaml.safe_load(front)
    return len(_parser().render(body))


def run(files: list[Path], jobs: int) -> float:
    """Seconds to render every file with ``jobs`` processes (1 = in this process)."""
    started = time.perf_counter()
    if jobs == 1:
        for file in files:
            render_file(file)
    else:
        with ProcessPoolExecutor(jobs) as pool:
            list(pool.map(render_file, files, chunksize=max(1, len(files) // (jobs * 8))))
    return time.perf_counter() - started
