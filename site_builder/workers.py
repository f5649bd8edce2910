"""Worker processes for post jobs, started early so that their imports overlap planning.

A worker spends its first ~0.1 s (an edit) to ~0.3 s (a cold build) importing
markdown-it, Jinja, Pygments and math-core. Started only once the jobs were
known, that time was added to every build; started as soon as the build knows
it will render something (right after loading the manifest for a cold build,
after listing the posts for an incremental one), it runs while the main process
parses front matter and plans. An edit gets one worker, which is all one post
needs; a build with many posts to render gets one per core.

Only with ``fork`` and no threads in the process (not in the dev server, which
renders small jobs inline, where everything is already imported). ``--jobs 1``
always renders inline: it is the reference the parallel output must equal.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future
from concurrent.futures.process import BrokenProcessPool
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from site_builder import postwork
from site_builder.cache import Cache
from site_builder.config import SiteConfig
from site_builder.errors import BuildError
from site_builder.postwork import PostJob, PostResult

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

T = TypeVar("T")

# Below this many posts to render, one worker (or the main process) is enough.
PARALLEL_THRESHOLD = 16


def start_method() -> str:
    """``fork`` shares the loaded modules for free but is unsafe once threads exist (the dev
    server has some); ``spawn`` is the safe fallback."""
    import multiprocessing

    method = "fork" if threading.active_count() == 1 else "spawn"
    return method if method in multiprocessing.get_all_start_methods() else "spawn"


def _start_worker(parent: int, config: SiteConfig, cache: Cache, warm: str) -> None:
    """Tie the worker's life to the build's, then warm it up (``postwork.start_worker``).

    A pool shuts its workers down when the build ends or fails, but a build killed
    with SIGKILL runs no cleanup: its workers lived on, blocked on a queue nobody
    writes. On Linux the kernel sends them SIGKILL when the parent goes
    (``PR_SET_PDEATHSIG``); a parent already gone before that took effect is caught
    by comparing the parent's pid.
    """
    with contextlib.suppress(OSError, AttributeError):
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, int(signal.SIGKILL), 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)
    postwork.start_worker(config, cache, warm)


def worker_died() -> BuildError:
    """A worker that died (a segfault, the OOM killer, a kill) takes its posts with it: say
    so in one line, not with a traceback. Which post it was holding is unknown."""
    return BuildError(
        "content/posts",
        None,
        "a worker process died while rendering (killed, or out of memory?); public/ is "
        "unchanged: build again, or with --jobs 1 to see which post fails",
    )


class Workers:
    """A process pool for post jobs that may be started before the jobs are known."""

    def __init__(self, config: SiteConfig, cache: Cache, cores: int) -> None:
        self.config = config
        self.cache = cache
        self.cores = cores
        self.pool: ProcessPoolExecutor | None = None
        self.size = 0
        postwork.set_state(config, cache)  # for jobs run inline

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start_early(self, processes: int, warm: str) -> None:
        """Start ``processes`` workers now, each importing what ``warm`` says it will need
        (``"page"``: Markdown and Jinja; ``"all"``: Pygments and math-core too)."""
        wanted = min(processes, self.cores)
        if wanted <= self.size or self.cores <= 1 or start_method() != "fork":
            return
        self.stop()  # one warm worker, when the build turns out to need one per core
        self._start(wanted, warm)

    def _start(self, processes: int, warm: str) -> None:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        method = start_method()
        self.pool = ProcessPoolExecutor(
            processes,
            mp_context=multiprocessing.get_context(method),
            initializer=_start_worker,
            initargs=(os.getpid(), self.config, self.cache, warm),
        )
        self.size = processes
        if method == "fork":  # forked workers start on the first submit: start them now
            self.pool.submit(int)

    def run(self, jobs: list[PostJob], stage_root: Path) -> Iterator[PostResult]:
        """Results in job order (pages written under ``stage_root``): on the pool when it
        pays, else inline."""
        many = len(jobs) >= PARALLEL_THRESHOLD and self.cores > 1
        if many and self.size < self.cores:  # not started early (e.g. spawn): start now
            self.stop()
            self._start(self.cores, "page")
        if not jobs or self.pool is None:
            postwork.set_stage(stage_root)
            yield from map(postwork.run_job, jobs)  # one at a time: results hold page bytes
            return
        pool: Executor = self.pool
        # Small chunks, so no core idles long at the end, and only a few queued at a time,
        # so a task submitted meanwhile (the font, see build.py) runs next, not last.
        size = max(1, len(jobs) // (self.size * 24))
        chunks = iter([jobs[i : i + size] for i in range(0, len(jobs), size)])
        queued = deque(
            pool.submit(postwork.run_chunk, c, stage_root) for c in islice(chunks, 2 * self.size)
        )
        while queued:
            try:
                results = queued.popleft().result()
            except BrokenProcessPool:
                self.stop()
                raise worker_died() from None
            except BaseException:
                # Let the running chunks finish before the caller discards the stage they
                # write into, or they recreate folders in it after it was removed.
                self.stop()
                raise
            for chunk in islice(chunks, 1):
                queued.append(pool.submit(postwork.run_chunk, chunk, stage_root))
            yield from results

    def submit(self, fn: Callable[..., T], *args: object) -> Future[T] | None:
        """Run one more task on the pool, after the jobs already queued (None: no pool)."""
        return self.pool.submit(fn, *args) if self.pool is not None else None

    def stop(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
        self.pool = None
        self.size = 0
