"""The no-op check (``snapshot``): nothing changed means nothing is imported, read or written,
and every kind of change, however small, means a real build.

Each test builds the blog with the CLI, changes one thing, runs the CLI again
and checks whether the build ran (``build.build`` is spied on), then that the
output equals a clean build's.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from site_builder import build as build_module
from site_builder import writer
from site_builder.cli import main
from site_builder.incremental import noop as snapshot
from tests.conftest import SITES, make_site, tree_digest

EPOCH = "1767225600"  # 2026-01-01T00:00:00Z: the post dated 2999 is not due
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    site = make_site(tmp_path / "site", SITES / "blog")
    assert main(["-C", str(site), "build", "-q"]) == 0
    return site


def builds(site: Path, monkeypatch: pytest.MonkeyPatch, *extra: str) -> int:
    """Run the CLI once; how many times it called the real build (0: the no-op check)."""
    calls = []
    real = build_module.build

    def spy(*args: object, **kwargs: object) -> build_module.BuildResult:
        calls.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(build_module, "build", spy)
    assert main(["-C", str(site), "build", "-q", *extra]) == 0
    monkeypatch.setattr(build_module, "build", real)
    return len(calls)


def clean(site: Path, tmp_path: Path, *extra: str) -> dict[str, str]:
    out = tmp_path / "clean"
    assert main(["-C", str(site), "build", "-q", "--no-cache", "--out", str(out), *extra]) == 0
    return tree_digest(out)


def test_unchanged_site_is_not_built(site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert builds(site, monkeypatch) == 0
    assert builds(site, monkeypatch) == 0


def test_noop_imports_no_renderer(site: Path) -> None:
    """In a fresh process, the no-op check imports neither the build nor any library."""
    script = (
        "import sys; from site_builder.cli import main; code = main(sys.argv[1:]); "
        "heavy = [m for m in ('site_builder.build', 'yaml', 'jinja2', 'markdown_it') "
        "if m in sys.modules]; print(code, heavy)"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, "-C", str(site), "build"],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "SOURCE_DATE_EPOCH": EPOCH},
        cwd=ROOT,
    )
    assert done.stdout.splitlines()[-1] == "0 []"
    assert done.stdout.startswith("Up to date: 10 pages (3 posts), nothing changed")


def _append(path: str, text: str) -> Callable[[Path], None]:
    def change(site: Path) -> None:
        with (site / path).open("a", encoding="utf-8") as handle:
            handle.write(text)

    return change


def _add(path: str, text: str) -> Callable[[Path], None]:
    def change(site: Path) -> None:
        (site / path).parent.mkdir(parents=True, exist_ok=True)
        (site / path).write_text(text, encoding="utf-8")

    return change


def _same_size_edit(site: Path) -> None:
    """Same size, new mtime: the stat differs even though the length does not."""
    post = site / "content/posts/hello-world.md"
    text = post.read_text(encoding="utf-8")
    post.write_text(text[:-2] + ("X" if text[-2] != "X" else "Y") + text[-1], encoding="utf-8")
    os.utime(post, ns=(post.stat().st_atime_ns, post.stat().st_mtime_ns + 1_000_000))


CHANGES: dict[str, Callable[[Path], None]] = {
    "post edited": _append("content/posts/hello-world.md", "\nOne more line.\n"),
    "post edited, same size": _same_size_edit,
    "post added": _add("content/posts/added.md", "---\ntitle: Added\ndate: 2025-06-01\n---\nHi.\n"),
    "bundle file added": _add("content/posts/math-and-notes/extra.txt", "data\n"),
    "bibliography added": _add("content/references.bib", "@misc{k, title={T}, year={2020}}\n"),
    "template edited": _append("templates/base.html", "{# changed #}\n"),
    "static file edited": _append("static/css/site.css", "\n/* changed */\n"),
    "site font added": _add("fonts/readme.txt", "a font folder appears\n"),
    "site.yaml edited": _append("site.yaml", "description: Now with a description\n"),
}


@pytest.mark.parametrize("name", sorted(CHANGES))
def test_every_input_change_builds(
    name: str, site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    CHANGES[name](site)
    assert builds(site, monkeypatch) == 1
    assert tree_digest(site / "public") == clean(site, tmp_path)
    assert builds(site, monkeypatch) == 0, "and the build after that is a no-op again"


def test_deleted_input_builds(site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (site / "content/posts/old-notes.md").unlink()
    assert builds(site, monkeypatch) == 1
    assert not (site / "public/posts/old-notes").exists()
    assert tree_digest(site / "public") == clean(site, tmp_path)


@pytest.mark.parametrize("damage", ["tampered", "deleted"])
def test_damaged_output_builds(
    damage: str, site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = site / "public/posts/hello-world/index.html"
    if damage == "tampered":
        page.write_text("tampered", encoding="utf-8")
    else:
        page.unlink()
    assert builds(site, monkeypatch) == 1
    assert tree_digest(site / "public") == clean(site, tmp_path)


def test_options_are_part_of_the_check(site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert builds(site, monkeypatch, "--base-url", "https://example.org/blog/") == 1
    assert "/blog/" in (site / "public/index.html").read_text(encoding="utf-8")
    assert builds(site, monkeypatch, "--base-url", "https://example.org/blog/") == 0
    assert builds(site, monkeypatch) == 1
    assert builds(site, monkeypatch, "--drafts") == 1
    assert builds(site, monkeypatch, "--no-cache") == 1, "--no-cache always builds"


def test_scheduled_post_falls_due(site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert not (site / "public/posts/from-the-future").exists()
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "32503680000")  # 3000-01-01
    assert builds(site, monkeypatch) == 1
    assert (site / "public/posts/from-the-future/index.html").exists()
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)  # the clock moved back: build again
    assert builds(site, monkeypatch) == 1
    assert not (site / "public/posts/from-the-future").exists()


def test_a_build_with_warnings_is_never_skipped(
    site: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _append("content/posts/hello-world.md", "\n[^never]: A note nobody cites.\n")(site)
    for _ in range(2):
        assert builds(site, monkeypatch) == 1
        assert "defined but never referenced" in capsys.readouterr().err


def test_corrupt_snapshot_builds(site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with contextlib.closing(sqlite3.connect(site / ".cache/state.db")) as db, db:
        db.execute("UPDATE noop SET inputs = 'xyz'")
    assert builds(site, monkeypatch) == 1
    assert builds(site, monkeypatch) == 0


def test_interrupted_commit_beside_the_output_builds(
    site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (site / f"{writer.STAGING_PREFIX}public-leftover").mkdir()
    assert builds(site, monkeypatch) == 1
    assert not (site / f"{writer.STAGING_PREFIX}public-leftover").exists()


def test_staging_prefix_matches_the_writer() -> None:
    assert snapshot.STAGING_PREFIX == writer.STAGING_PREFIX
