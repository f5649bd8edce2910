"""One build's view of the last one: the single object ``build()`` asks to save work.

It renders posts (reusing a page when its key is unchanged, taking a render from
the store when its render key is, running the rest on workers) and writes each
site-wide group of files (listings, feed, search, assets) only when that group's
key changed. Everything it skips is what a clean build would have written:
``tests/test_incremental.py`` compares the two byte for byte.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from site_builder import content, fonts, kinds, render, routes, titles, widgets
from site_builder.config import SiteConfig
from site_builder.errors import BuildError, BuildWarning
from site_builder.frontmatter import SourcePost
from site_builder.incremental import cached
from site_builder.incremental.cache import Cache
from site_builder.incremental.jobs import PostJob, PostSummary, set_helper, warm_up
from site_builder.incremental.plan import group_keys, plan_jobs
from site_builder.incremental.state import LastBuild
from site_builder.incremental.workers import Workers
from site_builder.markdown import Rendered
from site_builder.model import Listed, Site, make_listed
from site_builder.writer import Output, OutputEntry

if TYPE_CHECKING:
    from concurrent.futures import Future


@dataclass(frozen=True)
class RenderedPosts:
    posts: list[Listed]  # every source's record and summary
    warnings: list[BuildWarning]
    errors: list[BuildError]
    count: int  # posts rendered in this build, not reused


class Session:
    """The last build into ``out`` (from ``state.db``), the cache and the workers, for one
    build; ``use_cache=False`` makes it a clean build that records nothing."""

    def __init__(
        self, config: SiteConfig, out: Path, use_cache: bool, cores: int, refresh_search: bool
    ) -> None:
        self.config = config
        self.out = out
        self.refresh_search = refresh_search  # False: keep the last search index (``build``)
        self.cache = Cache(config.root / ".cache", enabled=use_cache)
        self.previous = self.cache.state.load(out)
        self.workers = Workers(config, self.cache, cores)
        if not self.previous.outputs:  # a cold build: every post renders
            self._start_early()
        self.jobs: list[PostJob] = []
        self.job_of: dict[str, PostJob] = {}  # by source path
        self.static: tuple[tuple[str, Path], ...] = ()
        self.plan_context = ""
        self.summaries: dict[str, PostSummary] = {}
        self.full: dict[str, Rendered] = {}
        self.groups: dict[str, str] = {}  # group -> its key
        self._group_keys: dict[str, str] | None = None  # see plan.group_keys
        self._font: Future[bytes] | None = None  # the font subset, running on a worker
        self.chars: frozenset[str] = frozenset()  # what the math font draws: see render_posts
        self.closing: list[Callable[[], None]] = []  # processes the build started: see own

    def _start_early(self) -> None:
        """Start the workers before loading (``Workers.starts_early``), once the renderers
        are imported and the site's .bib files parsed, for them to inherit (a .bib outside
        ``content/`` is parsed by the workers themselves)."""
        if self.workers.starts_early(len(kinds.find_sources(self.config.root))):
            bibs = sorted(self.config.root.glob("content/**/*.bib"))
            files = [path.relative_to(self.config.root) for path in bibs]
            cached.warm_bibliographies(files, self.config.root, self.cache)
            warm_up()
            self.workers.start(self.workers.cores)
        elif self.workers.helps():
            self._start_helper()

    def _start_helper(self) -> None:
        """A small site's cold build renders its posts here, and forks one worker for what
        is slow beside them (0.3 of the seed's 0.9 CPU-seconds): it imports the site's
        widgets (NumPy) while this process imports what the posts need (``warm_up``), runs
        their ``data()`` when a figure asks (``cached.widget_runners``), then subsets the
        math font, its libraries imported meanwhile, while the listings render here
        (``_start_font``)."""
        self.workers.start(1)
        helper = self.workers.pool
        assert helper is not None
        names = [spec.name for spec in self.config.widgets]
        if names:
            helper.submit(widgets.preload, self.config.root, names)
        helper.submit(fonts.preload)
        set_helper(helper)
        warm_up()

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        for close in self.closing:
            close()
        self.workers.stop()
        self.cache.state.close()

    def own(self, close: Callable[[], None]) -> None:
        """Call ``close`` when the build ends, however it ends (the search's Pagefind)."""
        self.closing.append(close)

    @property
    def records(self) -> dict[str, content.FileRecord]:
        """The last build's parsed posts: a file that looks the same is not parsed again."""
        return self.previous.records

    def read(self, files: list[content.ToRead]) -> list[content.Read]:
        """``content.load_posts``'s reader: the workers, when a cold build started them."""
        return self.workers.read(files)

    @property
    def outputs(self) -> dict[str, OutputEntry]:
        """Every file the last build wrote: what ``writer`` may keep instead of writing."""
        return self.previous.outputs

    def render_posts(
        self,
        planned: routes.Routes,
        output: Output,
        progress: Callable[[int, int], None] | None,
        more_math: tuple[str, ...] = (),
    ) -> RenderedPosts:
        """Every source's page and the files its render made, in ``output``: reused, or
        rendered on the workers.
        ``more_math`` is formulas' HTML drawn elsewhere (the publications): the math font
        holds their characters too."""
        self.jobs, self.plan_context = plan_jobs(planned, self.config, self.previous)
        self.job_of = {_id(job.route.source): job for job in self.jobs}
        self.static = planned.static
        pending = [job for job in self.jobs if not self._reuse(job, output)]
        files = (job.route.source.bibliography for job in pending)
        errors = cached.warm_bibliographies(files, self.config.root, self.cache)
        results = self.workers.run(pending, output.stage.root)
        for done, (job, result) in enumerate(zip(pending, results, strict=True), 1):
            errors.extend(result.errors)
            if result.entry is not None:
                self.cache.state.put_render(job.render_key, result.entry)
            for rel, entry in result.outputs:
                output.record(rel, entry)
            if result.summary is not None:
                self.summaries[result.source] = result.summary
                made = [rel.removeprefix(job.route.path) for rel, _ in result.outputs]
                errors.extend(routes.check_generated(job.route, made))
            if result.full is not None:
                self.full[result.source] = result.full
            if progress is not None:
                progress(done, len(pending))
        if errors:  # a broken .bib fails every post that uses it: say so once
            errors = list({str(e): e for e in errors}.values())
        warnings = [
            warning
            for job in self.jobs
            if _id(job.route.source) in self.summaries
            for warning in self.summaries[_id(job.route.source)].summary.warnings
        ]
        self.chars = self._math_chars() | fonts.math_characters(more_math)  # font, keys, assets
        if not errors:
            self._font = self._start_font()
        posts = [
            make_listed(
                job.route.source, self.summaries[_id(job.route.source)].summary, self.config
            )
            for job in (self.jobs if not errors else [])
        ]
        return RenderedPosts(posts, warnings, errors, len(pending))

    def _reuse(self, job: PostJob, output: Output) -> bool:
        """Keep a post's page and files from the last build when nothing it depends on
        changed: every file the post owns in the output table (its page, a figure's data,
        any other per-post file), or none of them."""
        summary = self.previous.summaries.get(job.render_key)
        if not isinstance(summary, PostSummary):
            return False
        files = self.previous.owned(job.route.source.path.as_posix())
        keys = (job.page_key, job.render_key)
        drawn_elsewhere = job.route.kind.template is None  # the home text: no files of its own
        if (not files and not drawn_elsewhere) or not all(
            output.reusable(rel, self.previous.outputs[rel].key)
            and self.previous.outputs[rel].key in keys
            for rel in files
        ):
            return False
        for rel in files:
            output.keep(rel)
        self.summaries[_id(job.route.source)] = summary
        return True

    def full_rendered(self, post: Listed) -> Rendered:
        """A post's whole :class:`Rendered` (the feed and search need its HTML): from this
        build, the store, or (the store lost it) rendered again."""
        job = self.job_of[_id(post.source)]
        found = self.full.get(_id(post.source)) or self.cache.state.get_render(job.render_key)
        if isinstance(found, Rendered):
            return found
        source, body, text = content.reload(post.source, self.config)
        runners = render.uncached_runners(source, self.config)
        root = self.config.root
        return render.render_markdown(body, job.inputs, root, None, runners, text)

    def environment(self, site: Site) -> Any:
        return cached.environment(self.config, self.cache, site)

    def font_subset(self) -> Callable[[Path, frozenset[str]], bytes]:
        return cached.font_subset(self.cache, self._font)

    def _start_font(self) -> Future[bytes] | None:
        """The math font subset (~0.2 s, the one slow step after the posts), on a worker
        while the listings and the feed render here. Exact: every post's characters are
        known by now. Only when there is a pool (or a small site's helper, ``_start_helper``)
        and the font is not cached."""
        source, chars = fonts.find_font(self.config.root), self.chars
        if self.workers.pool is None or source is None or not chars:
            return None
        if self.cache.get_bytes("font", cached.font_key(source, chars)) is not None:
            return None
        try:
            return self.workers.pool.submit(fonts.subset_woff2, source, chars)
        except BrokenProcessPool:  # a worker lost (a widget's os._exit): subset here instead
            return None

    def write_group(
        self,
        name: str,
        site: Site,
        output: Output,
        write: Callable[[], None],
        key: str | None = None,
    ) -> None:
        """Run ``write`` unless the group's key (``plan.group_keys``, or ``key``) is the last
        build's and every file the group owns in the output table is still as written."""
        if key is None:
            if self._group_keys is None:
                self._group_keys = group_keys(self.config, site, self.jobs, self.static, self.chars)
            key = self._group_keys[name]
        self.groups[name] = key
        if not self.group_changed(name, key, output):
            self._carry(name, output)
            return
        output.owner = name
        try:
            write()
        finally:
            output.owner = ""

    def group_changed(self, name: str, key: str, output: Output) -> bool:
        """Whether :meth:`write_group` will run group ``name``'s writer, asked ahead."""
        return self.previous.groups.get(name) != key or not self._intact(name, output)

    def keep_search(self, output: Output) -> bool:
        """The dev server keeps the last search index whole (see ``build``): True if it did."""
        names = [name for name in self.previous.groups if name.split(":")[0] == "search"]
        if self.refresh_search or not names or not all(self._intact(n, output) for n in names):
            return False
        for name in names:  # intact, checked above
            self._carry(name, output)
            self.groups[name] = self.previous.groups[name]
        return True

    def _intact(self, name: str, output: Output) -> bool:
        """Every file the last build wrote for group ``name`` is still as written."""
        files, entries = self.previous.owned(name), self.previous.outputs
        return bool(files) and all(output.reusable(rel, entries[rel].key) for rel in files)

    def _carry(self, name: str, output: Output) -> None:
        """Carry group ``name``'s files over from the last build (found intact)."""
        for rel in self.previous.owned(name):
            output.keep(rel)

    def post_key(self, post: Listed) -> str:
        """What a post's rendered text was made from (its render key)."""
        return self.job_of[_id(post.source)].render_key

    def _math_chars(self) -> frozenset[str]:
        """Every character the math font draws: the posts' formulas, their titles' and their
        deks' (a description may hold a formula too)."""
        shown = ((j.route.source.title, j.route.source.description or "") for j in self.jobs)
        in_titles = titles.math_chars((t for pair in shown for t in pair), self.config.math_macros)
        return frozenset("".join(s.math_chars for s in self.summaries.values()) + in_titles)

    def save(self, loaded: content.LoadedContent, output: Output, rendered: int) -> None:
        """Record this build for the next one (only when something differs)."""
        previous = self.previous
        if output.changed or rendered or loaded.reparsed or output.entries != previous.outputs:
            last = LastBuild(
                outputs=output.entries,
                summaries={j.render_key: self.summaries[_id(j.route.source)] for j in self.jobs},
                render_keys={j.route.source.path.as_posix(): j.render_key for j in self.jobs},
                page_keys={j.route.source.path.as_posix(): j.page_key for j in self.jobs},
                plan_context=self.plan_context,
                records=loaded.records,
                groups=self.groups,
            )
            self.cache.state.save(self.out, last, previous.outputs)
        if rendered:
            self.cache.state.prune_renders(job.render_key for job in self.jobs)
            self.cache.drop_legacy()


def _id(source: SourcePost) -> str:
    """What this build's results are kept by: a source's path (a post and a page may share
    a slug; two sources never share a path)."""
    return source.path.as_posix()
