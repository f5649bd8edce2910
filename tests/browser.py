"""Browser-test plumbing: serve a directory on loopback and drive Debian's Chromium.

Playwright launches ``/usr/bin/chromium`` (never a downloaded browser) with the
flags that keep it from reaching for hosts this machine cannot reach.
"""

from __future__ import annotations

import contextlib
import functools
import gzip
import http.server
import io
import json
import os
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"
LIGHTHOUSE = ROOT / "node_modules" / "lighthouse"
LIGHTHOUSE_SCRIPT = ROOT / "tests" / "lighthouse.mjs"


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


# What GitHub Pages sends gzipped to a browser that asks (fonts and images it sends as is).
_TEXT = {"text/html", "text/css", "text/javascript", "application/javascript", "application/json"}


class _GzipHandler(_QuietHandler):
    """Text compressed as GitHub Pages compresses it, so Lighthouse's simulated slow network
    carries the bytes a reader's browser fetches, not the files' own size."""

    def send_head(self) -> Any:
        path = self.translate_path(self.path)
        if os.path.isdir(path) and self.path.split("?")[0].endswith("/"):
            path = os.path.join(path, "index.html")
        kind = self.guess_type(path)
        wanted = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (wanted and kind in _TEXT and os.path.isfile(path)):
            return super().send_head()
        with open(path, "rb") as file:
            data = gzip.compress(file.read(), compresslevel=6, mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        return io.BytesIO(data)


@contextmanager
def serve_directory(
    directory: Path,
    prefix: str = "/",
    port: int = 0,
    *,
    gzip_text: bool = False,
    delay: Callable[[str], float] | None = None,
) -> Iterator[str]:
    """Serve ``directory`` at ``http://127.0.0.1:<port><prefix>``; yields that base URL.

    With a prefix such as ``/blog/`` the files appear only under it, as on a
    GitHub project site, so links that forget the base path 404. ``port`` 0
    picks a free one. ``directory`` need not exist yet: a site built for its
    address (canonical URLs, robots.txt) is built after the server starts.
    ``gzip_text`` compresses HTML, CSS, JS and JSON as GitHub Pages does (for
    timings of the deployed site). ``delay`` gives the seconds to hold back the answer
    to a request's path, as a slow network would: each request has a thread of its own,
    so held-back files arrive together, as they would from a server.
    """
    root = directory.resolve()
    base = _GzipHandler if gzip_text else _QuietHandler

    class Handler(base):
        def send_head(self) -> Any:
            if delay is not None:
                time.sleep(delay(self.path))
            return super().send_head()

        def translate_path(self, path: str) -> str:
            if not path.startswith(prefix):
                return str(root / "__outside_prefix__")
            return super().translate_path("/" + path[len(prefix) :])

    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", port), functools.partial(Handler, directory=str(root))
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}{prefix}"
    finally:
        server.shutdown()
        server.server_close()


def free_port() -> int:
    """A loopback port that was free a moment ago, for a server another process starts."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def chromium(**context_options: Any) -> Iterator[Any]:
    """A fresh Playwright browser context on Debian's Chromium.

    One Chromium serves the whole test session: launching costs about a second, a
    new context (its own cookies, storage and viewport) about a fifth of that.
    """
    context = _browser().new_context(**context_options)
    try:
        yield context
    finally:
        context.close()


# A frame (and a task after it: what the page's scripts queued on load has run), style and
# layout forced so the web fonts in use are asked for, those fonts, and another frame (the
# script runs again when the fonts arrive, static/js/post.js). Ten seconds at most.
_SETTLED_JS = """async () => {
    const frame = () => new Promise(done => requestAnimationFrame(() => setTimeout(done, 0)));
    const settled = (async () => {
        await frame();
        void document.body.offsetHeight;
        await document.fonts.ready;
        await frame();
    })();
    const late = new Promise((_, fail) => setTimeout(() => fail(new Error('not settled')), 1e4));
    await Promise.race([settled, late]);
}"""


def load(page: Any, url: str) -> None:
    """Open ``url`` in ``page`` and wait until it is ready to measure: its load event, then
    a frame, its web fonts and another frame (``_SETTLED_JS``).

    Playwright's "networkidle" waits for 500 ms without a request on top of the load
    event: on these sites only the favicon comes after it. The tests that look at every
    request (or at the favicon) wait for the network instead (``load_quietly``), and so do
    pages without JavaScript, where nothing can be asked about the fonts."""
    page.goto(url, wait_until="load")
    page.evaluate(_SETTLED_JS)


def load_quietly(page: Any, url: str, quiet: float = 0.25, limit: float = 15) -> None:
    """Open ``url`` in ``page`` and wait until it has had no request in flight for ``quiet``
    seconds: for tests that look at every request a page makes, the ones after its load
    event too (the favicon, a script's fetch).

    Playwright's "networkidle" is the same wait with 500 ms of quiet, twice what these
    pages need: their last request starts within a few milliseconds of the one before.
    Raises ``TimeoutError`` when the network is still busy after ``limit`` seconds."""
    pending: set[Any] = set()
    last = time.monotonic()

    def started(request: Any) -> None:
        nonlocal last
        pending.add(request)
        last = time.monotonic()

    def ended(request: Any) -> None:
        nonlocal last
        pending.discard(request)
        last = time.monotonic()

    listeners = [("request", started), ("requestfinished", ended), ("requestfailed", ended)]
    for event, listener in listeners:
        page.on(event, listener)
    try:
        page.goto(url, wait_until="load")
        deadline = time.monotonic() + limit
        while pending or time.monotonic() - last < quiet:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{url}: still loading {[r.url for r in pending]}")
            page.wait_for_timeout(25)
    finally:
        for event, listener in listeners:
            page.remove_listener(event, listener)


_SESSION: list[Any] = []  # [playwright, browser] once launched


def _browser() -> Any:
    if not _SESSION or not _SESSION[1].is_connected():
        from playwright.sync_api import sync_playwright

        if _SESSION:  # Chromium went away (a crash): start again
            close_browser()
        playwright = sync_playwright().start()
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        _SESSION[:] = [playwright, browser]
    return _SESSION[1]


def close_browser() -> None:
    """Called once at the end of the session (``conftest.pytest_sessionfinish``)."""
    if _SESSION:
        playwright, browser = _SESSION
        _SESSION.clear()
        with contextlib.suppress(Exception):
            browser.close()
        with contextlib.suppress(Exception):
            playwright.stop()


def require_chromium() -> None:
    """Skip a browser test, saying why, where Playwright or Debian's Chromium is missing."""
    import pytest

    pytest.importorskip("playwright", reason="browser tests need the playwright package")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"Debian's Chromium ({CHROMIUM}) is not installed")


class Audit(NamedTuple):
    """One Lighthouse run: ``url`` as a phone ("mobile") or a desktop ("desktop")."""

    url: str
    form: str
    audits: tuple[str, ...] = ()  # only these audit ids (with the gathering they need)
    calibrate: bool = False  # the CPU slowdown from this run's benchmark, not the form's 4x


def run_lighthouse(jobs: dict[str, Audit], tmp: Path) -> dict[str, Any]:
    """Lighthouse's JSON report for each of ``jobs``, by the same names.

    One Node process and one Chromium run the audits one after another
    (``tests/lighthouse.mjs``): the CLI spent about 4 s of each 11 s audit starting and
    stopping them. Called from ``tests/test_lighthouse.py`` alone: two audits at once
    would share the CPU and skew the performance score.
    """
    tmp.mkdir(parents=True, exist_ok=True)
    specs = [
        {
            "url": job.url,
            "form": job.form,
            "out": str(tmp / f"{name}.json"),
            "audits": job.audits,
            "calibrate": job.calibrate,
        }
        for name, job in jobs.items()
    ]
    listing = tmp / "jobs.json"
    listing.write_text(json.dumps(specs), encoding="utf-8")
    env = {**os.environ, "CHROME_PATH": CHROMIUM, "CHROME_FLAGS": json.dumps(CHROMIUM_ARGS)}
    done = subprocess.run(
        ["node", str(LIGHTHOUSE_SCRIPT), str(listing)],
        env=env,
        timeout=60 + 60 * len(specs),
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        raise RuntimeError(f"Lighthouse failed ({done.returncode}):\n{done.stderr}")
    return {name: json.loads((tmp / f"{name}.json").read_text("utf-8")) for name in jobs}
