"""Front matter from Jekyll/al-folio, Hugo and Quarto, mapped onto this site's keys.

The three tools agree on ``title`` and ``date`` and on little else: a summary is
``description``, ``summary``, ``subtitle`` or ``excerpt``; authors are a string,
a list, or Distill's list of ``{name, url, affiliations}``; Jekyll's
``categories`` are tags here; ``published: false`` is a draft. Keys that only
meant something to the old theme (``layout``, ``_styles``, ``giscus_comments``)
are dropped: this site would warn about each, and none has a meaning here.
"""

from __future__ import annotations

import datetime as dt
import html
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

import yaml

from site_builder.frontmatter import KNOWN_KEYS
from site_builder.importer import dates, nikola, pelican
from site_builder.importer.report import PostNotes
from site_builder.slug import slugify
from site_builder.sources import author_line

# Jekyll's own rule: a month and a day may have one digit (``2016-12-5-title``).
JEKYLL_NAME = re.compile(r"^(\d{4}-\d{1,2}-\d{1,2})-(.+)$")
_DATETIME = re.compile(
    r"^(\d{4}-\d{2}-\d{2})(?:[ T](\d{1,2}:\d{2}(?::\d{2})?)(?:\.\d+)?\s*(Z|[+-]\d{2}:?\d{2})?)?$"
)
HTML_TAG = re.compile(r"</?[A-Za-z][\w-]*(?:\s[^<>]*)?/?>")
DESCRIPTION_KEYS = ("description", "summary", "subtitle", "excerpt", "abstract")
UPDATED_KEYS = ("updated", "last_modified_at", "lastmod", "date-modified", "last-modified")


@dataclass(frozen=True)
class Source:
    """One source file split into its front matter and its body."""

    meta: dict[str, Any]
    body: str
    body_line: int  # 1-based source line of the body's first line


def _yaml(raw: str) -> Any:
    """YAML as the old tools read it: js-yaml (Hexo, Gatsby, Astro) and Ruby's Psych take
    a tab after a value (``date: 2024-03-07 20:26\\t``), which PyYAML refuses."""
    try:
        return yaml.safe_load(raw)
    except ValueError:  # ``date: 2024-31-12``: PyYAML's date raised; the text is read below
        return yaml.load(raw, Loader=_NoDates)  # a SafeLoader, dates as text
    except yaml.YAMLError:
        trimmed = "\n".join(line.rstrip(" \t") for line in raw.split("\n"))
        if trimmed == raw:
            raise
        return yaml.safe_load(trimmed)


class _NoDates(yaml.SafeLoader):
    """PyYAML's safe loader reading what looks like a date as text (its date may not exist)."""


_NoDates.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def split(text: str, notes: PostNotes) -> Source:
    """YAML between ``---`` lines or TOML between ``+++`` lines, else Pelican's
    ``Key: value`` lines; no front matter is allowed."""
    text = text.removeprefix("\ufeff").replace("\r\n", "\n")
    lines = text.split("\n")
    fence = lines[0].rstrip() if lines else ""
    if fence not in ("---", "+++"):
        return _nikola(lines) or _metadata_lines(lines) or Source({}, text, 1)
    closers = ("---", "...") if fence == "---" else ("+++",)
    end = next((i for i in range(1, len(lines)) if lines[i].rstrip() in closers), None)
    if end is None:
        notes.add(1, "front matter is not closed; read the file as having none")
        return Source({}, text, 1)
    raw = "\n".join(lines[1:end])
    try:
        meta = tomllib.loads(raw) if fence == "+++" else _yaml(raw)
    except (yaml.YAMLError, tomllib.TOMLDecodeError) as exc:
        mark = getattr(exc, "problem_mark", None)
        line = 2 + (mark.line if mark is not None else 0)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        # ``title: Models: Diffusion``: not YAML, but Pelican's ``Key: value`` lines.
        plain = _metadata_lines([*lines[1:end], ""]) if fence == "---" else None
        if plain is not None:
            why = "read as Key: value lines, as Pelican reads them"
            notes.add(line, f"front matter is not YAML ({problem}): {why}")
        else:
            notes.add(line, f"front matter does not parse ({problem}); it was ignored")
        meta = plain.meta if plain is not None else {}
    if not isinstance(meta, dict):
        meta = {}
    return Source(pelican.lower_keys(meta), "\n".join(lines[end + 1 :]), end + 2)


def _nikola(lines: list[str]) -> Source | None:
    """Nikola's Markdown post: its ``.. title: X`` lines in an HTML comment at the top."""
    if not lines[0].strip().startswith("<!--"):
        return None
    end = next((i for i, line in enumerate(lines) if "-->" in line), None)
    if end is None:
        return None
    inside = [lines[0].strip().removeprefix("<!--"), *lines[1:end], lines[end].split("-->")[0]]
    meta = nikola.header([line.strip() for line in inside])
    return Source(meta, "\n".join(lines[end + 1 :]), end + 2) if meta else None


def _dated_name(path: Path) -> tuple[str, str | None]:
    """The file's (or a bundle's folder's) name without a ``YYYY-MM-DD-`` prefix, and
    that date."""
    stem = path.parent.name if path.stem in ("index", "_index") else path.stem
    match = JEKYLL_NAME.match(stem) or re.match(r"^(\d{4}-\d{2}-\d{2})[_-](.+)$", stem)
    return (match.group(2), padded_day(match.group(1))) if match else (stem, None)


def padded_day(day: str) -> str:
    """``2016-12-5`` as ``2016-12-05``."""
    year, month, number = day.split("-")
    return f"{year}-{int(month):02d}-{int(number):02d}"


def title_from_name(path: Path, slug: str) -> str:
    """A title for a file that has none: its slug in words (``rnn`` gives "Rnn"), or,
    for a name in another script, the name as written (``矩阵分解`` stays, where its slug
    is the pinyin ``ju-zhen-fen-jie``)."""
    name = " ".join(re.sub(r"[-_]+", " ", _dated_name(path)[0]).split())
    return name if name and not name.isascii() else slug.replace("-", " ").capitalize()


def slug_and_date(path: Path, meta: dict[str, Any]) -> tuple[str, str | None]:
    """The slug (``slug:``, else ``permalink``'s last part, else the file or folder name,
    without Jekyll's date prefix) and the date the file name gives, if any."""
    stem, name_date = _dated_name(path)
    explicit = meta.get("slug")
    permalink = meta.get("permalink")
    if isinstance(explicit, str) and re.search(r"\w", explicit):  # Hugo's archetype: slug = ""
        stem = explicit
    elif isinstance(permalink, str) and PurePosixPath(permalink.strip("/")).name:
        stem = PurePosixPath(permalink.strip("/")).name.removesuffix(".html")
    return slugify(stem) or "post", name_date


def map_front_matter(
    meta: dict[str, Any],
    name_date: str | None,
    notes: PostNotes,
    fallback_title: tuple[str, str],
    spellings: dict[str, str] | None = None,
) -> dict[str, Any]:
    """This site's front matter, in its usual key order; ``date`` is absent if none was found.

    ``spellings`` (tag slug -> the first spelling met) is shared by the posts of one
    import, so every post spells a tag the way the first one did.
    """
    out: dict[str, Any] = {}
    title = meta.get("title") or meta.get("linkTitle")
    if isinstance(title, str | int | float) and str(title).strip():
        out["title"] = _dollar_math(" ".join(str(title).split()))  # its math renders (``titles``)
    else:
        title, where = fallback_title  # and where it came from: the file name, a heading
        notes.add(1, f"no title: used '{title}' from {where}")
        out["title"] = title
    date = _date(meta.get("date")) or name_date
    if date is not None:
        out["date"] = date
    elif meta.get("date") is not None:
        notes.add(1, f"date {meta.get('date')!r} is not a date")
    for key in DESCRIPTION_KEYS:
        value = meta.get(key)
        if isinstance(value, str) and value.strip():
            # al-folio set the description as HTML; here it is text (meta tags, the feed).
            plain = html.unescape(HTML_TAG.sub(" ", value)) if HTML_TAG.search(value) else value
            out["description"] = _dollar_math(" ".join(plain.split()))
            break
    tags = _words(meta.get("tags")) + _words(meta.get("categories"))
    taxonomies = meta.get("taxonomies")  # Zola's ``[taxonomies] tags = [...]``
    if isinstance(taxonomies, dict):
        tags += _words(taxonomies.get("tags")) + _words(taxonomies.get("categories"))
    if tags:
        seen: dict[str, str] = {}
        for tag in tags:  # 'Software Design' and 'software-design' would share a page
            key = slugify(tag) or tag.casefold()
            if spellings is not None:
                tag = spellings.setdefault(key, tag)
            seen.setdefault(key, tag)
        out["tags"] = list(seen.values())
    author = _authors(meta.get("authors")) or _authors(meta.get("author"))
    if author:
        out["author"] = author
    for key in UPDATED_KEYS:
        updated = _date(meta.get(key))
        if updated:
            out["updated"] = updated
            break
    if meta.get("draft") is True or meta.get("published") is False:
        out["draft"] = True
    if meta.get("toc") and "toc" in KNOWN_KEYS:  # Distill's toc lists sections; ours is built
        out["toc"] = True
    return out


# Where other generators keep a post's date: Astro's blog template (``pubDate``), Hugo
# and Astro (``publishDate``), Next.js starters (``publishedAt``), note apps (``created``).
DATE_ALIASES = ("pubDate", "pubdate", "publishDate", "publishedAt", "published", "created")


def with_date(meta: dict[str, Any]) -> dict[str, Any]:
    """``meta`` with ``date`` from its first alias when it has none (``published: true``,
    Jekyll's flag, is no date)."""
    if meta.get("date") is not None:
        return meta
    for key in DATE_ALIASES:
        value = meta.get(key)
        if value is not None and not isinstance(value, bool):
            return {**meta, "date": value}
    return meta


# Quarto's, and Eleventy's ``date: Last Modified`` (``git Last Modified``, ``Created``):
# the file's own day, as the engine took it at build time.
RENDER_DAY = frozenset(
    {
        "today",
        "now",
        "last-modified",
        "last modified",
        "git last modified",
        "created",
        "git created",
    }
)


def render_day(path: Path, meta: dict[str, Any], notes: PostNotes) -> str | None:
    """Quarto's ``date: today`` (``now``, ``last-modified``) and Eleventy's ``Last Modified``
    are the day of the build: the file's modification day, the last build that could have
    changed it."""
    value = meta.get("date")
    if not isinstance(value, str) or value.strip().lower() not in RENDER_DAY:
        return None
    day = dt.datetime.fromtimestamp(path.stat().st_mtime, dt.UTC).date().isoformat()
    notes.add(
        1, f"date: {value.strip()} is the day of the old site's build: used {day}, the file's"
    )
    return day


# ``\(G_2\)`` in a title: MathJax typeset it in the old page's heading.
PAREN_MATH = re.compile(r"\\\((.+?)\\\)|(?<!\\)\$\$(.+?)\$\$")


def _dollar_math(value: str) -> str:
    """A title's or description's ``\\(x\\)`` (or kramdown's ``$$x$$``, which no Markdown
    read there) as the ``$x$`` a title here renders."""
    return PAREN_MATH.sub(lambda m: f"${(m.group(1) or m.group(2)).strip()}$", value)


def line_of(raw: str, key: str) -> int:
    """The line of ``key:`` in the front matter (1 when it has none)."""
    match = re.search(rf"(?m)^{re.escape(key)}\s*[:=]", raw)
    return raw.count("\n", 0, match.start()) + 1 if match else 1


def dump(front: dict[str, Any]) -> str:
    """The front matter block as this site reads it."""
    text = yaml.safe_dump(front, sort_keys=False, allow_unicode=True, width=1000)
    return f"---\n{text}---\n"


def _date(value: Any) -> str | None:
    """A date in a form the site parses (``YYYY-MM-DD`` or ISO 8601), or None."""
    if isinstance(value, dt.datetime):
        return value.isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if not isinstance(value, str):
        return None
    match = _DATETIME.match(value.strip())
    if not match:
        return dates.parse(value)  # what Jekyll, Hugo and Quarto read besides ISO
    day, clock, zone = match.groups()
    try:
        dt.date.fromisoformat(day)
    except ValueError:  # ``2024-31-12``: no such day
        return None
    if clock is None:
        return day
    if len(clock.split(":")[0]) == 1:
        clock = "0" + clock
    if zone and zone != "Z" and ":" not in zone:
        zone = f"{zone[:3]}:{zone[3:]}"
    text = f"{day}T{clock}{zone or ''}"
    try:
        dt.datetime.fromisoformat(text)
    except ValueError:
        return None
    return text


def _words(value: Any) -> list[str]:
    """Tags as a list: Jekyll allows ``tags: a b`` (space-separated) as well as a list."""
    if isinstance(value, str):
        parts = value.split(",") if "," in value else value.split()
        return [p.strip() for p in parts if p.strip()]
    if isinstance(value, list):
        return [str(v).strip() for v in value if isinstance(v, str | int) and str(v).strip()]
    return []


def _authors(value: Any) -> str:
    """``A``, ``A and B`` or ``A, B and C`` from a string, a list, or Distill's dicts."""
    if isinstance(value, str):  # a theme that took HTML here: ``<a href="{{ site.url }}">``
        return " ".join(html.unescape(HTML_TAG.sub(" ", value)).split())
    if isinstance(value, dict):
        value = [value]
    if not isinstance(value, list):
        return ""
    return author_line(value)


def _metadata_lines(lines: list[str]) -> Source | None:
    """Pelican's ``Title:``/``Date:`` lines up to a blank line, as front matter."""
    found = pelican.metadata(lines)
    if found is None:
        return None
    meta, end = found
    return Source(meta, "\n".join(lines[end + 1 :]), end + 2)
