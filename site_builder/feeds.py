"""Data for the machine-readable files: the Atom feed, the sitemap and robots.txt.

Dates come only from front matter, never from the clock, so the feed's bytes
are the same on every build of the same posts. Everything here is absolute
(``config.absolute_url``): feed readers and crawlers see these files out of
the site's context, where a root-relative link means nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from site_builder.config import SiteConfig
from site_builder.model import Listed, Post

if TYPE_CHECKING:
    from site_builder.routes import Route

FEED_SIZE = 20  # newest posts in the feed: readers keep their own history
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)  # an empty site still needs a fixed <updated>


@dataclass(frozen=True)
class SitemapEntry:
    url: str
    lastmod: datetime | None  # None: an undated page that gives no ``updated:``


def post_updated(post: Post | Listed) -> datetime:
    return post.source.updated or post.date


def newest_update(posts: Sequence[Post | Listed]) -> datetime:
    """The feed's ``<updated>``: the latest date or update of any post it lists."""
    return max((post_updated(p) for p in posts), default=EPOCH)


def entry_html(post: Post) -> str:
    """The whole post for ``<content type="html">``: body, notes and references, as the
    page shows them (a reader of the feed follows the citations too)."""
    return post.rendered.html + "".join(
        f'\n<section class="{part.css}"><h2 id="{part.id}">{part.title}</h2>\n{part.html}</section>'
        for part in post.sections
    )


def sitemap_entries(config: SiteConfig, pages: list[Route]) -> list[SitemapEntry]:
    """Every page a search engine should index (the route table's, not 404.html), with its
    last change: the newest date or update among the posts it shows."""
    return [SitemapEntry(config.absolute_url(page.url or ""), _last_change(page)) for page in pages]


def _last_change(page: Route) -> datetime | None:
    """The newest date or update of the sources a page shows; EPOCH for a listing that shows
    none (an empty site's home), None for a page without dates."""
    dates = [date for s in page.posts if (date := s.updated or s.date) is not None]
    return max(dates) if dates else (None if page.posts else EPOCH)


def robots_txt(config: SiteConfig) -> str:
    """Allow everything and point crawlers at the sitemap's absolute URL."""
    return f"User-agent: *\nAllow: /\n\nSitemap: {config.absolute_url('sitemap.xml')}\n"
