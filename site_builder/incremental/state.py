"""The one state store, ``.cache/state.db`` (SQLite): what the last build did, per output.

Tables, each row scoped by the output directory (``serve`` and ``build`` write
different ones and must not evict each other):

* ``output``: every file the last build wrote: path -> the key it was made from,
  its size and modification time, and its owner (the post's source path, or a
  site-wide group such as ``listings``). Page reuse asks it whether a file is
  still the one written from the same key; the no-op check (``noop``) stats
  the same rows; a post or group is reused with every row it owns, so a new
  per-post output file survives an incremental build without anyone teaching
  the reuse about it.
* ``build``: one checksummed pickle per output: the parsed posts (file records),
  each post's keys and summary, the groups' keys, the plan's context.
* ``noop``: the inputs the last good CLI build saw (``noop`` reads and writes it alone).
* ``render``: rendered posts by render key, shared by every output.

One database file costs one create (creating files is the slowest thing a cold
build does on some file systems), and WAL mode lets workers read renders while
the main process writes. Every blob is checksummed (``entries.dump_entry``); a row
that fails is deleted and reported as a miss, and a database SQLite cannot read
is deleted and started afresh, so a damaged store costs time, never a wrong page.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from site_builder.incremental.entries import dump_entry, load_entry
from site_builder.incremental.keys import code_version
from site_builder.writer import OutputEntry, inside

if TYPE_CHECKING:
    import sqlite3

SCHEMA = """
CREATE TABLE IF NOT EXISTS render (key TEXT PRIMARY KEY, data BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS output (
    out TEXT, path TEXT, key TEXT, size INTEGER, mtime_ns INTEGER, owner TEXT,
    PRIMARY KEY (out, path)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS build (out TEXT PRIMARY KEY, data BLOB NOT NULL);
"""


@dataclass
class LastBuild:
    """What the previous build into one output left: its files (the ``output`` table)
    and the ``build`` row."""

    outputs: dict[str, OutputEntry] = field(default_factory=dict)
    summaries: dict[str, Any] = field(default_factory=dict)  # render key -> PostSummary
    render_keys: dict[str, str] = field(default_factory=dict)  # post path -> its render key
    page_keys: dict[str, str] = field(default_factory=dict)  # post path -> its page's key
    plan_context: str = ""  # see plan.plan_jobs
    records: dict[str, Any] = field(default_factory=dict)  # post path -> content.FileRecord
    groups: dict[str, str] = field(default_factory=dict)  # site-wide group -> its input key
    _owned: dict[str, list[str]] | None = field(default=None, repr=False, compare=False)

    def owned(self, owner: str) -> list[str]:
        """The files a post (by its source path) or a group wrote."""
        if self._owned is None:
            self._owned = {}
            for rel, entry in self.outputs.items():
                self._owned.setdefault(entry.owner, []).append(rel)
        return self._owned.get(owner, [])


class StateStore:
    """``.cache/state.db``; every method degrades to a miss or a no-op on any error."""

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

        try:
            conn = connect(self.path)
        except (sqlite3.Error, OSError):
            self._discard()  # unreadable: start again from an empty database
            try:
                conn = connect(self.path)
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

    # -- the last build -------------------------------------------------------------------

    def load(self, out: Path) -> LastBuild:
        """The last build into ``out``, or an empty one when anything about it is doubtful."""
        import sqlite3

        conn = self._connect()
        if conn is None:
            return LastBuild()
        try:
            row = conn.execute("SELECT data FROM build WHERE out = ?", (str(out),)).fetchone()
            if row is None:
                return LastBuild()
            last = load_entry(bytes(row[0]), f"build/{out}")
            if not isinstance(last, tuple) or last[0] != code_version():
                return LastBuild()  # another version of the code: nothing it says can be trusted
            rows = conn.execute(
                "SELECT path, key, size, mtime_ns, owner FROM output WHERE out = ?", (str(out),)
            )
            outputs = {
                path: OutputEntry(key, size, mtime, owner) for path, key, size, mtime, owner in rows
            }
            if not all(inside(path) for path in outputs):  # damaged: would delete outside out
                return LastBuild()
            return LastBuild(outputs, *last[1:])
        except sqlite3.DatabaseError:
            self._discard()
        except Exception:  # a blob that fails its checksum or does not unpickle
            pass
        return LastBuild()

    def save(self, out: Path, last: LastBuild, previous: dict[str, OutputEntry]) -> None:
        """Record this build: the rows that changed since ``previous``, and the build row."""
        import sqlite3

        conn = self._connect()
        if conn is None:
            return
        where = str(out)
        outputs = last.outputs
        blob = (
            code_version(),
            last.summaries,
            last.render_keys,
            last.page_keys,
            last.plan_context,
            last.records,
            last.groups,
        )
        try:
            with conn:
                if not previous:  # no trusted record of the table's rows: start it afresh
                    conn.execute("DELETE FROM output WHERE out = ?", (where,))
                conn.executemany(
                    "DELETE FROM output WHERE out = ? AND path = ?",
                    ((where, rel) for rel in previous.keys() - outputs.keys()),
                )
                conn.executemany(
                    "INSERT OR REPLACE INTO output VALUES (?, ?, ?, ?, ?, ?)",
                    (
                        (where, rel, e.key, e.size, e.mtime_ns, e.owner)
                        for rel, e in outputs.items()
                        if previous.get(rel) != e
                    ),
                )
                conn.execute(
                    "INSERT OR REPLACE INTO build VALUES (?, ?)",
                    (where, dump_entry(blob, f"build/{out}")),
                )
        except sqlite3.DatabaseError:
            self._discard()

    # -- rendered posts -------------------------------------------------------------------

    def get_render(self, key: str) -> Any | None:
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

    def put_render(self, key: str, entry: bytes) -> None:
        """Store an entry made by ``entries.dump_entry(value, key)`` (the workers pickle, the
        main process writes)."""
        import sqlite3

        conn = self._connect()
        if conn is None:
            return
        try:
            conn.execute("INSERT OR REPLACE INTO render (key, data) VALUES (?, ?)", (key, entry))
        except sqlite3.DatabaseError:
            self._discard()

    def prune_renders(self, keep: Iterable[str]) -> None:
        """Drop renders no build output refers to any more, so the store does not grow."""
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


def connect(path: Path) -> sqlite3.Connection:
    """Open (and if need be create) the store."""
    import sqlite3

    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, timeout=30, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    # A cache: losing the last writes in a power cut costs a re-render, not a page.
    conn.execute("PRAGMA synchronous=OFF")
    conn.executescript(SCHEMA)
    return conn
