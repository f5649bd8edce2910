"""Plan routes: every file the site will have and what makes it, before anything renders.

One table built from the posts: each post's page and its folder's own files, the
listings, one page per tag, the feed and the files generated beside ``static/``.
Two things claiming one path is an error naming both (compare Zola's
``find_path_collisions`` and Eleventy's duplicate-permalink check), found
before a page renders or a file is written. A post's folder comes from
``model.post_path`` alone; the sitemap and ``site-builder check`` read this table.

Two posts with one slug and two tags with one page are reported by the load
stage (``content``), at the front-matter line that chose the name; they are
not reported twice here.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from site_builder import assets
from site_builder.config import SiteConfig
from site_builder.content import SourcePost, line_in_post
from site_builder.errors import BuildError, BuildErrors, BuildWarning, Location
from site_builder.model import Post, post_path, sort_posts, tag_groups
from site_builder.sitefiles import files_under


@dataclass(frozen=True)
class Neighbour:
    """What a post page shows of the posts before and after it."""

    title: str
    path: str


@dataclass(frozen=True)
class PostRoute:
    """Where one post goes: its folder, its neighbours and the files copied beside its page."""

    source: SourcePost
    path: str  # "posts/<slug>/"
    older: Neighbour | None
    newer: Neighbour | None
    bundle: tuple[tuple[str, Path], ...]  # a folder post's own files: (name, source)


@dataclass(frozen=True)
class Route:
    """One output file and what makes it."""

    file: str  # site-relative, "/"-separated
    kind: str  # "post", "bundle", "tag", "page", "static", "generated"
    origin: str  # what makes it, in words, for a collision message
    at: Path | None = None  # the input reported for a collision (a post, a static file)
    url: str | None = None  # the page's URL path when the sitemap lists it
    posts: tuple[SourcePost, ...] = ()  # what the page shows: the sitemap's last change


@dataclass(frozen=True)
class Routes:
    posts: tuple[PostRoute, ...]  # newest first
    files: dict[str, Route]  # in sitemap order: home, posts, tags, archive, then the rest
    static: tuple[tuple[str, Path], ...]  # (output path, source) of every file under static/

    def sitemap(self) -> list[Route]:
        """The pages a search engine should index, in the sitemap's order."""
        return [route for route in self.files.values() if route.url is not None]

    def page_sources(self) -> dict[str, Path]:
        """Each post page's output path and the Markdown file it comes from."""
        return {r.file: r.at for r in self.files.values() if r.kind == "post" and r.at}


# Files the build generates under static/ (see ``assets``).
GENERATED = {
    assets.CODE_CSS: "the stylesheet generated for code highlighting",
    assets.FONTS_CSS: "the generated @font-face stylesheet",
    assets.MATH_FONT: "the math font subset for the site's formulas",
}


def plan_routes(config: SiteConfig, posts: Iterable[SourcePost]) -> Routes:
    """The route table for ``posts`` (the due ones); raises BuildErrors on a collision."""
    ordered = sort_posts(list(posts))
    table = _Table()
    table.add(Route("index.html", "page", "the home page", url="", posts=tuple(ordered)))
    post_routes = []
    for index, source in enumerate(ordered):
        route = PostRoute(
            source,
            post_path(source.slug),
            _neighbour(ordered, index + 1),
            _neighbour(ordered, index - 1),
            tuple(_bundle_files(source, config.root)),
        )
        post_routes.append(route)
        page = "the page rendered from it"
        table.add(
            Route(f"{route.path}index.html", "post", page, source.path, route.path, (source,))
        )
        for rel, _ in route.bundle:
            named = (source.path.parent / rel).as_posix()  # ``rel`` is under its folder
            table.add(Route(f"{route.path}{rel}", "bundle", named, source.path))
    groups = tag_groups(ordered)
    everything = tuple(ordered)
    tags_url = "tags/" if groups else None
    table.add(Route("tags/index.html", "page", "the tags page", None, tags_url, everything))
    for name, slug, tagged in groups:
        url = f"tags/{quote(slug, safe='+-.')}/"  # as model.Tag.path
        what = f"the page of tag '{name}'"
        table.add(Route(f"tags/{slug}/index.html", "tag", what, None, url, tagged))
    table.add(Route("archive/index.html", "page", "the archive", None, "archive/", everything))
    for name in ("404.html", "feed.xml", "sitemap.xml", "robots.txt", ".nojekyll"):
        table.add(Route(name, "page", f"the site's {name}"))
    if config.search:
        table.add(Route("search/index.html", "page", "the search page"))
    static = tuple(assets.static_files(config.root))
    for rel, file in static:
        shown = file.relative_to(config.root)
        table.add(Route(rel, "static", shown.as_posix(), shown))
    for rel, what in GENERATED.items():
        table.add(Route(rel, "generated", what))
    if table.errors:
        raise BuildErrors(table.errors)
    return Routes(tuple(post_routes), table.files, static)


def check_generated(route: PostRoute, names: Iterable[str]) -> list[BuildError]:
    """A post folder's own file with the name of one made for the post (a figure's data, a
    ``render.POST_FILES`` file): known only once the post has rendered."""
    made = set(names) - {"index.html"}  # the page: checked when the table was planned
    errors = []
    for rel, _ in route.bundle:
        if rel in made:
            shown = (route.source.path.parent / rel).as_posix()
            message = _twice(f"{route.path}{rel}", shown, "a file its Markdown generates")
            errors.append(BuildError(route.source.path, None, message))
    return errors


class _Table:
    def __init__(self) -> None:
        self.files: dict[str, Route] = {}
        self.errors: list[BuildError] = []

    def add(self, route: Route) -> None:
        other = self.files.setdefault(route.file, route)
        if other is route or (other.kind == route.kind and route.kind in ("post", "tag")):
            return  # two posts with one slug: ``content`` reports it at the slug's line
        first, second = (route, other) if route.at is not None else (other, route)
        where = first.at or Path(route.file)
        self.errors.append(BuildError(where, None, _twice(route.file, first.origin, second.origin)))


def _twice(file: str, one: str, other: str) -> str:
    return f"{file} would be written twice: from {one} and {other}; rename or remove the file"


def _neighbour(ordered: list[SourcePost], index: int) -> Neighbour | None:
    if 0 <= index < len(ordered):
        return Neighbour(ordered[index].title, post_path(ordered[index].slug))
    return None


def _bundle_files(source: SourcePost, root: Path) -> list[tuple[str, Path]]:
    """A folder post's own files (images, data), copied beside its page; its Markdown and
    BibTeX sources are inputs, not content to publish."""
    if source.bundle_dir is None:
        return []
    return [
        (file.relative_to(source.bundle_dir).as_posix(), file)
        for file in files_under(source.bundle_dir, root)
        if file.name != "index.md" and file.suffix.lower() != ".bib"
    ]


_POST_LINK = re.compile(r"^\.\./([^/#?]+)/")


def links_to_missing_posts(table: Routes, posts: Iterable[Post], root: Path) -> list[BuildWarning]:
    """A link from one post to another (``../slug/``) that names no post being published:
    the routes are known here, so the author hears of it without running ``check``."""
    slugs = sorted(route.source.slug for route in table.posts)
    published = set(slugs)
    warnings = []
    for post in posts:
        for link in post.rendered.links:
            match = _POST_LINK.match(link)
            if match is None or match.group(1) == ".." or match.group(1) in published:
                continue
            close = difflib.get_close_matches(match.group(1), slugs, n=1, cutoff=0.6)
            hint = f" (did you mean '../{close[0]}/'?)" if close else ""
            line = line_in_post(root, post.source.path, link)
            message = f"link {link!r} names no published post{hint}"
            warnings.append(BuildWarning(Location(post.source.path, line), message))
    return warnings
