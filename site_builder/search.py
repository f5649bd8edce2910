"""Site search: a Pagefind index of the posts, made at build time, in shards.

Pagefind (PyPI ``pagefind`` with its binary) splits an index into small
fragments that the search page fetches as a query needs them, so the site stays
static (GitHub Pages, any base path) and a post page loads none of it. The
index is fed the posts' rendered Markdown rather than the written pages, so it
does not depend on which pages this build rendered and which it kept: the same
posts give the same bytes. Two things are changed for the index only:

- a formula is indexed by its LaTeX (the MathML annotation), which is what a
  reader types (``softmax``, ``\\sqrt{d}``), not by MathML's scattered symbols;
- the sidenote copies of the footnotes and the ``#`` heading links are left
  out, so a note is found once, from the Notes list;
- code is sent without its highlighting spans: the same text and the same index,
  for a sixth less of Pagefind's time on a post with two code blocks.

Pagefind (``indexer``, one process a core, fed from memory) indexes a whole index
at once and cannot update one page of it: about 3 ms of CPU and 0.25 MB a post on
this bench, most of it reading the HTML. So a large site is indexed in shards of
a few hundred posts, each its own Pagefind index, and the build re-indexes only a
shard whose posts changed, while it renders its listings. The search
page merges them with Pagefind's ``mergeIndex``. Each shard ranks its own
matches, so a merged list is near one index's order but not the same, which is
why shards stay large (see ``MIN_SHARD``) and a site of fewer posts has exactly
one index. A post's shard is decided by the posts around it, never by its
position in the whole list: a boundary falls before a post whose path hashes to
a multiple of ``_CUT`` once the shard holds ``MIN_SHARD`` posts
(content-defined chunking, as rsync and backup tools cut files), so adding or
removing a post changes one shard or two, not every one after it.

The first shard is written to ``pagefind/`` with Pagefind's script and
WebAssembly (the primary index the script loads); the others to
``pagefind/<hash>/``, named by their first post, and ``pagefind/shards.json``
lists them all. Result URLs are site-relative (``posts/x/``); the search page passes
the base path to Pagefind, so the index is the same under ``/`` and ``/blog/``.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING

from site_builder.incremental.keys import hash_parts, installed_version

if TYPE_CHECKING:  # a build whose shards are all kept starts no Pagefind
    from site_builder.indexer import Indexer

OUT = "pagefind/"
LISTING = OUT + "shards.json"
# A shard holds at least MIN_SHARD posts (a smaller site is one index, exactly as Pagefind
# makes it), about 1.25 times that on average (one post in _CUT past the minimum ends it:
# 9 shards in 10 hold under 400 posts), and at most _MAX_SHARD. Smaller shards would
# make an edit cheaper still, but the search page pays for each shard: every query fetches
# a chunk from each, and a shard without a word falls back to near misses (Pagefind
# matches "4712" to "471" when no page has "4712"), which a merged result list shows
# beside the real match from another shard. Measured with the bench corpus (a reader's
# first query in Chromium; one index against shards at MIN_SHARD 256 and 64): 1,000 posts,
# 16 requests and 174 kB against 22 and 224 kB, and 37 and 344 kB; 5,000 posts, 16 and
# 263 kB against 61 and 591 kB, and 142 and 1,241 kB, the query taking 1.5 s against 2.6
# and 4.3 s; the top ten results share 47% (256) and 30% (64) with one index's.
MIN_SHARD = 256
_CUT = 64
_MAX_SHARD = 8 * MIN_SHARD
# What the search page's script loads: the API, its WebAssembly (the first shard's only)
# and the index itself. The ready-made UIs Pagefind also writes are left out: the site has
# its own small one.
_RUNTIME = re.compile(r"^(pagefind\.js|wasm\..*)$")
_INDEX = re.compile(r"^(pagefind-entry\.json|pagefind\.[^/]*\.pf_meta|(fragment|index|filter)/.*)$")
_MATH_OR_CODE = re.compile(r"<math\b.*?</math>|<pre\b.*?</pre>", re.S)
_SPAN = re.compile(r"</?span\b[^>]*>")
_TEX = re.compile(r'<annotation encoding="application/x-tex">(.*?)</annotation>', re.S)


@dataclass(frozen=True)
class Document:
    """One post as the index sees it."""

    path: str  # site-relative, "posts/x/"
    title: str
    date: str  # as the page shows it, "29 November 2026"
    html: str  # the rendered body, with the Notes list after it
    language: str


@dataclass(frozen=True)
class Entry:
    """A post as the shard plan sees it, before its HTML is loaded."""

    path: str  # site-relative, "posts/x/"
    stamp: str  # changes whenever the post's Document can (its render key, title, date)


@dataclass(frozen=True)
class Shard:
    """Some posts indexed together into ``dir``; ``key`` changes when any of them does."""

    dir: str  # "pagefind/" for the first shard, "pagefind/<hash of its first post>/" after
    key: str
    paths: tuple[str, ...]

    @property
    def primary(self) -> bool:
        return self.dir == OUT


def plan_shards(entries: Sequence[Entry], language: str) -> list[Shard]:
    """The shards of ``entries``, in path order (see the module docstring)."""
    groups: list[list[Entry]] = []
    for entry in sorted(entries, key=lambda e: e.path):
        if not groups or len(groups[-1]) >= _MAX_SHARD or _boundary(entry, len(groups[-1])):
            groups.append([])
        groups[-1].append(entry)
    if len(groups) > 1 and len(groups[-1]) < MIN_SHARD <= _MAX_SHARD - len(groups[-2]):
        tail = groups.pop()  # too few posts to be worth a shard of their own
        groups[-1].extend(tail)
    shards = []
    for number, group in enumerate(groups):
        # Named by the post it starts with: the same site gives the same folders on any
        # machine (a stamp holds file times), and an edit leaves the folder where it was.
        start = hashlib.sha256(group[0].path.encode("utf-8")).hexdigest()
        directory = OUT if number == 0 else f"{OUT}{start[:16]}/"
        key = hash_parts(
            _pagefind_version(), language, directory, *(f"{e.path}\0{e.stamp}" for e in group)
        )
        shards.append(Shard(directory, key, tuple(e.path for e in group)))
    return shards


def _boundary(entry: Entry, size: int) -> bool:
    """A new shard starts at ``entry``: a full shard's worth behind it, and a path that
    hashes to a multiple of _CUT (one post in _CUT, wherever it sits)."""
    if size < MIN_SHARD:
        return False
    digest = hashlib.sha256(entry.path.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") % min(_CUT, MIN_SHARD) == 0


def listing(shards: Sequence[Shard]) -> tuple[str, bytes]:
    """``pagefind/shards.json``: each shard's folder relative to ``pagefind/``, first ``""``."""
    folders = [shard.dir.removeprefix(OUT) for shard in shards]
    return LISTING, json.dumps(folders, separators=(",", ":")).encode("utf-8")


def index_html(doc: Document) -> str:
    """The page Pagefind reads for ``doc``: title, date as metadata, body with math as TeX
    and code without its highlighting spans (the same text, so the same index: Pagefind
    spends a fifth of its time on the spans of a post with two code blocks)."""
    body = _MATH_OR_CODE.sub(_for_index, doc.html)
    return (
        f'<!doctype html><html lang="{escape(doc.language)}"><head><meta charset="utf-8">'
        f"<title>{escape(doc.title)}</title></head><body><main data-pagefind-body>"
        f'<h1>{escape(doc.title)}</h1><p data-pagefind-meta="date" '
        f"data-pagefind-ignore>{escape(doc.date)}</p>{body}</main></body></html>"
    )


def _for_index(match: re.Match[str]) -> str:
    if match.group(0).startswith("<pre"):
        return _SPAN.sub("", match.group(0))
    tex = _TEX.search(match.group(0))
    return f"<span> {tex.group(1)} </span>" if tex else ""


class Indexing:
    """The shards a build re-indexes, on up to ``processes`` Pagefind processes at once.

    Shards are sent ahead of need (:meth:`start`) so that Pagefind indexes them while the
    build renders its listings and feed, and :meth:`files` takes each back. About two
    shards a process are sent ahead, the next as one comes back, so a large site's pages
    are not all queued in memory at once. ``docs`` gives a shard's documents, asked for
    when the shard is sent."""

    def __init__(
        self,
        shards: Sequence[Shard],
        docs: Callable[[Shard], Sequence[Document]],
        language: str,
        processes: int,
    ) -> None:
        self.waiting = list(shards)  # in path order, which is the order they are taken back
        self.docs = docs
        self.language = language
        self.processes = max(1, min(processes, len(shards)))
        self.indexers: list[Indexer] = []
        self.sent: dict[str, tuple[Indexer, tuple[int, int]]] = {}

    def start(self) -> None:
        while self.waiting and len(self.sent) < 2 * self.processes:
            self._send(self.waiting.pop(0))

    def files(self, shard: Shard) -> list[tuple[str, bytes]]:
        """(site-relative path, bytes) of every file of ``shard``'s index, in path order."""
        if shard.dir in self.sent:
            indexer, ticket = self.sent.pop(shard.dir)
            files = indexer.receive(ticket)
            self.start()  # the next shard, so that this process is never idle
        else:  # not among those sent ahead: a process of its own, not to wait behind them
            if shard in self.waiting:  # nor to be indexed a second time when its turn comes
                self.waiting.remove(shard)
            alone = start_indexer(self.language)
            try:
                files = alone.index(self._pages(shard))
            finally:
                alone.close()
        keep = (_RUNTIME, _INDEX) if shard.primary else (_INDEX,)
        return [
            (shard.dir + rel, files[rel])
            for rel in sorted(files)
            if any(pattern.match(rel) for pattern in keep)
        ]

    def close(self) -> None:
        for indexer in self.indexers:
            indexer.close()

    def _send(self, shard: Shard) -> None:
        """Send ``shard`` to the process with the fewest pages still to index."""
        if len(self.indexers) < self.processes:
            self.indexers.append(start_indexer(self.language))
        indexer = min(self.indexers, key=lambda i: i.pending)
        self.sent[shard.dir] = (indexer, indexer.send(self._pages(shard)))

    def _pages(self, shard: Shard) -> list[tuple[str, str]]:
        """``shard``'s pages in path order: Pagefind numbers them as they come."""
        ordered = sorted(self.docs(shard), key=lambda d: d.path)
        if [doc.path for doc in ordered] != list(shard.paths):
            raise ValueError(f"the documents are not those of the shard in {shard.dir}")
        return [("/" + doc.path, index_html(doc)) for doc in ordered]


def start_indexer(language: str) -> Indexer:
    """A Pagefind process (``indexer``): the sidenote copies, the heading links and the
    notes' back-links are not indexed."""
    from site_builder.indexer import Indexer

    return Indexer(language, (".sidenote", ".heading-anchor", ".footnote-backref"))


def _pagefind_version() -> str:
    """Part of every shard's key: another Pagefind writes another index."""
    return installed_version("pagefind_bin")
