"""The site model (pipeline step 4, after the posts render): posts, tags and citations,
everything the listings and the feed need, computed before any of them is written.

Posts are sorted explicitly (date, then slug) so the output never depends on
file-system order; tags and citations are derived here (a post's neighbours and
folder come with its route, see ``routes``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cached_property
from typing import TYPE_CHECKING
from urllib.parse import quote

from site_builder.cite_box import Citation, make_citation
from site_builder.config import SiteConfig
from site_builder.frontmatter import SourcePost
from site_builder.kinds import BY_NAME
from site_builder.markdown import Rendered, Summary
from site_builder.menu import MenuItem
from site_builder.slug import tag_slug

if TYPE_CHECKING:  # a site without publications never imports them
    from site_builder.publications import Publications

# English month names, not the locale's: output never depends on the machine.
MONTHS = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip


UNDATED = datetime.min.replace(tzinfo=UTC)  # sorts a page (no date) after every post


class _FromSource:
    """What a post or page shows of its record, the same whether it holds its whole render
    (:class:`Post`) or its summary (:class:`Listed`)."""

    source: SourcePost

    @property
    def date(self) -> datetime:
        return _date_of(self.source)

    @property
    def title(self) -> str:
        return self.source.title

    @property
    def slug(self) -> str:
        return self.source.slug


@dataclass(frozen=True)
class Post(_FromSource):
    source: SourcePost
    rendered: Rendered
    path: str  # site-relative directory, e.g. "posts/attention/"
    url: str  # absolute URL of the page
    site_title: str = ""  # for the APA reference in "Cite this post"
    cite_type: str = "article"  # the BibTeX entry's type (``SiteConfig.cite_type``)

    @cached_property
    def citation(self) -> Citation:
        """Made on first use: only post pages show it, listings of 1000 posts don't."""
        date = self.date
        return make_citation(
            self.source.author,
            self.source.title,
            date.year,
            self.url,
            date=f"{date.year}, {MONTHS[date.month - 1]} {date.day}",
            site=self.site_title,
            urldate=(self.source.updated or date).strftime("%Y-%m-%d"),
            entry_type=self.cite_type,
        )

    @property
    def reading_minutes(self) -> int:
        return self.rendered.reading_minutes

    @property
    def sections(self) -> tuple[Section, ...]:
        """What follows the body, in order, on the page and in the feed alike (each medium
        marks it up its own way): the one list to add a section to. The feed once lacked
        the References because each kept its own."""
        parts = (
            Section("notes", "notes", "Notes", self.rendered.notes_html),
            Section(
                "references-section", "references", "References", self.rendered.references_html
            ),
        )
        return tuple(part for part in parts if part.html)


@dataclass(frozen=True)
class Listed(_FromSource):
    """A post or page as the site model holds it: its record and its render's summary, no
    body. Listings, tags, the archive and the sitemap need no more; a page that shows a
    body makes a :class:`Post` from the whole render (``Session.full_rendered``)."""

    source: SourcePost
    summary: Summary
    path: str  # site-relative directory, e.g. "posts/attention/"
    url: str

    @property
    def reading_minutes(self) -> int:
        return self.summary.reading_minutes


@dataclass(frozen=True)
class Section:
    css: str  # the <section>'s class
    id: str  # its heading's id
    title: str
    html: str


def _date_of(source: SourcePost) -> datetime:
    """A post's date. Only dated kinds are ever listed, cited or in the feed; a page
    reaching here is a bug, not bad input."""
    if source.date is None:
        raise TypeError(f"{source.path} is a {source.kind}: it has no date")
    return source.date


@dataclass(frozen=True)
class Tag:
    name: str
    slug: str
    posts: tuple[Listed, ...]

    @property
    def path(self) -> str:
        """The page's site-relative URL path, percent-encoded (the folder is ``slug``)."""
        return f"tags/{quote(self.slug, safe='+-.')}/"

    @property
    def folder(self) -> str:
        """Where the page is written: the folder name as it is on disk."""
        return f"tags/{self.slug}/"


@dataclass(frozen=True)
class Site:
    config: SiteConfig
    posts: tuple[Listed, ...]  # newest first
    tags: tuple[Tag, ...]  # by name
    pages: tuple[Listed, ...] = ()  # undated pages (content/pages/), by path
    home: Listed | None = None  # content/index.md: the text above the home page's list
    menu: tuple[MenuItem, ...] = ()  # the header's links (``menu.site_menu``)
    publications: Publications | None = None  # ``publications:`` in site.yaml


def make_listed(source: SourcePost, summary: Summary, config: SiteConfig) -> Listed:
    path = BY_NAME[source.kind].path(source.slug)
    return Listed(source, summary, path, config.absolute_url(path))


def make_post(source: SourcePost, rendered: Rendered, config: SiteConfig) -> Post:
    path = BY_NAME[source.kind].path(source.slug)
    return Post(
        source=source,
        rendered=rendered,
        path=path,
        url=config.absolute_url(path),
        site_title=config.title,
        cite_type=config.cite_type,
    )


def _order(source: SourcePost) -> tuple[datetime, str]:
    """Newest first (sorted in reverse); the slug breaks ties so the order never depends on
    the file system."""
    return (source.date or UNDATED, source.slug)


def sort_posts(sources: tuple[SourcePost, ...] | list[SourcePost]) -> list[SourcePost]:
    return sorted(sources, key=_order, reverse=True)


def tag_groups(
    sources: list[SourcePost],
) -> list[tuple[str, str, tuple[SourcePost, ...]]]:
    """(name, slug, posts) per tag, by name; ``sources`` newest first, as each tag's posts.
    A tag's name is as its newest post writes it: one spelling, once ``tags.merge_tags``
    has run (``ML`` and ``ml`` are one tag)."""
    by_tag: dict[str, list[SourcePost]] = {}
    names: dict[str, str] = {}
    for source in sources:
        for name in source.tags:
            slug = tag_slug(name)
            tagged = by_tag.setdefault(slug, [])
            if not tagged or tagged[-1] is not source:  # ``ML`` and ``ml`` on one post: once
                tagged.append(source)
            names.setdefault(slug, name)
    ordered = sorted(by_tag, key=lambda s: names[s].lower())
    return [(names[slug], slug, tuple(by_tag[slug])) for slug in ordered]


def build_site(
    config: SiteConfig,
    rendered: list[Listed],
    menu: tuple[MenuItem, ...] = (),
    publications: Publications | None = None,
) -> Site:
    """The site from every rendered source, each in its place by its kind."""
    posts = [post for post in rendered if BY_NAME[post.source.kind].dated]
    undated = [post for post in rendered if not BY_NAME[post.source.kind].dated]
    pages = tuple(post for post in undated if BY_NAME[post.source.kind].template)
    home = next((post for post in undated if not BY_NAME[post.source.kind].template), None)
    ordered = sorted(posts, key=lambda post: _order(post.source), reverse=True)
    post_of = {id(post.source): post for post in ordered}
    tags = tuple(
        Tag(name=name, slug=slug, posts=tuple(post_of[id(s)] for s in tagged))
        for name, slug, tagged in tag_groups([post.source for post in ordered])
    )
    return Site(config, tuple(ordered), tags, pages, home, menu, publications)
