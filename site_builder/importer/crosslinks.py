"""Links between the old blog's own posts, pointed at the pages those posts became.

A post links its neighbours by the address the old site gave them, and every generator
spells that differently: Pelican's ``/blog/2012/08/18/matplotlib-animation-tutorial/``
(its ``ARTICLE_URL``), Jekyll's ``/illustrated-bert/`` (``permalink: /:title/``), a
title's slug (``/blog/gumbel-max-trick/`` for ``gumbel-basic.md``), Pelican's ``Slug:
lda`` as ``../lda/``, or the full ``http://name.github.io/...``. Here a post is at
``posts/<slug>/``, so each such link was broken after the import. Rather than model
every generator's permalink scheme, a link is matched by its last path segment (its
``.html`` and date prefix aside) against what names each imported post: its new slug,
its file's name, its title's slug, its ``slug:``, ``permalink:`` or ``url:``. A link
whose segment names no post, or more than one, or a file beside the post (an HTML
figure), is left as it was.
"""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import unquote, urlsplit

from site_builder.importer import anchors, common, frontmatter
from site_builder.importer.common import DATE_PREFIX
from site_builder.importer.report import Imported, PostNotes
from site_builder.slug import slugify

# ``[text](target`` and ``href="target"``, and a reference definition ``[id]: target``.
# The target ends the link, or a title follows it: ``<GD 0.1.svg>`` is a path with spaces.
_LINK = re.compile(
    r"""(\]\(\s*<?|\bhref=\\?["']|^[ \t]*\[[^\]\n]+\]:[ \t]*<?)([^\s)"'<>\\]+)"""
    r"""(?=[)"'>\\]|[ \t]+["'(]|[ \t]*\)|[ \t]*$)""",
    re.M,
)
_FENCE = re.compile(r"(?m)^[ \t]*(```|~~~)[^\n]*\n.*?^[ \t]*\1[ \t]*$", re.S)
_PAGE_SUFFIXES = ("", ".html", ".htm", ".md", ".markdown", ".qmd", ".rmd", ".ipynb", ".php")
_LISTINGS = {"tag", "tags", "category", "categories", "archive", "archives", "series", "author"}
_SITE_URL = re.compile(
    r"""(?im)^[ \t]*(?:url|baseurl|base_url|siteurl|site-url)[ \t]*[:=][ \t]*["']?"""
    r"""(https?://[^"'\s]+)"""
)
_CONFIGS = (
    "_config.yml",
    "config.toml",
    "config.yaml",
    "config.yml",
    "hugo.toml",
    "hugo.yaml",
    "pelicanconf.py",
    "publishconf.py",
    "_quarto.yml",
)


def rewrite(base: Path, imported: list[tuple[Path, Imported]]) -> None:
    """Point each written post's links to the old site's other posts at their new pages,
    and its links to its own headings at their ids here (``anchors``)."""
    table = _table(imported)
    hosts = _hosts(base)
    texts = {p.written: p.written.read_text(encoding="utf-8") for _, p in imported if p.written}
    ids = {_key(p): anchors.ids_of(p.written, texts[p.written]) for _, p in imported if p.written}
    for _, post in imported:
        if post.written is None:
            continue
        text = texts[post.written]
        new = _rewritten(text, table, hosts, post, ids)
        if new != text:
            post.written.write_text(new, encoding="utf-8")


def _key(post: Imported) -> tuple[str, str]:
    """A written post's kind and slug (its file's name, or its folder's)."""
    assert post.written is not None
    written = post.written
    return post.kind, written.parent.name if written.stem == "index" else written.stem


def _table(imported: list[tuple[Path, Imported]]) -> dict[str, tuple[str, str] | None]:
    """Each name -> (kind, slug) of the one post it names; None where several share it."""
    table: dict[str, tuple[str, str] | None] = {}
    slugs: dict[str, tuple[str, str]] = {}
    for source, post in imported:
        if post.written is None:
            continue
        target = _key(post)
        slugs[target[1]] = target
        written = post.written
        for name in _names(source, written):
            if name and table.get(name, target) != target:
                table[name] = None
            elif name:
                table[name] = target
    table.update(slugs)  # a post's own new slug is never ambiguous
    return table


def _names(source: Path, written: Path) -> set[str]:
    stem = source.parent.name if source.stem in ("index", "_index") else source.stem
    names = {_slug(stem)}
    fronts = (_front(source), _front(written))
    for front in fronts:
        for key in ("slug", "permalink", "url"):
            if (value := _scalar(front.get(key))) is not None:
                last = PurePosixPath(value.strip().rstrip("/") or "/").name
                names.add(_slug(PurePosixPath(last).stem if "." in last else last))
    title = next((t for f in fronts if (t := _scalar(f.get("title"))) is not None), None)
    if title:  # the old file's, else the one the importer gave it
        names.add(slugify(title))
    return names - {""}


def _front(path: Path) -> dict[str, Any]:
    """A file's front matter as the importer read it (``frontmatter.split``: YAML, TOML or
    Pelican's lines), keys in lower case as Pelican reads them; {} for a notebook, whose
    front matter is in a cell, or a file that cannot be read."""
    if path.suffix == ".ipynb":
        return {}
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return {}
    notes = PostNotes(path)  # the import reported them when it read the post
    meta = frontmatter.split(common.strip_controls(text, notes), notes).meta
    return {str(key).lower(): value for key, value in meta.items()}


def _scalar(value: Any) -> str | None:
    """A front matter value as text (``slug: 2019`` is a number to YAML), else None."""
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        return None
    return str(value)


def _slug(name: str) -> str:
    return slugify(DATE_PREFIX.sub("", name))


def _hosts(base: Path) -> set[str]:
    hosts: set[str] = set()
    for name in _CONFIGS:
        config = base / name
        if config.is_file():
            text = config.read_text(encoding="utf-8", errors="replace")
            hosts.update(urlsplit(url).netloc.lower() for url in _SITE_URL.findall(text))
    return hosts - {""}


def _rewritten(
    text: str,
    table: dict[str, tuple[str, str] | None],
    hosts: set[str],
    post: Imported,
    ids: dict[tuple[str, str], set[str]],
) -> str:
    assert post.written is not None
    here = post.written.parent

    def link(match: re.Match[str]) -> str:
        target = match.group(2)
        new = _target(target, table, hosts, post.kind, here, ids)
        return match.group(0) if new is None else match.group(1) + new

    known = ids[_key(post)]

    def both(part: str) -> str:
        return anchors.rewrite(_LINK.sub(link, part), known)

    pieces, at = [], 0
    for fence in _FENCE.finditer(text):  # code shows links as the author typed them
        pieces += [both(text[at : fence.start()]), fence.group(0)]
        at = fence.end()
    pieces.append(both(text[at:]))
    return "".join(pieces)


def _target(
    target: str,
    table: dict[str, tuple[str, str] | None],
    hosts: set[str],
    kind: str,
    here: Path,
    ids: dict[tuple[str, str], set[str]],
) -> str | None:
    parts = urlsplit(target)
    if parts.scheme and parts.scheme not in ("http", "https"):
        return None
    if parts.netloc and parts.netloc.lower() not in hosts:
        return None
    segments = [s for s in unquote(parts.path).split("/") if s not in ("", ".", "..")]
    if segments and segments[-1].lower().startswith("index."):
        segments.pop()
    if not segments or (len(segments) == 1 and not parts.netloc and (here / segments[0]).exists()):
        return None  # the site's root, or a file copied beside the post
    if len(segments) > 1 and segments[-2].lower() in _LISTINGS:
        return None  # ``/tags/python/``: a listing, whatever the posts are called
    last = PurePosixPath(segments[-1])
    if last.suffix.lower() not in _PAGE_SUFFIXES:
        return None
    found = table.get(_slug(last.stem if last.suffix else last.name))
    if found is None:
        return None
    to_kind, slug = found
    if to_kind == "page":  # a post is at ``posts/<slug>/``, a page at ``<slug>/``
        path = f"{'../' if kind == 'post' else ''}../{slug}/"
    else:
        path = f"../{slug}/" if kind == "post" else f"../posts/{slug}/"
    fragment = anchors.fragment(parts.fragment, ids.get(found, set())) if parts.fragment else ""
    return path + (f"#{fragment}" if fragment else "")
