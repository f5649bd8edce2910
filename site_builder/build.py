"""The pipeline, readable on one screen.

config -> load every kind's sources (``kinds``) -> plan routes (every output path,
the menu, collisions) -> render each source's Markdown and page -> site model ->
write: the sources' own files, listings, feed, search, assets -> swap the output in.

Everything is written into a staging directory that replaces ``out`` only when
the whole build succeeded (``writer``). Saving work between builds (reused
pages, stored renders, workers, groups of files left alone) is the
``incremental`` package's business alone: ``last`` below is its one handle,
and every stage function called here is the same with or without it.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from site_builder import assets, clock, content, feeds, pages, search, titles, widgets
from site_builder.config import SiteConfig
from site_builder.content import LoadedContent
from site_builder.errors import BuildError, BuildErrors, BuildWarning
from site_builder.frontmatter import SourcePost
from site_builder.incremental.keys import hash_parts
from site_builder.incremental.session import Session
from site_builder.inputs import FOLDERS
from site_builder.model import Listed, Site, build_site, make_post
from site_builder.routes import Routes, links_to_missing_posts, plan_routes
from site_builder.writer import Output, staged_output

if TYPE_CHECKING:  # a site without publications never imports them
    from site_builder.publications import Publications


@dataclass(frozen=True)
class BuildResult:
    pages: int
    posts: int
    seconds: float
    warnings: tuple[BuildWarning, ...]
    rendered: int = 0  # posts whose Markdown or page was rendered (not reused)
    # For the no-op check (``incremental.noop``): when the next scheduled post falls due...
    next_due: datetime | None = None
    outside_inputs: bool = False  # ...and whether a post reads a file outside the watched folders


def build(
    config: SiteConfig,
    out: Path,
    now: datetime | None = None,
    *,
    jobs: int | None = None,
    use_cache: bool = True,
    progress: Callable[[int, int], None] | None = None,
    refresh_search: bool = True,
) -> BuildResult:
    """Build the whole site into ``out``. Raises BuildErrors; ``out`` is untouched on failure.

    ``now`` only decides which posts are due (future-dated ones wait unless
    ``config.drafts``); it defaults to :func:`clock.reference_time`. ``refresh_search``
    False keeps the last build's search index (the dev server: even one shard, a few
    hundred posts, would cost an edit a second or more; see ``search``).
    """
    started = time.perf_counter()
    out = out.resolve()
    check_output(out, config.root.resolve())
    now = now if now is not None else clock.reference_time()
    if jobs is not None and jobs < 1:  # 0 or -1 slipped through to the process pool
        raise BuildError("--jobs", None, f"must be 1 or more, got {jobs}")
    cores = jobs or default_jobs()
    with Session(config, out, use_cache, cores, refresh_search) as last:
        loaded = content.load_posts(config, last.records, last.read)  # 1 load
        papers = load_site_publications(config)  # the author's papers (``publications:``)
        due = clock.due_posts(loaded.posts, now, include_future=config.drafts)
        routes = _plan(config, due, loaded)  # 2 plan routes: stops at a collision
        incremental = bool(last.outputs)
        with staged_output(out, last.outputs, incremental, routes.planned) as output:
            math = papers.math_html if papers else ()
            done = last.render_posts(routes, output, progress, math)  # 3 render posts
            warnings = [*loaded.warnings, *(papers.warnings if papers else ()), *done.warnings]
            warnings += links_to_missing_posts(routes, done.posts, config.root)
            warnings = list(dict.fromkeys(warnings))  # a .bib's, once for all posts citing it
            if loaded.errors or done.errors:
                raise BuildErrors([*loaded.errors, *done.errors], tuple(warnings))
            site = build_site(config, done.posts, routes.menu, papers)  # 4 site model
            write = _Writer(site, routes, output, last)
            write.bundles()  # each source's own files beside its page
            if config.search:
                write.start_search()  # Pagefind indexes the changed shards meanwhile
            last.write_group("listings", site, output, write.listings)  # 5 listings and feeds
            last.write_group("feed", site, output, write.feed)
            if config.search:
                write.search_index()  # in shards, a group each
            last.write_group("assets", site, output, write.assets)  # 6 assets
        last.save(loaded, output, done.count)  # 7 swapped in (staged_output); recorded
    return BuildResult(
        pages=sum(rel.endswith(".html") for rel in output.entries),
        posts=len(site.posts),
        seconds=time.perf_counter() - started,
        warnings=tuple(warnings),
        rendered=done.count,
        next_due=None
        if config.drafts
        else min((d for post in loaded.posts if (d := post.date) and d > now), default=None),
        outside_inputs=any(
            not str(route.source.bibliography).startswith("content/")
            for route in routes.posts
            if route.source.bibliography is not None
        ),
    )


def _plan(config: SiteConfig, due: tuple[SourcePost, ...], loaded: LoadedContent) -> Routes:
    """The route table; a collision stops the build here, with the posts that failed to load."""
    try:
        return plan_routes(config, due)
    except BuildErrors as exc:
        raise BuildErrors([*loaded.errors, *exc.errors], loaded.warnings) from None


def check_output(out: Path, root: Path) -> None:
    """Refuse an output folder whose replacement would lose what no build made: a build
    swaps a whole new tree in where ``out`` was (``writer``). ``--out .`` would have
    deleted the site, ``--out content`` its posts, ``--out notes`` someone's notes."""
    sources = [root / name for name in FOLDERS]  # .cache/ is not: the dev server's is there
    if out == root or root.is_relative_to(out):
        problem = "is the site's folder, or holds it: the build would replace the site"
    elif any(out.is_relative_to(folder) for folder in sources):
        problem = "is inside the site's sources: the build would replace them"
    elif out.exists() and not out.is_dir():
        problem = "is a file, not a folder"
    elif out.is_dir() and not (out / ".nojekyll").exists() and any(out.iterdir()):
        problem = "holds files no build wrote (a build writes .nojekyll): name a new folder"
    else:
        return
    raise BuildError(out, None, f"the output folder {problem}")


def load_site_publications(config: SiteConfig) -> Publications | None:
    """The author's papers for ``publications/`` and the home page's selected ones, read
    before anything renders: a malformed entry stops the build at ``papers.bib:LINE``."""
    if config.publications is None:
        return None
    from site_builder.publications import load_publications

    author = config.author
    return load_publications(config.publications, config.root, author, config.math_macros)


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


@dataclass
class _Writer:
    """The site-wide files, one method per group (``Session.write_group`` skips a group
    whose inputs did not change)."""

    site: Site
    routes: Routes
    output: Output
    last: Session
    indexing: search.Indexing | None = None  # see start_search
    shards: list[search.Shard] = field(default_factory=list)

    def bundles(self) -> None:
        """A folder source's own files (images, data): copied, or kept when unchanged."""
        for route in self.routes.sources:
            for rel, file in route.bundle:
                self.output.copy(route.path + rel, file)

    def listings(self) -> None:
        env = self.last.environment(self.site)
        listed, home = self.site.home, None
        if listed is not None:  # its HTML: the summary the site holds has none
            home = make_post(listed.source, self.last.full_rendered(listed), self.site.config)
        for rel, text in pages.render_listing_pages(self.site, env, self.routes, home):
            self.output.write(rel, text)

    def feed(self) -> None:
        """The feed's entries carry their post's whole HTML, which post pages already hold:
        only the newest few are fetched back."""
        config, posts = self.site.config, self.site.posts
        whole = [
            make_post(p.source, self.last.full_rendered(p), config)
            for p in posts[: feeds.FEED_SIZE]
        ]
        env = self.last.environment(self.site)
        self.output.write("feed.xml", pages.render_feed(self.site, env, whole))

    def start_search(self) -> None:
        """Plan the search index's shards and send those whose posts changed to Pagefind,
        which indexes them in its own processes while the listings render (``search``)."""
        if self.last.keep_search(self.output):
            return
        posts = {post.path: post for post in self.site.posts}
        entries = [
            search.Entry(
                post.path, hash_parts(self.last.post_key(post), post.title, post.source.date)
            )
            for post in posts.values()
        ]
        self.shards = search.plan_shards(entries, self.site.config.language)
        changed = [
            shard
            for shard in self.shards
            if self.last.group_changed(f"search:{shard.dir}", shard.key, self.output)
        ]
        docs = partial(self._documents, posts)
        self.indexing = search.Indexing(
            changed, docs, self.site.config.language, self.last.workers.cores
        )
        self.last.own(self.indexing.close)
        self.indexing.start()

    def search_index(self) -> None:
        """The search index in shards, a group each: an edit re-indexes its post's shard."""
        if self.indexing is None:  # the last build's, kept whole (``keep_search``)
            return
        for shard in self.shards:
            index, name = partial(self._index, shard), f"search:{shard.dir}"
            self.last.write_group(name, self.site, self.output, index, shard.key)
        self.indexing.close()
        key = hash_parts(*(shard.key for shard in self.shards))
        listing = partial(self._listing, self.shards)
        self.last.write_group("search", self.site, self.output, listing, key)

    def _documents(self, posts: dict[str, Listed], shard: search.Shard) -> list[search.Document]:
        return [
            search.Document(
                path=post.path,
                title=titles.title_text(post.title),
                date=pages.human_date(post.date),
                html=rendered.html + (rendered.notes_html or ""),
                language=self.site.config.language,
            )
            for post in (posts[path] for path in shard.paths)
            for rendered in [self.last.full_rendered(post)]
        ]

    def _index(self, shard: search.Shard) -> None:
        assert self.indexing is not None
        for rel, data in self.indexing.files(shard):
            self.output.write(rel, data)

    def _listing(self, shards: list[search.Shard]) -> None:
        self.output.write(*search.listing(shards))

    def assets(self) -> None:
        config = self.site.config
        chars = self.last.chars
        widgets.write_assets(config.root, config.widgets, self.output)
        assets.write_assets(
            config.root, self.output, self.routes.static, chars, self.last.font_subset()
        )


__all__ = ["BuildError", "BuildResult", "build", "default_jobs"]
