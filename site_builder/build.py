"""The pipeline, readable on one screen.

load config -> load posts -> plan (order, neighbours, cache keys) -> render each
post and its page (in parallel, or reused from the last build) -> build the
site model -> render listings and feeds -> assets -> swap the output in.

Everything is written into a staging directory that replaces ``out`` only when
the whole build succeeded. Unchanged outputs are hard-linked from the previous
build instead of being rendered again (see ``cache.py`` for why that is safe).
"""

from __future__ import annotations

import dataclasses
import difflib
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from site_builder import assets, bibliography, clock, content, feeds, fonts, pages, postwork, search
from site_builder.cache import Cache, Manifest, code_version, hash_parts
from site_builder.config import SiteConfig
from site_builder.errors import BuildError, BuildErrors, BuildWarning, Location
from site_builder.markdown import Rendered
from site_builder.model import Post, Site, build_site, make_post, sort_posts
from site_builder.postwork import Neighbour, PostJob, PostSummary
from site_builder.sitefiles import files_under
from site_builder.widgets import fingerprints as widget_fingerprints
from site_builder.widgets import write_assets as write_widget_assets
from site_builder.workers import PARALLEL_THRESHOLD, Workers
from site_builder.writer import Output, staged_output

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class BuildResult:
    pages: int
    posts: int
    seconds: float
    warnings: tuple[BuildWarning, ...]
    rendered: int = 0  # posts whose Markdown or page was rendered (not reused)
    # For the no-op check (``snapshot``): every file written, as (path, size, mtime_ns)...
    outputs: tuple[tuple[str, int, int], ...] = ()
    next_due: datetime | None = None  # ...when the next scheduled post falls due...
    outside_inputs: bool = False  # ...and whether a post reads a file outside the watched folders


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def plan_jobs(
    sources: tuple[content.SourcePost, ...],
    config: SiteConfig,
    previous: Manifest | None = None,
    cache: Cache | None = None,
) -> tuple[list[PostJob], str]:
    """Order posts newest first and compute each one's cache keys and neighbours.

    Also returns the plan's context: everything besides a post's own file that its
    keys depend on (code, configuration, template, bibliographies, and every post's
    place, slug and title, which make the neighbours). When it is the last build's,
    a post whose file was not re-read keeps its keys without hashing them again.
    """
    previous = previous or Manifest()
    ordered = sort_posts(sources)
    version = code_version()
    template = pages.template_closure_hash(config, "post.html", cache)
    config_key = config.key
    # Most posts share one .bib (or none): hash each once.
    bib_keys = {
        named: bibliography.content_key(named, config.root)
        for named in sorted({source.bibliography for source in ordered}, key=str)
    }
    widget_keys = {spec.name: spec.fingerprint for spec in config.widgets}
    context = hash_parts(
        version,
        config_key,
        template,
        widget_fingerprints(config.widgets),
        *(f"{named}={key}" for named, key in bib_keys.items()),
        "\n".join(f"{s.path.as_posix()}\0{s.slug}\0{s.title}" for s in ordered),
    )
    same_context = context == previous.plan_context

    jobs = []
    for index, source in enumerate(ordered):
        path = source.path.as_posix()
        older = _neighbour(ordered, index + 1)
        newer = _neighbour(ordered, index - 1)
        record = previous.records.get(path)
        bundle = tuple(_bundle_files(source, config.root))
        if (
            same_context
            and source.bundle_dir is None  # a folder post also depends on its other files
            and record is not None
            and record.post is source  # not re-read: the very record of the last build
            and path in previous.render_keys
            and path in previous.page_keys
        ):
            render_key, page_key = previous.render_keys[path], previous.page_keys[path]
        else:
            render_key = hash_parts(
                version,
                config.raw_html,
                source.path,
                source.body_line,
                "\n".join(_bundle_stamp(rel, file) for rel, file in bundle),
                source.body_hash,
                config.citation_style,
                bib_keys[source.bibliography],
                repr(config.math_macros),
                repr(source.math_macros),
                *(f"{name}={widget_keys.get(name)}" for name in source.widgets),
            )
            page_key = hash_parts(
                version,
                render_key,
                config_key,
                template,
                _front_matter(source),
                repr(older),
                repr(newer),
            )
        last = previous.render_keys.get(path)
        cached = render_key in previous.summaries
        jobs.append(
            PostJob(
                source,
                render_key,
                page_key,
                older,
                newer,
                want_full=index < feeds.FEED_SIZE,
                last_render_key=last,
                cached=cached,
                bundle=bundle,
            )
        )
    return jobs, context


def _front_matter(source: content.SourcePost) -> str:
    """Everything a page shows of a post besides its body, as one string to hash: every
    field of the record but the body (in the render key already), so a field added to the
    front matter can never leave pages stale."""
    return repr(
        tuple(
            (field.name, getattr(source, field.name))
            for field in dataclasses.fields(source)
            if field.name != "body"
        )
    )


def _neighbour(ordered: list[content.SourcePost], index: int) -> Neighbour | None:
    if 0 <= index < len(ordered):
        return Neighbour(ordered[index].title, f"posts/{ordered[index].slug}/")
    return None


# Images (the page carries their width and height) and Python (a plot's source).
_SIZED = frozenset({".png", ".jpg", ".jpeg", ".gif", ".webp", ".avif", ".svg", ".py"})


def _bundle_stamp(rel: str, file: Path) -> str:
    """A bundle file's name, and for an image or a plot's Python its size and time: a
    replaced image or an edited plot must re-render the post."""
    if file.suffix.lower() not in _SIZED:
        return rel
    stat = file.stat()
    return f"{rel}:{stat.st_size}:{stat.st_mtime_ns}"


_POST_LINK = re.compile(r"^\.\./([^/#?]+)/")


def _links_to_missing_posts(
    planned: list[PostJob], summaries: dict[str, PostSummary], root: Path
) -> list[BuildWarning]:
    """A link from one post to another (``../slug/``) that names no post being published:
    the routes are known here, so the author hears of it without running ``check``."""
    slugs = sorted(job.source.slug for job in planned)
    warnings = []
    for job in planned:
        summary = summaries.get(job.source.slug)
        for link in summary.rendered.links if summary is not None else ():
            match = _POST_LINK.match(link)
            if match is None or match.group(1) == ".." or match.group(1) in slugs:
                continue
            close = difflib.get_close_matches(match.group(1), slugs, n=1, cutoff=0.6)
            hint = f" (did you mean '../{close[0]}/'?)" if close else ""
            line = content.line_in_post(root, job.source.path, link)
            message = f"link {link!r} names no published post{hint}"
            warnings.append(BuildWarning(Location(job.source.path, line), message))
    return warnings


def _bundle_files(source: content.SourcePost, root: Path) -> list[tuple[str, Path]]:
    """A folder post's own files (images, data), copied beside its page; its Markdown and
    BibTeX sources are inputs, not content to publish."""
    if source.bundle_dir is None:
        return []
    return [
        (file.relative_to(source.bundle_dir).as_posix(), file)
        for file in files_under(source.bundle_dir, root)
        if file.name != "index.md" and file.suffix.lower() != ".bib"
    ]


def build(
    config: SiteConfig,
    out: Path,
    now: datetime | None = None,
    *,
    jobs: int | None = None,
    use_cache: bool = True,
    progress: Progress | None = None,
    expect_renders: bool = False,
    refresh_search: bool = True,
) -> BuildResult:
    """Build the whole site into ``out``. Raises BuildErrors; ``out`` is untouched on failure.

    ``now`` only decides which posts are due (future-dated ones wait unless
    ``config.drafts``); it defaults to :func:`clock.reference_time`. ``expect_renders``
    is a hint (the CLI knows some post changed): a worker may start before anything is read.
    ``refresh_search`` False keeps the last build's search index (the dev server: indexing
    a whole site on every edit would cost it a second per thousand posts).
    """
    started = time.perf_counter()
    cache = Cache(config.root / ".cache", enabled=use_cache)
    try:
        return _build(
            config, out, now, cache, jobs, progress, started, expect_renders, refresh_search
        )
    finally:
        cache.renders.close()


def _build(
    config: SiteConfig,
    out: Path,
    now: datetime | None,
    cache: Cache,
    jobs: int | None,
    progress: Progress | None,
    started: float,
    expect_renders: bool,
    refresh_search: bool = True,
) -> BuildResult:
    out = out.resolve()
    summaries: dict[str, PostSummary] = {}
    full: dict[str, Rendered] = {}
    cores = jobs or default_jobs()

    with Workers(config, cache, cores) as workers:
        if expect_renders and cache.has_manifest(out):  # an edit: one worker, warming up now
            workers.start_early(1, warm="page")
        previous = cache.load_manifest(out)
        if not previous.outputs:  # everything will render: start a worker per core now
            workers.start_early(cores, warm="all")
        loaded = content.load_posts(config, previous.records)
        if loaded.reparsed:  # some posts changed: a worker, warming up while we plan
            few = loaded.reparsed < PARALLEL_THRESHOLD
            workers.start_early(1 if few else cores, warm="page" if few else "all")
        now = now if now is not None else clock.reference_time()
        due = clock.due_posts(loaded.posts, now, include_future=config.drafts)
        planned, plan_context = plan_jobs(due, config, previous, cache)
        errors: list[BuildError] = list(loaded.errors)

        with staged_output(out, previous.outputs, incremental=bool(previous.outputs)) as output:
            pending = [job for job in planned if not _reuse(job, previous, output, summaries)]
            errors.extend(_parse_bibliographies(pending, config, cache))
            results = workers.run(pending, output.stage.root)
            font = _EarlyFontStarter(config, cache, workers, summaries, len(pending))
            for done, (job, result) in enumerate(zip(pending, results, strict=True), 1):
                errors.extend(result.errors)
                if result.entry is not None:
                    cache.renders.put(job.render_key, result.entry)
                for rel, entry in result.outputs:
                    output.record(rel, entry)
                if result.summary is not None:
                    summaries[result.slug] = result.summary
                    font.add(result.summary, done)
                if result.full is not None:
                    full[result.slug] = result.full
                if progress is not None:
                    progress(done, len(pending))
            warnings = [*loaded.warnings]
            for job in planned:
                if job.source.slug in summaries:
                    warnings.extend(summaries[job.source.slug].rendered.warnings)
            warnings.extend(_links_to_missing_posts(planned, summaries, config.root))
            if errors:
                # A broken .bib fails every post that uses it: say so once.
                unique = {str(e): e for e in errors}
                raise BuildErrors(list(unique.values()), tuple(warnings))

            errors.extend(_bundle_collisions(planned, summaries))
            if errors:
                raise BuildErrors(errors, tuple(warnings))
            for job in planned:
                for rel, source in job.bundle:
                    output.copy(f"posts/{job.source.slug}/{rel}", source)
            posts = [
                make_post(job.source, summaries[job.source.slug].rendered, config)
                for job in planned
            ]
            groups = SiteOutputs(config, planned, posts, summaries, full, previous, output, cache)
            groups.early_font = font.early
            groups.refresh_search = refresh_search
            groups.write_all()

    if output.changed or pending or loaded.reparsed or set(output.entries) != set(previous.outputs):
        cache.save_manifest(
            Manifest(
                version=code_version(),
                out=str(out),
                outputs=output.entries,
                summaries={job.render_key: summaries[job.source.slug] for job in planned},
                render_keys={job.source.path.as_posix(): job.render_key for job in planned},
                page_keys={job.source.path.as_posix(): job.page_key for job in planned},
                plan_context=plan_context,
                records=loaded.records,
                groups=groups.groups,
            )
        )
    if pending:
        cache.renders.prune(job.render_key for job in planned)
        cache.drop_legacy()
    return BuildResult(
        pages=sum(rel.endswith(".html") for rel in output.entries),
        posts=len(posts),
        seconds=time.perf_counter() - started,
        warnings=tuple(warnings),
        rendered=len(pending),
        outputs=tuple((rel, e.size, e.mtime_ns) for rel, e in sorted(output.entries.items())),
        next_due=None
        if config.drafts
        else min((post.date for post in loaded.posts if post.date > now), default=None),
        outside_inputs=any(
            not str(job.source.bibliography).startswith("content/")
            for job in planned
            if job.source.bibliography is not None
        ),
    )


class _EarlyFontStarter:
    """Starts the math font subset on a worker once 80% of many posts are rendered, with the
    characters seen so far (see ``assets.EarlyFont``), so it runs in the last posts' shadow
    instead of after them."""

    def __init__(
        self,
        config: SiteConfig,
        cache: Cache,
        workers: Workers,
        summaries: dict[str, PostSummary],
        total: int,
    ) -> None:
        self.config = config
        self.cache = cache
        self.workers = workers
        self.total = total
        self.chars: set[str] = set("".join(s.math_chars for s in summaries.values()))
        self.early: assets.EarlyFont | None = None
        self.tried = total < PARALLEL_THRESHOLD

    def add(self, summary: PostSummary, done: int) -> None:
        self.chars.update(summary.math_chars)
        if self.tried or done < 0.8 * self.total:
            return
        self.tried = True
        if self.workers.pool is None:  # rendering inline: nowhere to run it alongside
            return
        chars = frozenset(self.chars)
        source = fonts.find_font(self.config.root)
        if source is None or not chars:
            return
        if self.cache.get_bytes("font", assets.font_key(source, chars)) is not None:
            return  # the font for these characters is already made
        future = self.workers.submit(fonts.subset_woff2, source, chars)
        if future is not None:
            self.early = assets.EarlyFont(source, chars, future)


def _bundle_collisions(
    planned: list[PostJob], summaries: dict[str, PostSummary]
) -> list[BuildError]:
    """A file in a post's folder with the name of something the build writes there (its own
    ``index.html``, a figure's data) silently replaced it: two sources, one output."""
    errors = []
    for job in planned:
        made = {"index.html": "the page rendered from it"}
        made.update(
            (name, "a file its Markdown generates")
            for name in summaries[job.source.slug].file_names
        )
        for rel, source in job.bundle:
            if rel in made:
                where = source.relative_to(job.source.bundle_dir or source.parent)
                message = (
                    f"posts/{job.source.slug}/{rel} would be written twice: from "
                    f"{job.source.path.parent / where} and {made[rel]}; rename or remove the file"
                )
                errors.append(BuildError(job.source.path, None, message))
    return errors


def _parse_bibliographies(
    jobs: list[PostJob], config: SiteConfig, cache: Cache
) -> list[BuildError]:
    """Parse each .bib the posts to render use, once, before the workers start: they (and
    later builds) then find it in the cache instead of each parsing it again."""
    errors = []
    paths = {bibliography.file_for(job.source.bibliography, config.root) for job in jobs}
    for path in sorted(p for p in paths if p is not None):
        if (config.root / path).is_file():
            try:
                bibliography.load(config.root / path, path, cache)
            except BuildError as exc:
                errors.append(exc)
    return errors


def _reuse(
    job: PostJob, previous: Manifest, output: Output, summaries: dict[str, PostSummary]
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
    for rel in [page, *files]:
        output.keep(rel)
    summaries[job.source.slug] = summary
    return True


class SiteOutputs:
    """The site-wide files: listings, the feed and the assets, each group rebuilt only when
    its inputs changed. A body edit that keeps a post's title, dates and reading time
    leaves every listing page alone."""

    def __init__(
        self,
        config: SiteConfig,
        planned: list[PostJob],
        posts: list[Post],
        summaries: dict[str, PostSummary],
        full: dict[str, Rendered],
        previous: Manifest,
        output: Output,
        cache: Cache,
    ) -> None:
        self.config = config
        self.planned = planned
        self.posts = posts
        self.summaries = summaries
        self.full = full
        self.previous = previous
        self.output = output
        self.cache = cache
        self.early_font: assets.EarlyFont | None = None
        self.refresh_search = True  # see build(): the dev server keeps its first index
        self.groups: dict[str, tuple[str, list[str]]] = {}
        templates = sorted((config.root / "templates").rglob("*"))
        self.base_key = hash_parts(
            code_version(),
            config.key,
            *(
                part
                for t in templates
                if t.is_file()
                for part in (t.relative_to(config.root).as_posix(), t.read_bytes())
            ),
        )

    def write_all(self) -> None:
        listing = hash_parts(
            self.base_key,
            *(f"{_front_matter(post.source)}{post.reading_minutes}" for post in self.posts),
        )
        feed = hash_parts(listing, *(job.render_key for job in self.planned[: feeds.FEED_SIZE]))
        # Every post's text: any body edit rebuilds the index (the index is whole-site).
        search_key = hash_parts(listing, *(job.render_key for job in self.planned))
        known = self.previous.groups.get("search")
        if not self.refresh_search and known is not None:
            search_key = known[0]  # keep the last index (see ``build``)
        statics = [(rel, src.stat()) for rel, src in assets.static_files(self.config.root)]
        chars = frozenset("".join(s.math_chars for s in self.summaries.values()))
        font = fonts.find_font(self.config.root)
        asset_key = hash_parts(
            self.base_key,
            "".join(sorted(chars)),
            *(f"{rel}:{st.st_size}:{st.st_mtime_ns}" for rel, st in statics),
            f"{font}:{font.stat().st_mtime_ns}" if font else "no font",
            widget_fingerprints(self.config.widgets),
        )
        self._group("listings", listing, self._write_listings)
        self._group("feed", feed, self._write_feed)
        if self.config.search:
            self._group("search", search_key, self._write_search)
        self._group("assets", asset_key, lambda: self._write_assets(chars))

    def _group(self, name: str, key: str, write: Callable[[], None]) -> None:
        known = self.previous.groups.get(name)
        if known is not None and known[0] == key:
            files = known[1]
            entries = self.previous.outputs
            if all(rel in entries and self.output.reusable(rel, entries[rel].key) for rel in files):
                for rel in files:
                    self.output.keep(rel)
                self.groups[name] = known
                return
        before = set(self.output.entries)
        write()
        self.groups[name] = (key, sorted(set(self.output.entries) - before))

    def _site(self, with_feed_html: bool) -> Site:
        posts = self.posts
        if with_feed_html:
            posts = [
                make_post(post.source, self._full(job), self.config)
                if index < feeds.FEED_SIZE
                else post
                for index, (job, post) in enumerate(zip(self.planned, posts, strict=True))
            ]
        return build_site(self.config, posts)

    def _full(self, job: PostJob) -> Rendered:
        """A feed entry's HTML: from this build, the cache, or (cache lost) rendered again."""
        rendered = self.full.get(job.source.slug) or self.cache.renders.get(job.render_key)
        if isinstance(rendered, Rendered):
            return rendered
        source = content.reload(job.source, self.config)
        return postwork.render_markdown(source, self.config, cache=self.cache)

    def _env(self, site: Site) -> Any:
        return pages.make_environment(self.config, site, self.cache)

    def _write_listings(self) -> None:
        site = self._site(with_feed_html=False)
        for rel, text in pages.render_listing_pages(site, self._env(site)):
            self.output.write(rel, text)

    def _write_feed(self) -> None:
        site = self._site(with_feed_html=True)
        self.output.write("feed.xml", pages.render_feed(site, self._env(site)))

    def _write_search(self) -> None:
        docs = [
            search.Document(
                path=post.path,
                title=post.title,
                date=pages.human_date(post.source.date),
                html=rendered.html + (rendered.notes_html or ""),
                language=self.config.language,
            )
            for job, post in zip(self.planned, self.posts, strict=True)
            for rendered in [self._full(job)]
        ]
        for rel, data in search.build_index(docs):
            self.output.write(rel, data)

    def _write_assets(self, chars: frozenset[str]) -> None:
        assets.write_assets(self.config.root, self.output, chars, self.cache, self.early_font)
        write_widget_assets(self.config.root, self.config.widgets, self.output)
        self.output.write(".nojekyll", "")
