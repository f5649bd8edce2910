"""The dev server, as a user runs it: a subprocess on a copy of the test blog.

It must serve the build, pick up an edit, report a broken post in the terminal
and over ``/__reload`` while staying up, recover when the post is fixed, and
stop cleanly on Ctrl-C. The reload script is served, never written to public/.
"""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from site_builder.serve_http import OVERLAY_ID, RELOAD_PATH, inject
from tests.browser import free_port
from tests.conftest import SITES, make_site

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 30.0


@dataclass
class Server:
    process: subprocess.Popen[str]
    base: str
    site: Path
    stdout: list[str] = field(default_factory=list)
    stderr: list[str] = field(default_factory=list)

    def get(self, path: str) -> tuple[int, str]:
        try:
            with urllib.request.urlopen(self.base + path, timeout=5) as response:
                return response.status, response.read().decode("utf-8")
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode("utf-8")


def wait_for(condition: Callable[[], object], what: str, timeout: float = TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if condition():
                return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def _pump(stream: object, into: list[str]) -> None:
    for line in stream:  # type: ignore[attr-defined]
        into.append(line)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    site = make_site(tmp_path / "site", SITES / "blog")
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "site_builder", "-C", str(site), "serve", "--port", str(port)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    running = Server(process, f"http://127.0.0.1:{port}", site)
    for stream, into in ((process.stdout, running.stdout), (process.stderr, running.stderr)):
        threading.Thread(target=_pump, args=(stream, into), daemon=True).start()
    try:
        wait_for(lambda: running.get("/")[0] == 200, "the first build to be served")
        yield running
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=10)


class Events:
    """Reads ``/__reload`` in a thread and keeps every ``build`` event it sees."""

    def __init__(self, url: str) -> None:
        self.seen: list[dict[str, object]] = []
        self.response = urllib.request.urlopen(url, timeout=TIMEOUT)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            for raw in self.response:
                line = raw.decode("utf-8").strip()
                if line.startswith("data: "):
                    self.seen.append(json.loads(line[len("data: ") :]))
        except (OSError, ValueError):
            pass


def test_serve_rebuilds_reports_errors_recovers_and_stops(server: Server) -> None:
    post = server.site / "content/posts/hello-world.md"
    original = post.read_text()

    status, html = server.get("/posts/hello-world/")
    assert status == 200 and RELOAD_PATH in html and OVERLAY_ID in html
    assert f'<link rel="canonical" href="{server.base}/posts/hello-world/">' in html
    served = server.site / ".cache" / "serve"  # serve's own output, never public/
    pages = list(served.rglob("*.html"))
    assert pages and not (server.site / "public").exists()
    for page in pages:
        assert RELOAD_PATH not in page.read_text(), page
    assert server.get("/static/css/site.css")[0] == 200
    status, missing = server.get("/no/such/page/")
    assert status == 404 and "Page not found" in missing and RELOAD_PATH in missing

    events = Events(server.base + RELOAD_PATH)
    wait_for(lambda: events.seen, "the current build over /__reload")
    first = events.seen[0]
    assert first["error"] is None
    # The page says which build it came from, so one that finishes while the page loads
    # (before its event stream connects) still reloads it.
    assert f'data-generation="{first["generation"]}"' in html

    post.write_text(original + "\nFRESHLY-EDITED text.\n")
    wait_for(lambda: "FRESHLY-EDITED" in server.get("/posts/hello-world/")[1], "the edit")
    wait_for(lambda: any(e["generation"] != first["generation"] for e in events.seen), "reload")

    post.write_text(original.replace("date: 2025-03-10", "date: someday"))
    wait_for(lambda: any(e["error"] for e in events.seen), "the error over /__reload")
    error = next(e["error"] for e in events.seen if e["error"])
    assert "content/posts/hello-world.md:3: invalid date 'someday'" in str(error)
    wait_for(lambda: any("hello-world.md:3:" in line for line in server.stderr), "stderr")
    wait_for(lambda: any("Build failed: 1 error;" in line for line in server.stderr), "summary")
    assert server.process.poll() is None
    assert "FRESHLY-EDITED" in server.get("/posts/hello-world/")[1]  # the last good build

    post.write_text(original + "\nFIXED-AGAIN text.\n")
    wait_for(lambda: "FIXED-AGAIN" in server.get("/posts/hello-world/")[1], "recovery")
    # The page can be served a moment before the build's event goes out.
    wait_for(lambda: events.seen[-1]["error"] is None, "the recovered build over /__reload")

    server.process.send_signal(signal.SIGINT)
    assert server.process.wait(timeout=15) == 0
    time.sleep(0.2)
    assert "Traceback" not in "".join(server.stderr)
    assert any("Stopped." in line for line in server.stdout)


def test_serve_watches_templates_and_site_yaml(server: Server) -> None:
    yaml_path = server.site / "site.yaml"
    yaml_path.write_text(yaml_path.read_text().replace("title: Test Blog", "title: Renamed Blog"))
    wait_for(lambda: "Renamed Blog" in server.get("/")[1], "site.yaml change")
    template = server.site / "templates/tags.html"
    template.write_text(template.read_text().replace(">Tags</h1>", ">All the tags</h1>"))
    wait_for(lambda: "All the tags" in server.get("/tags/")[1], "template change")


@pytest.mark.browser
def test_open_page_reloads_and_shows_errors(server: Server) -> None:
    from tests.browser import chromium

    post = server.site / "content/posts/hello-world.md"
    original = post.read_text()
    with chromium() as context:
        page = context.new_page()
        page.goto(server.base + "/posts/hello-world/")
        page.wait_for_function("document.readyState === 'complete'")
        time.sleep(0.5)  # let the EventSource connect
        post.write_text(original + "\nLIVE-RELOADED paragraph.\n")
        page.wait_for_selector("text=LIVE-RELOADED", timeout=TIMEOUT * 1000)
        time.sleep(0.5)
        post.write_text(original.replace("date: 2025-03-10", "date: someday"))
        overlay = page.wait_for_selector(f"#{OVERLAY_ID}", timeout=TIMEOUT * 1000)
        assert overlay is not None
        assert "hello-world.md:3: invalid date" in overlay.inner_text()
        post.write_text(original + "\nBACK-TO-NORMAL paragraph.\n")
        page.wait_for_selector("text=BACK-TO-NORMAL", timeout=TIMEOUT * 1000)
        assert page.query_selector(f"#{OVERLAY_ID}") is None


def test_serve_starts_even_when_the_first_build_fails(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site", SITES / "blog")
    post = site / "content/posts/old-notes.md"
    original = post.read_text()
    post.write_text(original.replace("date: 2024-12-31", "date: soon"))
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "site_builder", "-C", str(site), "serve", "--port", str(port)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    running = Server(process, f"http://127.0.0.1:{port}", site)  # type: ignore[arg-type]
    try:
        wait_for(lambda: running.get("/")[0] == 500, "the error page")
        html = running.get("/")[1]
        assert "content/posts/old-notes.md:3: invalid date" in html and RELOAD_PATH in html
        post.write_text(original)
        wait_for(lambda: running.get("/")[0] == 200, "recovery")
    finally:
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=15) == 0


def test_reload_script_knows_the_build_the_page_came_from() -> None:
    page = inject(b"<html><body><p>x</p></body></html>", 7)
    assert page.endswith(b"</script></body></html>")
    assert b'data-generation="7"' in page and b"state.generation !== served" in page


def test_serve_watches_a_content_folder_made_again(server: Server) -> None:
    """A watch follows the folder it was set on: after ``content/`` was deleted and made
    again, edits went unseen and nothing was printed."""
    time.sleep(5.5)  # past the first seconds, when the builder also polls the files
    content = server.site / "content"
    saved = server.site.parent / "saved-content"
    shutil.copytree(content, saved)
    shutil.rmtree(content)
    time.sleep(0.5)
    shutil.copytree(saved, content)
    time.sleep(1.0)  # the folder is watched anew
    post = content / "posts/hello-world.md"
    post.write_text(post.read_text() + "\nMADE-AGAIN paragraph.\n")
    wait_for(lambda: "MADE-AGAIN" in server.get("/posts/hello-world/")[1], "an edit after")
