"""Pelican's ``{% notebook file.ipynb cells[1:] %}``: a Markdown post that shows a notebook.

Pelican's ``liquid_tags.notebook`` plugin (Pythonic Perambulations and the blogs that
copied its set-up) writes a post as a few lines of metadata and this one tag: the page
was the notebook's cells, converted by nbconvert when the site was built. Left as an
unknown tag, the post came across empty. Here such a post becomes what this site has
for it, a notebook post (``<slug>/index.ipynb``): the post's front matter in a raw
``---`` cell, its Markdown before and after the tag as Markdown cells, and between them
the notebook's cells, sliced as the tag says. The notebook is then imported as any
other (``notebooks.convert``): its images copied, its Markdown converted, and checked.
A version 3 notebook (2012's IPython) is upgraded to version 4 first, as nbconvert did.
"""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path
from typing import Any

from site_builder.importer import notebooks

TAG = re.compile(
    r"(?m)^[ \t]*(?:<!-- not imported: )?\{%-?\s*notebook\s+(\S+?\.ipynb)"
    r"(?:\s+cells\[\s*(-?\d*)\s*:\s*(-?\d*)\s*\])?\s*-?%\}(?: -->)?[ \t]*$"
)
# Where the plugin looked: ``NOTEBOOK_DIR`` (default ``notebooks``) under the content folder.
_FOLDERS = ("", "notebooks", "content", "content/notebooks")


def find(text: str, path: Path, roots: list[Path], base: Path) -> tuple[re.Match[str], Path] | None:
    """The post's notebook tag and the notebook it names, if there is one and it exists."""
    match = TAG.search(text)
    if match is None:
        return None
    name = match.group(1).lstrip("/")
    places = [path.parent, *roots, *(base / folder for folder in _FOLDERS)]
    for place in places:
        if (place / name).is_file():
            return match, place / name
    return None


def notebook_text(text: str, match: re.Match[str], notebook: Path) -> str:
    """The notebook to import for a converted post ``text`` (front matter, then body)."""
    data = _version_4(notebook)
    start, stop = (int(g) if g else None for g in match.group(2, 3))
    front_end = text.find("\n---\n", 4) + 5
    front, before, after = text[:front_end], text[front_end : match.start()], text[match.end() :]
    cells: list[dict[str, Any]] = [_cell("raw", front.rstrip("\n"))]
    cells += [_cell("markdown", part.strip("\n")) for part in (before,) if part.strip()]
    cells += data["cells"][start:stop]
    cells += [_cell("markdown", part.strip("\n")) for part in (after,) if part.strip()]
    data["cells"] = cells
    return json.dumps(data, indent=1, ensure_ascii=False)


def convert(
    text: str, found: tuple[re.Match[str], Path], slug: str, shown: Path, roots: list[Path]
) -> notebooks.NotebookPost:
    """The post as a notebook post, converted as an imported notebook is."""
    match, notebook = found
    with tempfile.TemporaryDirectory() as folder:
        made = Path(folder) / f"{slug}.ipynb"
        made.write_text(notebook_text(text, match, notebook), encoding="utf-8")
        # its relative images are the notebook's, beside it
        return notebooks.convert(made, shown, "pelican", [notebook.parent, *roots])


def _cell(kind: str, source: str) -> dict[str, Any]:
    return {"cell_type": kind, "metadata": {}, "source": source}


def _version_4(notebook: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(notebook.read_text(encoding="utf-8-sig"))
    if data.get("nbformat", 4) < 4:
        import nbformat

        upgraded = nbformat.reads(json.dumps(data), as_version=4)  # type: ignore[no-untyped-call]
        data = json.loads(nbformat.writes(upgraded))  # type: ignore[no-untyped-call]
    return data
