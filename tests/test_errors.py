"""Bad input never breaks the site: one case per user mistake.

Each case is a folder of ``tests/sites/invalid/``: the files that, laid over the small
good site ``tests/sites/minimal/``, make one mistake (or several), and ``expected.txt``,
the exact stderr of the build. The test builds the good site, lays the case over it,
runs the CLI in-process, and asserts exit status 1, that stderr, no traceback, and that
``public/`` is byte-for-byte unchanged. A new case is a folder, not Python;
``UPDATE_EXPECTED=1`` writes the ``expected.txt`` of a new or changed one (review the
diff before committing it).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from site_builder.cli import main
from tests.conftest import SITES, check_expected, make_site, tree_digest

INVALID = SITES / "invalid"
CASES = sorted(case.name for case in INVALID.iterdir() if case.is_dir())


@pytest.mark.parametrize("case", CASES)
def test_bad_input_fails_cleanly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str
) -> None:
    site = make_site(tmp_path / "site")
    assert main(["-C", str(site), "build", "--quiet"]) == 0
    before = tree_digest(site / "public")
    capsys.readouterr()

    shutil.copytree(
        INVALID / case, site, dirs_exist_ok=True, ignore=shutil.ignore_patterns("expected.txt")
    )
    status = main(["-C", str(site), "build"])
    err = capsys.readouterr().err

    assert status == 1
    assert "Traceback" not in err
    check_expected(err, INVALID / case / "expected.txt")
    assert tree_digest(site / "public") == before
    assert not list(site.glob(".staging-*")), "a failed build left a staging directory"


def test_every_case_is_files_and_an_error_with_a_place() -> None:
    """A case folder holds the files of the mistake, and its first stderr line names a place:
    a file and line, or only the file when the whole file is the mistake (two files claim one
    output path: ``routes``)."""
    assert len(CASES) >= 20
    for case in CASES:
        files = [p.name for p in (INVALID / case).rglob("*") if p.is_file()]
        assert set(files) - {"expected.txt"}, f"{case} makes no mistake"
        first = (INVALID / case / "expected.txt").read_text(encoding="utf-8").partition("\n")[0]
        if case.startswith("collision-"):
            assert re.match(r"[\w./-]+: \S+ would be written twice: ", first), f"{case}: {first!r}"
        else:
            assert re.match(r"[\w./-]+:\d+(:\d+)?: \S", first), f"{case}: {first!r}"


def test_warnings_do_not_fail_unless_strict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = make_site(tmp_path / "site")
    (site / "content" / "posts" / "w.md").write_text(
        "---\ntitle: W\ndate: 2026-01-01\ntitel: typo\n---\n\nText.\n\n[^x]: unused\n", "utf-8"
    )
    assert main(["-C", str(site), "build", "--quiet"]) == 0
    err = capsys.readouterr().err
    assert (
        "content/posts/w.md:4: warning: unknown front matter key 'titel' (did you mean 'title'?)"
        in err
    )
    assert "content/posts/w.md:9: warning: footnote [^x] is defined but never referenced" in err
    assert main(["-C", str(site), "build", "--strict"]) == 1


def test_interrupted_build_leftovers_are_removed(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site")
    stale = site / ".staging-public-abc123"
    (stale / "posts").mkdir(parents=True)
    assert main(["-C", str(site), "build", "--quiet"]) == 0
    assert not stale.exists()
    assert (site / "public" / "index.html").exists()
