"""The no-op check: decide from file metadata alone that the output is already up to date.

Without it, a rebuild with nothing to do still imported the renderers and walked
the site model of every post to find nothing changed, most of a no-op's time.
After a successful build the CLI saves a row in the state store
(``.cache/state.db``): the size and modification time of every input
the build could have read (``site.yaml`` and every file under ``content/``,
``templates/``, ``static/``, ``fonts/`` and ``widgets/``, including the font shipped with the
package, and the package's own source), the options that shape the output, and when the
next scheduled post falls due. The size and modification time of every file
written are the store's ``output`` table, the same rows page reuse reads. The
next run compares; if nothing differs, the output is exactly what a build would
write and nothing else is imported.

It errs towards building: any doubt (a missing or unreadable row, a build
that warned, a bibliography outside ``content/``, an interrupted commit beside
the output, ``SOURCE_DATE_EPOCH`` moved back) means the full incremental build
runs, which has its own checks. Only ``os``, ``marshal`` and ``sqlite3``.
"""

from __future__ import annotations

import contextlib
import marshal
import os
from collections.abc import Iterable
from contextlib import closing
from pathlib import Path

from site_builder import inputs
from site_builder.clock import reference_seconds
from site_builder.incremental.keys import PACKAGE, code_stamp

STAGING_PREFIX = ".staging-"  # writer.STAGING_PREFIX: an interrupted build leaves these


def _tree(root: str, into: list[object]) -> None:
    """Name, size and mtime of every file and folder under ``root``, in a stable order."""
    try:
        entries = sorted(os.scandir(root), key=lambda e: e.name)
    except (FileNotFoundError, NotADirectoryError):
        into.append(f"missing {root}")
        return
    for entry in entries:
        if entry.is_dir(follow_symlinks=True):
            into.append(f"dir {entry.path}")
            _tree(entry.path, into)
        else:
            into.append(_stat(entry.path))


def _stat(path: str) -> object:
    try:
        stat = os.stat(path)
    except OSError:
        return f"missing {path}"
    return (path, stat.st_size, stat.st_mtime_ns)


class Snapshot:
    """The inputs as they are now (taken before the build reads any of them)."""

    def __init__(self, root: Path, out: Path, options: Iterable[object]) -> None:
        self.out = out
        self.path = root / ".cache" / "state.db"  # the state store (``state``)
        parts: list[object] = [code_stamp(), str(out), *options]
        parts += [_stat(str(root / name)) for name in inputs.FILES]
        for name in inputs.FOLDERS:
            _tree(str(root / name), parts)
        _tree(str(PACKAGE / "data"), parts)  # the math font's packaged copy
        # Compared whole (tens of bytes a file): no hash, so no hashlib to import. Format 2
        # writes no back-references, whose presence depends on the process's refcounts.
        self.inputs = marshal.dumps(parts, 2)
        self.now = reference_seconds()

    def unchanged(self) -> tuple[int, int] | None:
        """(pages, posts) of the last build if it is still exactly up to date, else None."""
        import sqlite3

        try:
            if self.now is None or any(
                n.startswith(f"{STAGING_PREFIX}{self.out.name}")
                for n in os.listdir(self.out.parent)
            ):
                return None  # an interrupted commit: the build finishes it
            uri = f"{self.path.as_uri()}?mode=ro"
            with contextlib.closing(sqlite3.connect(uri, uri=True)) as db:
                row = db.execute(_LAST, (str(self.out),)).fetchone()
                if row is None or row[0] != self.inputs or self.now < row[1]:
                    return None
                if row[2] is not None and self.now >= row[2]:
                    return None  # a scheduled post is due now
                files = db.execute(_FILES, (str(self.out),)).fetchall()
            prefix = os.path.join(self.out, "")
            for rel, size, mtime_ns in files:
                stat = os.stat(prefix + rel)
                if stat.st_size != size or stat.st_mtime_ns != mtime_ns:
                    return None
            return int(row[3]), int(row[4])
        except (OSError, ValueError, TypeError, sqlite3.Error):
            return None

    def save(self, pages: int, posts: int, next_due: float | None) -> None:
        """Record a successful build made from these inputs (its files are in the store's
        ``output`` table already: the build wrote them there)."""
        if self.now is None:
            return
        import sqlite3

        row = (str(self.out), self.inputs, self.now, next_due, pages, posts)
        with contextlib.suppress(OSError, sqlite3.Error):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with contextlib.closing(sqlite3.connect(self.path, timeout=30)) as db, db:
                db.execute(_SCHEMA)
                db.execute("INSERT OR REPLACE INTO noop VALUES (?, ?, ?, ?, ?, ?)", row)

    def discard(self) -> None:
        """Forget the last build's row (this build cannot vouch for its output)."""
        import sqlite3

        connect = sqlite3.connect
        with contextlib.suppress(OSError, sqlite3.Error), closing(connect(self.path)) as db, db:
            db.execute(_SCHEMA)
            db.execute("DELETE FROM noop WHERE out = ?", (str(self.out),))


_SCHEMA = """CREATE TABLE IF NOT EXISTS noop (out TEXT PRIMARY KEY, inputs BLOB, built_at REAL,
    next_due REAL, pages INTEGER, posts INTEGER)"""
_LAST = "SELECT inputs, built_at, next_due, pages, posts FROM noop WHERE out = ?"
_FILES = "SELECT path, size, mtime_ns FROM output WHERE out = ?"
