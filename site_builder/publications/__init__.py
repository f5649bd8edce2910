"""The author's papers from a BibTeX file (``publications: papers.bib`` in site.yaml), as
the publications page and the home page's selected papers show them.

An al-folio site's ``_bibliography/papers.bib`` works as it is: its Jekyll
``---`` lines are a comment to BibTeX, its own fields (``abbr``, ``selected``,
``pdf``, ``code``...) become the badge, the home page's list and the link
buttons, and any other field is kept for the BibTeX disclosure. pybtex parses
(names, ``@string`` macros, ``month = nov``); ``source`` keeps each entry's line
and text; ``people`` marks the site's author; ``links`` makes the buttons.

Pure: :func:`parse_publications` maps text to data (it only looks whether the
files that ``pdf`` fields name exist); the templates render that data.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

from site_builder.bibfields import CONTAINERS, crossref_targets, fields_of
from site_builder.bibliography import _latex, verbatim
from site_builder.bibread import read_bibtex
from site_builder.bibtex_latex import tidy, undollar
from site_builder.errors import BuildError, BuildWarning, Location
from site_builder.publications.links import Link, links
from site_builder.publications.people import Author, Name, authors, site_name
from site_builder.publications.source import SourceEntry, scan, unclosed
from site_builder.titles import FORMULA, title_html, title_text

__all__ = ["Link", "Publication", "Publications", "Year", "load_publications", "selected"]

MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
NO_YEAR = "Undated"
# A bare ``%`` (``\\url{...}``'s are the address's own: ``bibliography._latex`` keeps them).
_PERCENT = re.compile(r"\\url\s*\{[^{}]*\}|(?<!\\)%")
_VENUE_FIELDS = ("journal", "booktitle", "howpublished", "school", "institution", "publisher")


@dataclass(frozen=True)
class Publication:
    """One paper, ready to render: text already decoded, HTML already escaped."""

    key: str
    line: int
    kind: str  # the entry type, lower case: "article", "inproceedings"
    title: str  # plain text (math as Unicode or LaTeX), for attributes
    title_html: str  # math as MathML
    authors: tuple[Author, ...]
    venue: str  # journal, booktitle, ... decoded; "" if none
    abbr: str  # al-folio's venue badge ("NeurIPS"), "" if none
    year: str  # the group it is listed under: "2024", "In press", or NO_YEAR
    month: int  # 1-12, 0 when not given
    links: tuple[Link, ...]
    abstract_html: str  # "" when there is none
    bibtex: str  # the entry as written, less al-folio's fields
    selected: bool

    @property
    def anchor(self) -> str:
        """The entry's id on the page: ``publications/#pub-zhang2020task`` links to it."""
        return "pub-" + re.sub(r"[^\w\-]+", "-", self.key)


@dataclass(frozen=True)
class Year:
    """The papers of one year, newest month first."""

    year: str
    publications: tuple[Publication, ...]

    @property
    def anchor(self) -> str:
        return "year-" + re.sub(r"[^\w\-]+", "-", self.year.lower())


@dataclass(frozen=True)
class Publications:
    """A .bib file's papers by year, newest year first, and what was doubtful in it."""

    source: Path  # as site.yaml names it, for messages
    years: tuple[Year, ...]
    warnings: tuple[BuildWarning, ...] = ()

    @property
    def entries(self) -> tuple[Publication, ...]:
        """Every paper in page order."""
        return tuple(p for year in self.years for p in year.publications)

    @property
    def math_html(self) -> tuple[str, ...]:
        """The titles and abstracts that hold MathML: the page then loads the math font,
        and the build subsets it for these characters too (``fonts.math_characters``)."""
        return tuple(
            html
            for p in self.entries
            for html in (p.title_html, p.abstract_html)
            if "<math" in html
        )


def selected(publications: Publications) -> tuple[Publication, ...]:
    """The papers marked ``selected = {true}``, in page order: the home page's list."""
    return tuple(p for p in publications.entries if p.selected)


def load_publications(
    path: Path, root: Path, author: str, macros: tuple[tuple[str, str], ...] = ()
) -> Publications:
    """Read ``root / path`` (``path`` as site.yaml gives it, shown in messages)."""
    try:
        data = (root / path).read_bytes()
    except OSError as exc:
        raise BuildError(path, None, f"cannot read publications: {exc.strerror}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise BuildError(path, line, "the publications file is not valid UTF-8") from None
    return parse_publications(text, path, root, author, macros)


def parse_publications(
    text: str,
    shown: Path,
    root: Path,
    author: str,
    macros: tuple[tuple[str, str], ...] = (),
) -> Publications:
    """``text`` (a .bib file's) as Publications; ``author`` is the name to mark."""
    try:
        bib, repeated = read_bibtex(text, shown)
    except BuildError as exc:
        open_entry = unclosed(text) if "syntax error" in exc.message else None
        if open_entry is None:
            raise
        key, line = open_entry
        raise BuildError(shown, line, f"entry '{key}' is not closed: a '}}' is missing") from None
    spans = scan(text)
    me = site_name(author) if author.strip() else None
    warnings: list[BuildWarning] = list(repeated)
    papers = []
    containers = crossref_targets(bib.entries)
    for key, entry in bib.entries.items():
        if key.lower() in containers and entry.type.lower() in CONTAINERS:
            continue  # the proceedings its papers cite: not a paper of the author's
        source = spans.get(key) or SourceEntry(entry.type, key, 0, ())
        paper, problems = _publication(key, entry, source, shown, root, me, macros, bib.entries)
        papers.append(paper)
        warnings.extend(problems)
    return Publications(shown, _by_year(papers), tuple(warnings))


def _publication(
    key: str,
    entry: Any,
    source: SourceEntry,
    shown: Path,
    root: Path,
    me: Name | None,
    macros: tuple[tuple[str, str], ...],
    entries: Mapping[str, Any],
) -> tuple[Publication, list[BuildWarning]]:
    raw = fields_of(entry, entries)
    line = source.line or None
    if not raw.get("title", "").strip():
        raise BuildError(shown, line, f"entry '{key}' has no title")
    warnings: list[BuildWarning] = []
    decoded = {name: _decode(value) for name, value in raw.items() if name != "abstract"}
    year, month = _year(decoded.get("year", "")), _month(decoded.get("month", ""))
    if year == NO_YEAR:
        warnings.append(BuildWarning(Location(shown, line), f"entry '{key}' has no year"))
    if decoded.get("month") and not month:
        where = Location(shown, source.field_line("month"))
        warnings.append(BuildWarning(where, f"unknown month {decoded['month']!r} in '{key}'"))
    lines = {f.name.lower(): f.line for f in source.fields}
    buttons, problems = links({k: verbatim(v) for k, v in raw.items()}, root, shown, lines)
    warnings.extend(problems)
    title, title_markup = _rich(raw["title"], macros)
    persons = entry.persons.get("author") or entry.persons.get("editor") or []
    paper = Publication(
        key=key,
        line=source.line,
        kind=entry.type.lower(),
        title=title,
        title_html=title_markup,
        authors=authors(list(persons), me),
        venue=next((decoded[f] for f in _VENUE_FIELDS if decoded.get(f)), ""),
        abbr=decoded.get("abbr", ""),
        year=year,
        month=month,
        links=buttons,
        abstract_html=_rich(raw["abstract"], macros)[1] if raw.get("abstract") else "",
        bibtex=source.bibtex(raw),
        selected=decoded.get("selected", "").lower() in ("true", "yes", "1"),
    )
    return paper, warnings


def _decode(value: str) -> str:
    """A field's LaTeX as text (braces off, ``{\\"u}`` as ü, ``--`` as an en dash).

    A bare ``%`` is a percent sign: abstracts pasted from a paper's page are full of
    them ("92.9% success"), and al-folio shows them so; to LaTeX it would start a
    comment and cut the rest of the line off."""
    try:
        return _latex(_PERCENT.sub(lambda m: m.group() if m.group() != "%" else "\\%", value))
    except Exception:  # pybtex's LaTeX reader rejects a few odd strings: show them as written
        return undollar(" ".join(value.split()))


def _rich(value: str, macros: tuple[tuple[str, str], ...]) -> tuple[str, str]:
    """(text, HTML) of a title or abstract: LaTeX decoded outside ``$...$``, each formula
    as MathML (or its source, which ``check`` reports, when it does not convert).

    Formulas are held out first: latexcodec would read ``$\\alpha$`` as text."""
    formulas: list[str] = []

    def hold(match: re.Match[str]) -> str:
        formulas.append(match.group(0))
        return f"MATHHELD{len(formulas) - 1}Z"

    text = _decode(FORMULA.sub(hold, tidy(value)))
    html = escape(text, quote=False)
    for index, formula in enumerate(formulas):
        text = text.replace(f"MATHHELD{index}Z", title_text(formula))
        html = html.replace(f"MATHHELD{index}Z", title_html(formula, macros))
    return text, html


def _year(value: str) -> str:
    match = re.search(r"\d{4}", value)
    return match.group(0) if match else (value.strip() or NO_YEAR)


def _month(value: str) -> int:
    text = value.strip().rstrip(".").lower()
    if text.isdigit():
        return int(text) if 1 <= int(text) <= 12 else 0
    return MONTHS.index(text[:3]) + 1 if text[:3] in MONTHS else 0


def _by_year(papers: list[Publication]) -> tuple[Year, ...]:
    """Newest year first; a year that is not a number ("In press") before them, papers with
    no year last. Within a year, newest month first, then the file's order."""
    groups: dict[str, list[Publication]] = {}
    for paper in papers:
        groups.setdefault(paper.year, []).append(paper)

    def order(year: str) -> tuple[int, int]:
        if year == NO_YEAR:
            return (2, 0)
        return (1, -int(year)) if year.isdigit() else (0, 0)

    return tuple(
        Year(year, tuple(sorted(groups[year], key=lambda p: -p.month if p.month else 1)))
        for year in sorted(groups, key=order)
    )
