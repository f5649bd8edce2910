"""Browser-test plumbing: serve a directory on loopback and drive Debian's Chromium.

Playwright launches ``/usr/bin/chromium`` (never a downloaded browser) with the
flags that keep it from reaching for hosts this machine cannot reach.
"""

from __future__ import annotations

import functools
import http.server
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

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
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def serve_directory(directory: Path, prefix: str = "/", port: int = 0) -> Iterator[str]:
    """Serve ``directory`` at ``http://127.0.0.1:<port><prefix>``; yields that base URL.

    With a prefix such as ``/blog/`` the files appear only under it, as on a
    GitHub project site, so links that forget the base path 404. ``port`` 0
    picks a free one; pass ``free_port()`` when the site must be built for
    its address first (canonical URLs, robots.txt).
    """
    root = directory.resolve()

    class Handler(_QuietHandler):
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
    """A loopback port that was free a moment ago (the OS does not hand it out again at once)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def chromium(**context_options: Any) -> Iterator[Any]:
    """A Playwright browser context on Debian's Chromium."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context(**context_options)
        try:
            yield context
        finally:
            context.close()
            browser.close()
