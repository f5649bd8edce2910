"""Front matter (part of pipeline step 1): a source's text into a validated record.

``parse_post`` is pure: text in, a :class:`SourcePost` (or a ``BuildError`` at the
line that is wrong) out. Which keys a kind accepts and requires comes from its row
in ``kinds``; ``content`` reads the files and decides what to re-parse.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import re
from dataclasses import dataclass
from datetime import datetime, time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from site_builder import kinds
from site_builder.config import SiteConfig, math_macros, toc_problem
from site_builder.errors import BuildError, BuildWarning, Location
from site_builder.kinds import Kind
from site_builder.slug import slugify
from site_builder.sources import FRONT_MATTER_KEYS

if TYPE_CHECKING:
    from site_builder.content import FileRecord

KNOWN_KEYS = FRONT_MATTER_KEYS  # shared with the readers of notebooks (``sources``)
PAGE_KEYS = {"menu", "order"}  # a page's place in the header's menu (see ``menu``)

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
    # The Markdown body, or None where the record does not hold it (a record remembered
    # from the last build, or past the loader's memory budget): ``content.reload`` reads it.
    body: str | None
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


def text_hash(text: str) -> str:
    """Identifies a body without holding it (``SourcePost.body_hash``)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


EMPTY_HASH = text_hash("")


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
    front_hash = text_hash(front)
    if known is not None and known.post.front_hash == front_hash and known.post.path == path:
        reused = dataclasses.replace(
            known.post,
            body=body,
            body_line=body_line,
            body_hash=text_hash(body),
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

    in_menu = not kind.dated and kind.template is not None  # a page of some kind
    known_keys = KNOWN_KEYS | PAGE_KEYS if in_menu else KNOWN_KEYS
    warnings = [
        BuildWarning(Location(path, line_of(str(key))), _unknown(str(key), kind, known_keys))
        for key in data
        if key not in known_keys
    ]
    title = data.get("title", config.title if kind.single else None)
    if title is None:
        raise BuildError(path, *_missing("title", data, line_of))
    if isinstance(title, bool):  # ``title: Yes`` is YAML's true, never a title
        message = "'title' must be non-empty text: quote one YAML reads as true or false"
        raise BuildError(path, line_of("title"), message)
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
        body_hash=text_hash(body),
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
