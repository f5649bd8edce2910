"""``execute: true``: a notebook runs at build time with nbclient (the ``notebooks`` extra;
skipped without it). A cell that raises stops the build at the notebook, cell and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from site_builder.errors import BuildError
from site_builder.notebooks import cache_key, loads_notebook
from site_builder.notebooks.reader import parse_notebook
from tests.notebook_cases import notebook_json

pytest.importorskip("nbclient", reason="the notebooks extra (nbclient) is not installed")
pytest.importorskip("ipykernel", reason="the notebooks extra (ipykernel) is not installed")

FRONT = "---\ntitle: Run\ndate: 2024-01-02\nexecute: true\n---"


def test_execute_true_replaces_stored_outputs(tmp_path: Path) -> None:
    spec = {"cells": [{"raw": FRONT}, {"code": "print(6 * 7)", "outputs": [
        {"output_type": "stream", "name": "stdout", "text": "stale\n"}]}]}  # fmt: skip
    source = loads_notebook(notebook_json(spec), Path("p.ipynb"), cwd=tmp_path)
    assert source.execute
    assert [html for html in source.blocks.values() if "nb-stdout" in html] == [
        '<pre class="nb-stream nb-stdout">42</pre>'
    ]


def test_a_cell_that_raises_names_cell_and_line(tmp_path: Path) -> None:
    spec = {
        "cells": [
            {"raw": FRONT},
            {"markdown": "Text."},
            {"code": "x = 1\n\nraise ValueError('no data')"},
        ]
    }
    with pytest.raises(BuildError) as caught:
        loads_notebook(notebook_json(spec), Path("p.ipynb"), cwd=tmp_path)
    assert str(caught.value) == "p.ipynb: cell 3, line 3: ValueError: no data"


def test_a_cell_past_its_timeout_stops_the_build(tmp_path: Path) -> None:
    front = FRONT.replace("execute: true", "execute: {enabled: true, timeout: 1}")
    spec = {"cells": [{"raw": front}, {"code": "import time\ntime.sleep(30)"}]}
    with pytest.raises(BuildError) as caught:
        loads_notebook(notebook_json(spec), Path("p.ipynb"), cwd=tmp_path)
    assert str(caught.value) == "p.ipynb: cell 2: ran longer than 1 s (the cell timeout)"


def test_the_cache_key_follows_code_only() -> None:
    def key(markdown: str, code: str) -> str:
        spec = [{"markdown": markdown}, {"code": code}]
        return cache_key(parse_notebook(notebook_json(spec), "p.ipynb"))

    assert key("a", "x = 1") == key("b", "x = 1")
    assert key("a", "x = 1") != key("a", "x = 2")


def test_a_runner_is_called_with_the_key(tmp_path: Path) -> None:
    """The build passes a runner that looks the key up in its cache first."""
    seen = []

    def runner(notebook: object, key: str) -> object:
        seen.append(key)
        return notebook

    spec = {"cells": [{"raw": FRONT}, {"code": "1"}]}
    source = loads_notebook(notebook_json(spec), Path("p.ipynb"), cwd=tmp_path, run=runner)
    assert seen == [source.cache_key]
