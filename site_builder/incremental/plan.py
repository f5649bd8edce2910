"""Keys from declared inputs: what a post's render, its page and each group of site-wide
files depend on, hashed.

A render key covers the post's body and everything its Markdown reads (its
folder's images, its bibliography, macros, the code). A page key adds the
template closure, the configuration, every front-matter field and the
neighbours. Equal keys mean equal bytes, which is what lets the last build's
output stand in for a new render.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from site_builder import bibliography, feeds, fonts, kinds, pages, render, widgets
from site_builder.config import SiteConfig
from site_builder.frontmatter import SourcePost
from site_builder.incremental.jobs import PostJob
from site_builder.incremental.keys import code_version, hash_parts
from site_builder.incremental.state import LastBuild
from site_builder.model import Site
from site_builder.routes import Routes, SourceRoute


def plan_jobs(routes: Routes, config: SiteConfig, previous: LastBuild) -> tuple[list[PostJob], str]:
    """Each post's job, newest first, with its keys.

    Also returns the plan's context: everything besides a post's own file that its
    keys depend on (code, configuration, template, bibliographies, every post's place,
    slug and title, which make the neighbours, and its tags, whose spelling other posts
    choose: ``tags.merge_tags``). When it is the last build's, a post whose file was not
    re-read keeps its keys without hashing them again.
    """
    version = code_version()
    texts = pages.template_texts(config)
    templates = {
        kind.name: pages.closure_hash(texts, kind.template) if kind.template else ""
        for kind in kinds.KINDS
    }
    # Most posts share one .bib (or none): hash each once.
    named = {route.source.bibliography for route in routes.sources}
    bib_keys = {name: bibliography_key(name, config.root) for name in sorted(named, key=str)}
    context = hash_parts(
        version,
        config.key,
        *templates.values(),
        repr(routes.menu),
        widgets.fingerprints(config.widgets),
        *(f"{name}={key}" for name, key in bib_keys.items()),
        "\n".join(
            f"{r.source.path.as_posix()}\0{r.source.slug}\0{r.source.title}\0{r.source.tags}"
            for r in routes.posts
        ),
    )
    same_context = context == previous.plan_context

    found: dict[Path | None, tuple[Path | None, str]] = {}

    def bib(named: Path | None) -> tuple[Path | None, str]:
        """A .bib resolved and hashed once a build for the many posts that share one (never
        across builds: the dev server's process outlives an edit)."""
        if named not in found:
            path = bibliography.file_for(named, config.root)
            found[named] = path, _file_hash(path, config.root) if path else ""
        return found[named]

    jobs = []
    for index, route in enumerate(routes.sources):
        source = route.source
        path = source.path.as_posix()
        record = previous.records.get(path)
        inputs = render.render_inputs(route, config, bib)
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
            render_key = inputs.key()
            page_key = hash_parts(
                version, render_key, config.key, templates[source.kind], page_inputs(route)
            )
        jobs.append(
            PostJob(
                route,
                inputs,
                render_key,
                page_key,
                # the feed's newest posts, and the home text (drawn by index.html)
                want_full=index < feeds.FEED_SIZE or route.kind.template is None,
                last_render_key=previous.render_keys.get(path),
                cached=render_key in previous.summaries,
            )
        )
    return jobs, context


def group_keys(
    config: SiteConfig,
    site: Site,
    jobs: list[PostJob],
    static: tuple[tuple[str, Path], ...],
    math_chars: frozenset[str],
) -> dict[str, str]:
    """The key of each site-wide group of files: the templates and settings, every post's
    front matter and reading time, the pages' front matter, the menu and the home text's
    render (the listings and sitemap), the renders the feed or search show, and for the
    assets ``static/``, the font and the characters of every formula."""
    texts = pages.template_texts(config).items()
    base = hash_parts(code_version(), config.key, *(part for text in texts for part in text))
    listings = hash_parts(
        base,
        *(f"{front_matter(post.source)}{post.reading_minutes}" for post in site.posts),
        *(front_matter(page.source) for page in site.pages),
        repr(site.menu),
        repr(site.publications),  # what the home page and publications/ show of the .bib
        *(job.render_key for job in jobs if job.route.kind.template is None),
    )
    posts = [job for job in jobs if job.route.kind.dated]
    font = fonts.find_font(config.root)
    stats = [(rel, file.stat()) for rel, file in static]
    return {
        "listings": listings,
        "feed": hash_parts(listings, *(job.render_key for job in posts[: feeds.FEED_SIZE])),
        "assets": hash_parts(
            base,
            "".join(sorted(math_chars)),
            *(f"{rel}:{st.st_size}:{st.st_mtime_ns}" for rel, st in stats),
            f"{font}:{font.stat().st_mtime_ns}" if font else "no font",
            widgets.fingerprints(config.widgets),
        ),
    }


def page_inputs(route: SourceRoute) -> str:
    """What a source's page shows besides its rendered body, as one string to hash: its
    front matter and every field of its route but the bundle (in the render's inputs), so
    a field added to a route (the menu was one) can never leave pages stale."""
    shown = [
        (field.name, getattr(route, field.name))
        for field in dataclasses.fields(route)
        if field.name not in ("source", "bundle")
    ]
    return front_matter(route.source) + repr(shown)


# What a record holds of its body (the render key covers the body): an edit to the text
# alone must not re-render the listings, which show only the front matter and the
# reading time (a thousand-post site's listings took most of a one-post edit's build).
_BODY_FIELDS = frozenset({"body", "body_hash", "widgets"})


def front_matter(source: SourcePost) -> str:
    """Everything a page shows of a post besides its body, as one string to hash: every
    field of the record but those of the body (``_BODY_FIELDS``), so a field added to the
    front matter can never leave pages stale."""
    return repr(
        tuple(
            (field.name, getattr(source, field.name))
            for field in dataclasses.fields(source)
            if field.name not in _BODY_FIELDS
        )
    )


def bibliography_key(named: Path | None, root: Path) -> str:
    """What a post's render depends on in its bibliography: the file's bytes."""
    path = bibliography.file_for(named, root)
    return "none" if path is None else _file_hash(path, root)


def _file_hash(path: Path, root: Path) -> str:
    """A .bib's bytes, hashed."""
    try:
        return hash_parts(path.as_posix(), (root / path).read_bytes())
    except OSError:
        return f"missing {path.as_posix()}"
