"""The state kept in ``.cache/``: rendered posts, what the last build wrote, small entries.

Everything here is an optimisation that must never change a byte of output:

* Entries are keyed by a hash of their inputs *and* the code version (this
  package's source and the versions of the libraries that shape the HTML), so
  an upgrade or an edit to a renderer invalidates them.
* Every entry carries a SHA-256 of its payload and its key and is verified on
  read; a corrupt, truncated, unreadable or misplaced entry is deleted and
  recomputed, never used. Rendered posts are in ``renders.RenderStore`` (one
  SQLite file); the few other kinds are a file each.
* Output files are reused (hard-linked from the previous ``public/``) only when
  the manifest says they were produced from the same key *and* the file is still
  the one we wrote (same size and modification time).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from site_builder.incremental.keys import code_version, hash_parts
from site_builder.writer import OutputEntry


def dump_entry(value: Any, key: str = "") -> bytes:
    """Pickle ``value`` behind a SHA-256 of the payload *and* the key it is stored under, so
    an entry that ends up under another key (a copied row, a renamed file) fails too."""
    payload = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    return _checksum(key, payload) + payload


def load_entry(data: bytes, key: str = "") -> Any:
    """Unpickle a verified payload; raises ValueError when the checksum does not match."""
    checksum, payload = data[:32], data[32:]
    if len(data) < 32 or _checksum(key, payload) != checksum:
        raise ValueError("checksum mismatch")
    return pickle.loads(payload)  # our own files, verified above


def _checksum(key: str, payload: bytes) -> bytes:
    digest = hashlib.sha256(key.encode())
    digest.update(b"\0")
    digest.update(payload)
    return digest.digest()


def atomic_write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


@dataclass
class Manifest:
    """What the previous build left in ``out``, plus the per-post summaries it computed."""

    version: str = ""  # code_version() of the build that wrote it
    out: str = ""
    outputs: dict[str, OutputEntry] = field(default_factory=dict)
    summaries: dict[str, Any] = field(default_factory=dict)  # render key -> PostSummary
    render_keys: dict[str, str] = field(default_factory=dict)  # post path -> its render key
    page_keys: dict[str, str] = field(default_factory=dict)  # post path -> its page's key
    plan_context: str = ""  # see build.plan_jobs
    records: dict[str, Any] = field(default_factory=dict)  # post path -> content.FileRecord
    # Site-wide outputs (listings, feed, assets): group -> (input key, files)
    groups: dict[str, tuple[str, list[str]]] = field(default_factory=dict)


class Cache:
    """A directory of verified pickles. ``enabled=False`` makes every lookup a miss."""

    def __init__(self, directory: Path, enabled: bool = True) -> None:
        self.directory = directory
        self.enabled = enabled
        self._made: set[Path] = set()  # directories known to exist (each mkdir is a syscall)
        from site_builder.incremental.renders import RenderStore  # it imports this module

        self.renders = RenderStore(directory / "render.db", enabled)

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
            path.unlink(missing_ok=True)
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
        """Delete what earlier versions kept: ``render/``, a file per entry (now ``render.db``),
        and ``jinja/``, unverified compiled templates (now checksummed, ``jinja-code/``)."""
        for name in ("render", "jinja"):
            legacy = self.directory / name
            if self.enabled and legacy.is_dir():
                shutil.rmtree(legacy, ignore_errors=True)

    def _manifest_path(self, out: Path) -> Path:
        """One manifest per output directory, so ``serve`` and ``build`` don't evict each other."""
        return self.directory / f"manifest-{hash_parts(str(out))[:16]}"

    def has_manifest(self, out: Path) -> bool:
        return self.enabled and self._manifest_path(out).is_file()

    def load_manifest(self, out: Path) -> Manifest:
        if not self.enabled:
            return Manifest()
        try:
            manifest = load_entry(self._manifest_path(out).read_bytes())
        except Exception:
            return Manifest()
        if not isinstance(manifest, Manifest) or manifest.version != code_version():
            return Manifest()  # another version of the code: nothing it says can be trusted
        return manifest if manifest.out == str(out) else Manifest()

    def save_manifest(self, manifest: Manifest) -> None:
        if not self.enabled:
            return
        with contextlib.suppress(OSError):
            atomic_write(self._manifest_path(Path(manifest.out)), dump_entry(manifest))
