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
  out, so a note is found once, from the Notes list.

Pagefind indexes a whole site at once (about 1.5 ms and 0.25 MB a post), so a
large site is indexed in shards of a few hundred posts, each its own Pagefind
index, and the build re-indexes only a shard whose posts changed. The search
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
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from html import escape
from typing import TYPE_CHECKING

from site_builder.incremental.keys import hash_parts

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
# beside the real match from another shard.
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


def build_index(
    docs: Sequence[Document], shard: Shard, indexer: Indexer
) -> list[tuple[str, bytes]]:
    """(site-relative path, bytes) of every file of ``shard``'s index, in path order: its
    ``docs`` (one per path of the shard) indexed by Pagefind into the shard's folder, sent
    to ``indexer`` in path order (Pagefind numbers the pages as they come)."""
    ordered = sorted(docs, key=lambda d: d.path)
    if [doc.path for doc in ordered] != list(shard.paths):
        raise ValueError(f"the documents are not those of the shard in {shard.dir}")
    keep = (_RUNTIME, _INDEX) if shard.primary else (_INDEX,)
    files = indexer.index([("/" + doc.path, index_html(doc)) for doc in ordered])
    return [
        (shard.dir + rel, files[rel])
        for rel in sorted(files)
        if any(pattern.match(rel) for pattern in keep)
    ]


def start_indexer(language: str) -> Indexer:
    """A Pagefind process for this build's shards (``indexer``): the sidenote copies, the
    heading links and the notes' back-links are not indexed."""
    from site_builder.indexer import Indexer

    return Indexer(language, (".sidenote", ".heading-anchor", ".footnote-backref"))


@cache
def _pagefind_version() -> str:
    """Part of every shard's key: another Pagefind writes another index."""
    from importlib import metadata  # ~10 ms to import: only when a shard is planned

    try:
        return metadata.version("pagefind_bin")
    except metadata.PackageNotFoundError:
        return "none"
