"""Swap a freshly staged site in place of the old one in one step, where the system can.

``writer`` stages a fresh build's whole tree beside the output; ``swap`` makes it the
site. Kept apart from the writer because it speaks to the kernel (``renameat2``).
"""

from __future__ import annotations

import errno
import os
import shutil
import sys
from pathlib import Path

# Every staging directory (and the journal) starts with this: an interrupted run's are found
# by it and removed (``writer.recover``, ``incremental.noop``).
STAGING_PREFIX = ".staging-"


def swap(tmp: Path, out: Path) -> None:
    """Put the staged tree in place of ``out``: one atomic exchange where the system has it.

    ``renameat2(RENAME_EXCHANGE)`` (Linux) swaps the two directories in one step, so
    a reader, or a kill, sees either the old site or the new one. Elsewhere two renames
    leave a moment with no ``out`` at all; if the second fails the first is undone.
    """
    os.chmod(tmp, 0o755)  # mkdtemp makes 0700; a served site must be world-readable
    if not out.exists():
        os.replace(tmp, out)
        return
    if exchange(tmp, out):
        shutil.rmtree(tmp, ignore_errors=True)  # now the old site
        return
    old = out.parent / f"{STAGING_PREFIX}{out.name}-old-{os.getpid()}"
    os.replace(out, old)
    try:
        os.replace(tmp, out)
    except OSError:
        os.replace(old, out)
        raise
    shutil.rmtree(old, ignore_errors=True)


def exchange(a: Path, b: Path) -> bool:
    """Swap two paths atomically; False when the system cannot (then nothing changed)."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP):
        return False  # this file system or kernel cannot exchange: fall back
    raise OSError(code, os.strerror(code), str(b))
