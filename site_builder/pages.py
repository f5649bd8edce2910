"""Stage 4: render the site model through the Jinja templates in ``templates/``.

Templates autoescape and use StrictUndefined: a misspelt variable is an error
with the template's name and line, not an empty string on the live site.
"""

from __future__ import annotations

import traceback
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import jinja2

from site_builder import feeds
from site_builder.errors import BuildError
from site_builder.markdown.headings import slugify
from site_builder.meta import page_meta, post_meta
from site_builder.model import Post, Site

MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


def human_date(value: datetime) -> str:
    """``29 November 2026``: spelled out by hand so the system locale never leaks in."""
    return f"{value.day} {MONTHS[value.month - 1]} {value.year}"


def make_environment(site: Site) -> jinja2.Environment:
    config = site.config
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(config.root / "templates")),
        autoescape=jinja2.select_autoescape(["html", "xml"], default_for_string=True),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.globals.update(site=site, config=config, url=config.url, absolute_url=config.absolute_url)
    env.filters["human_date"] = human_date
    env.filters["iso"] = lambda d: d.isoformat()
    env.filters["tag_slug"] = slugify
    return env


def render_template(env: jinja2.Environment, name: str, **context: Any) -> str:
    """Render one template; any Jinja problem becomes a BuildError at the template's line."""
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


def render_pages(site: Site) -> Iterator[tuple[str, str]]:
    """Yield (site-relative output path, text) for every page and feed of the site."""
    env = make_environment(site)
    config = site.config
    for post in site.posts:
        older, newer = site.previous_and_next(post)
        yield (
            post.path + "index.html",
            render_template(
                env,
                "post.html",
                post=post,
                older=older,
                newer=newer,
                page_path=post.path,
                meta=post_meta(config, post),
            ),
        )
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
    yield (
        "feed.xml",
        render_template(
            env,
            "feed.xml",
            posts=feeds.feed_posts(site),
            updated=feeds.newest_update(site.posts),
            entry_html=feeds.entry_html,
        ),
    )
    yield "sitemap.xml", render_template(env, "sitemap.xml", entries=feeds.sitemap_entries(site))
    yield "robots.txt", feeds.robots_txt(config)


def render_listings(env: jinja2.Environment, site: Site) -> Iterator[tuple[str, str]]:
    """The ways into the posts besides the home page: one page per tag, all tags, by year."""
    config = site.config
    for tag in site.tags:
        meta = page_meta(config, tag.path, tag.name, f"Posts tagged “{tag.name}”.")
        yield (
            tag.path + "index.html",
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
