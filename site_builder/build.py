"""The pipeline, readable on one screen.

load config -> load posts -> plan (order, neighbours, cache keys) -> render each
post and its page (in parallel, or reused from the last build) -> build the
site model -> render listings and feeds -> assets -> swap the output in.

Everything is written into a staging directory that replaces ``out`` only when
the whole build succeeded. Unchanged outputs are hard-linked from the previous
build instead of being rendered again (see ``cache.py`` for why that is safe).
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path

from site_builder import assets, clock, content, feeds, pages, postwork
from site_builder.cache import Cache, Manifest, code_version, hash_parts
from site_builder.config import SiteConfig
from site_builder.errors import BuildError, BuildErrors, BuildWarning
from site_builder.markdown import Rendered
from site_builder.model import build_site, make_post, sort_posts
from site_builder.postwork import Neighbour, PostJob, PostResult, PostSummary
from site_builder.writer import Output, staged_output

# Below this many posts to render, forking workers costs more than it saves.
PARALLEL_THRESHOLD = 16

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class BuildResult:
    pages: int
    posts: int
    seconds: float
    warnings: tuple[BuildWarning, ...]
    rendered: int = 0  # posts whose Markdown or page was rendered (not reused)


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def plan_jobs(sources: tuple[content.SourcePost, ...], config: SiteConfig) -> list[PostJob]:
    """Order posts newest first and compute each one's cache keys and neighbours."""
    ordered = sort_posts(sources)
    version = code_version()
    template = pages.template_closure_hash(config, "post.html")
    config_key = repr(replace(config, root=Path(".")))
    feed = {source.slug for source in ordered[: feeds.FEED_SIZE]}
    jobs = []
    for index, source in enumerate(ordered):
        bundle = _bundle_files(source)
        render_key = hash_parts(
            version,
            config.raw_html,
            source.path,
            source.body_line,
            "\n".join(rel for rel, _ in bundle),
            source.body_hash,
        )
        older = _neighbour(ordered, index + 1)
        newer = _neighbour(ordered, index - 1) if index > 0 else None
        page_key = hash_parts(
            version,
            render_key,
            config_key,
            template,
            repr(replace(source, body="")),
            repr(older),
            repr(newer),
        )
        jobs.append(PostJob(source, render_key, page_key, older, newer, source.slug in feed))
    return jobs


def _neighbour(ordered: list[content.SourcePost], index: int) -> Neighbour | None:
    if 0 <= index < len(ordered):
        return Neighbour(ordered[index].title, f"posts/{ordered[index].slug}/")
    return None


def _bundle_files(source: content.SourcePost) -> list[tuple[str, Path]]:
    """A folder post's own files (images, data), copied beside its page."""
    if source.bundle_dir is None:
        return []
    return [
        (file.relative_to(source.bundle_dir).as_posix(), file)
        for file in sorted(source.bundle_dir.rglob("*"))
        if file.is_file() and file.name != "index.md"
    ]


def run_jobs(
    jobs: list[PostJob], config: SiteConfig, output: Output, cache: Cache, workers: int
) -> Iterator[PostResult]:
    """Run post jobs inline or on a process pool; results come back in job order."""
    stage_root = output.stage.root
    postwork.set_state(config, stage_root, cache)
    if workers <= 1 or len(jobs) < PARALLEL_THRESHOLD:
        yield from map(postwork.run_job, jobs)
        return
    # fork shares the loaded modules for free, but is unsafe once threads exist
    # (the dev server has some); spawn is the safe fallback.
    method = "fork" if threading.active_count() == 1 else "spawn"
    if method not in multiprocessing.get_all_start_methods():
        method = "spawn"
    chunk = max(1, len(jobs) // (workers * 8))
    with ProcessPoolExecutor(
        workers,
        mp_context=multiprocessing.get_context(method),
        initializer=postwork.set_state,
        initargs=(config, stage_root, cache),
    ) as pool:
        yield from pool.map(postwork.run_job, jobs, chunksize=chunk)


def build(
    config: SiteConfig,
    out: Path,
    now: datetime | None = None,
    *,
    jobs: int | None = None,
    use_cache: bool = True,
    progress: Progress | None = None,
) -> BuildResult:
    """Build the whole site into ``out``. Raises BuildErrors; ``out`` is untouched on failure.

    ``now`` only decides which posts are due (future-dated ones wait unless
    ``config.drafts``); it defaults to :func:`clock.reference_time`.
    """
    started = time.perf_counter()
    cache = Cache(config.root / ".cache", enabled=use_cache)
    out = out.resolve()
    previous = cache.load_manifest(out)
    loaded = content.load_posts(config, previous.records)
    now = now if now is not None else clock.reference_time()
    due = clock.due_posts(loaded.posts, now, include_future=config.drafts)
    planned = plan_jobs(due, config)
    errors: list[BuildError] = list(loaded.errors)
    summaries: dict[str, PostSummary] = {}
    full: dict[str, Rendered] = {}

    with staged_output(out, previous.outputs, incremental=bool(previous.outputs)) as output:
        pending = [
            job for job in planned if not _reuse(job, previous, output, cache, summaries, full)
        ]
        workers = jobs or default_jobs()
        for done, result in enumerate(run_jobs(pending, config, output, cache, workers), 1):
            errors.extend(result.errors)
            for rel, entry in result.outputs:
                output.record(rel, entry)
            if result.summary is not None:
                summaries[result.slug] = result.summary
            if result.full is not None:
                full[result.slug] = result.full
            if progress is not None:
                progress(done, len(pending))
        warnings = [*loaded.warnings]
        for job in planned:
            if job.source.slug in summaries:
                warnings.extend(summaries[job.source.slug].rendered.warnings)
        if errors:
            raise BuildErrors(errors, tuple(warnings))

        for job in planned:
            for rel, source in _bundle_files(job.source):
                stat = source.stat()
                path = f"posts/{job.source.slug}/{rel}"
                output.copy(path, source, f"file:{stat.st_size}:{stat.st_mtime_ns}")
        posts = [
            make_post(
                job.source, full.get(job.source.slug) or summaries[job.source.slug].rendered, config
            )
            for job in planned
        ]
        site = build_site(config, posts)
        env = pages.make_environment(config, site, _jinja_cache(cache))
        page_count = len(posts)
        for rel, text in pages.render_site_pages(site, env):
            output.write(rel, text)
            page_count += rel.endswith(".html")
        math_chars = frozenset().union(*(s.math_chars for s in summaries.values()))
        assets.write_assets(config.root, output, math_chars, cache)
        output.write(".nojekyll", "")

    cache.save_manifest(
        Manifest(
            version=code_version(),
            out=str(out),
            outputs=output.entries,
            summaries={job.render_key: summaries[job.source.slug] for job in planned},
            records=loaded.records,
        )
    )
    if pending:
        cache.prune("render", {job.render_key for job in planned})
    return BuildResult(
        pages=page_count,
        posts=len(posts),
        seconds=time.perf_counter() - started,
        warnings=tuple(warnings),
        rendered=len(pending),
    )


def _reuse(
    job: PostJob,
    previous: Manifest,
    output: Output,
    cache: Cache,
    summaries: dict[str, PostSummary],
    full: dict[str, Rendered],
) -> bool:
    """Keep a post's page and files from the last build when nothing it depends on changed.

    All or nothing: a post is either wholly reused or wholly rendered again.
    """
    summary = previous.summaries.get(job.render_key)
    if not isinstance(summary, PostSummary):
        return False
    page = f"posts/{job.source.slug}/index.html"
    files = [f"posts/{job.source.slug}/{name}" for name in summary.file_names]
    if not output.reusable(page, job.page_key):
        return False
    if not all(output.reusable(rel, job.render_key) for rel in files):
        return False
    if job.want_full:
        rendered = cache.get("render", job.render_key)
        if not isinstance(rendered, Rendered):
            return False
        full[job.source.slug] = rendered
    for rel in [page, *files]:
        output.keep(rel)
    summaries[job.source.slug] = summary
    return True


def _jinja_cache(cache: Cache) -> Path | None:
    return cache.directory / "jinja" if cache.enabled else None
