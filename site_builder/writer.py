"""Stage 6: write the site atomically.

Two ways, both all-or-nothing:

* A fresh build renders a complete tree into a staging directory beside the
  output and swaps it in with one rename (compare Lektor's ``Artifact``).
* An incremental build stages only the files that changed. On success it
  writes a journal naming them, moves each into place and deletes what the site
  no longer has; if the process dies half-way, the next run finds the journal
  and finishes the moves before doing anything else (roll forward), so a site
  is never left half old, half new.

A failed build never touches the output. Leftover staging directories from an
interrupted run are removed at the start of the next one.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import tempfile
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

STAGING_PREFIX = ".staging-"


@dataclass(frozen=True)
class OutputEntry:
    """A file a build wrote: the key it was made from and how it looked on disk."""

    key: str
    size: int
    mtime_ns: int


class Stage:
    """A directory being filled; paths are site-relative with ``/`` separators."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def _target(self, rel: str) -> Path:
        """A fresh path for ``rel``: never write through a hard link into the last build."""
        target = self.root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.unlink(missing_ok=True)
        return target

    def write(self, rel: str, data: bytes) -> OutputEntry:
        target = self._target(rel)
        target.write_bytes(data)
        return _entry("", target)

    def copy(self, rel: str, source: Path) -> None:
        shutil.copyfile(source, self._target(rel))

    def link(self, rel: str, source: Path) -> None:
        """Hard-link an unchanged file from the previous output (copy across file systems)."""
        target = self._target(rel)
        try:
            os.link(source, target)
        except OSError:
            shutil.copy2(source, target)


def _entry(key: str, path: Path) -> OutputEntry:
    stat = path.stat()
    return OutputEntry(key, stat.st_size, stat.st_mtime_ns)


class Output:
    """The files of one build, and how they reach ``out`` (see the module docstring)."""

    def __init__(self, out: Path, previous: dict[str, OutputEntry], incremental: bool) -> None:
        self.out = out
        self._out_prefix = os.path.join(out, "")  # str paths: stat() on Path is slower
        self.previous = previous
        self.incremental = incremental and out.is_dir()
        self.entries: dict[str, OutputEntry] = {}
        self.stage = Stage(
            Path(tempfile.mkdtemp(prefix=f"{STAGING_PREFIX}{out.name}-", dir=out.parent))
        )
        self.changed = 0

    def reusable(self, rel: str, key: str) -> bool:
        """True when the last build wrote ``rel`` from ``key`` and nobody touched it since."""
        entry = self.previous.get(rel)
        if entry is None or entry.key != key:
            return False
        try:
            stat = os.stat(self._out_prefix + rel)
        except OSError:
            return False
        return stat.st_size == entry.size and stat.st_mtime_ns == entry.mtime_ns

    def keep(self, rel: str) -> None:
        """Carry a reusable file over from the last build."""
        if not self.incremental:
            self.stage.link(rel, self.out / rel)
        self.entries[rel] = self.previous[rel]

    def write(self, rel: str, data: bytes | str, key: str = "") -> None:
        """Write a file; in an incremental build, identical bytes leave the old file alone."""
        raw = data.encode("utf-8") if isinstance(data, str) else data
        if self.incremental and self._same_bytes(rel, raw):
            self.entries[rel] = _entry(key, self.out / rel)
            return
        entry = self.stage.write(rel, raw)
        self.entries[rel] = OutputEntry(key, entry.size, entry.mtime_ns)
        self.changed += 1

    def copy(self, rel: str, source: Path) -> None:
        """Copy a source file, keyed by its size and modification time."""
        stat = source.stat()
        key = f"file:{stat.st_size}:{stat.st_mtime_ns}"
        if self.reusable(rel, key):
            self.keep(rel)
            return
        self.stage.copy(rel, source)
        self.entries[rel] = _entry(key, self.stage.root / rel)
        self.changed += 1

    def record(self, rel: str, entry: OutputEntry) -> None:
        """A file a worker wrote into the stage itself."""
        self.entries[rel] = entry
        self.changed += 1

    def _same_bytes(self, rel: str, data: bytes) -> bool:
        try:
            target = self.out / rel
            return target.stat().st_size == len(data) and target.read_bytes() == data
        except OSError:
            return False

    def discard(self) -> None:
        shutil.rmtree(self.stage.root, ignore_errors=True)

    def commit(self) -> None:
        """Make the staged files the site. Signals wait until the output is consistent."""
        with _signals_deferred():
            if self.incremental:
                removed = sorted(set(self.previous) - set(self.entries))
                moves = sorted(
                    p.relative_to(self.stage.root).as_posix()
                    for p in self.stage.root.rglob("*")
                    if not p.is_dir()
                )
                if moves or removed:
                    journal = _journal_path(self.out)
                    journal.write_text(
                        json.dumps(
                            {"stage": str(self.stage.root), "moves": moves, "removed": removed}
                        ),
                        encoding="utf-8",
                    )
                    _apply(self.out, self.stage.root, moves, removed)
                    journal.unlink()
                shutil.rmtree(self.stage.root, ignore_errors=True)
            else:
                _swap(self.stage.root, self.out)


def _journal_path(out: Path) -> Path:
    return out.parent / f"{STAGING_PREFIX}{out.name}.journal"


def _apply(out: Path, stage: Path, moves: list[str], removed: list[str]) -> None:
    for rel in moves:
        source = stage / rel
        if source.exists():  # on recovery, some moves already happened
            target = out / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(source, target)
    for rel in removed:
        target = out / rel
        target.unlink(missing_ok=True)
        parent = target.parent
        while parent != out and parent.is_dir() and not any(parent.iterdir()):
            parent.rmdir()
            parent = parent.parent


def _swap(tmp: Path, out: Path) -> None:
    os.chmod(tmp, 0o755)  # mkdtemp makes 0700; a served site must be world-readable
    old = None
    if out.exists():
        old = out.parent / f"{STAGING_PREFIX}{out.name}-old-{os.getpid()}"
        os.replace(out, old)
    os.replace(tmp, out)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


@contextlib.contextmanager
def _signals_deferred() -> Iterator[None]:
    """Hold SIGINT/SIGTERM while the output changes; they are delivered right after."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held = {signal.SIGINT, signal.SIGTERM}
    signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, held)


def recover(out: Path) -> bool:
    """Finish an interrupted incremental commit, then drop stale staging directories.

    Returns False when the output can no longer be trusted (an unreadable
    journal): the caller must then build a fresh tree instead of updating it.
    """
    journal = _journal_path(out)
    trusted = True
    if journal.exists():
        try:
            plan = json.loads(journal.read_text(encoding="utf-8"))
            _apply(out, Path(plan["stage"]), plan["moves"], plan["removed"])
        except (OSError, ValueError, KeyError, TypeError):
            trusted = False
        journal.unlink(missing_ok=True)
    for stale in out.parent.glob(f"{STAGING_PREFIX}{out.name}-*"):
        shutil.rmtree(stale, ignore_errors=True)
    return trusted


@contextlib.contextmanager
def staged_output(
    out: Path, previous: dict[str, OutputEntry] | None = None, incremental: bool = False
) -> Iterator[Output]:
    """Yield an Output; commit it on success, discard it on any exception."""
    out = out.resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    trusted = recover(out)
    output = Output(out, previous or {}, incremental and trusted)
    try:
        yield output
    except BaseException:
        output.discard()
        raise
    output.commit()
