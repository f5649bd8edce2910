"""The dev server's HTTP side: the files of ``public/`` as they will deploy, with the
reload script injected into each HTML response, and ``/__reload``, where each open
page waits (Server-Sent Events) for the next build's outcome (``LiveState``).

The writer swaps the output directory atomically, so every request resolves its
file from the output *path* anew; a request landing in the instant between the two
renames waits briefly instead of failing.
"""

from __future__ import annotations

import html
import http.server
import json
import sys
import threading
import time
from pathlib import Path
from typing import Any

from site_builder.errors import BuildError

RELOAD_PATH = "/__reload"
OVERLAY_ID = "__site_builder_error"
# The script is its own file (package data); the server adds the page's build number.
RELOAD_JS = (Path(__file__).parent / "livereload.js").read_text(encoding="utf-8")


class LiveState:
    """The latest build's outcome; handlers wait on it for the next one."""

    def __init__(self) -> None:
        self.changed = threading.Condition()
        self.generation = 0
        self.error: str | None = None
        self.closing = False

    def publish(self, error: str | None) -> None:
        with self.changed:
            self.generation += 1
            self.error = error
            self.changed.notify_all()

    def wait(self, seen: int | None, timeout: float) -> tuple[int, str | None]:
        """Block until a build newer than ``seen`` is published (or ``timeout`` passes)."""
        with self.changed:
            self.changed.wait_for(lambda: self.generation != seen or self.closing, timeout)
            return self.generation, self.error

    def close(self) -> None:
        with self.changed:
            self.closing = True
            self.changed.notify_all()


def inject(html: bytes, generation: int) -> bytes:
    """Put the reload script before the last ``</body>`` (or at the end of a fragment),
    telling it which build the page came from."""
    script = (
        f'<script data-generation="{generation}" data-events="{RELOAD_PATH}" '
        f'data-overlay="{OVERLAY_ID}">{RELOAD_JS}</script>'
    ).encode()
    index = html.lower().rfind(b"</body>")
    return html + script if index < 0 else html[:index] + script + html[index:]


def error_page(message: str) -> bytes:
    """Shown when there is no successful build to serve at all; the script keeps it live."""
    body = (
        "<!doctype html><meta charset=utf-8><title>Build failed</title>"
        f"<body><pre>{html.escape(message) or 'Nothing built yet.'}</pre></body>"
    )
    return body.encode("utf-8")


class Handler(http.server.SimpleHTTPRequestHandler):
    """Static files from the output path, plus HTML with the reload script, plus ``/__reload``."""

    state: LiveState
    out: Path
    generation = 0  # the build the page being sent came from

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, directory=str(self.out), **kwargs)

    def log_message(self, format: str, *args: Any) -> None:
        pass  # the terminal is for build results and errors

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def do_GET(self) -> None:
        if self.path.split("?", 1)[0] == RELOAD_PATH:
            self._events()
            return
        self._wait_for_output()
        # Read before the file: the page is at least this new, so a later build reloads it.
        self.generation = self.state.generation
        target = Path(self.translate_path(self.path))
        try:
            if target.is_dir() and self.path.split("?", 1)[0].endswith("/"):
                target = target / "index.html"
            page = target.read_bytes() if target.suffix == ".html" and target.is_file() else None
            found = page is not None or target.exists()
        except OSError:  # a 6,000-character path (ENAMETOOLONG), a file that went: not found
            page, found = None, False
        if page is not None:
            self._send_html(200, page)
        elif found:
            super().do_GET()
        elif (self.out / "404.html").is_file():
            self._send_html(404, (self.out / "404.html").read_bytes())
        else:
            self._send_html(500 if self.state.error else 404, error_page(self.state.error or ""))

    def _wait_for_output(self) -> None:
        """Between the writer's two renames the output path is briefly missing.

        Only worth waiting for after a good build: a failed one never swaps.
        """
        if not self.state.generation or self.state.error is not None:
            return
        deadline = time.monotonic() + 2.0
        while not self.out.exists() and time.monotonic() < deadline:
            time.sleep(0.02)

    def _send_html(self, status: int, html: bytes) -> None:
        body = inject(html, self.generation)
        self.send_response(status)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _events(self) -> None:
        """Server-Sent Events: the current build at once, then each new one; pings keep it open."""
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        seen: int | None = None
        try:
            self.wfile.write(b"retry: 500\n\n")
            while not self.state.closing:
                generation, error = self.state.wait(seen, timeout=10)
                if generation != seen:
                    data = json.dumps({"generation": generation, "error": error})
                    self.wfile.write(f"event: build\ndata: {data}\n\n".encode())
                    seen = generation
                else:
                    self.wfile.write(b": ping\n\n")
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass


class DevServer(http.server.ThreadingHTTPServer):
    """A thread per request, a listen backlog that holds a page's burst of requests
    (``socketserver``'s default of 5 made the 200th of 200 simultaneous requests
    wait for retransmits, up to 30 s), and one line per failed request instead of
    a traceback."""

    daemon_threads = True
    request_queue_size = 1024

    def handle_error(self, request: Any, client_address: Any) -> None:
        exc = sys.exc_info()[1]
        if isinstance(exc, ConnectionError | TimeoutError):
            return  # the browser went away mid-response (a reload, a closed tab): not news
        print(f"{client_address[0]}: request failed: {exc!r}", file=sys.stderr, flush=True)


def make_server(host: str, port: int, handler: type[Handler]) -> DevServer:
    """Bind ``host:port``, IPv4 or IPv6; any problem is one line (a BuildError) naming it."""
    import errno
    import socket

    where = f"{host}:{port}"
    if not 0 <= port <= 65535:
        raise BuildError(where, None, "--port must be between 1 and 65535 (e.g. --port 8000)")
    try:
        family = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM)[0][0]
    except (socket.gaierror, UnicodeError) as exc:
        raise BuildError(where, None, f"cannot use --host {host!r}: {exc}") from None

    class Server(DevServer):
        address_family = family

    try:
        return Server((host, port), handler)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            hint = f"port {port} is in use; choose another with --port {port + 1}"
            raise BuildError(where, None, f"{hint} (make serve PORT={port + 1})") from None
        raise BuildError(where, None, f"cannot listen here: {exc.strerror or exc}") from None


def shown_url(host: str, port: int) -> tuple[str, str | None]:
    """(the URL to build for and print, a URL other machines can use when listening on all)."""
    if host in ("", "0.0.0.0", "::"):
        local = f"http://127.0.0.1:{port}/"
        return local, _network_url(port)
    return (f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"), None


def _network_url(port: int) -> str | None:
    """This machine's address on its network (the interface a packet out would use; a UDP
    ``connect`` sends nothing), for ``--host 0.0.0.0``: 127.0.0.1 only works here."""
    import socket

    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere real
            address = str(probe.getsockname()[0])
    except OSError:
        return None
    return (
        None if address.startswith("127.") or address == "0.0.0.0" else f"http://{address}:{port}/"
    )
