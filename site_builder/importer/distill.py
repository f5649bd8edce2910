"""Distill for R Markdown (rstudio/distill): a blog of R Markdown posts in dated folders.

A Distill site has a ``_site.yml`` and its posts at ``_posts/<YYYY-MM-DD-slug>/<slug>.Rmd``,
each knitted beside it to ``<slug>.html``, its figures in ``<slug>_files/figure-html5/``.
The post is Pandoc Markdown with knitr chunks, read as Quarto's is (``quarto.convert``).
What is Distill's own comes here: the dated folder names the post (its address was the
folder's), a date such as ``05-12-2021`` is month first (R's ``mdy``, as Distill read it),
``<aside>`` is a margin note, ``<div class="layout-chunk">`` laid out a knitted chunk, and
the figures a chunk drew are in the render's folder, named by the chunk's label.
"""

from __future__ import annotations

import re
from pathlib import Path
from re import Match
from typing import Any

from site_builder.importer import html, jekyll, quarto
from site_builder.importer.common import PostContext
from site_builder.importer.report import PostNotes
from site_builder.importer.text import Text

POST_SUFFIXES = (".Rmd", ".rmd", ".md")
# ``05-12-2021`` or ``5/12/2021``: Distill parsed it month first.
MONTH_FIRST = re.compile(r"^\s*(\d{1,2})[-/](\d{1,2})[-/](\d{4})\s*$")
# knitr's chunk header: ``{r label, fig.cap="x"}``, ``{r, label="x"}`` or ``{r}``.
LABEL_OPTION = re.compile(r"""\blabel\s*=\s*["']([^"']+)["']""")
# ``fig.cap="A caption"``, a string (an R expression for one is not read).
FIG_CAP = re.compile(r"""\bfig\.cap\s*=\s*(["'])([^"'\n]*)\1\s*(?:,|$)""")
FIGURE_FILE = re.compile(r"^(.+)-(\d+)\.(?:png|jpe?g|svg|gif|pdf)$")
# Knitted with ``keep_md``: each chunk's output in a layout div.
LAYOUT_CHUNK = re.compile(
    r"(?ms)^[ \t]*<div\s+class=\"layout-chunk\"[^>\n]*>[ \t]*\n(.*?)^[ \t]*</div>[ \t]*$"
)


def collections(source: Path) -> list[Path]:
    """The folders Distill reads posts from: ``_posts``, and each collection ``_site.yml``
    names (``collections: {talks: ...}`` reads ``_talks/``)."""
    named = jekyll.site_config(source, "_site.yml").get("collections")
    names = list(named) if isinstance(named, dict | list) else []
    folders = [source / f"_{name}" for name in ["posts", *names] if isinstance(name, str)]
    return [f for f in dict.fromkeys(folders) if f.is_dir()]


def is_distill(source: Path) -> bool:
    """A ``_site.yml`` (R Markdown's website) with posts in dated folders under ``_posts``:
    a plain R Markdown website has the one but not the other."""
    return (source / "_site.yml").is_file() and bool(posts(source))


def posts(source: Path) -> list[Path]:
    """Each post folder's R Markdown file (one beginning with ``_`` is a child document);
    when the render was kept (``keep_md: true``), the ``.md`` beside it instead, which
    holds what the chunks printed. A folder with no ``.Rmd`` gives its ``.md``."""
    found = []
    for folder in collections(source):
        for post in sorted(p for p in folder.iterdir() if p.is_dir()):
            files = [
                p
                for p in sorted(post.iterdir())
                if p.suffix in POST_SUFFIXES and not p.name.startswith(("_", "."))
            ]
            rmd = _published([p for p in files if p.suffix != ".md"], post.name)
            mds = [p for p in files if p.suffix == ".md" and p.stem.lower() != "readme"]
            found += [p.with_suffix(".md") if p.with_suffix(".md") in mds else p for p in rmd]
            found += mds if not rmd else []
    return found


def unsourced(source: Path) -> list[Path]:
    """The renders (``<folder>/<name>.html``) of post folders whose source is gone: Distill
    listed them, but there is nothing to convert."""
    return [
        html
        for folder in collections(source)
        for post in sorted(p for p in folder.iterdir() if p.is_dir())
        if not any(p.suffix in POST_SUFFIXES for p in post.iterdir())
        for html in sorted(post.glob("*.html"))[:1]
    ]


def _published(rmd: list[Path], folder: str) -> list[Path]:
    """A folder's post, when it holds more than one ``.Rmd`` (a copy, an old draft): the
    one named as the folder is (``2021-05-12-penguins/penguins.Rmd``), else those
    knitted to an ``.html`` beside them, which Distill listed; else all of them."""
    named = [p for p in rmd if folder == p.stem or folder.endswith(("-" + p.stem, "_" + p.stem))]
    return named or [p for p in rmd if p.with_suffix(".html").is_file()] or rmd


def slug_and_date(path: Path, meta: dict[str, Any]) -> tuple[str, str | None]:
    """The slug and date of the post's folder (``2021-05-12-slug/`` or ``2021-02-05_slug/``),
    whose name was the post's address, as an ``index`` file's are."""
    from site_builder.importer import frontmatter

    return frontmatter.slug_and_date(path.with_name("index" + path.suffix), meta)


def meta(data: dict[str, Any]) -> dict[str, Any]:
    """Front matter as Distill read it: a ``MM-DD-YYYY`` date month first, and the table of
    contents ``distill::distill_article: {toc: true}`` asked for."""
    out = dict(data)
    date = out.get("date")
    found = MONTH_FIRST.match(date) if isinstance(date, str) else None
    if found:
        month, day, year = (int(g) for g in found.groups())
        out["date"] = f"{year:04d}-{month:02d}-{day:02d}"
    output = out.get("output")
    article = output.get("distill::distill_article") if isinstance(output, dict) else None
    if isinstance(article, dict) and article.get("toc") and "toc" not in out:
        out["toc"] = True
    return out


def figures(path: Path, text: Text, notes: PostNotes) -> None:
    """After each knitr chunk, the figures it drew, from the render's
    ``<stem>_files/figure-html5/<label>-<n>.png`` (an unlabelled chunk is knitr's
    ``unnamed-chunk-<k>``, counted over the post's unlabelled chunks), its ``fig.cap``
    their caption."""
    drawn: dict[str, dict[int, str]] = {}  # label -> number -> the image's path
    for folder, shown in reversed(_figure_folders(path)):  # the post's own folder wins
        for file in folder.iterdir() if folder.is_dir() else ():
            found = FIGURE_FILE.match(file.name)
            if found:
                drawn.setdefault(found.group(1), {})[int(found.group(2))] = f"{shown}/{file.name}"
    if not drawn:
        return
    unnamed = iter(range(1, 10**6))
    taken: list[str] = []

    def chunk(match: Match[str], line: int) -> str:
        label = _label(match.group(3), match.group(4)) or f"unnamed-chunk-{next(unnamed)}"
        files = [name for _, name in sorted(drawn.get(label, {}).items())]
        if not files:
            return match.group(0)
        taken.extend(files)
        caption = FIG_CAP.search(match.group(4))
        alt = (caption.group(2) if caption else "").replace("[", "\\[").replace("]", "\\]")
        shown = "\n\n".join(f"![{alt}]({name})" for name in files)
        return f"{match.group(0)}\n\n{shown}\n"

    text.sub(quarto.CELL, chunk)
    if taken:  # once a post: the chunks' own notes say what else they lost
        notes.add(1, f"{len(taken)} figure(s) of its chunks taken from the render")


def _figure_folders(path: Path) -> list[tuple[Path, str]]:
    """Where the render kept a post's figures, and how the post names that folder: beside
    it, else in the site's output (``output_dir: docs`` holds ``docs/posts/<folder>/``,
    when ``_posts``' own render was not committed), named from the site's root."""
    figures = Path(f"{path.stem}_files") / "figure-html5"
    found = [(path.parent / figures, figures.as_posix())]
    collection, source = path.parent.parent, path.parent.parent.parent
    if collection.name.startswith("_"):
        output = jekyll.site_config(source, "_site.yml").get("output_dir") or "_site"
        rendered = Path(str(output)) / collection.name[1:] / path.parent.name / figures
        found.append((source / rendered, "/" + rendered.as_posix()))
    return found


def _label(lang: str, options: str) -> str | None:
    """A chunk's label: the first word after the engine, or ``label="x"``."""
    named = LABEL_OPTION.search(options)
    if named:
        return named.group(1)
    first = options.lstrip(" ,").split(",")[0].strip()
    return first if first and "=" not in first else None


def convert(text: Text, ctx: PostContext) -> None:
    """Distill's HTML (margin notes, knitted layout divs), then Quarto's Pandoc Markdown."""
    text.sub(LAYOUT_CHUNK, lambda m, _l: f"\n{m.group(1)}\n")
    html.boxes(text)
    quarto.convert(text, ctx)
