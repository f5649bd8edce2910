"""``site-builder import``: bring a Jekyll/al-folio, Hugo or Quarto blog's posts into this site.

Stages, as in the build: find the source's posts (``detect``), then for each
post split its front matter, map it (``frontmatter``), convert the body with
the format's module (``jekyll``, ``hugo``, ``quarto``) and the shared steps
(``markup``, ``common``), and only then touch the disk: write the post, as a
folder when it has files or a ``.bib``, and copy its files. An existing post
is never overwritten. Every construct that did not come across is in the
returned report with its source ``path:line``.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from site_builder.errors import BuildError
from site_builder.importer import common, frontmatter, html, hugo, jekyll, listings, page, quarto
from site_builder.importer.assets import Assets
from site_builder.importer.report import Imported, ImportReport, PostNotes
from site_builder.importer.text import Text
from site_builder.slug import slugify

FORMATS = ("jekyll", "hugo", "quarto")
# What an undated page keeps of the front matter: no date, so no feed, tags or updates.
PAGE_KEYS = ("title", "description", "bibliography", "draft", "toc")
Converter = Callable[[Text, common.PostContext], None]
CONVERTERS: dict[str, Converter] = {
    "jekyll": jekyll.convert,
    "hugo": hugo.convert,
    "quarto": quarto.convert,
}


@dataclass(frozen=True)
class Converted:
    """One post converted in memory: what to write, and where its files come from."""

    slug: str
    text: str
    files: dict[str, Path]  # name in the post folder -> source file
    notes: PostNotes
    skipped: str = ""
    written: dict[str, str] = field(default_factory=dict)  # new files, by name: a cleaned .bib
    kind: str = "post"  # or "page": a file with no date (a course's notes), for content/pages


def detect(source: Path) -> str:
    """The source's format from its configuration files, else from its posts' syntax."""
    if source.is_file():
        return "quarto" if source.suffix == ".qmd" else _sniff([source])
    if (source / "_quarto.yml").exists() or (source / "_quarto.yaml").exists():
        return "quarto"
    if (source / "_config.yml").exists() or (source / "_posts").is_dir():
        return "jekyll"
    hugo_config = ("hugo.toml", "hugo.yaml", "hugo.json", "config.toml", "config/_default")
    if any((source / name).exists() for name in hugo_config):
        return "hugo"
    if any(source.rglob("*.qmd")):
        return "quarto"
    return _sniff(sorted(source.rglob("*.md"))[:50])


def _sniff(files: list[Path]) -> str:
    text = "".join(f.read_text(encoding="utf-8", errors="replace")[:20000] for f in files)
    if "{{<" in text or "{{%" in text or text.lstrip().startswith("+++"):
        return "hugo"
    return "jekyll"


def find_posts(source: Path, fmt: str) -> tuple[list[Path], list[Path]]:
    """The source's post files, and the roots its site served files from."""
    if source.is_file():
        return [source], [source.parent]
    if fmt == "jekyll":
        posts_dir = source / "_posts" if (source / "_posts").is_dir() else source
        files = [  # Jekyll ignores files whose name starts with _ or .
            p
            for p in posts_dir.rglob("*")
            if p.suffix in (".md", ".markdown") and not p.name.startswith(("_", "."))
        ]
        return sorted(files), [source]
    if fmt == "hugo":
        content = source / "content" if (source / "content").is_dir() else source
        pages = [
            p
            for p in content.rglob("*")
            if p.suffix in (".md", ".markdown") and not p.name.startswith("_index")
        ]
        files = [p for p in pages if p.parent != content] or pages
        return sorted(files), [source / "static", content, source, source / "assets"]
    # Quarto renders .md pages too; a post folder holds one or the other.
    files = [
        p
        for p in source.rglob("*")
        if p.suffix in (".qmd", ".md")
        and not p.name.startswith("_")
        and p.parent != source
        and not {"_extensions", "_site", "_freeze", "node_modules"} & set(p.parts)
        and (p.suffix == ".qmd" or p.name == "index.md")
    ] or sorted(source.rglob("*.qmd"))
    return sorted(files), [source]


def convert_post(
    path: Path,
    shown: Path,
    fmt: str,
    roots: list[Path],
    passthrough: bool = True,
    tag_spellings: dict[str, str] | None = None,
    defaults: dict[str, Any] | None = None,
) -> Converted:
    """Convert one post in memory; ``shown`` is its path as the report names it."""
    notes = PostNotes(shown)
    try:
        raw = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        why = f"not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at offset {exc.start})"
        return Converted("", "", {}, notes, skipped=why)
    except OSError as exc:
        return Converted("", "", {}, notes, skipped=f"cannot read it: {exc.strerror or exc}")
    raw = common.strip_controls(raw, notes)
    source = frontmatter.split(raw, notes)
    meta = {**(defaults or {}), **source.meta}  # a listing's (``_blog.yml``) under the file's
    slug, name_date = frontmatter.slug_and_date(path, meta)
    name_date = name_date or frontmatter.render_day(path, meta, notes)
    text = Text(source.body, source.body_line)
    page.unwrap(text)
    title = meta.get("title") or meta.get("linkTitle")
    titled = isinstance(title, str | int | float) and bool(str(title).strip())
    heading = page.leading_title(text, str(title) if titled else None)
    fallback = (
        (heading, "its first heading")
        if heading
        else (slug.replace("-", " ").capitalize(), "the file name")
    )
    front = frontmatter.map_front_matter(meta, name_date, notes, fallback, tag_spellings)
    kind = "post"
    if "date" not in front:
        kind = "page"
        notes.add(frontmatter.line_of(raw, "date"), "no date: brought across as an undated page")
        front = {k: v for k, v in front.items() if k in PAGE_KEYS}
    assets = Assets(path.parent, roots)
    bib_keys: frozenset[str] | None = None
    renamed: dict[str, str] = {}  # bib keys a citation here cannot spell, renamed
    written: dict[str, str] = {}  # files whose text the import changed, by name
    bibliography = source.meta.get("bibliography")
    if isinstance(bibliography, list) and bibliography:
        bibliography = bibliography[0]
    if isinstance(bibliography, str) and bibliography.strip():
        bib = _find_bib(bibliography.strip(), path, roots)
        if bib is None:
            notes.add(1, f"bibliography {bibliography} not found; citations kept as text")
        else:
            raw_bib = bib.read_text(encoding="utf-8", errors="replace")
            name = bib.name
            if bib.suffix.lower() == ".json":  # CSL JSON (Zotero's, Quarto's): as BibTeX
                raw_bib = common.csl_to_bibtex(raw_bib)
                name = bib.stem + ".bib"
                notes.add(1, f"{bib.name} (CSL JSON) written as {name}")
            renamed = common.safe_keys(raw_bib)
            cleaned, dropped = common.clean_bib(raw_bib)
            if dropped:
                notes.add(1, f"{name}: repeated entries dropped: {', '.join(dropped)}")
            written[name] = cleaned
            front["bibliography"] = name
            bib_keys = frozenset(
                k for kind, k in common.BIB_ENTRY.findall(cleaned) if kind.lower() != "string"
            )
    ctx = common.PostContext(notes, assets, bib_keys, slug=slug, passthrough=passthrough)
    for key, new in renamed.items():
        notes.add(1, f"citation key {key} renamed {new}: a citation here cannot spell it")
        text.text = re.sub(re.escape(key) + r"(?![\w'])", new, text.text)  # same length of lines
    CONVERTERS[fmt](text, ctx)
    html.break_lines(text)
    html.open_math_html(text)
    common.text_refs(text)
    common.rewrite_references(text, ctx)
    common.hide_leftovers(text, ctx)
    text.unmask()
    common.label_underscores(text)
    common.check_citations(text, ctx)
    common.escape_bare_at(text, ctx)
    common.check_crossrefs(text, ctx)
    body = re.sub(r"\n{3,}", "\n\n", text.text).strip("\n") + "\n"
    post = frontmatter.dump(front) + "\n" + body
    return Converted(slug, post, dict(assets.copies), notes, written=written, kind=kind)


def _find_bib(name: str, post: Path, roots: list[Path]) -> Path | None:
    """al-folio keeps ``.bib`` files in ``assets/bibliography/``; others beside the post."""
    for base in [post.parent, *roots, *(r / "assets" / "bibliography" for r in roots)]:
        candidate = base / name.lstrip("/")
        if candidate.is_file():
            return candidate
    return None


def import_posts(source: Path, into: Path, fmt: str | None = None) -> ImportReport:
    """Import every post under ``source`` into ``into`` (e.g. ``content/posts``)."""
    if not source.exists():
        raise BuildError(source, None, "no such file or folder to import from")
    if into.exists() and not into.is_dir():
        raise BuildError(into, None, "is a file: import needs a folder to write posts into")
    try:
        fmt = fmt or detect(source)
        files, roots = find_posts(source, fmt)
    except OSError as exc:
        raise BuildError(source, None, f"cannot read the posts: {exc.strerror or exc}") from exc
    if not files:
        raise BuildError(source, None, f"no {fmt} posts found")
    report = ImportReport(fmt)
    passthrough = fmt != "hugo" or _hugo_passthrough(source)
    base = source if source.is_dir() else source.parent
    folders = {"post": into, "page": into.parent / "pages"}
    taken = {kind: _existing(folder) for kind, folder in folders.items()}
    spellings: dict[str, str] = {}
    listing = listings.read(source if source.is_dir() else source.parent)
    for path in files:
        shown = path.relative_to(base.parent) if base.parent in path.parents else path
        roots_here = [r for r in roots if r.is_dir()]
        defaults = listing.get(path.stem)
        post = convert_post(path, shown, fmt, roots_here, passthrough, spellings, defaults)
        post = _unclaimed(post, path, taken[post.kind])
        try:  # named as its notes are
            report.posts.append(_write(post, shown, folders[post.kind], taken[post.kind]))
        except OSError as exc:
            why = f"cannot write it into {folders[post.kind]}: {exc.strerror or exc}"
            report.posts.append(Imported(shown, None, tuple(post.notes.notes), skipped=why))
    return report


def _existing(folder: Path) -> dict[str, str]:
    """The slugs already in ``folder``, each claimed by no file of this import ("")."""
    if not folder.is_dir():
        return {}
    return {p.name.removesuffix(".md"): "" for p in folder.iterdir()}


def _unclaimed(post: Converted, path: Path, taken: dict[str, str]) -> Converted:
    """A slug an earlier file of this import took (``representation/directed/index.md``,
    then ``learning/directed/index.md``) takes the name of its parent folder too
    (``learning-directed``); a slug that was in the site before is never renamed."""
    if post.skipped or not taken.get(post.slug):
        return post
    bundle = path.parent if path.stem in ("index", "_index") else path
    slug = slugify(f"{bundle.parent.name}-{post.slug}") or post.slug
    first, number = slug, 2
    while slug in taken:
        slug, number = f"{first}-{number}", number + 1
    post.notes.add(
        None, f"{post.slug!r} is the slug of {taken[post.slug]} already: this one is {slug!r}"
    )
    return replace(post, slug=slug)


def _hugo_passthrough(source: Path) -> bool:
    """Does the Hugo site pass math through to MathJax untouched (goldmark passthrough)?"""
    for name in ("hugo.toml", "hugo.yaml", "config.toml", "config.yaml", "config/_default"):
        config = source / name
        files = sorted(config.rglob("*")) if config.is_dir() else [config]
        for file in files:
            if file.is_file() and "passthrough" in file.read_text(errors="replace"):
                return True
    return False


def _write(post: Converted, path: Path, into: Path, taken: dict[str, str]) -> Imported:
    if post.skipped:
        return Imported(path, None, tuple(post.notes.notes), skipped=post.skipped)
    if post.slug in taken:
        why = f"{into.parent.name}/{into.name} already has '{post.slug}'; not overwritten"
        return Imported(path, None, tuple(post.notes.notes), skipped=why)
    taken[post.slug] = str(path)
    into.mkdir(parents=True, exist_ok=True)
    if post.files or post.written:
        target = into / post.slug / "index.md"
        target.parent.mkdir()
        for name, file in sorted(post.files.items()):
            (target.parent / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(file, target.parent / name)
        for name, content in sorted(post.written.items()):
            (target.parent / name).write_text(content, encoding="utf-8")
    else:
        target = into / f"{post.slug}.md"
    with target.open("x", encoding="utf-8") as handle:  # "x": never overwrite
        handle.write(post.text)
    files = len(post.files) + len(post.written)
    return Imported(path, target, tuple(post.notes.notes), assets=files, kind=post.kind)
