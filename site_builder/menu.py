"""The header's menu: ``menu:`` in site.yaml, or the default built from the pages.

``site.yaml`` may list the links in order (``- {title: About, url: about/}``).
Without it the header shows Posts, the pages whose front matter says ``menu:
true`` (by ``order:``, then title), Tags, Archive, Feed and Search. The menu is
computed once per build, before any page renders: every page shows it, so it is
part of every page's key (``routes.SourceRoute.menu``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from site_builder.errors import BuildError

if TYPE_CHECKING:
    from site_builder.config import SiteConfig
    from site_builder.frontmatter import SourcePost


@dataclass(frozen=True)
class MenuItem:
    """One header link. ``url`` is site-relative (``about/``, ``""`` for home) or absolute."""

    title: str
    url: str
    feed: bool = False  # the Atom feed: announced with its type
    shortcut: str = ""  # aria-keyshortcuts (Search opens with "/")

    @property
    def external(self) -> bool:
        return "://" in self.url or self.url.startswith("mailto:")

    def current(self, page_path: str) -> bool:
        """Whether the page at ``page_path`` is this entry's, or inside its section
        (``tags/ml/`` is in Tags); home only for itself."""
        if self.external or self.feed:
            return False
        if not self.url:
            return page_path == ""
        return page_path == self.url or page_path.startswith(self.url)


_SCHEME = re.compile(r"^\s*([A-Za-z][A-Za-z0-9+.-]*):")


def parse_menu(data: object, path: Path, line: int | None) -> tuple[MenuItem, ...]:
    """``menu:`` from site.yaml: a list of ``{title, url}`` mappings, in order."""
    if not isinstance(data, list):
        raise BuildError(path, line, "'menu' must be a list of {title: ..., url: ...} entries")
    items = []
    for number, entry in enumerate(data, 1):
        if not isinstance(entry, dict) or set(entry) != {"title", "url"}:
            message = f"menu entry {number} must have exactly 'title' and 'url'"
            raise BuildError(path, line, message + f", got {entry!r}")
        title, url = entry["title"], entry["url"]
        if not isinstance(title, str) or not title.strip() or not isinstance(url, str):
            raise BuildError(path, line, f"menu entry {number}: 'title' and 'url' must be text")
        url = url.strip()
        scheme = _SCHEME.match(url)
        if scheme and scheme.group(1).lower() not in ("http", "https", "mailto"):
            # ``javascript:alert(1)//://`` was written into every page's header as it was
            message = f"menu entry {number}: a link must be http(s), mailto or site-relative"
            raise BuildError(path, line, f"{message}, got {url!r}")
        if not ("://" in url or url.startswith("mailto:")):
            url = url.lstrip("/")  # site-relative, whatever the base path
        items.append(MenuItem(title.strip(), url, feed=url == "feed.xml"))
    return tuple(items)


def site_menu(
    config: SiteConfig, pages: Iterable[SourcePost], page_path: Callable[[SourcePost], str]
) -> tuple[MenuItem, ...]:
    """The menu every page shows: site.yaml's, else Posts, the ``menu: true`` pages,
    Publications (with ``publications:``), Tags, Archive, Feed and Search. ``page_path``
    gives a page's site folder from its source."""
    if config.menu is not None:
        return config.menu
    listed = sorted((p for p in pages if p.menu), key=lambda p: (p.order, p.title, p.slug))
    items = [MenuItem("Posts", "")]
    items += [MenuItem(p.title, page_path(p)) for p in listed]
    if config.publications is not None:
        items.append(MenuItem("Publications", "publications/"))
    items += [MenuItem("Tags", "tags/"), MenuItem("Archive", "archive/")]
    items.append(MenuItem("Feed", "feed.xml", feed=True))
    if config.search:
        items.append(MenuItem("Search", "search/", shortcut="/"))
    return tuple(items)
