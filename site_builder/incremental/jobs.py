"""One post's job: its Markdown (from the render store when its key is known, else rendered),
then its page, written straight into the stage.

It runs in worker processes (or inline for small jobs). Each worker keeps one
Markdown parser, one Jinja environment and its own memoised math and lexers,
and sends back only a small summary: the main process never holds every
post's HTML, which keeps its memory flat as the site grows.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from site_builder import content, fonts, render
from site_builder.config import SiteConfig
from site_builder.errors import BuildError, BuildErrors
from site_builder.incremental import cached
from site_builder.incremental.cache import Cache
from site_builder.incremental.entries import dump_entry
from site_builder.markdown import Rendered, Summary
from site_builder.routes import SourceRoute
from site_builder.writer import OutputEntry, Stage

if TYPE_CHECKING:
    from concurrent.futures import Executor


@dataclass(frozen=True)
class PostSummary:
    """What the main process keeps of a render: the listings' summary and the characters
    the math font must draw."""

    summary: Summary
    math_chars: str  # sorted, one string: a frozenset of 1-char strings is slow to unpickle


@dataclass(frozen=True)
class PostJob:
    route: SourceRoute
    inputs: render.RenderInputs  # what the Markdown render reads
    render_key: str  # ``inputs.key()``
    page_key: str  # the render key plus every input of its page
    want_full: bool  # the feed needs this post's HTML back
    last_render_key: str | None = None  # this post's previous render, for its fragment memo
    cached: bool = False  # the last build stored this render key


@dataclass(frozen=True)
class PostResult:
    source: str  # the source's path: what ``Session`` keys its results by
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
    helper: Executor | None = None  # runs the widgets (a small site's cold build: ``Session``)


_STATE: WorkerState | None = None


def set_state(config: SiteConfig, cache: Cache) -> None:
    """Called before forking (inherited) or as a pool initializer (spawn/forkserver)."""
    global _STATE
    _STATE = WorkerState(config, cache)


def set_helper(helper: Executor) -> None:
    """The widgets run on ``helper`` from now on (set in the main process only)."""
    assert _STATE is not None, "set_state() must run before set_helper()"
    _STATE.helper = helper


def warm_up() -> None:
    """Import what rendering needs (Markdown, Jinja and ``post.html`` compiled, math-core,
    Pygments) in the main process, right before it forks the workers of a cold build: they
    inherit it all (the parser is cached, the compiled template kept in memory by
    ``compiled``), where each used to import it for itself."""
    state = _STATE
    assert state is not None, "set_state() must run before warm_up()"
    try:
        from site_builder.markdown import pipeline

        pipeline.create_parser(state.config.raw_html)
        cached.environment(state.config, state.cache).get_template("post.html")
        import math_core  # noqa: F401
        import pygments.formatters.html
        import pygments.lexers  # noqa: F401
    except Exception:  # only a head start: the jobs themselves report any real problem
        pass


def summarise(rendered: Rendered) -> PostSummary:
    """What the main process keeps of a render. Its formulas are all among the fragments
    (much less to scan than the page)."""
    formulas = [html for key, html in rendered.fragments.items() if key[0] == "math"]
    chars = "".join(sorted(fonts.math_characters(formulas)))
    return PostSummary(rendered.summary(), chars)


def cached_render(job: PostJob, config: SiteConfig, cache: Cache) -> tuple[Rendered, bool]:
    """The post's :class:`Rendered`: from the store by its render key, else rendered (with
    the fragments of its last render as a memo). True when it was rendered now."""
    # Only look when the last build made this entry: on a cold build every lookup
    # would be a failed read, and those are slow on some file systems.
    rendered = cache.state.get_render(job.render_key) if job.cached else None
    if isinstance(rendered, Rendered):
        return rendered, False
    last = cache.state.get_render(job.last_render_key) if job.last_render_key else None
    memo = last.fragments if isinstance(last, Rendered) else None
    source, body, text = content.reload(job.route.source, config)
    helper = _STATE.helper if _STATE is not None else None
    widgets = cached.widget_runners(config, cache, helper)
    runners = widgets, cached.plot_runner(source, config, cache)
    memo = memo if isinstance(memo, dict) else None
    rendered = render.render_markdown(body, job.inputs, config.root, memo, runners, text)
    return rendered, True


def read_chunk(files: list[content.ToRead]) -> list[content.Read]:
    """Some source files read and parsed, for the main process's loading step."""
    assert _STATE is not None, "set_state() must run before jobs"
    return content.read_all(files, _STATE.config)


def run_chunk(jobs: list[PostJob], stage_root: Path) -> list[PostResult]:
    """Several jobs in one round trip to a worker, writing their pages under ``stage_root``."""
    set_stage(stage_root)
    return [run_job(job) for job in jobs]


def set_stage(stage_root: Path) -> None:
    """Where the next jobs write their pages (the build's staging directory)."""
    assert _STATE is not None, "set_state() must run before jobs"
    _STATE.stage_root = stage_root


def run_job(job: PostJob) -> PostResult:
    """Render (or fetch from the store) one post's Markdown, then write its page and files."""
    state = _STATE
    assert state is not None, "set_state() must run before jobs"
    owner = job.route.source.path.as_posix()
    try:
        rendered, fresh = cached_render(job, state.config, state.cache)
        html = None
        if job.route.kind.template is not None:  # the home text is drawn by index.html
            if state.env is None:
                state.env = cached.environment(state.config, state.cache)
            html = render.render_page(state.env, state.config, job.route, rendered)
    except BuildErrors as exc:
        return PostResult(owner, None, None, tuple(exc.errors), ())
    except BuildError as exc:
        return PostResult(owner, None, None, (exc,), ())
    entry = dump_entry(rendered, job.render_key) if fresh and state.cache.state.enabled else None
    path, outputs = job.route.path, []
    if html is not None:
        outputs.append(_write(state, path + "index.html", html.encode(), job.page_key, owner))
    extra = render.post_files(state.config, job.route, rendered) if html is not None else []
    for name, data in rendered.files:
        outputs.append(_write(state, path + name, data, job.render_key, owner))
    for name, data in extra:  # a page's own extra files: none for text drawn elsewhere
        outputs.append(_write(state, path + name, data, job.page_key, owner))
    return PostResult(
        source=owner,
        summary=summarise(rendered),
        full=rendered if job.want_full else None,
        errors=(),
        outputs=tuple(outputs),
        entry=entry,
    )


def _write(
    state: WorkerState, rel: str, data: bytes, key: str, owner: str
) -> tuple[str, OutputEntry]:
    """Into the build's stage, through the writer (the main process records the entry with
    ``Output.record``, which holds it to the route table)."""
    assert state.stage_root is not None, "jobs come with the stage they write into"
    entry = Stage(state.stage_root).write(rel, data)
    return rel, OutputEntry(key, entry.size, entry.mtime_ns, owner)
