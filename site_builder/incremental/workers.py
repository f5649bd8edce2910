"""Worker processes for post jobs: one per core when there are enough posts to render.

Fewer than ``PARALLEL_THRESHOLD`` posts (an edit, a small site) render inline: a worker's
start-up and imports cost more than one post's render. A small site's cold build still
forks one worker, its helper, for the slow work beside the posts (``Session``: the
widgets' data, the math font). ``--jobs 1`` always renders inline, with no helper:
it is the reference the parallel output must equal. A cold build of many posts
starts its workers before loading (``starts_early``), forked once the main process has
imported what rendering needs (``jobs.warm_up``): the workers inherit it instead of
each importing it again (about 0.25 s of CPU a process), and they parse the source
files for the loading step (``read``) while the main process waits for them.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections import deque
from collections.abc import Iterator
from concurrent.futures import Executor, Future
from concurrent.futures.process import BrokenProcessPool
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING

from site_builder import content
from site_builder.config import SiteConfig
from site_builder.errors import BuildError
from site_builder.incremental import jobs as post_jobs
from site_builder.incremental.cache import Cache
from site_builder.incremental.jobs import PostJob, PostResult

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor


# Below this many posts to render, one worker (or the main process) is enough.
PARALLEL_THRESHOLD = 16


def start_method() -> str:
    """``fork`` shares the loaded modules for free but is unsafe once threads exist (the dev
    server has some); ``spawn`` is the safe fallback."""
    import multiprocessing

    method = "fork" if threading.active_count() == 1 else "spawn"
    return method if method in multiprocessing.get_all_start_methods() else "spawn"


def _start_worker(parent: int, config: SiteConfig, cache: Cache) -> None:
    """Tie the worker's life to the build's, then give it the build's state.

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
    post_jobs.set_state(config, cache)


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
    """A process pool for post jobs, started when there are enough of them."""

    def __init__(self, config: SiteConfig, cache: Cache, cores: int) -> None:
        self.config = config
        self.cache = cache
        self.cores = cores
        self.pool: ProcessPoolExecutor | None = None
        self.size = 0
        post_jobs.set_state(config, cache)  # for jobs run inline

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def starts_early(self, posts: int) -> bool:
        """Whether a cold build of ``posts`` posts, all to render, starts the pool before
        loading: when that is enough posts for it, and forked only (a
        spawned worker inherits nothing from the main process, so nothing to gain)."""
        return posts >= PARALLEL_THRESHOLD and self.cores > 1 and start_method() == "fork"

    def helps(self) -> bool:
        """Whether a small site's cold build forks a helper: there is a second core, and the
        helper forks (spawned, it would import again what it needs, for longer than it saves)."""
        return self.cores > 1 and start_method() == "fork"

    def start(self, processes: int) -> None:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        method = start_method()
        self.pool = ProcessPoolExecutor(
            processes,
            mp_context=multiprocessing.get_context(method),
            initializer=_start_worker,
            initargs=(os.getpid(), self.config, self.cache),
        )
        self.size = processes
        if method == "fork":  # forked workers start on the first submit: start them now
            self.pool.submit(int)

    def read(self, files: list[content.ToRead]) -> list[content.Read]:
        """Source files read and parsed (``content.load_posts``): on the pool when it was
        started early for a cold build (its workers otherwise wait for the loading to end),
        else here."""
        if self.pool is None or len(files) < PARALLEL_THRESHOLD:
            return content.read_all(files, self.config)
        size = max(1, len(files) // (self.size * 4))
        chunks = [files[i : i + size] for i in range(0, len(files), size)]
        try:
            return [read for chunk in self.pool.map(post_jobs.read_chunk, chunks) for read in chunk]
        except BrokenProcessPool:
            self.stop()
            raise worker_died() from None

    def run(self, jobs: list[PostJob], stage_root: Path) -> Iterator[PostResult]:
        """Results in job order (pages written under ``stage_root``): on the pool when it
        pays, else inline."""
        many = len(jobs) >= PARALLEL_THRESHOLD and self.cores > 1
        if many and self.size < self.cores:
            self.stop()
            self.start(self.cores)
        if not many or self.pool is None:  # a small site's pool is its helper
            post_jobs.set_stage(stage_root)
            yield from map(post_jobs.run_job, jobs)  # one at a time: results hold page bytes
            return
        pool: Executor = self.pool
        # Small chunks, so no core idles long at the end, and only a few queued at a time.
        size = max(1, len(jobs) // (self.size * 24))
        chunks = iter([jobs[i : i + size] for i in range(0, len(jobs), size)])
        queued: deque[Future[list[PostResult]]] = deque()
        while True:
            try:  # a worker that dies early breaks the pool's submit as well as a result
                for chunk in islice(chunks, 2 * self.size - len(queued)):
                    queued.append(pool.submit(post_jobs.run_chunk, chunk, stage_root))
                if not queued:
                    return
                results = queued.popleft().result()
            except BrokenProcessPool:
                self.stop()
                raise worker_died() from None
            except BaseException:
                # Let the running chunks finish before the caller discards the stage they
                # write into, or they recreate folders in it after it was removed.
                self.stop()
                raise
            yield from results

    def stop(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
        self.pool = None
        self.size = 0
