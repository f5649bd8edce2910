"""Pagefind's service mode, driven from memory: one process indexes every shard of a build.

Pages reach Pagefind as messages on its standard input (base64 JSON, each ended by a
comma) and each index comes back the same way, so no page is written to disk and read
back, one process serves all the shards of a build, and Pagefind numbers the pages in
the order they are sent. Its command line numbers them in the order it walks a folder,
which is the file system's (tmpfs lists files newest first, ext4 by a hash seeded per
file system), so the same posts could give another index on another machine.

The ``pagefind`` package's own client is not used, for two faults in 1.5.2: it sleeps
0.1 s before reading each reply (100 s for a thousand posts), and it reads a reply with
a 2 MiB limit, past which its reader task dies in silence and every request still
waiting waits forever. A shard's files come back as one reply of several MiB: that was
the hang. Here a thread drains the replies as they come, whatever their size.
"""

from __future__ import annotations

import base64
import json
import os
import queue
import subprocess
import tempfile
import threading
from collections.abc import Sequence
from typing import IO, Any

from site_builder.errors import BuildError


class Indexer:
    """A ``pagefind --service`` process: :meth:`index` makes one index, :meth:`close` ends it."""

    def __init__(self, language: str, exclude: Sequence[str]) -> None:
        from pagefind_bin import get_executable

        self.config = {"force_language": language, "exclude_selectors": list(exclude)}
        # What Pagefind prints goes to a file, read only for a failure's message (a pipe
        # nobody reads could fill and stop it); it lives as long as the process.
        self._stderr: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115
        try:
            self._process = subprocess.Popen(
                [str(get_executable()), "--service"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr,
            )
        except OSError as exc:
            self._stderr.close()
            raise BuildError("search", None, f"pagefind failed to start: {exc}") from None
        self._replies: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self._sent = 0
        self._received = 0
        self._indexes = 0
        self.pending = 0  # pages sent whose index is not received yet

    def index(self, pages: Sequence[tuple[str, str]]) -> dict[str, bytes]:
        """Every file of one index of ``pages`` (site URL, HTML), by path relative to it."""
        return self.receive(self.send(pages))

    def send(self, pages: Sequence[tuple[str, str]]) -> tuple[int, int]:
        """Ask for an index of ``pages`` without waiting for it (Pagefind works meanwhile);
        :meth:`receive` gets it, indexes being received in the order they were sent."""
        index = self._indexes  # the service numbers its indexes 0, 1, 2, ...
        self._indexes += 1
        self._send({"type": "NewIndex", "config": self.config})
        for url, html in pages:
            self._send({"type": "AddFile", "index_id": index, "url": url, "file_contents": html})
        self._send({"type": "GetFiles", "index_id": index})
        self._send({"type": "DeleteIndex", "index_id": index})  # frees its memory
        self.pending += len(pages)
        return index, len(pages)

    def receive(self, ticket: tuple[int, int]) -> dict[str, bytes]:
        index, count = ticket
        if self._reply()["index_id"] != index:
            raise self._failed("pagefind numbered its indexes in another way")
        for _ in range(count):
            self._reply()
        files = self._reply()["files"]
        self._reply()
        self.pending -= count
        return {file["path"]: base64.b64decode(file["content"]) for file in files}

    def close(self) -> None:
        """End the process (it exits when its input closes) and drop what it printed."""
        try:
            if self._process.stdin is not None:
                self._process.stdin.close()
        except OSError:
            pass  # it died already: an error was raised where that showed
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        self._stderr.close()

    def _send(self, payload: dict[str, Any]) -> None:
        self._sent += 1
        message = json.dumps({"message_id": self._sent, "payload": payload}).encode("utf-8")
        assert self._process.stdin is not None
        try:
            self._process.stdin.write(base64.b64encode(message) + b",")
            self._process.stdin.flush()
        except OSError:
            raise self._failed("pagefind stopped") from None

    def _reply(self) -> dict[str, Any]:
        """The reply to the next message: the service answers each, in order."""
        self._received += 1
        number = self._received
        raw = self._replies.get()
        if raw is None:
            raise self._failed("pagefind stopped")
        reply = json.loads(base64.b64decode(raw))
        payload: dict[str, Any] = reply["payload"]
        if payload.get("type") == "Error" or reply.get("message_id") != number:
            raise self._failed(f"pagefind failed: {payload.get('message', payload)}")
        return payload

    def _read(self) -> None:
        """Split the service's output into replies (base64 never holds a comma); a reply
        of several MiB arrives in many pieces, joined once."""
        assert self._process.stdout is not None
        parts: list[bytes] = []
        out = self._process.stdout.fileno()
        while chunk := os.read(out, 1 << 20):
            *ends, rest = chunk.split(b",")
            for end in ends:
                self._replies.put(b"".join([*parts, end]))
                parts = []
            parts.append(rest)
        self._replies.put(None)

    def _failed(self, message: str) -> BuildError:
        """Stop the process after a failure; what it printed ends the message."""
        if self._process.poll() is None:
            self._process.kill()
            self._process.wait()
        self._stderr.seek(0)
        printed = self._stderr.read().decode("utf-8", "replace").strip()
        return BuildError("search", None, f"{message} {printed}".strip()[:500])
