"""The cells as one Markdown document, with a map from its lines back to the cells.

One document, not one per cell: footnotes, figure numbers, cross-references and
citations then work across cells as in a ``.md`` post. Markdown cells go in as
written (see ``markdown_cells``); a code cell becomes a fenced block in the
kernel's language, inside ``<div class="nb-cell">`` with its outputs in
``<div class="nb-outputs">``. Those wrappers and every HTML output are
``{=prerendered}`` fences (``markdown.prerendered``) whose HTML travels beside
the text, so outputs reach the page on a site with ``raw_html: false`` too.
A cell labelled ``fig-...`` with a ``fig-cap`` makes its image outputs a numbered figure
in Markdown (``![caption](nb-....png){#fig-x}``), which ``@fig-x`` finds; with no image,
its HTML outputs (Plotly, Altair) are the figure, in a ``::: {#fig-x}`` block.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any

from site_builder.errors import BuildError
from site_builder.notebooks.markdown_cells import (
    AttachmentError,
    attachments,
    display_math,
    page_html,
    spaced_inline,
)
from site_builder.notebooks.options import CellOptions, parse_cell
from site_builder.notebooks.outputs import (
    Image,
    OutputError,
    Piece,
    render_output,
    stream_html,
)
from site_builder.notebooks.reader import text_of
from site_builder.notebooks.sanitize import is_visible, sanitize_html

Origin = tuple[int | None, int | None]  # (0-based cell index, 1-based line in the cell)
_BACKTICKS = re.compile(r"`+")


@dataclass
class Document:
    rel: Path | str
    lines: list[str] = field(default_factory=list)
    origins: list[Origin] = field(default_factory=list)
    blocks: dict[str, str] = field(default_factory=dict)
    files: dict[str, bytes] = field(default_factory=dict)
    # figure labels of cells with no saved output to show: an ``@fig-`` to one is explained
    unshown: dict[str, int] = field(default_factory=dict)

    def add(self, text: str, cell: int | None, lines: list[int | None] | None = None) -> None:
        """Append ``text`` (a block), then a blank line. ``lines``: each line's line in the
        cell (1-based), or None for lines the cell did not write."""
        for number, line in enumerate(text.split("\n")):
            self.lines.append(line)
            self.origins.append((cell, lines[number] if lines else None))
        self.lines.append("")
        self.origins.append((cell, None))

    def html(self, html: str, cell: int | None) -> None:
        key = f"nb-{cell if cell is not None else 'x'}-{len(self.blocks) + 1}"
        self.blocks[key] = html
        self.add("```{=prerendered}\n" + key + "\n```", cell)


def build_document(
    notebook: Any,
    rel: Path | str,
    language: str,
    defaults: CellOptions,
    skip: int | None,
    title: tuple[int, int, int] | None = None,
) -> Document:
    """``skip``: the cell that held the front matter; ``title``: the (cell, line) of a
    heading the front matter took as the title and its number of lines
    (``frontmatter._heading_title``)."""
    doc = Document(rel)
    for index, cell in enumerate(notebook.cells):
        if index == skip:
            continue
        kind = cell.get("cell_type")
        if kind == "markdown":
            _markdown_cell(doc, index, cell, title[1:] if title and title[0] == index else None)
        elif kind == "code":
            _code_cell(doc, index, cell, language, defaults)
        elif kind == "raw":
            _raw_cell(doc, index, cell)
    return doc


def _raw_cell(doc: Document, index: int, cell: Any) -> None:
    """A raw cell marked as HTML (``raw_mimetype``, or JupyterLab's ``format``) is part of
    the page, as nbconvert's HTML export has it, cleaned as HTML outputs are; one for
    another format (LaTeX, reST) is not shown on the web."""
    metadata = cell.get("metadata") or {}
    mime = metadata.get("raw_mimetype") or metadata.get("format") or ""
    if str(mime).lower() not in ("text/html", "html"):
        return
    cleaned = sanitize_html(text_of(cell.get("source")))
    if is_visible(cleaned):
        doc.html(f'<div class="nb-html">\n{cleaned}\n</div>', index)


def _markdown_cell(
    doc: Document, index: int, cell: Any, title: tuple[int, int] | None = None
) -> None:
    """``title``: the first line and the number of lines of the heading that became the
    title, left out (as blank lines, so that later lines keep their numbers in messages)."""
    source = text_of(cell.get("source"))
    if title is not None:
        first, count = title
        lines = source.split("\n")
        shown = ["" if first <= i < first + count else line for i, line in enumerate(lines)]
        source = "\n".join(shown)
    if not source.strip():
        return
    try:
        source, files = attachments(source, cell)
    except AttachmentError as exc:
        raise BuildError(doc.rel, None, f"cell {index + 1}: {exc}") from None
    doc.files.update(files)
    text, origins = display_math(spaced_inline(page_html(source).rstrip("\n")))
    doc.add(text, index, [line + 1 for line in origins])


def _code_cell(doc: Document, index: int, cell: Any, language: str, defaults: CellOptions) -> None:
    metadata = cell.get("metadata") or {}
    tags = [str(tag) for tag in metadata.get("tags") or []]
    parsed = parse_cell(text_of(cell.get("source")), tags, defaults)
    options = parsed.options
    if parsed.problem:
        raise BuildError(doc.rel, None, f"cell {index + 1}: {parsed.problem}")
    show_code = options.echo and parsed.source.strip()
    outputs = _outputs(doc, index, cell, options) if options.output and options.eval else []
    if (
        options.label
        and options.label.startswith("fig-")
        and not any(
            piece.image is not None or (piece.kind in ("html", "markdown") and not piece.stream)
            for piece in outputs
        )
    ):
        doc.unshown[options.label] = index
    if not show_code and not outputs:
        return
    doc.html('<div class="nb-cell">', index)
    if show_code:
        if options.fold:
            opened = " open" if options.fold_open else ""
            summary = escape(options.summary)
            doc.html(f'<details class="nb-fold"{opened}><summary>{summary}</summary>', index)
        fence = "`" * max([3, *(len(run) + 1 for run in _BACKTICKS.findall(parsed.source))])
        first = parsed.first_line
        lines = [None, *range(first, first + parsed.source.count("\n") + 1), None]
        doc.add(f"{fence}{language}\n{parsed.source}\n{fence}", index, lines)
        if options.fold:
            doc.html("</details>", index)
    if outputs:
        if options.fold_output:
            doc.html('<details class="nb-fold"><summary>Output</summary>', index)
        doc.html('<div class="nb-outputs">', index)
        _place_outputs(doc, index, outputs, options)
        doc.html("</div>", index)
        if options.fold_output:
            doc.html("</details>", index)
    doc.html("</div>", index)


def _outputs(doc: Document, index: int, cell: Any, options: CellOptions) -> list[Piece]:
    """The cell's outputs as pieces, neighbouring stream text of one stream merged."""
    pieces: list[Piece] = []
    for output in cell.get("outputs") or []:
        try:
            piece = render_output(output)
        except OutputError as exc:
            raise BuildError(doc.rel, None, f"cell {index + 1}: {exc}") from None
        if piece is None or (piece.stream == "stderr" and not options.warning):
            continue
        if piece.stream and pieces and pieces[-1].stream == piece.stream:
            pieces[-1] = Piece("html", pieces[-1].text + piece.text, stream=piece.stream)
        else:
            pieces.append(piece)
    return [p for p in pieces if not p.stream or p.text.strip()]


def _place_outputs(doc: Document, index: int, pieces: list[Piece], options: CellOptions) -> None:
    images = [p.image for p in pieces if p.image is not None]
    labelled = options.label and options.label.startswith("fig-") and options.caption
    figure = options.label if labelled else None  # Quarto, too, needs a caption for one
    # Several images, or a figure drawn as HTML (Plotly, Altair, Bokeh): one numbered figure
    # around the outputs, its caption below, as Quarto makes any labelled cell's output.
    drawn = any(p.kind in ("html", "markdown") and not p.stream for p in pieces)
    grouped = figure is not None and (len(images) > 1 or (drawn and not images))
    if grouped:
        doc.add(f"::: {{#{figure}}}", index)
    for piece in pieces:
        if piece.stream:
            doc.html(stream_html(piece.stream, piece.text), index)
        elif piece.kind == "html":
            doc.files.update((image.name, image.data) for image in piece.files)
            doc.html(piece.text, index)
        elif piece.kind == "markdown":
            text, _ = display_math(piece.text.strip("\n"))
            doc.add(text, index)
        elif piece.image is not None:
            doc.files[piece.image.name] = piece.image.data
            ident = figure if figure is not None and not grouped else None
            doc.add(_image_markdown(piece.image, options, ident, index), index)
    if grouped:
        doc.add(options.caption or "", index)
        doc.add(":::", index)


def _image_markdown(image: Image, options: CellOptions, ident: str | None, index: int) -> str:
    """``![caption](file){#fig-x width=.. height=.. fig-alt=".."}``: a numbered figure when
    the cell is labelled, else a plain image; alt text from ``fig-alt``, then the caption."""
    caption = options.caption if ident is not None and options.caption else ""
    alt = options.alt or options.caption or f"Output of cell {index + 1}"
    attrs = [f"#{ident}"] if ident else []
    if image.width and image.height:
        attrs += [f"width={image.width}", f"height={image.height}"]
    attrs.append('fig-alt="{}"'.format(alt.replace('"', "'")))
    return f"![{caption}]({image.name}){{{' '.join(attrs)}}}"
