"""Run a notebook at build time (``execute: true``), with nbclient, cell by cell.

Stored outputs are the default: running code is slow, needs the author's
libraries, and a notebook saved with its outputs already says what it shows.
``execute: true`` asks for a fresh run. nbclient and a kernel (ipykernel) are an
optional extra (``pip install 'site-builder[notebooks]'``); a site without it
gets a message saying so, not an ImportError.

The caller caches results: :func:`cache_key` hashes what can change them (the
kernel and every code cell's source, in order), so an edit to a Markdown cell
never runs the code again, and :func:`execute_notebook` is pure apart from the
kernel it starts. A cell that raises stops the build at the notebook, the cell
and the line IPython's traceback names; a cell that runs past ``timeout``
seconds stops it too.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
from pathlib import Path
from typing import Any

from site_builder.errors import BuildError
from site_builder.notebooks.ansi import _ESCAPE
from site_builder.notebooks.reader import text_of

DEFAULT_TIMEOUT = 600  # seconds per cell, nbclient's convention
# IPython 8 writes "Cell In[3], line 2"; older ones "<ipython-input-3-...> in <module>"
# and then "----> 2 ..." on the line below.
_CELL_LINE = re.compile(
    r"(?:Cell In\s*\[\d*\]|<ipython-input-[\w-]+>|/ipykernel_\d+/\d+\.py)"
    r"[^\n]*?(?:line (\d+)|\n-+> *(\d+))"
)


def cache_key(notebook: Any) -> str:
    """What a run depends on: the kernel, and each code cell's source in order."""
    spec = notebook.get("metadata", {}).get("kernelspec", {}) or {}
    sources = [
        text_of(cell.get("source")) for cell in notebook.cells if cell.get("cell_type") == "code"
    ]
    payload = json.dumps([spec.get("name"), spec.get("language"), sources], ensure_ascii=False)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def execute_notebook(
    notebook: Any, rel: Path | str, cwd: Path, timeout: int = DEFAULT_TIMEOUT
) -> Any:
    """A copy of ``notebook`` with fresh outputs, run in ``cwd`` (the post's folder)."""
    try:
        from nbclient import NotebookClient
        from nbclient.exceptions import CellExecutionError, CellTimeoutError
    except ImportError:
        message = (
            "execute: true needs nbclient and a kernel: "
            "pip install 'site-builder[notebooks]' (or set execute: false to use stored outputs)"
        )
        raise BuildError(rel, None, message) from None
    ran = copy.deepcopy(notebook)
    spec = ran.get("metadata", {}).get("kernelspec", {}) or {}
    client = NotebookClient(
        ran,
        timeout=timeout,
        kernel_name=spec.get("name") or "python3",
        resources={"metadata": {"path": str(cwd)}},
        allow_errors=False,
    )
    index = -1
    try:
        with client.setup_kernel():
            for index, cell in enumerate(ran.cells):
                client.execute_cell(cell, index)
    except CellTimeoutError:
        message = f"cell {index + 1}: ran longer than {timeout} s (the cell timeout)"
        raise BuildError(rel, None, message) from None
    except CellExecutionError as exc:
        traceback = _ESCAPE.sub("", str(exc))
        line = cell_line(traceback)
        where = f"cell {index + 1}" + (f", line {line}" if line else "")
        raise BuildError(rel, None, f"{where}: {exc.ename}: {exc.evalue}") from None
    except Exception as exc:  # the kernel would not start (not installed, wrong name)
        raise BuildError(rel, None, f"cannot run the notebook: {exc}") from None
    return ran


def cell_line(traceback: str) -> int | None:
    """The line of the cell IPython's traceback points at (its last frame in the cell)."""
    found = [int(a or b) for a, b in _CELL_LINE.findall(traceback)]
    return found[-1] if found else None


def cached_runner(directory: Path, cwd: Path, rel: Path | str, timeout: int) -> Any:
    """A runner that keeps each run as ``<key>.ipynb`` in ``directory``: an unchanged
    notebook (same cells' sources and kernel, ``cache_key``) never runs again. A damaged
    entry is run again, never trusted."""
    import nbformat

    def run(notebook: Any, key: str) -> Any:
        entry = directory / f"{key}.ipynb"
        try:
            return nbformat.reads(entry.read_text(encoding="utf-8"), as_version=4)  # type: ignore[no-untyped-call]
        except Exception:  # missing or damaged: run it
            pass
        done = execute_notebook(notebook, rel, cwd, timeout=timeout)
        try:
            directory.mkdir(parents=True, exist_ok=True)
            entry.write_text(nbformat.writes(done), encoding="utf-8")  # type: ignore[no-untyped-call]
        except OSError:
            pass  # a read-only cache costs a run next time, not the build
        return done

    return run
