"""Load (pipeline step 1): read post files and their YAML front matter into validated records.

Reading returns data and writes nothing. Each problem carries the file and line
so the author can jump straight to it; several bad posts are reported together.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import re
from dataclasses import dataclass, field
from datetime import datetime, time
from pathlib import Path
from typing import Any

from site_builder import kinds
from site_builder.config import SiteConfig, math_macros, toc_problem
from site_builder.errors import BuildError, BuildWarning, Location
from site_builder.kinds import Kind
from site_builder.slug import slugify
from site_builder.sources import SourceText, normalise_newlines
from site_builder.tags import merge_tags

KNOWN_KEYS = {
    "title",
    "date",
    "author",
    "description",
    "tags",
    "draft",
    "slug",
    "updated",
    "bibliography",
    "pdf",
    "math",
    "toc",
    "toc-depth",
}
PAGE_KEYS = {"menu", "order"}  # a page's place in the header's menu (see ``menu``)
BODY_BUDGET = 16 * 1024 * 1024  # characters of Markdown held in memory while loading
SLUG_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


@dataclass(frozen=True)
class SourcePost:
    """A post, page or the home text as written (``kind``, a ``kinds.Kind`` name): front
    matter validated, body still Markdown. Only dated kinds (posts) have a ``date``."""

    path: Path  # relative to the site root, as shown in messages
    slug: str  # a post's "<slug>"; a page's "<folder>/<name>"; "" for the home text
    title: str
    date: datetime | None
    updated: datetime | None
    author: str
    description: str
    tags: tuple[str, ...]
    draft: bool
    body: str  # "" in a record loaded from the cache: see reload()
    body_line: int  # 1-based file line of the body's first line
    bundle_dir: Path | None  # <slug>/ folder whose other files are copied beside the page
    body_hash: str = ""  # identifies the body without holding it
    # ``bibliography:`` resolved against the post's folder, relative to the site root
    # (None: the site's content/references.bib, if any), and the line that names it.
    bibliography: Path | None = None
    bibliography_line: int = 1
    pdf: str = ""  # ``pdf:`` a URL (or a path relative to the page) for citation_pdf_url
    front_hash: str = ""  # of the front matter text: an edit to the body alone skips YAML
    math_macros: tuple[tuple[str, str], ...] = ()  # ``math: {macros: ...}``, over the site's
    slug_line: int | None = None  # the ``slug:`` line; None when the slug is the file name's
    tags_line: int = 1
    toc: bool | None = None  # ``toc:``; None: site.yaml's choice
    toc_depth: int | None = None  # ``toc-depth:``; None: site.yaml's
    # Names after ``widget=`` in the body (a superset of the widgets the post shows): its
    # render key includes those widgets' fingerprints, so editing one re-renders its posts.
    widgets: tuple[str, ...] = ()
    kind: str = "post"
    menu: bool = False  # a page's ``menu: true``: listed in the header (by ``order``, title)
    order: int = 0


@dataclass(frozen=True)
class FileRecord:
    """A parsed post remembered between builds, valid while its file looks the same."""

    size: int
    mtime_ns: int
    config_key: str
    post: SourcePost  # body emptied: the body is re-read only if the post must render
    warnings: tuple[BuildWarning, ...]


@dataclass(frozen=True)
class LoadedContent:
    """The posts that loaded, plus every problem found: one bad file doesn't hide the others."""

    posts: tuple[SourcePost, ...]
    warnings: tuple[BuildWarning, ...]
    errors: tuple[BuildError, ...] = ()
    records: dict[str, FileRecord] = field(default_factory=dict)
    reparsed: int = 0  # files read and parsed (not taken from ``previous``)


def load_posts(config: SiteConfig, previous: dict[str, FileRecord] | None = None) -> LoadedContent:
    """Load every post, collecting all errors (the caller decides when to stop).

    A file whose size and modification time match its record in ``previous``
    is not read again: parsing YAML is most of a no-op rebuild otherwise.
    """
    posts: list[SourcePost] = []
    warnings: list[BuildWarning] = []
    errors: list[BuildError] = []
    records: dict[str, FileRecord] = {}
    reparsed = 0
    kept = 0
    config_key = repr(config)
    previous = previous or {}
    for kind, rel_text, stat in kinds.find_sources(config.root):
        record = previous.get(rel_text)
        if record is not None and record.config_key != config_key:
            record = None  # parsed under other settings (dates depend on the time zone)
        if record is None or (record.size, record.mtime_ns) != (stat.st_size, stat.st_mtime_ns):
            rel = Path(rel_text)
            try:
                post, post_warnings = read_post(config.root / rel, rel, config, record, kind)
            except BuildError as exc:
                errors.append(exc)
                continue
            reparsed += 1
            stripped = dataclasses.replace(post, body="")
            record = FileRecord(
                stat.st_size,
                stat.st_mtime_ns,
                config_key,
                stripped,
                tuple(post_warnings),
            )
            # Bodies are kept up to a budget: re-reading a file in a worker costs a
            # slow open(), but a large site's Markdown would be most of the memory.
            # Past the budget, reload() cuts the body from the file when needed.
            kept += len(post.body)
            if kept > BODY_BUDGET:
                post = stripped
        else:
            post = record.post
        records[rel_text] = record
        warnings.extend(record.warnings)
        if post.draft and not config.drafts:
            continue
        posts.append(post)
    dated = [post for post in posts if kinds.BY_NAME[post.kind].dated]
    errors.extend(_duplicate_slugs(dated))
    respelled, merged, collisions = merge_tags(dated)  # one spelling a tag
    warnings.extend(merged)
    errors.extend(collisions)
    if respelled != dated:
        shown = {post.path: post for post in respelled}
        posts = [shown.get(post.path, post) for post in posts]
    return LoadedContent(tuple(posts), tuple(warnings), tuple(errors), records, reparsed)


def read_post(
    file: Path,
    rel: Path,
    config: SiteConfig,
    known: FileRecord | None = None,
    kind: Kind = kinds.POST,
) -> tuple[SourcePost, list[BuildWarning]]:
    """Read and parse one source file through its kind's reader; ``rel`` is the path shown in
    messages. ``known`` is the file's record from the last build under the same
    configuration, if any."""
    return parse_text(kind.read(file, rel, config), rel, config, known, kind)


def parse_text(
    text: SourceText, rel: Path, config: SiteConfig, known: FileRecord | None, kind: Kind
) -> tuple[SourcePost, list[BuildWarning]]:
    """``parse_post`` on a reader's text, its problems moved to where they were written (a
    notebook's cell); a converted source's render depends on more than its body."""
    try:
        post, warnings = parse_post(text.text, rel, config, known, kind)
    except BuildError as exc:
        raise (text.relocate(exc) if text.relocate else exc) from None
    if text.relocate_warning is not None:
        warnings = [text.relocate_warning(warning) for warning in warnings]
    if text.fingerprint:
        post = dataclasses.replace(post, body_hash=text.fingerprint)
    return post, warnings


def reload(post: SourcePost, config: SiteConfig) -> tuple[SourcePost, SourceText]:
    """The post with its body (loaded posts don't hold it), and its source's text for the
    render. A Markdown body is cut from the file at its known line, without parsing the
    front matter again; if the file changed since it was loaded (the hash differs), or
    its kind converts its files (a notebook's outputs are not kept), it is read and
    parsed in full."""
    kind = kinds.BY_NAME[post.kind]
    if kind.read is not kinds.read_markdown:
        converted = kind.read(config.root / post.path, post.path, config)
        return parse_text(converted, post.path, config, None, kind)[0], converted
    if post.body or not post.body_hash or post.body_hash == _EMPTY_HASH:
        return post, _MARKDOWN
    try:
        raw = (config.root / post.path).read_bytes().decode("utf-8")
        text: str | None = normalise_newlines(raw).removeprefix("\ufeff")
    except (OSError, UnicodeDecodeError):
        text = None
    if text is not None:
        body = "\n".join(text.split("\n")[post.body_line - 1 :])
        if _hash(body) == post.body_hash:
            return dataclasses.replace(post, body=body), _MARKDOWN
    fresh, _ = read_post(config.root / post.path, post.path, config, None, kind)
    return fresh, _MARKDOWN


_MARKDOWN = SourceText("")  # what a Markdown source brings besides its body: nothing


def _hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


_EMPTY_HASH = _hash("")


def split_front_matter(text: str, path: Path) -> tuple[str, str, int]:
    """Split ``---`` YAML ``---`` from the body. Returns (yaml, body, body's first line)."""
    text = text.removeprefix("\ufeff")
    lines = text.split("\n")
    if not lines or lines[0].rstrip() != "---":
        raise BuildError(path, 1, "missing front matter: the file must start with a '---' line")
    for index in range(1, len(lines)):
        if lines[index].rstrip() in ("---", "..."):
            return "\n".join(lines[1:index]), "\n".join(lines[index + 1 :]), index + 2
    raise BuildError(path, 1, "front matter is not closed: add a '---' line after it")


_WIDGET_USE = re.compile(r"""\bwidget\s*=\s*["']?([\w-]+)""")


def widgets_named(body: str) -> tuple[str, ...]:
    """Every widget name the body mentions, sorted (see ``SourcePost.widgets``)."""
    return tuple(sorted(set(_WIDGET_USE.findall(body)))) if "widget" in body else ()


def parse_post(
    text: str,
    path: Path,
    config: SiteConfig,
    known: FileRecord | None = None,
    kind: Kind = kinds.POST,
) -> tuple[SourcePost, list[BuildWarning]]:
    """Validate one post's front matter. Pure: the text in, a record (or BuildError) out.

    When ``known`` (this file's record from the last build, same configuration) has
    the same front matter text, only the body changed: its fields are reused and
    YAML is neither parsed nor imported.
    """
    if kind.single and not text.removeprefix("\ufeff").startswith("---"):
        front, body, body_line = "", text.removeprefix("\ufeff"), 1  # front matter is optional
    else:
        front, body, body_line = split_front_matter(text, path)
    front_hash = _hash(front)
    if known is not None and known.post.front_hash == front_hash and known.post.path == path:
        reused = dataclasses.replace(
            known.post,
            body=body,
            body_line=body_line,
            body_hash=_hash(body),
            widgets=widgets_named(body),
        )
        return reused, list(known.warnings)
    from site_builder.yamlload import load_yaml  # only when front matter must be parsed

    data: Any = load_yaml(front, path, line_offset=1)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise BuildError(path, 2, "front matter must be a mapping of keys to values")
    lines = front.split("\n")

    def line_of(key: str) -> int:
        for number, line in enumerate(lines, start=2):
            if line.startswith(f"{key}:"):
                return number
        return 1

    known_keys = KNOWN_KEYS | PAGE_KEYS if kind is kinds.PAGE else KNOWN_KEYS
    warnings = [
        BuildWarning(Location(path, line_of(str(key))), _unknown(str(key), kind, known_keys))
        for key in data
        if key not in known_keys
    ]
    title = data.get("title", config.title if kind.single else None)
    if title is None:
        raise BuildError(path, *_missing("title", data, line_of))
    if not isinstance(title, str | int | float) or not str(title).strip():
        raise BuildError(path, line_of("title"), "'title' must be non-empty text")
    date = None
    if kind.dated and "date" not in data:
        raise BuildError(path, *_missing("date", data, line_of))
    if "date" in data:
        date = parse_date(data["date"], config, path, line_of("date"))
    updated = (
        parse_date(data["updated"], config, path, line_of("updated"))
        if data.get("updated") is not None
        else None
    )
    tags = data.get("tags") or []
    if isinstance(tags, str):  # ``tags: a, b`` is YAML for one string, but means two tags
        tags = [part for part in tags.split(",") if part.strip()]
    if not isinstance(tags, list) or not all(isinstance(t, str | int) for t in tags):
        raise BuildError(path, line_of("tags"), "'tags' must be a list of words")
    draft = data.get("draft", False)
    if not isinstance(draft, bool):
        raise BuildError(path, line_of("draft"), "'draft' must be true or false")
    # The file name is slugified as a title is (``My_Post 2.md`` gives ``my-post-2``);
    # ``slug:`` is an explicit choice, so it must already be one.
    if data.get("slug"):
        slug = str(data["slug"])
        if not SLUG_RE.match(slug):
            raise BuildError(
                path, line_of("slug"), f"slug {slug!r} must be lowercase letters, digits and '-'"
            )
    else:
        slug = slugify(path.parent.name if path.stem == "index" else path.stem)
    if kind.nested or kind.single:  # a page's place is its folders too
        slug = _page_slug(path, kind, slug if data.get("slug") else None)
    menu, order = data.get("menu", False), data.get("order", 0)
    if not isinstance(menu, bool):
        raise BuildError(path, line_of("menu"), "'menu' must be true or false")
    if not isinstance(order, int) or isinstance(order, bool):
        raise BuildError(path, line_of("order"), "'order' must be a whole number")
    for key in ("author", "description", "bibliography", "pdf"):
        if key in data and not isinstance(data[key], str):
            raise BuildError(path, line_of(key), f"'{key}' must be text")
    if data.get("pdf"):
        _check_pdf(data["pdf"].strip(), path, config, line_of("pdf"))
    macros = math_macros(data.get("math"))
    if isinstance(macros, str):
        raise BuildError(path, line_of("math"), macros)
    toc, toc_depth = data.get("toc"), data.get("toc-depth")
    for key, problem in (
        ("toc", toc_problem(toc, None)),
        ("toc-depth", toc_problem(None, toc_depth)),
    ):
        if problem:
            raise BuildError(path, line_of(key), problem)
    post = SourcePost(
        kind=kind.name,
        menu=menu,
        order=order,
        toc=toc,
        toc_depth=toc_depth,
        path=path,
        math_macros=macros,
        slug=slug,
        slug_line=line_of("slug") if data.get("slug") else None,
        tags_line=line_of("tags"),
        title=str(title).strip(),
        date=date,
        updated=updated,
        author=data.get("author") or config.author,
        description=(data.get("description") or "").strip(),
        tags=tuple(str(t).strip() for t in tags),
        draft=draft,
        body=body,
        body_line=body_line,
        body_hash=_hash(body),
        widgets=widgets_named(body),
        bundle_dir=(
            (config.root / path.parent) if path.stem == "index" and not kind.single else None
        ),
        bibliography=(
            Path(os.path.normpath(path.parent / data["bibliography"].strip()))
            if data.get("bibliography")
            else None
        ),
        bibliography_line=line_of("bibliography"),
        pdf=(data.get("pdf") or "").strip(),
        front_hash=front_hash,
    )
    return post, warnings


def parse_date(value: Any, config: SiteConfig, path: Path, line: int) -> datetime:
    """``2026-11-29``, ``2026-11-29 14:30`` or full ISO 8601; naive times use the site's zone."""
    text = str(value).strip()
    try:
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
            parsed = datetime.combine(datetime.fromisoformat(text).date(), time())
        else:
            parsed = datetime.fromisoformat(text)
    except ValueError as exc:
        if re.match(r"\d{4}-\d{2}-\d{2}", text) and "range" in str(exc):
            raise BuildError(path, line, f"date {text!r} does not exist ({exc})") from None
        raise BuildError(
            path, line, f"invalid date {text!r}: use YYYY-MM-DD or YYYY-MM-DDTHH:MM"
        ) from None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=config.tz)


def _page_slug(path: Path, kind: Kind, chosen: str | None) -> str:
    """A page's place under its kind's folder, each part slugified: ``content/pages/
    Research/Old Work.md`` is ``research/old-work``; ``slug:`` renames the last part."""
    if kind.single:
        return ""
    parts = list(path.relative_to(kind.folder).parts)
    parts[-1] = parts[-1].removesuffix(".md")
    if parts[-1] == "index":
        parts.pop()
    if chosen is not None and parts:
        parts[-1] = chosen
    return "/".join(slugify(part) if part != chosen else part for part in parts)


def _duplicate_slugs(posts: list[SourcePost]) -> list[BuildError]:
    """Two posts at one URL: reported at the post whose ``slug:`` line chose it (when one
    did), naming the other file and its ``slug:`` line too."""
    first: dict[str, SourcePost] = {}
    errors = []
    for post in posts:
        other = first.setdefault(post.slug, post)
        if other is post:
            continue
        here, there = (other, post) if other.slug_line and not post.slug_line else (post, other)
        also = f"{there.path}:{there.slug_line}" if there.slug_line else f"{there.path}"
        errors.append(
            BuildError(
                here.path, here.slug_line or 1, f"duplicate slug '{post.slug}': also used by {also}"
            )
        )
    return errors


def _missing(key: str, data: dict[Any, Any], line_of: Any) -> tuple[int, str]:
    """A required key is missing: point at a near miss (``data:`` for ``date:``) if there is one."""
    import difflib

    unknown = [str(k) for k in data if k not in KNOWN_KEYS]
    close = difflib.get_close_matches(key, unknown, n=1)
    if close:
        return line_of(close[0]), f"front matter is missing '{key}' (is '{close[0]}' a typo?)"
    return 1, f"front matter is missing '{key}'"


def _check_pdf(pdf: str, path: Path, config: SiteConfig, line: int) -> None:
    """``pdf:`` becomes Google Scholar's ``citation_pdf_url``: a file that is not there 404s."""
    if "://" in pdf:
        return
    if pdf.startswith("/"):  # site-relative: only static/ is copied to the site's root
        exists = pdf.startswith("/static/") and (config.root / pdf.lstrip("/")).is_file()
        where = "static/ (written as /static/...)"
    else:  # beside the page: a folder post's own file
        exists = path.stem == "index" and (config.root / path.parent / pdf).is_file()
        where = "the post's folder (content/posts/<slug>/ with index.md)"
    if not exists:
        raise BuildError(path, line, f"pdf: {pdf!r} is not a file in {where}")


def _unknown(key: str, kind: Kind, known: set[str]) -> str:
    if key in PAGE_KEYS:
        return f"'{key}' is for pages (content/pages/), not a {kind.name}: it is ignored"
    return f"unknown front matter key '{key}'" + _hint(key, known)


def _hint(key: str, known: set[str] = KNOWN_KEYS) -> str:
    import difflib

    close = difflib.get_close_matches(key, sorted(known), n=1)
    return f" (did you mean '{close[0]}'?)" if close else ""


def line_in_post(root: Path, path: Path, snippet: str) -> int | None:
    """The 1-based line of ``path`` (a post, relative to ``root``) where ``snippet`` first
    appears: a problem found in the output is reported where the author can fix it."""
    try:
        text = (root / path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    at = text.find(snippet)
    return text.count("\n", 0, at) + 1 if at >= 0 else None
