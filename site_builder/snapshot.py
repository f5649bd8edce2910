"""The no-op check: decide from file metadata alone that the output is already up to date.

Without it, a rebuild with nothing to do still imported the renderers and walked
the site model of every post to find nothing changed, most of a no-op's time.
After a successful build the CLI saves a snapshot: the size and modification
time of every input the build could have read (``site.yaml`` and every file
under ``content/``, ``templates/``, ``static/``, ``fonts/`` and ``widgets/``, including the
font shipped with the package), the code version, the options that shape the
output, when the next scheduled post falls due, and the size and modification
time of every file written. The next run compares; if nothing differs, the
output is exactly what a build would write and nothing else is imported.

It errs towards building: any doubt (a missing or corrupt snapshot, a build
that warned, a bibliography outside ``content/``, an interrupted commit beside
the output, ``SOURCE_DATE_EPOCH`` moved back) means the full incremental build
runs, which has its own checks. Only ``os``, ``hashlib`` and ``marshal``.
"""

from __future__ import annotations

import hashlib
import marshal
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from site_builder.clock import reference_seconds
from site_builder.version import PACKAGE, code_version

WATCHED = (
    "content",
    "templates",
    "static",
    "fonts",
    "widgets",
)  # content first: see content_changed
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
        self.path = (
            root / ".cache" / f"snapshot-{hashlib.sha256(str(out).encode()).hexdigest()[:16]}"
        )
        posts: list[object] = []
        _tree(str(root / "content"), posts)
        self.content = hashlib.sha256(marshal.dumps(posts)).hexdigest()
        parts: list[object] = [code_version(), str(out), *options, self.content]
        parts.append(_stat(str(root / "site.yaml")))
        for name in WATCHED[1:]:
            _tree(str(root / name), parts)
        _tree(str(PACKAGE / "data"), parts)  # the math font's packaged copy
        self.inputs = hashlib.sha256(marshal.dumps(parts)).hexdigest()
        self.now = reference_seconds()
        self._saved: dict[str, object] | None = None
        self._read = False

    def _load(self) -> dict[str, object] | None:
        """The last snapshot for this output, if it is there and verifies."""
        if not self._read:
            self._read = True
            try:
                data = self.path.read_bytes()
                if hashlib.sha256(data[32:]).digest() == data[:32]:
                    saved = marshal.loads(data[32:])
                    self._saved = saved if isinstance(saved, dict) else None
            except (OSError, ValueError, EOFError, TypeError):
                self._saved = None
        return self._saved

    def content_changed(self) -> bool:
        """Whether anything under ``content/`` differs from the last build: then some post
        will likely render, and the build may start a worker before reading anything."""
        saved = self._load()
        return saved is None or saved.get("content") != self.content

    def unchanged(self) -> tuple[int, int] | None:
        """(pages, posts) of the last build if it is still exactly up to date, else None."""
        try:
            saved: Any = self._load()
            if saved is None or saved.get("inputs") != self.inputs:
                return None
            now = self.now
            if now is None or now < saved["built_at"]:
                return None
            if saved["next_due"] is not None and now >= saved["next_due"]:
                return None  # a scheduled post is due now
            if any(
                n.startswith(f"{STAGING_PREFIX}{self.out.name}")
                for n in os.listdir(self.out.parent)
            ):
                return None  # an interrupted commit: the build finishes it
            for rel, size, mtime_ns in saved["outputs"]:
                stat = os.stat(os.path.join(self.out, rel))
                if stat.st_size != size or stat.st_mtime_ns != mtime_ns:
                    return None
            return int(saved["pages"]), int(saved["posts"])
        except (OSError, ValueError, EOFError, TypeError, KeyError):
            return None

    def save(
        self,
        pages: int,
        posts: int,
        outputs: Iterable[tuple[str, int, int]],
        next_due: float | None,
    ) -> None:
        """Record a successful build made from these inputs."""
        if self.now is None:
            return
        payload = marshal.dumps(
            {
                "inputs": self.inputs,
                "content": self.content,
                "built_at": self.now,
                "next_due": next_due,
                "pages": pages,
                "posts": posts,
                "outputs": [tuple(o) for o in outputs],
            }
        )
        tmp = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_bytes(hashlib.sha256(payload).digest() + payload)
            os.replace(tmp, self.path)
        except OSError:
            tmp.unlink(missing_ok=True)

    def discard(self) -> None:
        """Forget the last snapshot (this build cannot vouch for its output)."""
        self.path.unlink(missing_ok=True)
