"""Rendered posts in one SQLite file, ``.cache/render.db``, instead of a file per post.

Creating files is the slowest thing a cold build does on some file systems
(ext4 without a journal scans past every recently deleted inode on each
create, so ``rm -rf .cache && build`` paid for every entry twice). One
database file costs one create, and SQLite (the standard library's
``sqlite3``) reuses the space of pruned entries.

Only the main process writes; workers read (a post's previous render, for its
fragment memo). WAL mode lets those reads run while the main process is in the
middle of writing. Each entry is a checksummed pickle (``store.dump_entry``): a
row that fails verification is deleted and reported as a miss, and a database
SQLite cannot read is deleted and started afresh, so a damaged cache costs
time, never a wrong page.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from site_builder.incremental.store import load_entry

if TYPE_CHECKING:
    import sqlite3

_SCHEMA = "CREATE TABLE IF NOT EXISTS render (key TEXT PRIMARY KEY, data BLOB NOT NULL)"


class RenderStore:
    """``key -> verified pickle``; every method degrades to a miss or a no-op on any error."""

    def __init__(self, path: Path, enabled: bool = True) -> None:
        self.path = path
        self.enabled = enabled
        self._conn: sqlite3.Connection | None = None
        self._pid = 0  # the process that opened _conn: a forked worker opens its own

    def __getstate__(self) -> dict[str, Any]:
        """Sent to spawned workers without the connection: each process opens its own."""
        return {**self.__dict__, "_conn": None, "_pid": 0}

    def _connect(self) -> sqlite3.Connection | None:
        if not self.enabled:
            return None
        if self._conn is not None and self._pid == os.getpid():
            return self._conn
        import sqlite3  # only builds that render or reuse a render pay for it

        def open_database() -> sqlite3.Connection:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            conn.execute("PRAGMA journal_mode=WAL")
            # A cache: losing the last writes in a power cut costs a re-render, not a page.
            conn.execute("PRAGMA synchronous=OFF")
            conn.execute(_SCHEMA)
            return conn

        try:
            conn = open_database()
        except (sqlite3.Error, OSError):
            self._discard()  # unreadable: start again from an empty database
            try:
                conn = open_database()
            except (sqlite3.Error, OSError):
                self.enabled = False  # unusable here (read-only disk?): build without it
                return None
        self._conn, self._pid = conn, os.getpid()
        return conn

    def _discard(self) -> None:
        """Delete a database SQLite cannot read (and its WAL), so the next open starts clean."""
        self._conn = None
        for suffix in ("", "-wal", "-shm"):
            with contextlib.suppress(OSError):
                Path(f"{self.path}{suffix}").unlink()

    def get(self, key: str) -> Any | None:
        import sqlite3

        conn = self._connect()
        if conn is None:
            return None
        try:
            row = conn.execute("SELECT data FROM render WHERE key = ?", (key,)).fetchone()
        except sqlite3.DatabaseError:
            return None
        if row is None:
            return None
        try:
            return load_entry(bytes(row[0]), key)
        except Exception:  # corrupt, or pickled by an incompatible version: drop the row
            with contextlib.suppress(sqlite3.Error):
                conn.execute("DELETE FROM render WHERE key = ?", (key,))
            return None

    def put(self, key: str, entry: bytes) -> None:
        """Store an entry made by ``store.dump_entry(value, key)`` (the workers pickle, the main
        process writes)."""
        import sqlite3

        conn = self._connect()
        if conn is None:
            return
        try:
            conn.execute("INSERT OR REPLACE INTO render (key, data) VALUES (?, ?)", (key, entry))
        except sqlite3.DatabaseError:
            self._discard()

    def prune(self, keep: Iterable[str]) -> None:
        """Drop entries no build output refers to any more, so the cache does not grow."""
        import sqlite3

        conn = self._connect()
        if conn is None:
            return
        live = set(keep)
        try:
            stale = [k for (k,) in conn.execute("SELECT key FROM render") if k not in live]
            with conn:
                conn.executemany("DELETE FROM render WHERE key = ?", ((k,) for k in stale))
        except sqlite3.DatabaseError:
            self._discard()

    def close(self) -> None:
        if self._conn is None:
            return
        import sqlite3

        if self._pid == os.getpid():
            with contextlib.suppress(sqlite3.Error):
                self._conn.close()
        self._conn = None
