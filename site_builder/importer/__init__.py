"""``site-builder import``: bring a Jekyll/al-folio, Hugo or Quarto blog's posts into this site.

Stages, as in the build: find the source's posts (``detect``), then for each
post split its front matter, map it (``frontmatter``), convert the body with
the format's module (``jekyll``, ``hugo``, ``quarto``) and the shared steps
(``markup``, ``common``), and only then touch the disk: write the post, as a
folder when it has files or a ``.bib``, and copy its files. Notebooks (``notebooks``)
come across as ``<slug>/index.ipynb``. An existing post
is never overwritten. An al-folio site's papers, About page and profile come
across too (``alfolio``). Every construct that did not come across is in the
returned report with its source ``path:line``.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from site_builder.errors import BuildError
from site_builder.importer import (
    alfolio,
    bib,
    common,
    crosslinks,
    distill,
    divs,
    embedded_notebooks,
    finding,
    formulas,
    frontmatter,
    hexo,
    html_posts,
    hugo,
    jekyll,
    liquid_blocks,
    listings,
    macros,
    markdown_steps,
    notebooks,
    page,
    pelican,
    prose_tex,
    quarto,
    rst,
    shortcodes,
    siteyaml,
    slugs,
    zola,
)
from site_builder.importer.assets import Assets
from site_builder.importer.report import Imported, ImportReport, PostNotes
from site_builder.importer.text import Text

FORMATS = ("jekyll", "hugo", "quarto", "zola", "distill")
# What an undated page keeps of the front matter: no date, so no feed, tags or updates.
PAGE_KEYS = ("title", "description", "bibliography", "draft", "toc", "math")
BLANK_LINES = re.compile(r"\n{3,}")


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
    origin: list[int] = field(default_factory=list)  # per line written, its source line
    source: str = ""  # the source text, for the columns of what the build would stop on
    suffix: str = ".md"  # ".ipynb": a notebook post, always a folder (``notebooks``)


HTML_POSTS = (".html", ".htm")  # Jekyll's posts written in HTML: ``html_posts``


def convert_post(
    path: Path,
    shown: Path,
    fmt: str,
    roots: list[Path],
    passthrough: bool | frozenset[str] = True,
    tag_spellings: dict[str, str] | None = None,
    defaults: dict[str, Any] | None = None,
    draft_mode: str = "gone",
    site_vars: dict[str, Any] | None = None,
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
    if fmt == "quarto":
        raw = quarto.frozen(path, roots, notes) or raw
    raw = common.strip_controls(raw, notes)
    is_rst = path.suffix in finding.RST_POSTS
    if is_rst:  # docutils read it: its metadata, and its body as this site's Markdown
        read = rst.convert(raw, path, notes, lambda m: frontmatter.slug_and_date(path, m)[0])
        source = frontmatter.Source(pelican.lower_keys(read.meta), "", 1)
    else:
        source = frontmatter.split(raw, notes)
    meta = frontmatter.with_date({**(defaults or {}), **source.meta})  # a listing's under it
    meta = distill.meta(meta) if fmt == "distill" else meta
    namer = distill.slug_and_date if fmt == "distill" else frontmatter.slug_and_date
    slug, name_date = namer(path, meta)
    name_date = name_date or frontmatter.render_day(path, meta, notes)
    body = html_posts.to_markdown(source.body) if path.suffix in HTML_POSTS else source.body
    text = read.text if is_rst else Text(body, source.body_line)
    if fmt == "quarto":
        quarto.includes(text, path, roots[0] if roots else path.parent, notes)
    page.unwrap(text)
    if is_rst:
        pelican.convert(text)  # its {filename} and {static} links
    elif fmt == "jekyll":  # Liquid ran before anything else: its loops, includes, ``page.x``
        base = roots[0] if roots else path.parent
        hexo.convert(text, notes, path, base)  # Hexo's and Octopress's tags, Liquid's kin
        pelican.convert(text)  # Pelican's {static} links, Python-Markdown's :::python
        liquid_blocks.run(text, meta, site_vars or {}, notes, (path.parent, base))
    if not text.text.strip() and not (name_date or meta.get("date")):
        layout = f" (the old layout {meta['layout']!r} filled it)" if meta.get("layout") else ""
        why = f"an undated page with no text of its own{layout}: nothing to bring across"
        return Converted("", "", {}, notes, skipped=why)
    title = meta.get("title") or meta.get("linkTitle")
    titled = isinstance(title, str | int | float) and bool(str(title).strip())
    heading = page.leading_title(text, str(title) if titled else None)
    fallback = (
        (heading, "its first heading")
        if heading
        else (frontmatter.title_from_name(path, slug), "the file name")
    )
    front = frontmatter.map_front_matter(meta, name_date, notes, fallback, tag_spellings)
    own = macros.of_post(source.meta, raw, shown)
    scripted = macros.in_body(text, shown)  # before the masks hide its scripts
    for name, (body, where) in scripted.found.items():
        own.add(name, body, None, where, "")
    own.notes += scripted.notes
    notes.notes.extend(own.notes)
    if own.found:  # the post's own MathJax macros, for it alone
        front["math"] = {"macros": {name: body for name, (body, _) in own.found.items()}}
    flag = frontmatter.line_of(raw, "draft" if "draft" in source.meta else "published")
    kind = quarto.bring_draft(front, draft_mode, flag, notes)
    if "date" not in front and kind == "post":
        notes.add(frontmatter.line_of(raw, "date"), "no date: brought across as an undated page")
    if "date" not in front or kind == "page":
        kind = "page"
        front = {k: v for k, v in front.items() if k in PAGE_KEYS}
    assets = Assets(path.parent, roots)
    written: dict[str, str] = {}  # files whose text the import changed, by name
    bibliography = (
        meta.get("bibliography")
        or bib.scholar(site_vars, text.text)
        or (bib.site_wide(roots, text.text) if fmt == "hugo" else None)
    )
    bib_keys, renamed = bib.bring(bibliography, path, roots, front, written, notes)
    if isinstance(passthrough, bool):  # every delimiter, or none
        passthrough = common.DELIMITERS if passthrough else frozenset()
    ctx = common.PostContext(
        notes, assets, bib_keys, slug=slug, passed=passthrough, site=site_vars or {}
    )
    for key, new in renamed.items():
        notes.add(1, f"citation key {key} renamed {new}: a citation here cannot spell it")
        text.text = re.sub(re.escape(key) + r"(?![\w'])", new, text.text)  # same length of lines
    if is_rst:
        front.update(read.front)
    else:
        markdown_steps.run(path, text, ctx, fmt)
        front.update(ctx.front)
    common.text_refs(text)
    common.rewrite_references(text, ctx)
    # Once images are resolved: a figure whose image is missing loses its fences too.
    divs.unwrap_unknown_divs(text, notes)
    if not is_rst:  # reST's text is text: a backslash or a {% %} there is escaped
        prose_tex.text_commands(text, notes)
        common.hide_leftovers(text, ctx)
    text.unmask()
    common.comments_last(text)
    common.label_underscores(text)
    common.check_citations(text, ctx)
    common.escape_bare_at(text, ctx)
    common.check_crossrefs(text, ctx)
    text.sub(BLANK_LINES, lambda m, _l: "\n\n")
    lead = len(text.text) - len(text.text.lstrip("\n"))
    head = frontmatter.dump(front) + "\n"
    origin = [1] * head.count("\n") + text.origin[lead:]  # per written line, its source line
    body = text.text.strip("\n") + "\n"
    return Converted(slug, head + body, dict(assets.copies), notes, "", written, kind, origin, raw)


def import_posts(
    source: Path, into: Path, fmt: str | None = None, site: Path | None = None
) -> ImportReport:
    """Import every post under ``source`` into ``into`` (e.g. ``content/posts``).

    ``site`` is the site's root, whose ``site.yaml`` receives the old site's macros
    (default: the root ``into`` is ``content/posts`` of)."""
    try:
        return _import_posts(source, into, fmt, site)
    except RecursionError:  # a config or post nested past Python's limit (YAML, TOML, JSON)
        raise BuildError(source, None, "a file in it is nested too deeply to read") from None


def _import_posts(source: Path, into: Path, fmt: str | None, site: Path | None) -> ImportReport:
    if not source.exists():
        raise BuildError(source, None, "no such file or folder to import from")
    if into.exists() and not into.is_dir():
        raise BuildError(into, None, "is a file: import needs a folder to write posts into")
    if site is None and into.parent.name == "content":
        site = into.parent.parent
    report = ImportReport(fmt or "jekyll")
    try:
        fmt = fmt or finding.detect(source)
        report.format = finding.engine(source, fmt)
        files, roots = finding.find_posts(source, fmt)
        researcher = fmt == "jekyll" and alfolio.detect(source)
        if researcher:  # its pages, papers and profile too
            files = alfolio.add(source, site, files, report)
        files = sorted([*files, *notebooks.find(source, fmt)])
    except OSError as exc:
        raise BuildError(source, None, f"cannot read the posts: {exc.strerror or exc}") from exc
    if not files and not researcher:
        raise BuildError(source, None, f"no {fmt} posts found")
    for render in distill.unsourced(source) if fmt == "distill" else []:  # named, not lost
        why = "only its render is here (no .Rmd or .md): not imported"
        shown = render.relative_to(source.parent) if source.parent in render.parents else render
        report.posts.append(Imported(shown, None, (), skipped=why))
    passthrough = hugo.passed_delimiters(source) if fmt == "hugo" else common.DELIMITERS
    if fmt == "zola":  # pulldown-cmark read every formula as Markdown first
        passthrough = frozenset()
    drafts = quarto.draft_mode(source) if fmt == "quarto" else "gone"
    base = source if source.is_dir() else source.parent
    folders = {"post": into, "page": into.parent / "pages"}
    taken = {kind: slugs.existing(folder) for kind, folder in folders.items()}
    spellings: dict[str, str] = {}
    listing = listings.read(source if source.is_dir() else source.parent)
    around = jekyll.neighbours(files) if fmt == "jekyll" else {}  # page.previous, page.next
    old_math = macros.read(source, fmt, base.parent)
    site_macros = siteyaml.bring_macros(old_math, site, report)
    site_vars: dict[str, Any] = {}  # the old site's own templates' inputs
    if fmt in ("jekyll", "hugo"):
        module = liquid_blocks if fmt == "jekyll" else shortcodes
        site_vars = dict(module.site_variables(base))
    if report.format == "jekyll" and old_math.inline and "$" not in old_math.inline:
        site_vars["dollar_is_text"] = True  # its MathJax or KaTeX read no ``$...$``
    if fmt == "zola":  # its shortcodes' templates say what each use becomes
        site_vars = {"zola_shortcodes": zola.shortcode_kinds(base)}
    written: list[tuple[Path, Imported]] = []  # for the links between them, once all are in
    for path in files:
        shown = path.relative_to(base.parent) if base.parent in path.parents else path
        roots_here = [r for r in roots if r.is_dir()]
        defaults = {**listing.get(path.stem, {}), **around.get(path, {})}
        if fmt == "quarto":  # its folders' ``_metadata.yml``, under the post's own
            defaults = {**quarto.folder_metadata(path, base), **defaults}
        try:
            if path.suffix == ".ipynb":
                post = Converted(*notebooks.convert(path, shown, fmt, roots_here), suffix=".ipynb")
            else:
                options = (roots_here, passthrough, spellings, defaults, drafts, site_vars)
                post = convert_post(path, shown, fmt, *options)
                post = _with_notebook(post, path, shown, roots_here, base)
        except Exception as exc:  # a post the importer fails on: named, not a traceback
            why = f"the importer failed on it ({type(exc).__name__}: {exc}); please report this"
            post = Converted("", "", {}, PostNotes(shown), skipped=why)
        if not post.skipped:  # a namesake from earlier in this import: renamed
            slug = slugs.unclaimed(post.slug, path, taken[post.kind], post.notes)
            post = replace(post, slug=slug)
        try:  # named as its notes are
            imported = _write(post, shown, folders[post.kind], taken[post.kind])
            if imported.written is not None:  # what the build would stop on, named now
                where = _shown(imported.written, site)
                args = (where, post.origin, post.source, site_macros, post.notes)
                try:
                    failed = (
                        notebooks.check(imported.written, where, site_macros, post.notes)
                        if post.suffix == ".ipynb"
                        else formulas.check(imported.written, *args)
                    )
                except Exception as exc:  # a bug of the check's: named, never a traceback
                    why = f"its formulas were not checked ({type(exc).__name__}: {exc})"
                    post.notes.add(1, f"{why}; please report this")
                    failed = 0
                imported = replace(imported, notes=tuple(post.notes.notes), failed=failed)
            report.posts.append(imported)
            written.append((path, imported))
        except OSError as exc:
            why = f"cannot write it into {folders[post.kind]}: {exc.strerror or exc}"
            report.posts.append(Imported(shown, None, tuple(post.notes.notes), skipped=why))
    crosslinks.rewrite(base, written)
    if site is not None and any(p.failed for p in report.posts):
        siteyaml.show_errors(site / "site.yaml", report)
    return report


def _with_notebook(
    post: Converted, path: Path, shown: Path, roots: list[Path], base: Path
) -> Converted:
    """Pelican's ``{% notebook x.ipynb %}`` post: a notebook post (``embedded_notebooks``)."""
    found = None if post.skipped else embedded_notebooks.find(post.text, path, roots, base)
    if found is None or post.kind != "post":
        return post
    made = embedded_notebooks.convert(post.text, found, post.slug, shown, roots)
    kept = [n for n in post.notes.notes if "{% notebook" not in n.message]
    made.notes.notes[:0] = kept
    made = made._replace(files={**post.files, **made.files})  # the text's own, around it
    return Converted(*made, suffix=".ipynb")


def _shown(path: Path, site: Path | None) -> Path:
    """A written file as the build names it: relative to the site's root."""
    if site is not None and site.resolve() in path.resolve().parents:
        return path.resolve().relative_to(site.resolve())
    return path


def _write(post: Converted, path: Path, into: Path, taken: dict[str, str]) -> Imported:
    if post.skipped:
        return Imported(path, None, tuple(post.notes.notes), skipped=post.skipped)
    if post.slug in taken:
        why = f"{into.parent.name}/{into.name} already has '{post.slug}'; not overwritten"
        return Imported(path, None, tuple(post.notes.notes), skipped=why)
    taken[post.slug] = str(path)
    into.mkdir(parents=True, exist_ok=True)
    if post.files or post.written or post.suffix != ".md":
        target = into / post.slug / f"index{post.suffix}"
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
