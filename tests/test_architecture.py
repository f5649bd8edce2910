"""The shape the code keeps: no import cycles between modules, no module past 350 lines
(a module that long probably holds two stages; STYLE.md)."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT

LIMIT = 350


def test_no_import_cycles() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "import_cycles.py")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_no_module_is_past_the_limit() -> None:
    long = {
        path.relative_to(ROOT).as_posix(): lines
        for path in sorted((ROOT / "site_builder").rglob("*.py"))
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > LIMIT
    }
    assert not long, long
