"""Stage 6: write the site atomically.

Everything is written into a temporary directory beside the output and swapped
in only when the whole build succeeded (compare Lektor's ``Artifact``), so a
failed or interrupted build leaves the previous ``public/`` exactly as it was.
Leftovers of an interrupted run are removed at the start of the next one.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

STAGING_PREFIX = ".staging-"


class Stage:
    """A directory being filled; paths are site-relative with ``/`` separators."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.count = 0

    def write(self, rel: str, data: bytes | str) -> None:
        target = self.root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
        self.count += 1

    def copy(self, rel: str, source: Path) -> None:
        target = self.root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)


def _clean_leftovers(out: Path) -> None:
    for stale in out.parent.glob(f"{STAGING_PREFIX}{out.name}-*"):
        shutil.rmtree(stale, ignore_errors=True)


@contextmanager
def staged_output(out: Path) -> Iterator[Stage]:
    """Yield a Stage; on success swap it in for ``out``, on any exception discard it."""
    out = out.resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    _clean_leftovers(out)
    tmp = Path(tempfile.mkdtemp(prefix=f"{STAGING_PREFIX}{out.name}-", dir=out.parent))
    try:
        yield Stage(tmp)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    os.chmod(tmp, 0o755)  # mkdtemp makes 0700; a served site must be world-readable
    old = None
    if out.exists():
        old = out.parent / f"{STAGING_PREFIX}{out.name}-old-{os.getpid()}"
        os.replace(out, old)
    os.replace(tmp, out)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
