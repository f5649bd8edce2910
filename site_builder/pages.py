"""Templates: post pages (step 3, see ``render``), listings and the feed (step 5) through
the Jinja templates in ``templates/``.

Templates autoescape and use StrictUndefined: a misspelt variable is an error
with the template's name and line, not an empty string on the live site.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
import traceback
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from site_builder import compiled, feeds, titles
from site_builder.config import SiteConfig
from site_builder.errors import BuildError
from site_builder.meta import home_meta, page_meta, post_meta
from site_builder.model import MONTHS, Listed, Post, Site
from site_builder.slug import tag_url_slug
from site_builder.toc import table_of_contents
from site_builder.urls import page_url

if TYPE_CHECKING:
    import jinja2

    from site_builder.frontmatter import SourcePost
    from site_builder.publications import Publication
    from site_builder.routes import Routes, SourceRoute


def human_date(value: datetime) -> str:
    """``29 November 2026``: spelled out by hand so the system locale never leaks in."""
    return f"{value.day} {MONTHS[value.month - 1]} {value.year}"


def make_environment(
    config: SiteConfig,
    site: Site | None = None,
    bytecode_cache: jinja2.BytecodeCache | None = None,
) -> jinja2.Environment:
    """The Jinja environment; ``site`` is None where only post pages are rendered (workers).

    Post pages see only their post and its neighbours, never the whole site, so
    a post page can be rebuilt alone. ``bytecode_cache`` keeps compiled templates
    between builds (the incremental layer's).
    """
    import jinja2  # a build that renders no page (a no-op) never imports Jinja
    import markupsafe

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(config.root / "templates")),
        autoescape=jinja2.select_autoescape(["html", "xml"], default_for_string=True),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        bytecode_cache=compiled.remembering(bytecode_cache),
    )
    env.globals.update(config=config, url=page_url(config), absolute_url=config.absolute_url)
    if site is not None:
        env.globals["site"] = site
        env.globals["menu"] = site.menu  # a post or page gets it with its route instead
    env.filters["human_date"] = human_date
    env.filters["iso"] = lambda d: d.isoformat()
    env.filters["tag_slug"] = tag_url_slug
    env.filters["preview_status"] = preview_status(config)
    macros = config.math_macros
    env.filters["title_html"] = lambda title: markupsafe.Markup(titles.title_html(title, macros))
    env.filters["title_text"] = titles.title_text
    # True if any of the posts (None ones aside) has math in its title: load the math font.
    env.filters["title_math"] = lambda posts: any(p and _heads_with_math(p) for p in posts)
    return env


def preview_status(config: SiteConfig) -> Callable[[SourcePost], str]:
    """``Draft`` or ``Scheduled for ...`` on a post shown by ``--drafts`` (a preview that is
    never deployed), so a draft cannot be mistaken for a published post; "" otherwise."""
    from site_builder import clock

    now = clock.reference_time() if config.drafts else None

    def status(source: SourcePost) -> str:
        if now is None:
            return ""
        if source.draft:
            return "Draft"
        if source.date is not None and source.date > now:
            return f"Scheduled for {human_date(source.date)}"
        return ""

    return status


def template_texts(config: SiteConfig) -> dict[str, bytes]:
    """Every template's bytes by its name under ``templates/``."""
    folder = config.root / "templates"
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def closure_hash(texts: dict[str, bytes], name: str) -> str:
    """Hash of a template and every template it extends, includes or imports.

    A post page depends on exactly these files, so editing ``tag.html`` does
    not re-render a thousand post pages.
    """
    seen: set[str] = set()
    pending = [name]
    digest = hashlib.sha256()
    while pending:
        current = pending.pop()
        if current in seen:
            continue
        seen.add(current)
        data = texts.get(current)
        if data is None:
            digest.update(f"missing {current}".encode())
            continue
        digest.update(current.encode() + b"\0" + data)
        pending.extend(_references(data))
    return digest.hexdigest()


# A tag that names other templates, and each string in its expression: ``{% include "a" %}``,
# ``{% extends x if c else "b.html" %}``, ``{% include ["a", "b"] ignore missing %}``,
# ``{% from "m.html" import f %}``. Every string counts, so a conditional reference is kept
# (Jinja's ``meta.find_referenced_templates`` drops one it cannot evaluate); a name only a
# variable holds cannot be known here, as there.
_REFERENCING = re.compile(r"\{%[-+]?\s*(?:extends|include|import|from)\b(.*?)[-+]?%\}", re.DOTALL)
_STRING = re.compile(r"'([^'\\]*)'|\"([^\"\\]*)\"")


def _references(data: bytes) -> tuple[str, ...]:
    """The templates a template's source extends, includes or imports, sorted. Found by
    scanning its tags rather than by parsing it with Jinja (a tenth of the time); a
    string that names no template (``{% include "x" if "y" in z %}``) only adds a name
    that is hashed as missing, so the closure is never smaller than Jinja's."""
    source = data.decode("utf-8", "replace")
    found = {
        single or double
        for tag in _REFERENCING.finditer(source)
        for single, double in _STRING.findall(tag.group(1))
    }
    return tuple(sorted(name for name in found if name))


def render_template(env: jinja2.Environment, name: str, **context: Any) -> str:
    """Render one template; any Jinja problem becomes a BuildError at the template's line."""
    import jinja2

    root = (
        Path(env.loader.searchpath[0]) if isinstance(env.loader, jinja2.FileSystemLoader) else None
    )
    try:
        return env.get_template(name).render(**context)
    except jinja2.TemplateSyntaxError as exc:
        where = Path("templates") / (exc.name or name)
        raise BuildError(where, exc.lineno, f"template syntax error: {exc.message}") from None
    except jinja2.TemplateNotFound as exc:
        raise BuildError(
            Path("templates") / name, None, f"template not found: {exc.name}"
        ) from None
    except Exception as exc:  # a runtime error inside a template: find the template frame
        where, line = Path("templates") / name, None
        for frame in reversed(traceback.extract_tb(exc.__traceback__)):
            if root is not None and frame.filename.startswith(str(root)):
                where = Path("templates") / Path(frame.filename).relative_to(root)
                line = frame.lineno
                break
        raise BuildError(where, line, f"template error: {exc}") from None


def archive_years(posts: tuple[Listed, ...]) -> list[tuple[int, list[Listed]]]:
    """Posts grouped by year (in each post's own time zone), newest year first."""
    years: dict[int, list[Listed]] = {}
    for post in posts:  # already newest first, so each group is too
        years.setdefault(post.date.year, []).append(post)
    return sorted(years.items(), reverse=True)


def render_source_page(
    env: jinja2.Environment, config: SiteConfig, route: SourceRoute, post: Post
) -> str:
    """One post's or page's page, through its kind's template. A page has no date: its
    meta is a plain web page's, not an article's."""
    kind = route.kind
    assert kind.template is not None, f"{kind.name} has no page of its own"
    meta = (
        post_meta(config, post)
        if kind.dated
        else page_meta(
            config,
            post.path,
            titles.title_text(post.title),
            titles.title_text(post.source.description or ""),
        )
    )
    return render_template(
        env,
        kind.template,
        post=post,
        older=route.older,
        newer=route.newer,
        menu=route.menu,
        page_path=post.path,
        meta=meta,
        toc=table_of_contents(post, config),
    )


def render_listing_pages(
    site: Site, env: jinja2.Environment, routes: Routes, home: Post | None
) -> Iterator[tuple[str, str]]:
    """(output path, text) of each listing route: the route table says which pages exist
    (``routes.plan_routes``), ``_LISTINGS`` says how each is drawn. ``home`` is the home
    text with its HTML (``content/index.md``), if the site has one."""
    tags = {tag.folder + "index.html": tag for tag in site.tags}
    for route in routes.files.values():
        if route.kind == "tag":
            tag = tags[route.file]
            meta = page_meta(site.config, tag.path, tag.name, f"Posts tagged “{tag.name}”.")
            yield (
                route.file,
                render_template(env, "tag.html", tag=tag, page_path=tag.path, meta=meta),
            )
        elif route.kind == "listing":
            yield route.file, _LISTINGS[route.file](env, site, routes, home)


def _home(env: jinja2.Environment, site: Site, routes: Routes, home: Post | None) -> str:
    """The home text, the profile (``author:`` as a mapping) with the selected papers, and
    the recent posts."""
    meta = home_meta(site.config)
    if home is not None and home.source.description:
        meta = dataclasses.replace(meta, description=titles.title_text(home.source.description))
    papers: tuple[Publication, ...] = ()
    if site.publications:  # only a site with publications imports them
        from site_builder.publications import selected

        papers = selected(site.publications)
    return render_template(
        env,
        "index.html",
        posts=site.posts,
        home=home,
        papers=papers,
        papers_math=any("<math" in paper.title_html for paper in papers),
        page_path="",
        meta=meta,
    )


def _publications(env: jinja2.Environment, site: Site, routes: Routes, home: Post | None) -> str:
    description = f"Publications of {site.config.author}."
    meta = page_meta(site.config, "publications/", "Publications", description)
    return render_template(
        env,
        "publications.html",
        publications=site.publications,
        page_path="publications/",
        meta=meta,
    )


def _tags(env: jinja2.Environment, site: Site, routes: Routes, home: Post | None) -> str:
    meta = page_meta(site.config, "tags/", "Tags")
    return render_template(env, "tags.html", page_path="tags/", meta=meta)


def _archive(env: jinja2.Environment, site: Site, routes: Routes, home: Post | None) -> str:
    meta = page_meta(site.config, "archive/", "Archive")
    years = archive_years(site.posts)
    return render_template(env, "archive.html", years=years, page_path="archive/", meta=meta)


def _not_found(env: jinja2.Environment, site: Site, routes: Routes, home: Post | None) -> str:
    meta = page_meta(site.config, "404.html", "Page not found")
    return render_template(env, "404.html", page_path="404.html", meta=meta)


def _search(env: jinja2.Environment, site: Site, routes: Routes, home: Post | None) -> str:
    description = f"Search the posts of {site.config.title}."
    meta = page_meta(site.config, "search/", "Search", description)
    return render_template(env, "search.html", page_path="search/", meta=meta)


def _sitemap(env: jinja2.Environment, site: Site, routes: Routes, home: Post | None) -> str:
    entries = feeds.sitemap_entries(site.config, routes.sitemap())
    return render_template(env, "sitemap.xml", entries=entries)


def _robots(env: jinja2.Environment, site: Site, routes: Routes, home: Post | None) -> str:
    return feeds.robots_txt(site.config)


# How each site-wide page is drawn, by its route's file.
_LISTINGS: dict[str, Callable[[jinja2.Environment, Site, Routes, Post | None], str]] = {
    "index.html": _home,
    "tags/index.html": _tags,
    "archive/index.html": _archive,
    "publications/index.html": _publications,
    "404.html": _not_found,
    "search/index.html": _search,
    "sitemap.xml": _sitemap,
    "robots.txt": _robots,
}


def render_feed(site: Site, env: jinja2.Environment, newest: list[Post]) -> str:
    """The Atom feed. Its entries carry their post's full HTML: the caller passes a site
    whose newest ``feeds.FEED_SIZE`` posts have it."""
    return render_template(
        env,
        "feed.xml",
        posts=newest,
        updated=feeds.newest_update(site.posts),
        entry_html=feeds.entry_html,
    )


def _heads_with_math(post: Any) -> bool:
    """A post's title or dek holds a formula (a neighbour link shows its title alone)."""
    source = getattr(post, "source", None)
    dek = getattr(source, "description", None) or ""
    return titles.has_math(post.title) or titles.has_math(dek)
