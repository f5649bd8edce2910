"""The Lighthouse audits' first pass, started in the background when the test session starts.

The audits mostly wait on Node and Chromium's simulated page loads: about 100 s of wall
time for 34 CPU-seconds. Run inside the test that reads them, they held an xdist worker
idle all that while. So ``conftest.pytest_configure`` starts this module as a process of
its own before the workers start (``start``): it builds the audited sites, serves them on
loopback, runs the audits beside the tests (``browser.run_lighthouse``), writes where the
reports are, and keeps serving until the session ends (``stop``), for the runs alone that
``tests/test_lighthouse.py``, ordered last, may make on the very same addresses
(``conftest.pytest_collection_modifyitems``). Its own process, not a thread of pytest's:
a build or a file served would otherwise take the GIL from the process that hands the
workers their tests.

``python -m tests.audits DIR``: the reports go to ``DIR/shared/``, then ``DIR/result.json``
names the jobs (or the error); the process ends when its standard input closes.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.browser import CHROMIUM, LIGHTHOUSE, Audit, run_lighthouse, serve_directory
from tests.conftest import ROOT, SITES, build_site, make_site

PAGES = {"index": "", "post": "posts/attention-from-the-softmax-up/", "about": "about/"}
# Mobile only (the harder form): a researcher's home and publications, a notebook post.
SCHOLAR = {"researcher": "", "publications": "publications/"}
NOTEBOOK = "posts/kaggle-titanic/"  # tests/sites/notebooks: outputs, tables, images
FIGURES = "figures mobile"  # the figures site's post, for its layout shift alone
ENV = "SITE_BUILDER_AUDITS"  # the running audits' folder, for the xdist workers
TEST_FILE = ROOT / "tests" / "test_lighthouse.py"


def audit_jobs(served: Callable[[Path], str]) -> dict[str, Audit]:
    """Every audit, by name, given ``served(source)``: the URL a built site is served at."""
    url = served(ROOT)
    jobs = {
        f"{name} {form}": Audit(url + path, form)
        for name, path in PAGES.items()
        for form in ("mobile", "desktop")
        if (name, form) != ("about", "desktop")  # a page's desktop form: the post's, in effect
    }
    researcher = served(SITES / "researcher")  # a profile, selected papers, a .bib
    jobs.update(
        {f"{name} mobile": Audit(researcher + path, "mobile") for name, path in SCHOLAR.items()}
    )
    jobs["notebook mobile"] = Audit(served(SITES / "notebooks") + NOTEBOOK, "mobile")
    jobs[FIGURES] = Audit(served(SITES / "figures") + "posts/figures/", "mobile",
                          ("cumulative-layout-shift",))  # fmt: skip
    return jobs


# --------------------------------------------------------------------------- the process


def main(folder: Path) -> None:
    """Build, serve and audit; then serve on until standard input closes.

    ``start`` locked ``DIR/running`` for this process, which holds the lock until it ends:
    ``reports`` takes a free lock without a result to mean the process is gone."""
    began = time.monotonic()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # for Node alone (``_until_the_session_ends``)
    ended = threading.Event()
    threading.Thread(target=_until_the_session_ends, args=(ended,), daemon=True).start()
    with contextlib.ExitStack() as stack:
        try:

            def served(source: Path) -> str:
                # The server takes its port first: the site is built for that address, so
                # its canonical URLs, robots.txt and sitemap point at the server audited.
                site = make_site(folder / "sites" / (source.name or "site"), source)
                url = stack.enter_context(serve_directory(site / "public", gzip_text=True))
                build_site(site, base_url=url)
                return url

            jobs = audit_jobs(served)
            if ended.is_set():
                raise RuntimeError("the session ended before the audits started")
            run_lighthouse(jobs, folder / "shared")
            result: dict[str, Any] = {
                "jobs": {key: job._asdict() for key, job in jobs.items()},
                "seconds": time.monotonic() - began,
            }
        except Exception:
            result = {"error": traceback.format_exc()}
        partial = folder / "result.json.part"
        partial.write_text(json.dumps(result), encoding="utf-8")
        partial.replace(folder / "result.json")
        ended.wait()


def _until_the_session_ends(ended: threading.Event) -> None:
    """Standard input closes when the session ends (``stop``) or pytest is gone. An audit
    still running then is interrupted as Ctrl-C would: SIGINT to this process group (its
    own, ``start``), which Node takes (its Chromium launcher closes Chromium, in a group of
    its own) and this process ignores, so it never kills Node first."""
    sys.stdin.read()
    ended.set()
    os.killpg(0, signal.SIGINT)


# --------------------------------------------------------------------------- pytest's side


def wanted(config: pytest.Config) -> bool:
    """Whether this run will audit, seen before collection: the process that hands out the
    work (not an xdist worker), a run that takes in ``tests/test_lighthouse.py`` with no
    ``-k`` or ``-m`` but ``browser``, and the tools installed. Otherwise the test audits
    as it always did, or skips saying why."""
    if hasattr(config, "workerinput") or config.option.collectonly or config.option.keyword:
        return False
    if (config.option.markexpr or "browser").strip() != "browser":
        return False
    here = config.invocation_params.dir
    paths = [(here / arg.split("::")[0]).resolve() for arg in config.args]
    if not any(path == TEST_FILE or path in TEST_FILE.parents for path in paths):
        return False
    tools = Path(CHROMIUM).exists() and LIGHTHOUSE.exists() and shutil.which("node")
    return bool(tools) and _has_playwright()


def _has_playwright() -> bool:
    try:
        import playwright  # noqa: F401
    except ImportError:
        return False
    return True


_RUNNING: list[tuple[subprocess.Popen[bytes], Path]] = []


def start(config: pytest.Config) -> None:
    """Start the audits in the background when this run will read them (``wanted``)."""
    if not wanted(config):
        return
    folder = Path(tempfile.mkdtemp(prefix="site-builder-audits-"))
    # Locked before the process starts and inherited by it, so the lock is held from the
    # first moment a test could look (``reports``) to the process's end.
    lock = os.open(folder / "running", os.O_CREAT | os.O_WRONLY)
    fcntl.flock(lock, fcntl.LOCK_EX)
    with (folder / "log.txt").open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "tests.audits", str(folder)],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=log,
            stderr=subprocess.STDOUT,
            pass_fds=(lock,),
            start_new_session=True,  # a group of its own: ``stop`` signals all of it
        )
    os.close(lock)
    _RUNNING.append((process, folder))
    os.environ[ENV] = str(folder)  # the xdist workers start after this, with it


def stop() -> None:
    """End the background process (its servers) and remove its files."""
    while _RUNNING:
        process, folder = _RUNNING.pop()
        os.environ.pop(ENV, None)
        with contextlib.suppress(OSError):
            assert process.stdin is not None
            process.stdin.close()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        shutil.rmtree(folder, ignore_errors=True)


def background() -> Path | None:
    """The folder of the audits running in the background, if this session started them."""
    folder = os.environ.get(ENV)
    return Path(folder) if folder else None


def reports(folder: Path, timeout: float) -> tuple[dict[str, Audit], dict[str, Any], float]:
    """The background run's jobs, reports and seconds (building the sites included), once
    it has written them (at most ``timeout`` seconds from now). Fails with the process's
    output when it stopped without them."""
    result = folder / "result.json"
    deadline = time.monotonic() + timeout
    while not result.exists():
        with (folder / "running").open("a") as running:
            # The process holds this lock until it has written the result, so taking it
            # without the result means the process is gone.
            try:
                fcntl.flock(running, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                pass
            else:
                if not result.exists():
                    pytest.fail(f"the background audits stopped:\n{_log(folder)}")
                break
        if time.monotonic() > deadline:
            pytest.fail(f"the background audits took over {timeout:.0f} s:\n{_log(folder)}")
        time.sleep(0.2)
    found = json.loads(result.read_text(encoding="utf-8"))
    if "error" in found:
        pytest.fail(f"the background audits failed:\n{found['error']}\n{_log(folder)}")
    jobs = {
        key: Audit(**{**job, "audits": tuple(job["audits"])}) for key, job in found["jobs"].items()
    }
    shared = folder / "shared"
    reports = {key: json.loads((shared / f"{key}.json").read_text("utf-8")) for key in jobs}
    return jobs, reports, float(found["seconds"])


def _log(folder: Path) -> str:
    log = folder / "log.txt"
    return log.read_text("utf-8", errors="replace")[-4000:] if log.exists() else ""


if __name__ == "__main__":
    main(Path(sys.argv[1]))
