"""A small site's whole output, checked in and compared byte for byte.

``tests/sites/basic/`` (two posts, one a folder with an image, and a draft) is built
with this repository's templates and static files and compared with
``tests/expected/basic/``, file by file. Files the build copies unchanged from
``static/`` are not stored twice: ``static-copies.txt`` lists them, and they are
compared with the repository's own. When the output changes on purpose, rewrite the
tree with::

    UPDATE_EXPECTED=1 .venv/bin/pytest tests/test_expected.py

and review ``git diff tests/expected/`` before committing it.
"""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.conftest import ROOT, SITES, UPDATE_EXPECTED, build_site, make_site, text_diff

EXPECTED = ROOT / "tests" / "expected" / "basic"
COPIES = "static-copies.txt"
NOW = datetime(2026, 1, 1, tzinfo=UTC)  # the draft stays out whatever the clock says


def files(directory: Path) -> dict[str, bytes]:
    return {
        p.relative_to(directory).as_posix(): p.read_bytes()
        for p in sorted(directory.rglob("*"))
        if p.is_file()
    }


def expected_files() -> dict[str, bytes]:
    """The checked-in tree, with the listed static copies read from ``static/``."""
    stored = files(EXPECTED)
    copies = stored.pop(COPIES, b"").decode("utf-8").split()
    return {**stored, **{rel: (ROOT / rel).read_bytes() for rel in copies}}


def write_expected(built: dict[str, bytes]) -> None:
    shutil.rmtree(EXPECTED, ignore_errors=True)
    copies = []
    for rel, data in built.items():
        source = ROOT / rel
        if rel.startswith("static/") and source.is_file() and source.read_bytes() == data:
            copies.append(rel)
            continue
        (EXPECTED / rel).parent.mkdir(parents=True, exist_ok=True)
        (EXPECTED / rel).write_bytes(data)
    (EXPECTED / COPIES).write_text("".join(f"{rel}\n" for rel in copies), encoding="utf-8")


def test_basic_site_output_is_exactly_the_expected_tree(tmp_path: Path) -> None:
    public = build_site(make_site(tmp_path / "site", SITES / "basic"), now=NOW)
    built = files(public)
    if UPDATE_EXPECTED:
        write_expected(built)
        pytest.skip(f"UPDATE_EXPECTED=1: rewrote {EXPECTED.relative_to(ROOT)}")
    expected = expected_files()
    problems = [f"missing from the build: {rel}" for rel in sorted(expected.keys() - built)]
    problems += [f"not expected: {rel}" for rel in sorted(built.keys() - expected)]
    problems += [
        text_diff(expected[rel], built[rel], rel)
        for rel in sorted(expected.keys() & built.keys())
        if expected[rel] != built[rel]
    ]
    hint = "If the change is intended: UPDATE_EXPECTED=1 .venv/bin/pytest tests/test_expected.py"
    if problems:
        pytest.fail("\n".join([*problems, hint]), pytrace=False)
