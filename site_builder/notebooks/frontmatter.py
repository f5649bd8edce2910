"""A notebook's front matter, found where Quarto, notebook tools or fastpages put it.

In order:

1. a first raw cell holding ``---`` YAML ``---`` (Quarto);
2. the notebook's metadata, when it has a ``title`` (top level, or under
   ``quarto`` / ``front_matter``);
3. a first Markdown cell made of ``# Title``, an optional ``> summary`` line and
   a ``- key: value`` list (fastpages). That cell is not shown.

With no title in any of them, the notebook's first heading is the title when it is a
level-1 one (``# Heading`` or a setext ``Heading`` over ``===``) and no code comes
before it, as Jupyter Book does; Markdown cells with no heading before it (a Colab
badge, a banner) are passed over. The heading is then not shown, the rest of its cell is.

The result is the same YAML mapping a ``.md`` post holds, so the same checks
(``frontmatter.parse_post``) apply to both: Quarto's and fastpages' spellings are
mapped first (``categories`` are tags, an author list is one line of names,
``summary``/``subtitle`` a description), keys that only steered their themes
(``badges``, ``layout``, ``image``...) are dropped, and a date or slug missing
there comes from a ``YYYY-MM-DD-slug`` file or folder name. Each key keeps the
cell and line it was written on, for messages.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from site_builder.errors import BuildError
from site_builder.notebooks.anchors import SETEXT
from site_builder.notebooks.reader import text_of
from site_builder.slug import slugify
from site_builder.sources import FRONT_MATTER_KEYS, author_line
from site_builder.yamlload import loads

DATED_NAME = re.compile(r"^(\d{4}-\d{2}-\d{2})-(.+)$")
_US_DATE = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{4})$")
_HEADING = re.compile(r"^ {0,3}#[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$")  # ATX level 1
_ANY_HEADING = re.compile(r"^ {0,3}#{1,6}(?:[ \t]|$)")
_SETEXT_1 = re.compile(r"^ {0,3}=+[ \t]*$")
_EMPHASIS = re.compile(r"^(\*\*|__|\*|_)(.+)\1$")  # ``# **Title**``, as Colab notebooks write it
# ``*by hand*``, ``**step**``, ```code` `` inside a heading: a title is plain text (and math)
_INNER_MARKUP = re.compile(r"(\*\*|\*|`)(?=\S)(.+?)(?<=\S)\1")
_FASTPAGES_ITEM = re.compile(r"^\s*-\s+([A-Za-z_][\w-]*)\s*:\s?(.*)$")
# Keys that only steered Quarto's or fastpages' themes: nothing here reads them.
DROPPED = frozenset(
    {
        "badges", "comments", "layout", "image", "hide", "search_exclude", "branch",
        "nb_path", "sticky_rank", "permalink", "hide_binder_badge", "hide_colab_badge",
        "hide_github_badge", "hide_deepnote_badge", "hide_mybinder_badge", "jupyter",
        "format", "title-block-banner", "title-block-banner-color", "website",
        "freeze", "code-fold", "code-summary", "echo", "execute", "fig_caption",
        "twitter-card", "open-graph", "card-style", "crossref", "number-sections",
        "number-depth", "csl", "aliases", "citation", "reference-location",
        "citation-location", "title-block-style", "toc-location", "toc-title", "lightbox",
        "filters", "engine", "knitr", "code-tools", "code-line-numbers", "code-overflow",
        "highlight-style", "page-layout", "appendix-style", "google-scholar", "license",
        "copyright", "editor", "css", "include-in-header", "fig-cap-location",
        "tbl-cap-location", "execute-dir",
    }
)  # fmt: skip
# Notebook-level metadata that is never front matter.
_NOT_FRONT = frozenset({"kernelspec", "language_info", "widgets", "colab", "accelerator", "vscode"})
# What the notebook's own metadata may give (see ``_metadata``): a post's keys, and the
# spellings ``_mapped`` reads as one.
_POST_KEYS = (
    FRONT_MATTER_KEYS | {"categories", "authors", "summary", "subtitle", "date-modified"}
) - {"pdf"}


@dataclass(frozen=True)
class FrontMatter:
    """The mapping, where each key came from (cell index, 1-based line; None: metadata or
    the file name), the cell it consumed (not shown), and the document-wide options."""

    data: dict[str, Any]
    origins: dict[str, tuple[int | None, int | None]] = field(default_factory=dict)
    consumed: int | None = None
    raw: dict[str, Any] = field(default_factory=dict)  # before mapping: ``execute:`` etc.
    # (cell, 0-based line, lines) of a heading the title was taken from: not shown
    heading: tuple[int, int, int] | None = None


def find_front_matter(cells: list[Any], metadata: Any, rel: Path) -> FrontMatter:
    found = _raw_cell(cells, rel) or _metadata(metadata) or _fastpages(cells) or FrontMatter({})
    if "title" not in found.data:
        found = _heading_title(cells, found)
    data, origins = _mapped(found.data, found.origins)
    _from_name(rel, data, origins)
    return FrontMatter(data, origins, found.consumed, found.data, found.heading)


def _heading_title(cells: list[Any], found: FrontMatter) -> FrontMatter:
    """``found`` with the title of the notebook's first heading, as Jupyter Book takes it:
    the first cell after the front matter that holds a heading must open with a level-1
    one (``# Title`` or ``Title`` over ``===``). Markdown cells before it with no heading
    are passed over: a Colab badge, a book's banner, a navigation bar usually come first.
    A code cell, or a cell whose first heading is not level 1, ends the search: its
    heading names a section, not the notebook."""
    after = -1 if found.consumed is None else found.consumed
    for index, cell in enumerate(cells):
        source = text_of(cell.get("source"))
        if index <= after or not source.strip():
            continue
        if cell.get("cell_type") != "markdown":
            return found
        lines = source.split("\n")
        number = next(i for i, line in enumerate(lines) if line.strip())
        title, count = _opening_heading(lines, number)
        if title is None:
            if any(_ANY_HEADING.match(line) for line in lines) or _has_setext(lines):
                return found  # it opens with prose and has sections: no title here
            continue
        data = {**found.data, "title": title}
        origins = {**found.origins, "title": (index, number + 1)}
        return FrontMatter(data, origins, found.consumed, data, (index, number, count))
    return found


def _opening_heading(lines: list[str], number: int) -> tuple[str | None, int]:
    """The level-1 heading at ``lines[number]`` (ATX, or setext over ``===``) as plain
    text, and how many lines it takes; ``**Title**`` loses the emphasis that wraps it."""
    atx = _HEADING.match(lines[number])
    if atx is not None:
        return _unwrapped(atx.group(1)), 1
    below = lines[number + 1] if number + 1 < len(lines) else ""
    if _SETEXT_1.match(below) and not _ANY_HEADING.match(lines[number]):
        return _unwrapped(lines[number].strip()), 2
    return None, 0


def _has_setext(lines: list[str]) -> bool:
    return any(SETEXT.match(line) and lines[i - 1].strip() for i, line in enumerate(lines) if i > 0)


def _unwrapped(text: str) -> str:
    """A heading's text as a title: plain text, its math (``$x$``) kept as written."""
    match = _EMPHASIS.match(text)
    text = match.group(2).strip() if match else text
    parts = re.split(r"(\$[^$]*\$)", text)  # odd parts are math: ``$a*b*c$`` stays
    return "".join(p if i % 2 else _INNER_MARKUP.sub(r"\2", p) for i, p in enumerate(parts))


def _first_cell(cells: list[Any]) -> tuple[int, Any] | None:
    for index, cell in enumerate(cells):
        if text_of(cell.get("source")).strip():
            return index, cell
    return None


def _raw_cell(cells: list[Any], rel: Path) -> FrontMatter | None:
    first = _first_cell(cells)
    if first is None or first[1].get("cell_type") not in ("raw", "markdown"):
        return None
    index, cell = first
    lines = text_of(cell.get("source")).split("\n")
    start = next(i for i, line in enumerate(lines) if line.strip())  # blank lines before it
    if lines[start].strip() != "---":
        return None
    end = next(
        (i for i in range(start + 1, len(lines)) if lines[i].rstrip() in ("---", "...")), None
    )
    if end is None:
        message = f"cell {index + 1}: front matter is not closed: add a '---' line after it"
        raise BuildError(rel, None, message)
    import yaml

    text = "\n".join(lines[start + 1 : end])
    try:
        data = loads(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f", line {mark.line + start + 2}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).split("\n")[0]
        raise BuildError(rel, None, f"cell {index + 1}{line}: front matter: {problem}") from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        message = f"cell {index + 1}, line 2: front matter must be a mapping of keys to values"
        raise BuildError(rel, None, message)
    origins: dict[str, tuple[int | None, int | None]] = {}
    for number, line in enumerate(lines[start + 1 : end], start=start + 2):
        key = line.split(":", 1)[0].strip()
        if key in data and not line.startswith((" ", "\t")):
            origins.setdefault(key, (index, number))
    return FrontMatter({str(k): v for k, v in data.items()}, origins, index)


def _metadata(metadata: Any) -> FrontMatter | None:
    """``quarto:`` and ``front_matter:`` are front matter whole. The notebook's own
    metadata is shared with every Jupyter tool (``toc`` is the Table of Contents
    extension's settings, ``jupytext`` its pairing), so only the keys a post has are taken
    from it, and ``toc`` only as true or false."""
    for mapping in (metadata.get("quarto"), metadata.get("front_matter")):
        if isinstance(mapping, dict) and "title" in mapping:
            data = {str(k): v for k, v in mapping.items() if k not in _NOT_FRONT}
            return FrontMatter(_plain(data), {key: (None, None) for key in data})
    if isinstance(metadata, dict) and "title" in metadata:
        data = {
            str(k): v
            for k, v in metadata.items()
            if k in _POST_KEYS and (k != "toc" or isinstance(v, bool))
        }
        if _is_number(data.get("date")):  # sphinx-tojupyter (QuantEcon): a Unix time
            data["date"] = dt.datetime.fromtimestamp(data["date"], dt.UTC).date().isoformat()
        return FrontMatter(_plain(data), {key: (None, None) for key in data})
    return None


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and 0 < value < 1e11


def _plain(value: Any) -> Any:
    """nbformat's NotebookNode (a dict subclass) as plain dicts, for YAML."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _fastpages(cells: list[Any]) -> FrontMatter | None:
    """``# Title``, ``> summary``, then ``- key: value`` lines and nothing else."""
    first = _first_cell(cells)
    if first is None or first[1].get("cell_type") != "markdown":
        return None
    index, cell = first
    lines = text_of(cell.get("source")).split("\n")
    if not lines[0].startswith("# "):
        return None
    import yaml

    title = lines[0][2:].strip()
    if len(title) > 1 and title[0] == title[-1] and title[0] in "\"'":
        title = title[1:-1]  # fastpages posts often quote it: # "Introducing ..."
    data: dict[str, Any] = {"title": title}
    origins: dict[str, tuple[int | None, int | None]] = {"title": (index, 1)}
    for number, line in enumerate(lines[1:], start=2):
        item = _FASTPAGES_ITEM.match(line)
        if line.startswith(">") and "description" not in data:
            data["description"] = line[1:].strip()
            origins["description"] = (index, number)
        elif item:
            key, value = item.groups()
            try:
                data[key] = loads(f"{key}: {value}")[key]
            except (yaml.YAMLError, TypeError):
                data[key] = value.strip()
            origins[key] = (index, number)
        elif line.strip():
            return None  # prose: an ordinary first cell with a heading, not front matter
    return FrontMatter(data, origins, index)


def _mapped(
    data: dict[str, Any], origins: dict[str, tuple[int | None, int | None]]
) -> tuple[dict[str, Any], dict[str, tuple[int | None, int | None]]]:
    out: dict[str, Any] = {}
    where: dict[str, tuple[int | None, int | None]] = {}

    def put(key: str, value: Any, source: str) -> None:
        out[key] = value
        where[key] = origins.get(source, (None, None))

    for key, value in data.items():
        if key in DROPPED:
            continue
        if key == "categories":
            tags = [*_words(out.get("tags")), *_words(value)]
            put("tags", list(dict.fromkeys(tags)), key)
        elif key == "tags":
            put("tags", list(dict.fromkeys([*_words(out.get("tags")), *_words(value)])), key)
        elif key in ("author", "authors"):
            put("author", _authors(value), key)
        elif key in ("summary", "subtitle"):
            if "description" not in data:
                put("description", value, key)
        elif key in ("date", "updated", "date-modified"):
            put("updated" if key == "date-modified" else key, _date(value), key)
        else:
            put(key, value, key)
    return out, where


def _from_name(rel: Path, data: dict[str, Any], where: dict[str, Any]) -> None:
    """``2020-02-20-test.ipynb`` or ``2020-02-20-test/index.ipynb``: a date and a slug."""
    stem = rel.parent.name if rel.stem == "index" else rel.stem
    match = DATED_NAME.match(stem)
    if match:
        stem = match.group(2)
        if data.get("date") is None:
            data["date"] = match.group(1)
            where["date"] = (None, None)
    if not data.get("slug"):
        data["slug"] = slugify(stem) or "post"
        where["slug"] = (None, None)


def _words(value: Any) -> list[str]:
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    if isinstance(value, list):
        return [str(v).strip() for v in value if isinstance(v, str | int) and str(v).strip()]
    return []


def _authors(value: Any) -> Any:
    """Quarto's ``author: [{name: A}, B]`` as ``A and B``; anything else as written (the
    post's checks then say what is wrong with it)."""
    if isinstance(value, dict):
        value = [value]
    if not isinstance(value, list):
        return value
    return author_line(value)


def _date(value: Any) -> Any:
    """Quarto also reads ``10/26/2024`` (month first); the post's checks read ISO dates."""
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, str):
        match = _US_DATE.match(value.strip())
        if match:
            month, day, year = (int(part) for part in match.groups())
            return f"{year:04d}-{month:02d}-{day:02d}"
    return value
