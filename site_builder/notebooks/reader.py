"""Read a ``.ipynb`` file and validate it with ``nbformat``, or stop at ``path: message``.

JSON is parsed first with the standard library so that a hand-edited notebook
with a missing comma stops at its line and column; only then does nbformat's
schema check the structure. Only nbformat 4 is read: version 3 notebooks are
a decade old and every current Jupyter saves 4, so the message says how to
upgrade rather than guessing at a conversion.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from site_builder.errors import BuildError


def read_notebook(file: Path, rel: Path | str) -> Any:
    """The validated notebook (an ``nbformat.NotebookNode``). ``rel`` is the path shown."""
    try:
        raw = file.read_bytes()
    except OSError as exc:
        raise BuildError(rel, None, f"cannot read the notebook ({exc.strerror})") from None
    return parse_notebook(raw, rel)


def _repaired(data: dict[str, Any]) -> dict[str, Any]:
    """The notebook as Jupyter opens it: what old writers (fastpages, nbconvert) left
    that the schema refuses is mended as Jupyter mends it on save, the same way every
    time: a markdown cell's ``outputs`` go, a code cell without ``outputs`` gets none,
    and a cell without an ``id`` (nbformat 4.5) gets ``cell-<n>``, not a random one."""
    cells = data.get("cells")
    if not isinstance(cells, list):
        return data
    ids = (
        data.get("nbformat_minor", 0) >= 5 if isinstance(data.get("nbformat_minor"), int) else False
    )
    seen: set[str] = set()
    for index, cell in enumerate(cells):
        if not isinstance(cell, dict):
            continue
        cell.setdefault("metadata", {})
        cell.setdefault("source", "")
        if cell.get("cell_type") == "code":
            cell.setdefault("outputs", [])
            cell.setdefault("execution_count", None)
        else:
            cell.pop("outputs", None)
            cell.pop("execution_count", None)
        if ids and (not isinstance(cell.get("id"), str) or cell["id"] in seen):
            cell["id"] = f"cell-{index}"
        if isinstance(cell.get("id"), str):
            seen.add(cell["id"])
    return data


def parse_notebook(raw: bytes | str, rel: Path | str) -> Any:
    """Pure: the file's bytes in, a validated ``NotebookNode`` (or BuildError) out."""
    if isinstance(raw, bytes):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = raw[: exc.start].count(b"\n") + 1
            raise BuildError(rel, line, "the notebook is not valid UTF-8") from None
    else:
        text = raw
    try:
        data = json.loads(text.removeprefix("\ufeff"))
    except json.JSONDecodeError as exc:
        message = f"not a notebook: invalid JSON ({exc.msg})"
        raise BuildError(rel, exc.lineno, message, exc.colno) from None
    except RecursionError:  # thousands of nested brackets: no notebook nests so deep
        raise BuildError(rel, None, "not a notebook: its JSON is nested too deeply") from None
    if not isinstance(data, dict) or ("cells" not in data and "worksheets" not in data):
        raise BuildError(rel, None, "not a notebook: the JSON has no 'cells'")
    version = data.get("nbformat")
    if version != 4:
        hint = (
            ": open it in a current Jupyter and save it again (that writes version 4)"
            if isinstance(version, int) and version < 4
            else ""
        )
        raise BuildError(rel, None, f"unknown nbformat {version!r}: only nbformat 4 is read{hint}")
    _check_cells(data, rel)
    import nbformat  # only sites with notebooks pay for the import (jsonschema)

    notebook = nbformat.from_dict(_repaired(data))  # type: ignore[no-untyped-call]
    try:
        nbformat.validate(notebook)
    except nbformat.ValidationError as exc:
        where = "/".join(str(part) for part in exc.absolute_path)
        at = f" at {where}" if where else ""
        message = f"not a valid notebook{at}: {_first_line(exc.message)}"
        raise BuildError(rel, None, message) from None
    return notebook


def _check_cells(data: dict[str, Any], rel: Path | str) -> None:
    """What nbformat's validation would trip over before it checks the schema (it gives
    each cell an id first): ``cells`` that is not a list, a cell that is not an object."""
    cells = data.get("cells")
    if "cells" in data and not isinstance(cells, list):
        raise BuildError(rel, None, "not a valid notebook: 'cells' must be a list of cells")
    for index, cell in enumerate(cells or []):
        if not isinstance(cell, dict):
            message = f"not a valid notebook at cells/{index}: a cell must be an object"
            raise BuildError(rel, None, message)


def _first_line(text: str) -> str:
    line = text.strip().split("\n", 1)[0]
    return line if len(line) <= 200 else line[:197] + "..."


def text_of(value: Any) -> str:
    """A multiline string field: nbformat allows a string or a list of lines."""
    if isinstance(value, list):
        return "".join(str(part) for part in value)
    return "" if value is None else str(value)
