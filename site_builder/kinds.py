"""The kinds of content: one table says, for each, where its sources are, where its pages
go and which template draws them.

Every later stage reads this table rather than naming a kind itself: loading
(``content.load_posts``), planning (``routes.plan_routes``) and rendering
(``pages.render_source_page`` picks ``Kind.template``). Every kind's folder is
under ``content/``, which the watcher and the no-op check read (``inputs``).
Adding a kind is a row here, its loader if its files are not Markdown with
front matter, and its template.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from stat import S_ISREG
from typing import TYPE_CHECKING

from site_builder.errors import BuildError
from site_builder.sources import SourceText, read_source

if TYPE_CHECKING:
    from site_builder.config import SiteConfig


def read_markdown(file: Path, rel: Path, config: SiteConfig) -> SourceText:
    """A Markdown source is its own text."""
    return read_source(file, rel)


def read_notebook(file: Path, rel: Path, config: SiteConfig) -> SourceText:
    """A notebook converted to Markdown with its outputs (``notebooks``); run first when
    ``execute: true``, its run kept in ``.cache/`` by the cells' sources."""
    from site_builder.notebooks import source_text  # nbformat: only for sites with notebooks

    return source_text(file, rel, config.execute, config.root / ".cache" / "notebook-runs")


@dataclass(frozen=True)
class Kind:
    """One kind of content. ``dated`` kinds need a date and are listed, tagged and in the
    feed; the others are reached by links and the menu (and the sitemap)."""

    name: str  # "post", "page", "home": SourcePost.kind
    folder: str  # where its sources live, relative to the site root
    prefix: str  # its pages' folder in the site: "posts/" + slug + "/"
    template: str | None  # None: drawn inside another page (the home text, by index.html)
    dated: bool
    nested: bool  # sources in sub-folders of ``folder`` too (pages), or one level (posts)
    single: str = ""  # the one file of a kind that has one (``content/index.md``)
    suffix: str = ".md"  # its files' ending; a folder source is ``<name>/index<suffix>``
    read: Callable[[Path, Path, SiteConfig], SourceText] = read_markdown

    def path(self, slug: str) -> str:
        """The site folder of the page made from a source with this ``slug``."""
        return f"{self.prefix}{slug}/" if slug else self.prefix


POST = Kind("post", "content/posts", "posts/", "post.html", dated=True, nested=False)
NOTEBOOK = Kind(
    "notebook", "content/posts", "posts/", "post.html", True, False, suffix=".ipynb",
    read=read_notebook,
)  # fmt: skip
PAGE = Kind("page", "content/pages", "", "page.html", dated=False, nested=True)
HOME = Kind("home", "content", "", None, dated=False, nested=False, single="index.md")

KINDS: tuple[Kind, ...] = (POST, NOTEBOOK, PAGE, HOME)
BY_NAME = {kind.name: kind for kind in KINDS}


def find_sources(root: str | os.PathLike[str]) -> list[tuple[Kind, str, os.stat_result]]:
    """Every source file of every kind: (kind, path relative to the site, stat), sorted by
    path so the order never depends on the file system. ``os.scandir``, not ``Path.glob``:
    a no-op build does little besides listing the sources."""
    found = []
    for kind in KINDS:
        base = os.path.join(root, kind.folder)
        if kind.single:
            try:
                stat = os.stat(os.path.join(base, kind.single))
            except OSError:
                continue
            if S_ISREG(stat.st_mode):
                found.append((kind, f"{kind.folder}/{kind.single}", stat))
            continue
        found += [(kind, rel, stat) for rel, stat in _markdown_files(base, kind)]
    return sorted(found, key=lambda item: item[1].split("/"))


# Endings other tools read as Markdown, which no kind here does: a post named so would
# be left out without a word (Jekyll writes ``.markdown``; ``.MD`` is ``.md`` on Windows).
LOOK_ALIKES = (".markdown", ".mdown", ".mkdn", ".mkd", ".mdx")


def look_alikes(root: str | os.PathLike[str]) -> list[str]:
    """Files under ``content/`` that look like Markdown posts but no kind reads, sorted."""
    found = []
    for folder, dirs, files in os.walk(os.path.join(root, "content")):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        rel = os.path.relpath(folder, root).replace(os.sep, "/")
        found += [
            f"{rel}/{name}"
            for name in files
            if name.lower().endswith(LOOK_ALIKES)
            or (name.lower().endswith(".md") and not name.endswith(".md"))
        ]
    return sorted(found)


def _markdown_files(
    base: str, kind: Kind, rel: str = "", seen: frozenset[str] = frozenset()
) -> Iterator[tuple[str, os.stat_result]]:
    """``<name>.md`` and ``<name>/index.md`` under ``base``; deeper too for nested kinds.
    ``seen`` holds the real paths of the folders above: a symbolic link back up the tree
    (``pages/loop -> ..``) is not followed round again."""
    folder = os.path.join(base, rel)
    try:
        entries = list(os.scandir(folder))
    except (FileNotFoundError, NotADirectoryError):
        return
    except OSError as exc:  # a folder of posts that cannot be read is not an empty one
        shown = Path(f"{kind.folder}/{rel}".rstrip("/"))
        raise BuildError(shown, None, f"cannot read the folder: {exc.strerror}") from None
    seen = seen | {os.path.realpath(folder)}
    here = f"{kind.folder}/{rel}"
    index = "index" + kind.suffix
    for entry in sorted(entries, key=lambda e: e.name):
        if entry.name.endswith(kind.suffix) and _is_file(entry, f"{here}{entry.name}"):
            yield _utf8(f"{here}{entry.name}"), entry.stat()
        elif entry.is_dir() and not entry.name.startswith("."):
            if kind.nested:
                if os.path.realpath(entry.path) not in seen:
                    yield from _markdown_files(base, kind, f"{rel}{entry.name}/", seen)
                continue
            try:
                stat = os.stat(os.path.join(entry.path, index))
            except (FileNotFoundError, NotADirectoryError):
                continue  # a folder of something else
            except OSError as exc:
                shown = Path(f"{here}{entry.name}")
                raise BuildError(shown, None, f"cannot read the folder: {exc.strerror}") from None
            if S_ISREG(stat.st_mode):
                yield _utf8(f"{here}{entry.name}/{index}"), stat


def _is_file(entry: os.DirEntry[str], rel: str) -> bool:
    """``entry.is_file()``, with a link that loops (``a.md -> a.md``) named, not a traceback."""
    try:
        return entry.is_file()
    except OSError as exc:
        raise BuildError(Path(rel), None, f"cannot read: {exc.strerror}") from None


def _utf8(rel: str) -> str:
    """``rel``, refused when its name is not UTF-8 (Latin-1 ``caf\\xe9.md``): its page's path
    could not be written to the feed, the sitemap or the cache."""
    try:
        rel.encode("utf-8")
    except UnicodeEncodeError:
        shown = rel.encode("utf-8", "backslashreplace").decode()
        message = "the file name is not valid UTF-8: rename it"
        raise BuildError(Path(shown), None, message) from None
    return rel
