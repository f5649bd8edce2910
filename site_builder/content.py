"""Load (pipeline step 1): read every kind's source files into validated records.

Reading returns data and writes nothing. A file that looks as it did in the last
build is not parsed again (``FileRecord``); parsing itself is ``frontmatter``'s.
Each problem carries the file and line so the author can jump straight to it;
several bad files are reported together.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from site_builder import kinds
from site_builder.config import SiteConfig
from site_builder.errors import BuildError, BuildWarning, Location
from site_builder.frontmatter import EMPTY_HASH, SourcePost, parse_post, text_hash
from site_builder.kinds import Kind
from site_builder.sources import SourceText, normalise_newlines
from site_builder.tags import merge_tags

BODY_BUDGET = 16 * 1024 * 1024  # characters of Markdown held in memory while loading


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


# One file to read and parse: its kind's name, its path and its record from the last build.
ToRead = tuple[str, str, "FileRecord | None"]
Read = tuple[SourcePost, list[BuildWarning]] | BuildError
ReadMany = Callable[[list[ToRead]], Iterable[Read]]


def load_posts(
    config: SiteConfig,
    previous: dict[str, FileRecord] | None = None,
    read_many: ReadMany | None = None,
) -> LoadedContent:
    """Load every post, collecting all errors (the caller decides when to stop).

    A file whose size and modification time match its record in ``previous``
    is not read again: parsing YAML is most of a no-op rebuild otherwise.
    ``read_many`` reads the others, in order: the build's worker processes when it has
    them (a cold build's thousand files parse on every core), else :func:`read_all`.
    """
    posts: list[SourcePost] = []
    warnings: list[BuildWarning] = []
    errors: list[BuildError] = []
    records: dict[str, FileRecord] = {}
    reparsed = 0
    kept = 0
    config_key = repr(config)
    previous = previous or {}
    found = kinds.find_sources(config.root)
    for rel in kinds.look_alikes(config.root):
        stem = rel.rsplit(".", 1)[0]
        message = f"not read: posts and pages end in .md (rename it {Path(stem).name}.md)"
        warnings.append(BuildWarning(Location(Path(rel), None), message))
    known = {rel: _valid(previous.get(rel), config_key) for _, rel, _ in found}
    stale = [
        (kind.name, rel, known[rel])
        for kind, rel, stat in found
        if not _unchanged(known[rel], stat.st_size, stat.st_mtime_ns)
    ]
    reads = list(read_many(stale) if read_many else read_all(stale, config))
    fresh = dict(zip((rel for _, rel, _ in stale), reads, strict=True))
    for _, rel_text, stat in found:
        record = known[rel_text]
        if rel_text in fresh:
            read = fresh[rel_text]
            if isinstance(read, BuildError):
                errors.append(read)
                continue
            post, post_warnings = read
            reparsed += 1
            stripped = dataclasses.replace(post, body=None)
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
            kept += len(post.body or "")
            if kept > BODY_BUDGET:
                post = stripped
        else:
            assert record is not None, "a file not read again has its record"
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


def _valid(record: FileRecord | None, config_key: str) -> FileRecord | None:
    """A record parsed under other settings is no record (dates depend on the time zone)."""
    return record if record is not None and record.config_key == config_key else None


def _unchanged(record: FileRecord | None, size: int, mtime_ns: int) -> bool:
    return record is not None and (record.size, record.mtime_ns) == (size, mtime_ns)


def read_all(files: list[ToRead], config: SiteConfig) -> list[Read]:
    """Read and parse each file (``load_posts``); a bad one is its error, not the end."""
    found: list[Read] = []
    for kind, rel_text, record in files:
        rel = Path(rel_text)
        try:
            found.append(read_post(config.root / rel, rel, config, record, kinds.BY_NAME[kind]))
        except BuildError as exc:
            found.append(exc)
    return found


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
    with text.where_written():
        post, warnings = parse_post(text.text, rel, config, known, kind)
    warnings = text.warnings_where_written(warnings)
    if text.fingerprint:
        post = dataclasses.replace(post, body_hash=text.fingerprint)
    return post, warnings


def reload(post: SourcePost, config: SiteConfig) -> tuple[SourcePost, str, SourceText]:
    """The post, its body (a record may not hold it) and its source's text for the render.
    A Markdown body is cut from the file at its known line, without parsing the front
    matter again; if the file changed since it was loaded (the hash differs), or its
    kind converts its files (a notebook's outputs are not kept), it is read and parsed
    in full."""
    kind = kinds.BY_NAME[post.kind]
    if kind.read is not kinds.read_markdown:
        converted = kind.read(config.root / post.path, post.path, config)
        fresh = parse_text(converted, post.path, config, None, kind)[0]
        return fresh, fresh.body or "", converted
    if post.body is not None:
        return post, post.body, _MARKDOWN
    if post.body_hash == EMPTY_HASH:
        return post, "", _MARKDOWN
    try:
        raw = (config.root / post.path).read_bytes().decode("utf-8")
        text: str | None = normalise_newlines(raw).removeprefix("\ufeff")
    except (OSError, UnicodeDecodeError):
        text = None
    if text is not None:
        body = "\n".join(text.split("\n")[post.body_line - 1 :])
        if text_hash(body) == post.body_hash:
            return post, body, _MARKDOWN
    fresh, _ = read_post(config.root / post.path, post.path, config, None, kind)
    return fresh, fresh.body or "", _MARKDOWN


_MARKDOWN = SourceText("")  # what a Markdown source brings besides its body: nothing


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


def line_in_post(root: Path, path: Path, snippet: str) -> int | None:
    """The 1-based line of ``path`` (a post, relative to ``root``) where ``snippet`` first
    appears: a problem found in the output is reported where the author can fix it."""
    try:
        text = (root / path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    at = text.find(snippet)
    return text.count("\n", 0, at) + 1 if at >= 0 else None
