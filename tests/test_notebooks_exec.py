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
        '<pre class="nb-stream nb-stdout" tabindex="0">42</pre>'
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


def test_a_site_runs_its_notebooks_once_and_stops_at_a_raising_cell(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """End to end: ``execute: true`` in site.yaml, a run kept in ``.cache/notebook-runs`` by
    the cells' sources (an unchanged notebook never runs again), and a cell that raises
    failing the build as ``path: cell N, line L: ...`` with exit status 1."""
    from site_builder.cli import main
    from tests.conftest import SITES, make_site

    site = make_site(tmp_path / "site", SITES / "minimal")
    (site / "site.yaml").write_text((site / "site.yaml").read_text() + "execute: true\n")
    spec = {"cells": [{"raw": "---\ntitle: Run\ndate: 2024-01-02\n---"},
                      {"code": "print(6 * 7)"}]}  # fmt: skip
    post = site / "content/posts/run.ipynb"
    post.write_text(notebook_json(spec))
    assert main(["-C", str(site), "build", "-q"]) == 0
    assert (
        '<pre class="nb-stream nb-stdout" tabindex="0">42</pre>'
        in (site / "public/posts/run/index.html").read_text()
    )
    runs = list((site / ".cache" / "notebook-runs").glob("*.ipynb"))
    assert len(runs) == 1
    stamp = runs[0].stat().st_mtime_ns
    (site / "content/posts/other.md").write_text("---\ntitle: O\ndate: 2024-01-03\n---\nText.\n")
    assert main(["-C", str(site), "build", "-q"]) == 0
    assert runs[0].stat().st_mtime_ns == stamp  # not run again
    spec["cells"].append({"code": "x = 1\nraise ValueError('no data')"})
    post.write_text(notebook_json(spec))
    capsys.readouterr()
    assert main(["-C", str(site), "build", "-q"]) == 1
    err = capsys.readouterr().err
    assert "content/posts/run.ipynb: cell 3, line 2: ValueError: no data" in err, err
    assert "Traceback (most recent call last)" not in err
