"""The unit of work for one post: Markdown, then its page, written straight into the stage.

It runs in worker processes (or inline for small jobs). Each worker keeps one
Markdown parser, one Jinja environment and its own memoised math and lexers,
and sends back only a small summary: the main process never holds every
post's HTML, which keeps its memory flat as the site grows.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from site_builder import bibliography, content, fonts, pages, plots, widgets
from site_builder.cache import Cache, dump_entry
from site_builder.config import SiteConfig
from site_builder.content import SourcePost
from site_builder.errors import BuildError, BuildErrors
from site_builder.markdown import MarkdownContext, Rendered
from site_builder.model import make_post
from site_builder.writer import OutputEntry


@dataclass(frozen=True)
class Neighbour:
    """What a post page shows of the posts before and after it."""

    title: str
    path: str


@dataclass(frozen=True)
class PostSummary:
    """A rendered post without its HTML: what listings, feeds and the font need."""

    rendered: Rendered  # html, notes_html and files emptied
    file_names: tuple[str, ...]
    math_chars: str  # sorted, one string: a frozenset of 1-char strings is slow to unpickle


@dataclass(frozen=True)
class PostJob:
    source: SourcePost
    render_key: str
    page_key: str
    older: Neighbour | None
    newer: Neighbour | None
    want_full: bool  # the feed needs this post's HTML back
    last_render_key: str | None = None  # this post's previous render, for its fragment memo
    cached: bool = False  # the last build stored this render key
    bundle: tuple[tuple[str, Path], ...] = ()  # a folder post's own files: (name, source)


@dataclass(frozen=True)
class PostResult:
    slug: str
    summary: PostSummary | None
    full: Rendered | None
    errors: tuple[BuildError, ...]
    outputs: tuple[tuple[str, OutputEntry], ...]
    entry: bytes | None = None  # a new render for the store, pickled here (off the main process)


@dataclass
class WorkerState:
    config: SiteConfig
    cache: Cache
    stage_root: Path | None = None  # where pages go: sent with each batch of jobs
    env: Any = None  # jinja2.Environment, made on first use in each process


_STATE: WorkerState | None = None


def set_state(config: SiteConfig, cache: Cache) -> None:
    """Called before forking (inherited) or as a pool initializer (spawn/forkserver)."""
    global _STATE
    _STATE = WorkerState(config, cache)


def start_worker(config: SiteConfig, cache: Cache, warm: str) -> None:
    """A pool worker's initializer: its state, then the imports its jobs will need, done now
    (while the main process is still planning) rather than inside the first job."""
    set_state(config, cache)
    state = _STATE
    assert state is not None
    try:
        from site_builder.markdown import pipeline

        pipeline.create_parser(config.raw_html)
        state.env = pages.make_environment(state.config, cache=state.cache)
        state.env.get_template("post.html")
        if warm == "all":
            import math_core  # noqa: F401
            import pygments.formatters.html
            import pygments.lexers  # noqa: F401
    except Exception:  # only a head start: the job itself reports any real problem
        pass


def summarise(rendered: Rendered) -> PostSummary:
    """The post without its bodies, headings, fragments and most links: what listings, the
    font and the check of links between posts need. Its formulas are all among the
    fragments (much less to scan than the page)."""
    formulas = [html for key, html in rendered.fragments.items() if key[0] == "math"]
    bare = dataclasses.replace(
        rendered,
        html="",
        notes_html="",
        references_html="",
        files=(),
        fragments={},
        links=tuple(link for link in rendered.links if link.startswith("../")),  # other posts
        headings=(),
    )
    return PostSummary(
        rendered=bare,
        file_names=tuple(name for name, _ in rendered.files),
        math_chars="".join(sorted(fonts.math_characters(formulas))),
    )


def render_markdown(
    source: SourcePost,
    config: SiteConfig,
    memo: dict[tuple[str, ...], str] | None = None,
    cache: Cache | None = None,
) -> Rendered:
    from site_builder.markdown import render  # imports the Markdown libraries on first use

    ctx = MarkdownContext(
        path=source.path,
        line_offset=source.body_line - 1,
        raw_html=config.raw_html,
        resource_dir=source.bundle_dir,
        memo=memo,
        bibliography=load_bibliography(source, config, cache),
        citation_style=config.citation_style,
        macros=tuple({**dict(config.math_macros), **dict(source.math_macros)}.items()),
        widgets=widgets.runners(config.widgets, config.root, cache),
        plot=plots.runner(source, config.root, cache),
    )
    return render(source.body, ctx)


def load_bibliography(
    source: SourcePost, config: SiteConfig, cache: Cache | None = None
) -> bibliography.Bibliography | None:
    """The post's references: the file its front matter names, else content/references.bib."""
    path = bibliography.file_for(source.bibliography, config.root)
    if path is None:
        return None
    if not (config.root / path).is_file():
        message = f"bibliography {path.as_posix()} not found (paths are relative to the post)"
        raise BuildError(source.path, source.bibliography_line, message)
    return bibliography.load(config.root / path, path, cache)


def _write(state: WorkerState, rel: str, data: bytes, key: str) -> tuple[str, OutputEntry]:
    # The stage is a new, empty directory: no old file (or hard link) can be in the way.
    assert state.stage_root is not None, "jobs come with the stage they write into"
    target = state.stage_root / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    stat = target.stat()
    return rel, OutputEntry(key, stat.st_size, stat.st_mtime_ns)


def set_stage(stage_root: Path) -> None:
    """Where the next jobs write their pages (the build's staging directory)."""
    assert _STATE is not None, "set_state() must run before jobs"
    _STATE.stage_root = stage_root


def run_chunk(jobs: list[PostJob], stage_root: Path) -> list[PostResult]:
    """Several jobs in one round trip to a worker, writing their pages under ``stage_root``."""
    set_stage(stage_root)
    return [run_job(job) for job in jobs]


def run_job(job: PostJob) -> PostResult:
    """Render (or fetch from the cache) one post's Markdown, then write its page and files."""
    state = _STATE
    assert state is not None, "set_state() must run before jobs"
    config = state.config
    # Only look when the last build made this entry: on a cold build every lookup
    # would be a failed open(), and opening files is slow on some file systems.
    rendered = state.cache.renders.get(job.render_key) if job.cached else None
    entry = None
    if not isinstance(rendered, Rendered):
        # The fragments of this post's last render: an edit re-converts only what changed.
        last = state.cache.renders.get(job.last_render_key) if job.last_render_key else None
        memo = last.fragments if isinstance(last, Rendered) else None
        try:
            rendered = render_markdown(
                content.reload(job.source, config),
                config,
                memo if isinstance(memo, dict) else None,
                state.cache,
            )
        except BuildErrors as exc:
            return PostResult(job.source.slug, None, None, tuple(exc.errors), ())
        except BuildError as exc:
            return PostResult(job.source.slug, None, None, (exc,), ())
        entry = dump_entry(rendered, job.render_key) if state.cache.renders.enabled else None
    if state.env is None:
        state.env = pages.make_environment(state.config, cache=state.cache)
    post = make_post(job.source, rendered, config)
    try:
        html = pages.render_post_page(state.env, config, post, job.older, job.newer)
    except BuildError as exc:
        return PostResult(job.source.slug, None, None, (exc,), ())
    outputs = [_write(state, post.path + "index.html", html.encode("utf-8"), job.page_key)]
    outputs += [
        _write(state, post.path + name, data, job.render_key) for name, data in rendered.files
    ]
    return PostResult(
        slug=job.source.slug,
        summary=summarise(rendered),
        full=rendered if job.want_full else None,
        errors=(),
        outputs=tuple(outputs),
        entry=entry,
    )
