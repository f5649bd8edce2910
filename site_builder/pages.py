"""Templates: post pages (step 3, see ``render``), listings and the feed (step 5) through
the Jinja templates in ``templates/``.

Templates autoescape and use StrictUndefined: a misspelt variable is an error
with the template's name and line, not an empty string on the live site.
"""

from __future__ import annotations

import hashlib
import traceback
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from site_builder import feeds, titles
from site_builder.config import SiteConfig
from site_builder.errors import BuildError
from site_builder.meta import page_meta, post_meta
from site_builder.model import MONTHS, Post, Site
from site_builder.slug import tag_url_slug
from site_builder.toc import table_of_contents
from site_builder.urls import page_url

if TYPE_CHECKING:
    import jinja2

    from site_builder.content import SourcePost


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
        bytecode_cache=bytecode_cache,
    )
    env.globals.update(config=config, url=page_url(config), absolute_url=config.absolute_url)
    if site is not None:
        env.globals["site"] = site
    env.filters["human_date"] = human_date
    env.filters["iso"] = lambda d: d.isoformat()
    env.filters["tag_slug"] = tag_url_slug
    env.filters["preview_status"] = preview_status(config)
    macros = config.math_macros
    env.filters["title_html"] = lambda title: markupsafe.Markup(titles.title_html(title, macros))
    env.filters["title_text"] = titles.title_text
    # True if any of the posts (None ones aside) has math in its title: load the math font.
    env.filters["title_math"] = lambda posts: any(p and titles.has_math(p.title) for p in posts)
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
        if source.date > now:
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
    import jinja2
    from jinja2 import meta as jinja_meta

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
        try:
            source = data.decode("utf-8")
            referenced = jinja_meta.find_referenced_templates(jinja2.Environment().parse(source))
        except (jinja2.TemplateSyntaxError, UnicodeDecodeError):
            continue  # the render itself reports it with its line
        pending.extend(sorted(r for r in referenced if r))
    return digest.hexdigest()


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


def archive_years(posts: tuple[Post, ...]) -> list[tuple[int, list[Post]]]:
    """Posts grouped by year (in each post's own time zone), newest year first."""
    years: dict[int, list[Post]] = {}
    for post in posts:  # already newest first, so each group is too
        years.setdefault(post.source.date.year, []).append(post)
    return sorted(years.items(), reverse=True)


def render_post_page(
    env: jinja2.Environment, config: SiteConfig, post: Post, older: Any, newer: Any
) -> str:
    """One post's page. ``older``/``newer`` need only ``title`` and ``path``."""
    return render_template(
        env,
        "post.html",
        post=post,
        older=older,
        newer=newer,
        page_path=post.path,
        meta=post_meta(config, post),
        toc=table_of_contents(post, config),
    )


def render_listing_pages(
    site: Site, env: jinja2.Environment, sitemap: list[feeds.SitemapEntry]
) -> Iterator[tuple[str, str]]:
    """Yield (site-relative output path, text) for the pages that list posts, the 404 page,
    the sitemap and robots.txt: everything site-wide that needs no post's body."""
    config = site.config
    yield (
        "index.html",
        render_template(
            env, "index.html", posts=site.posts, page_path="", meta=page_meta(config, "")
        ),
    )
    yield from render_listings(env, site)
    yield (
        "404.html",
        render_template(
            env,
            "404.html",
            page_path="404.html",
            meta=page_meta(config, "404.html", "Page not found"),
        ),
    )
    if config.search:
        yield (
            "search/index.html",
            render_template(
                env,
                "search.html",
                page_path="search/",
                meta=page_meta(config, "search/", "Search", f"Search the posts of {config.title}."),
            ),
        )
    yield "sitemap.xml", render_template(env, "sitemap.xml", entries=sitemap)
    yield "robots.txt", feeds.robots_txt(config)


def render_feed(site: Site, env: jinja2.Environment) -> str:
    """The Atom feed. Its entries carry their post's full HTML: the caller passes a site
    whose newest ``feeds.FEED_SIZE`` posts have it."""
    return render_template(
        env,
        "feed.xml",
        posts=feeds.feed_posts(site),
        updated=feeds.newest_update(site.posts),
        entry_html=feeds.entry_html,
    )


def render_listings(env: jinja2.Environment, site: Site) -> Iterator[tuple[str, str]]:
    """The ways into the posts besides the home page: one page per tag, all tags, by year."""
    config = site.config
    for tag in site.tags:
        meta = page_meta(config, tag.path, tag.name, f"Posts tagged “{tag.name}”.")
        yield (
            tag.folder + "index.html",
            render_template(env, "tag.html", tag=tag, page_path=tag.path, meta=meta),
        )
    yield (
        "tags/index.html",
        render_template(
            env, "tags.html", page_path="tags/", meta=page_meta(config, "tags/", "Tags")
        ),
    )
    yield (
        "archive/index.html",
        render_template(
            env,
            "archive.html",
            years=archive_years(site.posts),
            page_path="archive/",
            meta=page_meta(config, "archive/", "Archive"),
        ),
    )
