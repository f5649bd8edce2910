"""Write (the pipeline's last step): the site, atomically.

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
import errno
import json
import os
import shutil
import signal
import tempfile
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from site_builder.errors import BuildError
from site_builder.swap import STAGING_PREFIX, swap


@dataclass(frozen=True)
class OutputEntry:
    """A file a build wrote: the key it was made from and how it looked on disk."""

    key: str
    size: int
    mtime_ns: int
    owner: str = ""  # the post (its source path) or site-wide group that made it


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


def _entry(key: str, path: Path, owner: str = "") -> OutputEntry:
    stat = path.stat()
    return OutputEntry(key, stat.st_size, stat.st_mtime_ns, owner)


class Output:
    """The files of one build, and how they reach ``out`` (see the module docstring)."""

    def __init__(
        self,
        out: Path,
        previous: dict[str, OutputEntry],
        incremental: bool,
        planned: Callable[[str], bool] | None = None,
    ) -> None:
        self.out = out
        # The route table's answer to "may this build write ``rel``?" (``routes.Routes``):
        # a file no route planned, or a second write to one path, is refused, so two
        # stages can never silently overwrite each other's file.
        self.planned = planned
        self._out_prefix = os.path.join(out, "")  # str paths: stat() on Path is slower
        self.previous = previous
        self.incremental = incremental and out.is_dir()
        self.entries: dict[str, OutputEntry] = {}
        self.stage = Stage(
            Path(tempfile.mkdtemp(prefix=f"{STAGING_PREFIX}{out.name}-", dir=out.parent))
        )
        self.changed = 0
        self.owner = ""  # recorded with each file written or copied (see OutputEntry)

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

    def _claim(self, rel: str) -> None:
        if rel in self.entries:
            raise BuildError(rel, None, "written twice in one build: two stages made this file")
        if self.planned is not None and not self.planned(rel):
            raise BuildError(rel, None, "no route planned this file (see routes.plan_routes)")

    def keep(self, rel: str) -> None:
        """Carry a reusable file over from the last build."""
        self._claim(rel)
        if not self.incremental:
            self.stage.link(rel, self.out / rel)
        self.entries[rel] = self.previous[rel]

    def write(self, rel: str, data: bytes | str, key: str = "") -> None:
        """Write a file; in an incremental build, identical bytes leave the old file alone."""
        raw = data.encode("utf-8") if isinstance(data, str) else data
        self._claim(rel)
        if self.incremental and self._same_bytes(rel, raw):
            self.entries[rel] = _entry(key, self.out / rel, self.owner)
            return
        entry = self.stage.write(rel, raw)
        self.entries[rel] = OutputEntry(key, entry.size, entry.mtime_ns, self.owner)
        self.changed += 1

    def copy(self, rel: str, source: Path) -> None:
        """Copy a source file, keyed by its size and modification time."""
        stat = source.stat()
        key = f"file:{stat.st_size}:{stat.st_mtime_ns}"
        if self.reusable(rel, key):
            self.keep(rel)
            return
        self._claim(rel)
        self.stage.copy(rel, source)
        self.entries[rel] = _entry(key, self.stage.root / rel, self.owner)
        self.changed += 1

    def record(self, rel: str, entry: OutputEntry) -> None:
        """A file a worker wrote into the stage itself."""
        self._claim(rel)
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
                    _check_writable(self.out, [*moves, *removed])
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
                swap(self.stage.root, self.out)


def _check_writable(out: Path, rels: list[str]) -> None:
    """Refuse to start moving files into ``out`` when some of them cannot go there.

    Without this, a directory that refuses writes (an immutable ``public/``, a
    read-only mount) was found half-way through the moves: the files before it
    were already new, and the site was left half old, half new. ``access`` sees
    the immutable flag and read-only mounts even for root.
    """
    folders = {(out / rel).parent for rel in rels}
    for folder in sorted(folders):
        existing = folder
        while not existing.exists() and existing != out:
            existing = existing.parent
        if not os.access(existing, os.W_OK):
            raise OSError(errno.EACCES, os.strerror(errno.EACCES), str(existing))


def write_error(exc: OSError, out: Path, stage: Path | None = None) -> BuildError:
    """An OS error while writing the site as one ``path: message`` line.

    A path inside the staging directory is shown as the output path it stands for: the
    staging directory is gone by the time the author reads the message.
    """
    name = os.fsdecode(exc.filename) if exc.filename is not None else str(out)
    reason = exc.strerror or str(exc)
    if stage is not None and name.startswith(os.path.join(stage, "")):
        name = str(out / os.path.relpath(name, stage))
    elif os.path.basename(name).startswith(STAGING_PREFIX):
        name = os.path.dirname(name)  # the folder the staging directory could not be made in
    elif not (name == str(out) or name.startswith(os.path.join(out, ""))):
        return BuildError(name, None, reason)  # an input that went missing or unreadable
    return BuildError(name, None, f"cannot write the site: {reason}; {out} is unchanged")


def _journal_path(out: Path) -> Path:
    return out.parent / f"{STAGING_PREFIX}{out.name}.journal"


def inside(rel: object) -> bool:
    """Whether ``rel`` names a file inside the output: relative, ``/``-separated, no ``..``.
    Paths from the cache or a journal are checked before anything is moved or deleted by
    them: a damaged record must cost a full build, never a file outside the output."""
    if not isinstance(rel, str) or not rel or rel.startswith("/") or "\\" in rel:
        return False
    return all(part not in ("", ".", "..") for part in rel.split("/"))


def _apply(out: Path, stage: Path, moves: list[str], removed: list[str]) -> None:
    """Move the staged files into ``out`` and delete the removed ones; a path that would
    reach outside either (a damaged journal or record) stops it before any change."""
    if stage.parent != out.parent or not stage.name.startswith(f"{STAGING_PREFIX}{out.name}-"):
        raise ValueError(f"{stage} is not a staging folder of {out}")
    if not all(inside(rel) for rel in [*moves, *removed]):
        raise ValueError("a path outside the output")
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
    out: Path,
    previous: dict[str, OutputEntry] | None = None,
    incremental: bool = False,
    planned: Callable[[str], bool] | None = None,
) -> Iterator[Output]:
    """Yield an Output; commit it on success, discard it on any exception."""
    out = out.resolve()
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        trusted = recover(out)
        output = Output(out, previous or {}, incremental and trusted, planned)
    except OSError as exc:
        raise write_error(exc, out) from None
    try:
        yield output
        output.commit()
    except OSError as exc:  # a full disk, a read-only or immutable directory
        output.discard()
        raise write_error(exc, out, output.stage.root) from None
    except BaseException:
        output.discard()
        raise
