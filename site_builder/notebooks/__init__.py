"""Notebooks as posts: a ``.ipynb`` (nbformat 4) read into what a ``.md`` post gives.

The API the build calls::

    source = load_notebook(root / rel, rel)          # -> NotebookSource
    post, warnings = frontmatter.parse_post(source.text, rel, config)
    # bundle_dir: rel.parent for ``<slug>/index.ipynb`` (parse_post only knows index.md)
    ctx = MarkdownContext(path=rel, line_offset=post.body_line - 1, ...,
                          prerendered=source.blocks, files=source.files_map)
    rendered = markdown.render(post.body, ctx)       # Rendered.files holds the images
    # on BuildErrors: [source.relocate(e) for e in exc.errors]; warnings: relocate_warning

:class:`NotebookSource` holds:

- ``text``: a whole ``.md`` post, ``---`` YAML ``---`` then the body, so the same
  front matter checks (``frontmatter.parse_post``) apply. The YAML is the notebook's
  front matter (``frontmatter``: a raw cell, the metadata, or fastpages' first
  cell), with ``slug`` (and ``date`` when the name has one) filled from a
  ``YYYY-MM-DD-slug`` name. ``front`` is the same mapping as data.
- ``blocks``: HTML by key for ``MarkdownContext.prerendered`` (outputs, wrappers);
- ``files``: ``(name, bytes)`` written beside the page (images, attachments);
- ``origins``: for each line of ``text`` (index = line - 1), the cell (0-based)
  and line in it (1-based) it came from; :meth:`NotebookSource.locate` reads
  it and :meth:`NotebookSource.relocate` rewrites an error at ``text``'s line as
  ``path: cell N, line L: message``;
- ``execute``: whether the front matter asked for a run, and ``cache_key``.

Execution: ``load_notebook(..., execute=True)`` (``site.yaml``'s default; the front
matter's ``execute:`` wins) runs it through ``run(notebook, key)``, by default
:func:`execute.execute_notebook` uncached; pass a function that looks the key up
in a cache first. ``execute.cache_key`` is the key.

Modules: ``reader`` (JSON + nbformat), ``frontmatter``, ``options`` (cell
options and tags), ``markdown_cells`` (math, attachments), ``outputs``,
``sanitize``, ``ansi``, ``document`` (the assembly and line map), ``anchors``
(Jupyter's ``#Heading-Text`` links), ``execute``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from site_builder.errors import BuildError, BuildWarning, Location
from site_builder.notebooks.anchors import section_links
from site_builder.notebooks.document import Origin, build_document
from site_builder.notebooks.execute import DEFAULT_TIMEOUT, cache_key, execute_notebook
from site_builder.notebooks.frontmatter import FrontMatter, find_front_matter
from site_builder.notebooks.options import document_defaults
from site_builder.notebooks.reader import parse_notebook, read_notebook
from site_builder.sources import SourceText

MISSING_TITLE = "front matter is missing 'title'"  # frontmatter.parse_post's message
_UNSHOWN = re.compile(r"^@(fig-\S+) refers to no figure in this post$")  # crossrefs' message
TITLE_HINT = (
    "give the notebook a first Markdown cell '# Title', or a first raw cell "
    "'---' / 'title: ...' / '---'"
)
Runner = Callable[[Any, str], Any]  # (notebook, cache key) -> executed notebook


@dataclass(frozen=True)
class NotebookSource:
    path: Path | str
    text: str
    front: dict[str, Any]
    blocks: dict[str, str]
    files: tuple[tuple[str, bytes], ...]
    origins: tuple[Origin, ...]
    execute: bool
    cache_key: str
    unshown: tuple[tuple[str, int], ...] = ()  # ``Document.unshown``

    @property
    def files_map(self) -> dict[str, bytes]:
        return dict(self.files)

    def locate(self, line: int | None) -> Origin:
        """The (cell index, line in cell) of ``text``'s 1-based ``line``."""
        if line is None or not 1 <= line <= len(self.origins):
            return None, None
        return self.origins[line - 1]

    def where(self, line: int | None) -> str:
        """``cell 3, line 2`` (1-based, as Jupyter's "cell 3" in order), or ""."""
        cell, in_cell = self.locate(line)
        if cell is None:
            return ""
        return f"cell {cell + 1}" + (f", line {in_cell}" if in_cell else "")

    def relocate(self, error: BuildError) -> BuildError:
        """An error at a line of ``text`` as ``path: cell N, line L: message``. A missing
        title says where a notebook keeps one: its front matter is no text to look at."""
        where = self.where(error.location.line)
        message = f"{where}: {error.message}" if where else error.message
        if error.message == MISSING_TITLE:
            message += f": {TITLE_HINT}"
        unshown = _UNSHOWN.match(error.message)
        cell = dict(self.unshown).get(unshown.group(1)) if unshown else None
        if cell is not None:
            message += (
                f": cell {cell + 1} labels it, but has no saved image or HTML output to show:"
                " run the notebook and save it, or set execute: true"
            )
        return BuildError(self.path, None, message)

    def relocate_warning(self, warning: BuildWarning) -> BuildWarning:
        where = self.where(warning.location.line)
        message = f"{where}: {warning.message}" if where else warning.message
        return BuildWarning(Location(self.path), message)


def load_notebook(
    file: Path,
    rel: Path | str,
    *,
    execute: bool = False,
    run: Runner | None = None,
    timeout: int = DEFAULT_TIMEOUT,
) -> NotebookSource:
    """Read, validate, (run,) and convert one notebook. ``rel`` is the path in messages."""
    return notebook_source(read_notebook(file, rel), rel, file.parent, execute, run, timeout)


def source_text(file: Path, rel: Path, execute: bool, cache: Path) -> SourceText:
    """What the build reads of a notebook (``kinds.NOTEBOOK``): its Markdown text, outputs
    and images, errors moved to their cell. ``execute`` is site.yaml's default; a run is
    kept in ``cache`` by the cells' sources."""
    import hashlib

    from site_builder.notebooks.execute import cached_runner

    run = cached_runner(cache, file.parent, rel, DEFAULT_TIMEOUT)
    notebook = read_notebook(file, rel)
    loaded = notebook_source(notebook, rel, file.parent, execute, run)
    digest = hashlib.sha256(file.read_bytes())
    digest.update(b"executed" if loaded.execute else b"stored")
    return SourceText(
        text=loaded.text,
        blocks=loaded.blocks,
        files=loaded.files,
        fingerprint=digest.hexdigest(),
        relocate=loaded.relocate,
        relocate_warning=loaded.relocate_warning,
    )


def loads_notebook(raw: bytes | str, rel: Path | str, **options: Any) -> NotebookSource:
    """:func:`load_notebook` from the file's bytes (tests, and callers holding them)."""
    cwd = options.pop("cwd", Path("."))
    return notebook_source(parse_notebook(raw, rel), rel, cwd, **options)


def notebook_source(
    notebook: Any,
    rel: Path | str,
    cwd: Path,
    execute: bool = False,
    run: Runner | None = None,
    timeout: int = DEFAULT_TIMEOUT,
) -> NotebookSource:
    front = find_front_matter(notebook.cells, notebook.get("metadata") or {}, Path(rel))
    wanted = _wants_execution(front.raw, execute)
    key = cache_key(notebook)
    if wanted:
        notebook = (
            run(notebook, key)
            if run is not None
            else execute_notebook(notebook, rel, cwd, timeout=_timeout(front.raw, timeout))
        )
    doc = build_document(
        notebook,
        rel,
        kernel_language(notebook),
        document_defaults(front.raw),
        front.consumed,
        front.heading,
    )
    head, head_origins = _yaml_block(front)
    return NotebookSource(
        path=rel,
        text="\n".join([*head, *section_links(doc.lines)]),
        front=front.data,
        blocks=doc.blocks,
        files=tuple(sorted(doc.files.items())),
        origins=(*head_origins, *doc.origins),
        execute=wanted,
        cache_key=key,
        unshown=tuple(sorted(doc.unshown.items())),
    )


def kernel_language(notebook: Any) -> str:
    """The language code cells are highlighted in (Pygments knows the kernels' names)."""
    metadata = notebook.get("metadata") or {}
    spec = metadata.get("kernelspec") or {}
    info = metadata.get("language_info") or {}
    name = spec.get("language") or info.get("name") or "python"
    return str(name).strip().lower().split()[0] if str(name).strip() else "python"


def _wants_execution(raw: dict[str, Any], default: bool) -> bool:
    value = raw.get("execute")
    if isinstance(value, bool):
        return value
    if isinstance(value, dict) and isinstance(value.get("enabled"), bool):
        return bool(value["enabled"])
    return default


def _timeout(raw: dict[str, Any], default: int) -> int:
    value = raw.get("execute")
    timeout = value.get("timeout") if isinstance(value, dict) else None
    return timeout if isinstance(timeout, int) and timeout > 0 else default


def _yaml_block(front: FrontMatter) -> tuple[list[str], list[Origin]]:
    """``---`` YAML ``---`` lines, each mapped to the cell line its key was written on."""
    import yaml

    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)  # libyaml's: 8x the pure Python's
    text = yaml.dump(front.data, Dumper=dumper, sort_keys=False, allow_unicode=True, width=1000)
    lines = ["---"]
    origins: list[Origin] = [(None, None)]
    current: Origin = (None, None)
    for line in text.rstrip("\n").split("\n") if front.data else []:
        key = line.split(":", 1)[0]
        if not line.startswith((" ", "-")) and key in front.origins:
            current = front.origins[key]
        lines.append(line)
        origins.append(current)
    lines.append("---")
    origins.append((None, None))
    return lines, origins


__all__ = [
    "NotebookSource",
    "cache_key",
    "execute_notebook",
    "kernel_language",
    "load_notebook",
    "loads_notebook",
]
