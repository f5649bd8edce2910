"""Plan routes: every file the site will have and what makes it, before anything renders.

One table built from the sources: each post or page and its folder's own files, the
listings, one page per tag, the feed and the files generated beside ``static/``.
Two things claiming one path is an error naming both (compare Zola's
``find_path_collisions`` and Eleventy's duplicate-permalink check), found
before a page renders or a file is written. A source's folder comes from its
kind (``kinds.Kind.path``) alone; the sitemap, ``site-builder check`` and
``writer.Output`` (which writes nothing the table has no place for) read it.

Two posts with one slug and two tags with one page are reported by the load
stage (``content``), at the front-matter line that chose the name; they are
not reported twice here.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from urllib.parse import quote

from site_builder import assets, kinds, search, widgets
from site_builder.config import SiteConfig
from site_builder.content import line_in_post
from site_builder.errors import BuildError, BuildErrors, BuildWarning, Location
from site_builder.frontmatter import SourcePost
from site_builder.kinds import Kind
from site_builder.menu import MenuItem, site_menu
from site_builder.model import Listed, sort_posts, tag_groups
from site_builder.sitefiles import files_under


@dataclass(frozen=True)
class Neighbour:
    """What a post page shows of the posts before and after it."""

    title: str
    path: str


@dataclass(frozen=True)
class SourceRoute:
    """Where one source goes (a post, a page, the home text): its folder, what its page
    shows besides its body (neighbours, the menu) and the files copied beside its page."""

    source: SourcePost
    path: str  # "posts/<slug>/", "<page>/", "" for the home text
    older: Neighbour | None
    newer: Neighbour | None
    bundle: tuple[tuple[str, Path], ...]  # a folder source's own files: (name, source)
    menu: tuple[MenuItem, ...] = ()

    @property
    def kind(self) -> Kind:
        return kinds.BY_NAME[self.source.kind]


@dataclass(frozen=True)
class Route:
    """One output file and what makes it."""

    file: str  # site-relative, "/"-separated
    kind: str  # "post", "page", "bundle", "tag", "listing", "static", "generated"
    origin: str  # what makes it, in words, for a collision message ("{}": the source, ``at``)
    at: Path | None = None  # the input reported for a collision (a post, a static file)
    url: str | None = None  # the page's URL path when the sitemap lists it
    posts: tuple[SourcePost, ...] = ()  # what the page shows: the sitemap's last change
    prefix: bool = False  # claims every file under ``file`` (a folder the build fills)


@dataclass(frozen=True)
class Routes:
    sources: tuple[SourceRoute, ...]  # posts newest first, then pages by path, the home text
    files: dict[str, Route]  # in sitemap order: home, posts, pages, tags, archive, the rest
    static: tuple[tuple[str, Path], ...]  # (output path, source) of every file under static/
    menu: tuple[MenuItem, ...] = ()

    @property
    def posts(self) -> tuple[SourceRoute, ...]:
        """The dated posts' routes, newest first."""
        return tuple(r for r in self.sources if r.kind.dated)

    def sitemap(self) -> list[Route]:
        """The pages a search engine should index, in the sitemap's order."""
        return [route for route in self.files.values() if route.url is not None]

    def page_sources(self) -> dict[str, Path]:
        """Each page's output path and the Markdown file it comes from."""
        documents = {kind.name for kind in kinds.KINDS}
        return {r.file: r.at for r in self.files.values() if r.kind in documents and r.at}

    def planned(self, rel: str) -> bool:
        """Whether the table has a place for ``rel``: ``writer.Output`` writes nothing else.
        Besides its files, a folder the build fills (the search index) and the folder of a
        source with a page, where its render may put files (a figure's data) that
        ``check_generated`` holds against the folder's own."""
        if rel in self.files:
            return True
        folders = self._folders
        return any(rel[: at + 1] in folders for at, char in enumerate(rel) if char == "/")

    @cached_property
    def _folders(self) -> frozenset[str]:
        claimed = {r.file for r in self.files.values() if r.prefix}
        return frozenset(claimed | {r.path for r in self.sources if r.kind.template and r.path})


# Files the build generates under static/ (see ``assets``).
GENERATED = {
    assets.CODE_CSS: "the stylesheet generated for code highlighting",
    assets.FONTS_CSS: "the generated @font-face stylesheet",
    assets.MATH_FONT: "the math font subset for the site's formulas",
}


def plan_routes(config: SiteConfig, sources: Iterable[SourcePost]) -> Routes:
    """The route table for ``sources`` (the due ones, every kind); raises BuildErrors on a
    collision."""
    every = list(sources)
    ordered = sort_posts([s for s in every if kinds.BY_NAME[s.kind].dated])
    pages = sorted((s for s in every if s.kind == kinds.PAGE.name), key=lambda s: s.slug)
    home = [s for s in every if s.kind == kinds.HOME.name]
    menu = site_menu(config, pages, lambda page: kinds.PAGE.path(page.slug))
    table = _Table()
    home_at = home[0].path if home else None
    table.add(Route("index.html", "listing", "the home page", home_at, "", tuple(ordered)))
    source_routes = []
    placed: set[str] = set()
    for index, source in enumerate([*ordered, *pages, *home]):
        kind = kinds.BY_NAME[source.kind]
        dated = kind.dated
        if dated and kind.path(source.slug) in placed:
            continue  # a second post with one slug: ``content`` reports it, nothing renders it
        placed.add(kind.path(source.slug))
        route = SourceRoute(
            source,
            kind.path(source.slug),
            _neighbour(ordered, index + 1) if dated else None,
            _neighbour(ordered, index - 1) if dated else None,
            tuple(_bundle_files(source, config.root)),
            menu,
        )
        source_routes.append(route)
        if kind.template is None:
            continue  # drawn inside another page: the home text is index.html's
        page = "the page rendered from {}"
        made = Route(f"{route.path}index.html", kind.name, page, source.path, route.path, (source,))
        table.add(made)
        for rel, _ in route.bundle:
            named = (source.path.parent / rel).as_posix()  # ``rel`` is under its folder
            table.add(Route(f"{route.path}{rel}", "bundle", named, source.path))
    groups = tag_groups(ordered)
    everything = tuple(ordered)
    tags_url = "tags/" if groups else None
    table.add(Route("tags/index.html", "listing", "the tags page", None, tags_url, everything))
    for name, slug, tagged in groups:
        url = f"tags/{quote(slug, safe='+-.')}/"  # as model.Tag.path
        what = f"the page of tag '{name}'"
        table.add(Route(f"tags/{slug}/index.html", "tag", what, None, url, tagged))
    table.add(Route("archive/index.html", "listing", "the archive", None, "archive/", everything))
    if config.publications is not None:
        what = f"the publications page, from {config.publications.as_posix()}"
        table.add(Route("publications/index.html", "listing", what, None, "publications/"))
    for name in ("404.html", "sitemap.xml", "robots.txt"):
        table.add(Route(name, "listing", f"the site's {name}"))
    table.add(Route("feed.xml", "feed", "the site's feed.xml"))
    table.add(Route(".nojekyll", "generated", "the site's .nojekyll"))
    if config.search:
        table.add(Route("search/index.html", "listing", "the search page"))
        table.add(Route(search.OUT, "generated", "the search index", prefix=True))
    static = tuple(assets.static_files(config.root))
    for rel, file in static:
        shown = file.relative_to(config.root)
        table.add(Route(rel, "static", shown.as_posix(), shown))
    for rel, what in {**GENERATED, **widgets.generated_files(config.widgets)}.items():
        table.add(Route(rel, "generated", what))
    if table.errors:
        raise BuildErrors(table.errors)
    return Routes(tuple(source_routes), table.files, static, menu)


def check_generated(route: SourceRoute, names: Iterable[str]) -> list[BuildError]:
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

        def origin(r: Route) -> str:
            return r.origin.format("it" if r.at == where else r.at and r.at.as_posix())

        message = _twice(route.file, origin(first), origin(second))
        self.errors.append(BuildError(where, None, message))


def _twice(file: str, one: str, other: str) -> str:
    return f"{file} would be written twice: from {one} and {other}; rename or remove the file"


def _neighbour(ordered: list[SourcePost], index: int) -> Neighbour | None:
    if 0 <= index < len(ordered):
        return Neighbour(ordered[index].title, kinds.POST.path(ordered[index].slug))
    return None


def _bundle_files(source: SourcePost, root: Path) -> list[tuple[str, Path]]:
    """A folder source's own files (images, data), copied beside its page; its Markdown and
    BibTeX sources are inputs, not content to publish. In a nested kind (pages), other
    Markdown files are pages of their own, and a sub-folder with an ``index.md`` is
    another page's folder."""
    if source.bundle_dir is None:
        return []
    nested = kinds.BY_NAME[source.kind].nested
    own = []
    for file in files_under(source.bundle_dir, root):
        rel = file.relative_to(source.bundle_dir)
        if file.name == source.path.name or file.suffix.lower() == ".bib":
            continue
        if nested and (file.suffix == ".md" or _in_other_bundle(source.bundle_dir, rel)):
            continue
        own.append((rel.as_posix(), file))
    return own


def _in_other_bundle(folder: Path, rel: Path) -> bool:
    return any((folder / parent / "index.md").is_file() for parent in rel.parents if parent.parts)


_POST_LINK = re.compile(r"^\.\./([^/#?]+)/")


def links_to_missing_posts(
    table: Routes, posts: Iterable[Listed], root: Path
) -> list[BuildWarning]:
    """A link from one post to another (``../slug/``) that names no post being published:
    the routes are known here, so the author hears of it without running ``check``."""
    slugs = sorted(route.source.slug for route in table.posts)
    published = set(slugs)
    warnings = []
    for post in posts:
        if not kinds.BY_NAME[post.source.kind].dated:  # ``../x/`` from ``about/`` is no post
            continue
        for link in post.summary.links:
            match = _POST_LINK.match(link)
            if match is None or match.group(1) == ".." or match.group(1) in published:
                continue
            close = difflib.get_close_matches(match.group(1), slugs, n=1, cutoff=0.6)
            hint = f" (did you mean '../{close[0]}/'?)" if close else ""
            line = line_in_post(root, post.source.path, link)
            message = f"link {link!r} names no published post{hint}"
            warnings.append(BuildWarning(Location(post.source.path, line), message))
    return warnings
