"""Real notebooks (``tests/data/notebooks/``, sources in its README) as posts, end to end:
each loads, passes the post checks and renders through the Markdown pipeline, with no
base64 and no escape codes in the page; together they hold every kind of output."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from site_builder.config import load_config
from site_builder.frontmatter import parse_post
from site_builder.markdown import MarkdownContext, render
from site_builder.notebooks import load_notebook

ROOT = Path(__file__).parent.parent
DATA = Path(__file__).parent / "data" / "notebooks"
NOTEBOOKS = sorted([*DATA.glob("*.ipynb"), *DATA.glob("*/index.ipynb")])
KINDS = {
    "stream", "error", "image/png", "image/jpeg", "image/svg+xml", "text/html",
    "text/markdown", "text/latex", "text/plain", "application/vnd.jupyter.widget-view+json",
    "attachment",
}  # fmt: skip
_BASE64 = re.compile(r";base64,[A-Za-z0-9+/]{16}")


def _kinds(path: Path) -> set[str]:
    found = set()
    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
        if cell.get("attachments"):
            found.add("attachment")
        for output in cell.get("outputs", []):
            kind = output["output_type"]
            found.update(
                output.get("data", {}) if kind in ("execute_result", "display_data") else [kind]
            )
    return found


def test_at_least_six_notebooks_hold_every_kind_of_output() -> None:
    assert len(NOTEBOOKS) >= 6
    assert set().union(*(_kinds(path) for path in NOTEBOOKS)) >= KINDS
    assert all(path.stat().st_size < 1_000_000 for path in NOTEBOOKS)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.relative_to(DATA).as_posix())
def test_real_notebook_renders(path: Path) -> None:
    config = load_config(ROOT)
    rel = Path("content/posts") / path.relative_to(DATA)
    source = load_notebook(path, rel)
    post, _ = parse_post(source.text, rel, config)
    ctx = MarkdownContext(
        path=rel,
        line_offset=post.body_line - 1,
        raw_html=config.raw_html,
        resource_dir=path.parent if path.name == "index.ipynb" else None,
        prerendered=source.blocks,
        files=source.files_map,
    )
    rendered = render(post.body, ctx)
    html = rendered.html + rendered.notes_html
    assert post.title and post.date
    assert not _BASE64.search(html)
    assert "\x1b" not in html and "{=prerendered}" not in html
    for name, data in source.files:  # every image output is a file the page links to
        assert f'src="{name}"' in html and data
        assert (name, data) in rendered.files
