"""Notebook posts: fastpages' ``_notebooks/*.ipynb`` and Quarto's ``posts/*/index.ipynb``.

A notebook is already a post here (``site_builder.notebooks``), so it comes across
nearly as it is: as ``<slug>/index.ipynb`` with the local images its Markdown cells
show. The slug never carries the date: a date the old blog read from a
``2020-02-20-name`` file name is written into the notebook's own front matter,
where it was found (a raw ``---`` cell, fastpages' ``- key: value`` cell, or the
metadata), and the folder is the slug. A title missing everywhere comes from the
first heading, as for a Markdown post.

Markdown cells get the steps a Jekyll post gets that still mean something in a
notebook: ``{% raw %}`` goes, fastpages' footnotes (``{% fn 1 %}``), boxes
(``> Note: ...``, ``{% include tip.html content=... %}``) and embeds become this
site's syntax, references to files are copied, and any other Liquid is hidden and
reported (``common.hide_leftovers``). Math and code are masked first: ``{{a}}`` in
LaTeX is no Liquid. Notes name ``cell N, line L``, as the build's messages do.

A notebook that does not load (bad JSON, nbformat 3, broken front matter, a missing
attachment) is skipped with the loader's message; one that loads is checked once
written, as the build will read it (:func:`check`).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, NamedTuple

from site_builder.errors import BuildError, BuildErrors, BuildWarning
from site_builder.importer import bib, common, divs, fastpages, frontmatter, html, jekyll, markup
from site_builder.importer.assets import Assets
from site_builder.importer.formulas import MATH
from site_builder.importer.report import PostNotes
from site_builder.importer.text import Text

SKIP_PARTS = frozenset({"_extensions", "_site", "_freeze", "node_modules", ".ipynb_checkpoints"})


class NotebookPost(NamedTuple):
    """What ``import_posts`` needs of one notebook (its ``Converted`` fields)."""

    slug: str
    text: str  # the notebook's JSON as written
    files: dict[str, Path]
    notes: PostNotes
    skipped: str
    written: dict[str, str]  # new files by name: the cleaned .bib its front matter names


def find(source: Path, fmt: str) -> list[Path]:
    """The source's notebook posts: fastpages' ``_notebooks/``, Quarto's post folders."""
    if source.is_file():
        return []
    if fmt == "jekyll":
        folder = source / "_notebooks" if source.name != "_notebooks" else source
        found = folder.glob("*.ipynb") if folder.is_dir() else iter(())
        return sorted(p for p in found if not p.name.startswith(("_", ".")))
    if fmt != "quarto":
        return []
    return sorted(  # a folder's .qmd is its post, not a notebook beside it
        p
        for p in source.rglob("*.ipynb")
        if p.parent != source
        and not p.name.startswith(("_", "."))
        and not SKIP_PARTS & set(p.relative_to(source).parts)
        and not p.with_suffix(".qmd").exists()
    )


def convert(path: Path, shown: Path, fmt: str, roots: list[Path]) -> NotebookPost:
    """One notebook in memory, ready to write as ``<slug>/index.ipynb``; fastpages'
    Liquid and shortcuts are read in a Jekyll site's notebooks only."""
    from site_builder.notebooks import notebook_source
    from site_builder.notebooks.frontmatter import find_front_matter
    from site_builder.notebooks.reader import read_notebook

    notes = PostNotes(shown)
    try:
        notebook = read_notebook(path, shown)
        front = find_front_matter(notebook.cells, notebook.get("metadata") or {}, shown)
        notebook_source(notebook, shown, path.parent, run=_stored)  # outputs, attachments
    except BuildError as exc:
        return NotebookPost("", "", {}, notes, f"does not load: {_located(exc)}", {})
    raw = path.read_bytes().decode("utf-8").removeprefix("\ufeff")
    data = json.loads(raw)
    slug, name_date = frontmatter.slug_and_date(path, front.raw)
    values: dict[str, Any] = {}
    if front.raw.get("date") is None:
        if name_date is None:
            why = "no date in its front matter or its name: a notebook post needs one"
            return NotebookPost("", "", {}, notes, why, {})
        values["date"] = name_date
    if not front.raw.get("title"):  # a first heading is one (``find_front_matter``), as built
        values["title"] = _named(path, slug, notes)
    assets = Assets(path.parent, roots)
    written: dict[str, str] = {}  # Quarto read the .bib beside the notebook: it comes too
    named: dict[str, Any] = {}
    keys, _ = bib.bring(front.raw.get("bibliography"), path, roots, named, written, notes)
    if named and named["bibliography"] != front.raw.get("bibliography"):
        values["bibliography"] = named["bibliography"]  # a CSL JSON file, written as .bib
    ctx = common.PostContext(notes, assets, keys, slug=slug)
    changed = _edit_front(data, front.consumed, values, drop="slug" in front.raw)
    for index, cell in enumerate(data["cells"]):
        if cell.get("cell_type") == "markdown" and index != front.consumed:
            changed = _markdown_cell(cell, index, ctx, fmt == "jekyll") or changed
    defined = _targets(data["cells"])  # once the cells are converted: a figure may be gone
    for index, cell in enumerate(data["cells"]):
        if cell.get("cell_type") == "markdown" and index != front.consumed:
            changed = _references(cell, index, ctx, defined) or changed
    text = json.dumps(data, indent=1, ensure_ascii=False) + "\n" if changed else raw
    return NotebookPost(slug, text, dict(assets.copies), notes, "", written)


def _stored(notebook: Any, _key: str) -> Any:
    """Import never runs a notebook: its stored outputs are what it has."""
    return notebook


def _located(error: BuildError) -> str:
    where = error.location
    if where.line is None:
        return error.message
    column = f", column {where.column}" if where.column else ""
    return f"line {where.line}{column}: {error.message}"


def _source(cell: dict[str, Any]) -> str:
    value = cell.get("source", "")
    return "".join(value) if isinstance(value, list) else str(value)


def _set_source(cell: dict[str, Any], text: str) -> None:
    """In the form the notebook had it: a list of lines, or one string."""
    lines = text.splitlines(keepends=True)
    cell["source"] = lines if isinstance(cell.get("source"), list) else text


def _named(path: Path, slug: str, notes: PostNotes) -> str:
    title = frontmatter.title_from_name(path, slug)
    notes.add(None, f"no title: used '{title}' from the file name")
    return title


def _edit_front(
    data: dict[str, Any], consumed: int | None, values: dict[str, Any], drop: bool
) -> bool:
    """Write ``values`` into the front matter where the notebook keeps it; an explicit
    ``slug`` goes (``drop``): the folder is named by the slug this import chose."""
    keys = {*values, *(("slug",) if drop else ())}
    if not keys:
        return False
    cell = data["cells"][consumed] if consumed is not None else None
    if cell is None:  # the metadata (Quarto's ``quarto:`` or its top level), or none yet
        meta = data.setdefault("metadata", {})
        holder = next(
            (m for m in (meta.get("quarto"), meta.get("front_matter")) if isinstance(m, dict)),
            meta,
        )
        holder = holder if "title" in holder else meta
        if drop:
            holder.pop("slug", None)
        holder.update(values)
        return True
    lines = _source(cell).rstrip("\n").split("\n")
    yaml_cell = lines[0].strip() == "---"
    kept: list[str] = []
    skipping = False
    for line in lines:
        key = re.match(r"^(?:-[ \t]+)?([\w-]+)[ \t]*:" if not yaml_cell else r"^([\w-]+)\s*:", line)
        if key and key.group(1) in keys:
            skipping = yaml_cell  # a YAML value may continue on indented lines
            continue
        if skipping and re.match(r"^(?:[ \t]|-[ \t])", line):
            continue
        skipping = False
        kept.append(line)
    mark = "" if yaml_cell else "- "
    added = [f"{mark}{k}: {json.dumps(v, ensure_ascii=False)}" for k, v in values.items()]
    if yaml_cell:
        end = next(i for i in range(1, len(kept)) if kept[i].rstrip() in ("---", "..."))
        kept[end:end] = added
    else:
        kept.extend(added)
    _set_source(cell, "\n".join(kept))
    return True


LABEL_OPTION = re.compile(r"(?m)^#\|\s*label:\s*([\w-]+)")


def _targets(cells: list[dict[str, Any]]) -> set[str]:
    """Every cross-reference target of the notebook: its Markdown's ``{#fig-x}`` and its
    code cells' ``#| label: fig-x`` (the figure their output makes)."""
    found: set[str] = set()
    for cell in cells:
        source = _source(cell)
        if cell.get("cell_type") == "code":
            found.update(LABEL_OPTION.findall(source))
        else:
            found |= common.defined_ids(source)
    return found


def _references(
    cell: dict[str, Any], index: int, ctx: common.PostContext, defined: set[str]
) -> bool:
    """``@fig-x`` to a figure no cell of the notebook makes, unlinked; whether it changed."""
    cell_notes = PostNotes(ctx.notes.path)
    text = Text(_source(cell))
    markup.mask_code(text)
    common.check_crossrefs(text, common.PostContext(cell_notes, ctx.assets, None), defined)
    return _finish(cell, index, ctx, text, cell_notes)


def _finish(
    cell: dict[str, Any], index: int, ctx: common.PostContext, text: Text, cell_notes: PostNotes
) -> bool:
    """The converted cell back in place, its notes at ``cell N, line L``; whether it changed."""
    text.unmask()
    for note in sorted(cell_notes.notes, key=lambda n: n.line or 0):
        where = f"cell {index + 1}" + (f", line {note.line}" if note.line else "")
        ctx.notes.add(None, f"{where}: {note.message}")
    if text.text == _source(cell):
        return False
    _set_source(cell, text.text)
    return True


def _markdown_cell(cell: dict[str, Any], index: int, ctx: common.PostContext, liquid: bool) -> bool:
    """The Liquid a fastpages cell held, as this site's syntax or hidden and reported;
    local files copied. Whether the cell changed."""
    cell_notes = PostNotes(ctx.notes.path)
    here = common.PostContext(cell_notes, ctx.assets, None, slug=ctx.slug)
    text = Text(_source(cell))
    if liquid:  # a fastpages notebook
        text.sub(jekyll.RAW_TAG, lambda m, _l: "")  # Jekyll drops it even inside code
    markup.mask_code(text)
    divs.figure_images(text)
    # ``$$...$$`` is display math wherever it stands, for Jupyter and for the build
    # (``notebooks.markdown_cells``): kept as written, never read as two lone ``$``.
    text.mask(markup.DOUBLE_DOLLAR)
    # As Jupyter's MathJax read it: ``$x $`` is math, ``\\begin{pmatrix}`` outside ``$`` too.
    markup.mask_math(text, cell_notes, mathjax=True)
    html.open_math_html(text)  # ``<li>... $y$</li>``: MathJax typeset it there too
    if liquid:
        fastpages.convert(text, cell_notes)
    common.rewrite_references(text, here)
    divs.unwrap_unknown_divs(text, cell_notes)  # a figure whose image is missing, as in a post
    common.hide_leftovers(text, here)
    return _finish(cell, index, ctx, text, cell_notes)


def check(written: Path, shown: Path | str, macros: dict[str, Any], notes: PostNotes) -> int:
    """Read the written notebook as the build will (front matter checks, every cell's
    Markdown and math); a note at ``cell N, line L`` for each problem; the number of
    formulas that do not convert."""
    from site_builder import bibliography, kinds
    from site_builder.config import SiteConfig, math_macros
    from site_builder.frontmatter import parse_post
    from site_builder.markdown import MarkdownContext, render
    from site_builder.notebooks import load_notebook

    table = math_macros({"macros": macros})
    config = SiteConfig(
        written.parent, "", "", "/", math_macros=table if isinstance(table, tuple) else ()
    )
    warnings: list[BuildWarning] = []
    try:
        source = load_notebook(written, shown, run=_stored)
    except BuildError as exc:
        notes.add(None, f"the build will stop here: {_located(exc)} ({shown})")
        return 0
    try:
        post, warnings = parse_post(source.text, Path(shown), config, kind=kinds.NOTEBOOK)
        named = source.front.get("bibliography")
        bib = written.parent / named if isinstance(named, str) else None
        ctx = MarkdownContext(
            path=shown,
            line_offset=post.body_line - 1,
            resource_dir=written.parent,
            bibliography=bibliography.load(bib, bib) if bib and bib.is_file() else None,
            macros=config.math_macros,
            prerendered=source.blocks,
            files=source.files_map,
        )
        render(post.body or "", ctx)
        errors: list[BuildError] = []
    except BuildErrors as exc:
        errors = exc.errors
    except BuildError as exc:
        errors = [exc]
    for warning in warnings:
        notes.add(None, f"{source.relocate_warning(warning).message} ({shown})")
    failed = 0
    for error in errors:
        where = source.where(error.location.line)
        prefix = f"{where}: " if where else ""
        if error.message.startswith(MATH):
            failed += 1
            message = f"formula does not convert: {error.message[len(MATH) :]}"
        else:
            message = f"the build will stop here: {error.message}"
        notes.add(None, f"{prefix}{message} ({shown})")
    return failed
