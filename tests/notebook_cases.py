"""Notebooks for tests, written as YAML: a list of cells (a front matter cell is put first),
or a mapping with ``metadata`` and ``cells``. A cell is ``{markdown: text}``,
``{raw: text}`` or ``{code: text, outputs: [...]}`` with optional ``tags``, ``metadata``
and ``attachments``; outputs are nbformat's own dicts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from site_builder.config import load_config
from site_builder.errors import BuildError, BuildErrors
from site_builder.frontmatter import parse_post
from site_builder.markdown import MarkdownContext, render
from site_builder.notebooks import loads_notebook

ROOT = Path(__file__).parent.parent
FRONT = "---\ntitle: A notebook\ndate: 2024-01-02\n---"


def notebook_json(spec: str | Any) -> str:
    data = yaml.safe_load(spec) if isinstance(spec, str) else spec
    if isinstance(data, list):
        data = {"cells": [{"raw": FRONT}, *data]}
    metadata = data.get("metadata") or {
        "kernelspec": {"name": "python3", "language": "python", "display_name": "Python 3"}
    }
    cells = []
    for index, cell in enumerate(data["cells"]):
        kind = next(k for k in ("markdown", "code", "raw") if k in cell)
        made: dict[str, Any] = {
            "cell_type": kind,
            "id": f"c{index}",
            "metadata": {
                **cell.get("metadata", {}),
                **({"tags": cell["tags"]} if "tags" in cell else {}),
            },
            "source": cell[kind],
        }
        if kind == "code":
            made["execution_count"] = None
            made["outputs"] = [_output(o) for o in cell.get("outputs", [])]
        if "attachments" in cell:
            made["attachments"] = cell["attachments"]
        cells.append(made)
    notebook = {"cells": cells, "metadata": metadata, "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(notebook)


def _output(output: dict[str, Any]) -> dict[str, Any]:
    output = dict(output)
    if output["output_type"] in ("execute_result", "display_data"):
        output.setdefault("metadata", {})
        if output["output_type"] == "execute_result":
            output.setdefault("execution_count", 1)
    return output


def render_notebook(
    spec: str | Any, rel: str = "content/posts/nb.ipynb", raw_html: bool = True
) -> str:
    """The page body (HTML, notes, references) or ``ERROR ...`` lines, as the fixtures hold."""
    config = load_config(ROOT)
    try:
        source = loads_notebook(notebook_json(spec), Path(rel))
    except BuildError as exc:
        return f"ERROR {exc}\n"
    try:
        post, _ = parse_post(source.text, Path(rel), config)
    except BuildError as exc:
        return f"ERROR {source.relocate(exc)}\n"
    ctx = MarkdownContext(
        path=rel,
        line_offset=post.body_line - 1,
        raw_html=raw_html,
        prerendered=source.blocks,
        files=source.files_map,
    )
    try:
        result = render(post.body, ctx)
    except BuildErrors as exc:
        return "".join(f"ERROR {source.relocate(error)}\n" for error in exc.errors)
    return result.html + result.notes_html + result.references_html
