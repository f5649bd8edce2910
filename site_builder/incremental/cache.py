"""The cache in ``.cache/``: small entries, a file each, and the state store (``state``).

Everything here is an optimisation that must never change a byte of output:

* Entries are keyed by a hash of their inputs *and* the code version (this
  package's source and the versions of the libraries that shape the HTML), so
  an upgrade or an edit to a renderer invalidates them.
* Every entry carries a SHA-256 of its payload and its key and is verified on
  read; a corrupt, truncated, unreadable or misplaced entry is deleted and
  recomputed, never used. Rendered posts and what the last build wrote are in
  ``state.StateStore`` (one SQLite file); the few other kinds are a file each.
* Output files are reused (hard-linked from the previous ``public/``) only when
  the state store says they were produced from the same key *and* the file is still
  the one we wrote (same size and modification time).
"""

from __future__ import annotations

import contextlib
import shutil
from pathlib import Path
from typing import Any

from site_builder.incremental.entries import dump_entry, load_entry
from site_builder.incremental.state import StateStore


def damage(directory: Path) -> str | None:
    """Why ``directory`` (``.cache``) cannot hold the cache, or None: a file in its place,
    a folder where the state store belongs, or no permission. Such a cache is not used
    (the build is slower, never wrong) and never deleted: it may not be ours."""
    import os

    state = directory / "state.db"
    try:
        if not directory.exists():
            return None
        if not directory.is_dir():
            return f"{directory.name} is not a folder"
        if state.exists() and not state.is_file():
            return f"{directory.name}/{state.name} is not a file"
        if not os.access(directory, os.R_OK | os.W_OK | os.X_OK):
            return f"{directory.name} cannot be written"
        if state.exists() and not os.access(state, os.R_OK | os.W_OK):
            return f"{directory.name}/{state.name} cannot be written"
    except OSError as exc:
        return f"{directory.name} cannot be read ({exc.strerror})"
    return None


class Cache:
    """A directory of verified pickles. ``enabled=False`` makes every lookup a miss."""

    def __init__(self, directory: Path, enabled: bool = True) -> None:
        self.directory = directory
        self.enabled = enabled
        self._made: set[Path] = set()  # directories known to exist (each mkdir is a syscall)
        self.state = StateStore(directory / "state.db", enabled)

    def _path(self, kind: str, key: str) -> Path:
        # Flat: one directory per kind. Creating directories is slow on some file
        # systems, and a few thousand entries in one directory are not.
        return self.directory / kind / key

    def get(self, kind: str, key: str) -> Any | None:
        if not self.enabled:
            return None
        path = self._path(kind, key)
        try:
            return load_entry(path.read_bytes(), f"{kind}/{key}")
        except FileNotFoundError:
            return None
        except Exception:  # corrupt or from an incompatible version: discard it
            with contextlib.suppress(OSError):  # a file where the kind's folder belongs: it
                (path.parent if path.parent.is_file() else path).unlink(missing_ok=True)
            return None

    def put(self, kind: str, key: str, value: Any) -> None:
        """Store an entry. Written in place, not via a temporary file and a rename: creating
        files is the slowest thing a cold build does, and a torn entry fails its checksum
        on read and is discarded, so atomicity buys nothing here."""
        if not self.enabled:
            return
        path = self._path(kind, key)
        with contextlib.suppress(OSError):  # a read-only or full disk costs speed, not the build
            if path.parent not in self._made:
                path.parent.mkdir(parents=True, exist_ok=True)
                self._made.add(path.parent)
            path.write_bytes(dump_entry(value, f"{kind}/{key}"))

    def get_bytes(self, kind: str, key: str) -> bytes | None:
        value = self.get(kind, key)
        return value if isinstance(value, bytes) else None

    def drop_legacy(self) -> None:
        """Delete what earlier versions kept: a file per render (``render/``), unverified
        compiled templates (``jinja/``), and the state now in ``state.db`` (``render.db``,
        the pickled ``manifest-*`` and the marshalled ``snapshot-*``)."""
        if not self.enabled:
            return
        for name in ("render", "jinja"):
            if (self.directory / name).is_dir():
                shutil.rmtree(self.directory / name, ignore_errors=True)
        for pattern in ("render.db*", "manifest-*", "snapshot-*"):
            for legacy in self.directory.glob(pattern):
                legacy.unlink(missing_ok=True)
