"""A post's table of contents, from the headings the Markdown stage found.

``toc: true`` in the front matter or ``site.yaml`` turns it on (the post's
setting wins, so one post can opt out of a site-wide default); ``toc-depth``
(default 3) is the deepest heading level listed. The list is nested as the
headings are, and a heading that skips a level (an ``h4`` under an ``h2``)
hangs under the nearest shallower one rather than under an empty item.

It is plain HTML in the page, so it works without JavaScript and is part of
the first layout (nothing appears or moves later); ``static/js/toc.js`` only
marks the section being read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from site_builder.config import SiteConfig
from site_builder.markdown import Heading
from site_builder.model import Post

DEFAULT_DEPTH = 3


@dataclass(frozen=True)
class TocEntry:
    id: str
    text: str
    children: tuple[TocEntry, ...] = ()


def wanted(post: Post, config: SiteConfig) -> tuple[bool, int]:
    """Whether the post shows a table of contents, and to which heading level."""
    source = post.source
    show = config.toc if source.toc is None else source.toc
    depth = source.toc_depth or config.toc_depth
    return show, depth


def table_of_contents(post: Post, config: SiteConfig) -> tuple[TocEntry, ...]:
    """The nested entries, or ``()`` when it is off or the post has no headings."""
    show, depth = wanted(post, config)
    if not show:
        return ()
    return nest([h for h in post.rendered.headings if h.level <= depth])


def nest(headings: Sequence[Heading]) -> tuple[TocEntry, ...]:
    """Headings in document order to a tree, by level."""
    root: list[tuple[int, TocEntry, list[TocEntry]]] = []
    stack: list[tuple[int, list[TocEntry]]] = [(0, [])]
    top = stack[0][1]
    for heading in headings:
        while len(stack) > 1 and stack[-1][0] >= heading.level:
            stack.pop()
        children: list[TocEntry] = []
        entry = (heading.level, TocEntry(heading.id, heading.text), children)
        root.append(entry)
        stack[-1][1].append(entry[1])
        stack.append((heading.level, children))
    return _freeze(top, {id(e[1]): e[2] for e in root})


def _freeze(entries: list[TocEntry], kids: dict[int, list[TocEntry]]) -> tuple[TocEntry, ...]:
    """Entries are built before their children: give each its finished children."""
    return tuple(
        TocEntry(entry.id, entry.text, _freeze(kids[id(entry)], kids)) for entry in entries
    )
