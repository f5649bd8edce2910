"""BibTeX files to reference records, parsed once per process (and kept across builds by
the incremental layer).

pybtex does the parsing: it implements BibTeX's own rules for names ("von
Last, Jr, First"), braces and ``@string`` macros, and decodes LaTeX
(``{\\"u}`` to ü, ``--`` to an en dash) through latexcodec. We format each
entry once, here, into plain text and HTML (APA-like), so the Markdown stage
only looks keys up and the cache holds small picklable records.

jekyll-scholar is known for re-parsing bibliographies for every page; here a
file is parsed at most once per build, and not at all when the incremental layer
kept the records for its exact bytes (``remember``).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

from site_builder.bibfields import fields_of
from site_builder.bibhref import _live_url, address, doi_of, encoded
from site_builder.bibread import read_bibtex
from site_builder.bibtex_latex import tidy, undollar
from site_builder.errors import BuildError, BuildWarning

DEFAULT = Path("content") / "references.bib"


@dataclass(frozen=True)
class Entry:
    """One reference, formatted: what citations and the References list show."""

    key: str
    authors: str  # for author-year citations: "Vaswani et al.", "Kingma & Ba"
    year: str  # "2017", or "n.d."
    text: str  # the full reference as plain text (the citation's pop-up)
    html: str  # the same with the title, container and DOI/URL marked up


Bibliography = Mapping[str, Entry]


class Parsed(dict[str, Entry]):
    """A file's entries by key, with the warnings its parse gave (a repeated entry or
    field): they travel with the entries into the cache, so a post that cites from the
    file reports them however its bibliography was had (``warnings_of``)."""

    warnings: tuple[BuildWarning, ...] = ()


def warnings_of(entries: Bibliography | None) -> tuple[BuildWarning, ...]:
    """What parsing ``entries``' file warned about; none for a plain mapping."""
    return entries.warnings if isinstance(entries, Parsed) else ()


def parse(text: str, shown: Path | str) -> dict[str, Entry]:
    """Parse BibTeX source; ``shown`` is the path used in error messages."""
    data, warnings = read_bibtex(text, shown)
    found = Parsed((key, _format(key, entry, data.entries)) for key, entry in data.entries.items())
    found.warnings = warnings
    return found


def load(path: Path, shown: Path | str) -> dict[str, Entry]:
    """A .bib file's entries, parsed once per process for the same bytes (``remember``)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise BuildError(shown, None, f"cannot read bibliography: {exc.strerror}") from None
    key = hashlib.sha256(data).hexdigest()
    if key in _MEMO:
        return _MEMO[key]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise BuildError(shown, line, "bibliography is not valid UTF-8") from None
    found = parse(text, shown)
    _remember(key, found)
    return found


def remember(data: bytes, entries: dict[str, Entry]) -> None:
    """Hold ``entries`` as the parse of ``data`` for this process: the incremental layer
    puts what it kept from an earlier build here, and ``load`` then parses nothing."""
    _remember(hashlib.sha256(data).hexdigest(), entries)


def remembered(data: bytes) -> bool:
    """Whether this process holds the parse of ``data`` already."""
    return hashlib.sha256(data).hexdigest() in _MEMO


def _remember(key: str, entries: dict[str, Entry]) -> None:
    if len(_MEMO) >= _MEMO_SIZE:  # a long `serve` session sees many versions of a file
        _MEMO.clear()
    _MEMO[key] = entries


# Parsed files of this process, by content key: one parse per build, however many posts cite.
_MEMO: dict[str, dict[str, Entry]] = {}
_MEMO_SIZE = 8


# --- formatting ---------------------------------------------------------------------------


def _latex(value: str) -> str:
    """A field's text; LaTeX pybtex cannot decode (a name part ``Martin\\`` that a ``\\,``
    left) is shown without its backslashes rather than ending the build in a traceback.
    A ``\\url{...}`` (``howpublished``, ``note``) is its address, as LaTeX prints it: kept
    out of pybtex's reading, which left ``\\url`` in the text and took its ``%``s and
    ``~``s for LaTeX."""
    from pybtex.richtext import Text

    urls: list[str] = []

    def hide(match: re.Match[str]) -> str:
        urls.append(_ESCAPED.sub(r"\1", match.group(1)))  # LaTeX's escapes, as printed
        return f"sburl{len(urls) - 1}x"

    value = tidy(_URL.sub(hide, value))
    try:
        text = _plain(Text.from_latex(value)).strip()
    except (UnicodeDecodeError, ValueError):
        text = _bare(value)
    text = undollar(text)
    return re.sub(r"sburl(\d+)x", lambda m: urls[int(m.group(1))], text) if urls else text


_URL = re.compile(r"\\url\s*\{([^{}]*)\}")
_ESCAPED = re.compile(r"\\([_%&#~$])")


def _bare(value: str) -> str:
    """LaTeX pybtex cannot read, shown without its backslashes and braces."""
    return " ".join(value.replace("\\", " ").replace("{", "").replace("}", "").split())


def verbatim(value: str) -> str:
    """A link field as written, less braces and LaTeX's escapes: decoded as text, a URL's
    ``~`` became a no-break space and its ``--`` a dash, and the link broke."""
    return _ESCAPED.sub(r"\1", " ".join(value.replace("{", "").replace("}", "").split()))


def _plain(text: Any) -> str:
    """``text.render_as("text")`` without its plugin lookup: pybtex looks the backend up in
    every installed package's entry points on each call (7 ms with the test extras
    installed; 0.45 s of a 30-entry bibliography's formatting)."""
    from pybtex.backends.plaintext import Backend

    return str(text.render(Backend()))


def _sentence_case(value: str) -> str:
    """BibTeX's title case change: lower-case except the first letter and ``{Protected}`` text.

    APA also keeps a capital after a colon ("RoFormer: Enhanced transformer ..."), which
    BibTeX's change does not know: each part after a colon outside braces starts afresh.
    """
    from pybtex.richtext import Text
    from pybtex.scanner import PybtexSyntaxError

    try:
        parts = [
            " " * (part[:1].isspace()) + _plain(Text.from_latex(part).capitalize())
            for part in _colon_parts(value)
        ]
    except (PybtexSyntaxError, UnicodeDecodeError, ValueError):  # a stray brace or ``%``
        return _bare(value)
    return ":".join(parts).strip()


_MATH = re.compile(r"(?<!\\)\$(.+?)(?<!\\)\$")


def _title(value: str) -> tuple[str, str]:
    """A title as (plain text, HTML): sentence case outside math, ``$...$`` as MathML.

    Each formula is held out as a braced placeholder first: braces keep BibTeX's case
    change off it, and latexcodec would otherwise turn ``$\\Lambda$`` into a lower-case λ.
    A formula that does not convert is shown as its LaTeX.
    """
    # Imported here: the Markdown stage imports this module for its Entry type.
    from site_builder.markdown.math.engine import MathError
    from site_builder.markdown.math.formula import render_formula

    formulas: list[str] = []

    def hold(match: re.Match[str]) -> str:
        formulas.append(match.group(1))
        return f"{{MATHHELD{len(formulas) - 1}Z}}"

    text = undollar(_sentence_case(_MATH.sub(hold, tidy(value))))
    html = escape(text)
    for index, latex in enumerate(formulas):
        try:
            mathml = render_formula(latex, display=False)[0]
        except MathError:
            mathml = escape(f"${latex}$")
        text = text.replace(f"MATHHELD{index}Z", latex)
        html = html.replace(f"MATHHELD{index}Z", mathml)
    return text, html


def _colon_parts(value: str) -> list[str]:
    """``value`` split at each colon and space outside braces (``{A: B}`` is protected; a
    ratio such as ``3:1`` has no space and is not a break)."""
    parts: list[str] = []
    depth = start = 0
    for index, char in enumerate(value):
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
        elif char == ":" and depth == 0 and value[index + 1 : index + 2].isspace():
            parts.append(value[start:index])
            start = index + 1
    parts.append(value[start:])
    return parts


def _person(person: Any) -> tuple[str, str]:
    """(surname as shown, "Surname, F. M.") for one pybtex Person."""
    # Decoded whole: ``Gro\\ss hans`` is two parts to BibTeX, one word (Großhans) to TeX.
    last = _latex(" ".join([*person.prelast_names, *person.last_names]))
    initials = " ".join(
        _initial(n) for n in [*person.first_names, *person.middle_names] if _latex(n)
    )
    jr = ", " + _latex(" ".join(person.lineage_names)) if person.lineage_names else ""
    return last, f"{last}, {initials}{jr}" if initials else f"{last}{jr}"


def _initial(name: str) -> str:
    """ "J." for "John"; a group that starts with a command is one letter to BibTeX, so
    ADS's ``{\\relax Th}.`` is "Th.", as BibTeX abbreviates it."""
    group = re.match(r"\{\\[A-Za-z]+\s*([^{}]*)\}", name)
    return f"{_latex(group.group(0)) if group else _latex(name)[0]}."


def _authors(persons: list[Any]) -> tuple[str, str]:
    """(short form for citations, full APA list)."""
    others = bool(persons) and str(persons[-1]) == "others"
    people = [_person(p) for p in (persons[:-1] if others else persons)]
    names = [full for _, full in people]
    if not people:
        return "", ""
    if len(people) >= 3 or others:
        short = f"{people[0][0]} et al."
    elif len(people) == 2:
        short = f"{people[0][0]} & {people[1][0]}"
    else:
        short = people[0][0]
    if others:
        listed = ", ".join(names) + ", et al."
    elif len(names) == 1:
        listed = names[0]
    else:
        listed = ", ".join(names[:-1]) + ", & " + names[-1]
    return short, listed


def _format(key: str, entry: Any, entries: Mapping[str, Any]) -> Entry:
    fields = fields_of(entry, entries)

    def field(name: str) -> str:
        return _latex(fields[name]) if name in fields else ""

    short, listed = _authors(list(entry.persons.get("author") or entry.persons.get("editor", [])))
    title, title_html = _title(fields["title"]) if "title" in fields else (key, escape(key))
    year = field("year") or "n.d."
    container = field("journal") or field("booktitle") or field("howpublished")
    publisher = field("publisher") or field("institution") or field("school")
    details = []
    if field("volume"):
        details.append(
            f"Vol. {field('volume')}" + (f"({field('number')})" if field("number") else "")
        )
    # A range written with one hyphen is a range too (BibTeX's styles dashify it).
    pages = re.sub(r"(?<=\w)\s*-\s*(?=\w)", "\u2013", field("pages"))
    if pages:
        details.append(("pp. " if "\u2013" in pages else "p. ") + pages)
    doi = doi_of(verbatim(_URL.sub(r"\1", fields.get("doi", ""))))
    url = f"https://doi.org/{doi}" if doi else verbatim(_URL.sub(r"\1", fields.get("url", "")))
    book = entry.type.lower() in ("book", "phdthesis", "mastersthesis", "techreport")

    text_parts = [f"{listed} ({year})." if listed else f"{title} ({year})."]
    html_parts = [f"{escape(listed)} ({escape(year)})." if listed else ""]
    shown_title = "" if not listed else title
    if shown_title:
        stop = _stop(title)
        text_parts.append(f"{shown_title}{stop}")
        html_parts.append(f"<em>{title_html}</em>{stop}" if book else f"{title_html}{stop}")
    elif not listed:
        html_parts[0] = f"<em>{title_html}</em> ({escape(year)})."
    if container:
        lead = "In " if entry.type.lower() in ("inproceedings", "incollection", "inbook") else ""
        extra = f" ({', '.join(details)})" if details else ""
        stop = _stop(extra or container)
        text_parts.append(f"{lead}{container}{extra}{stop}")
        html_parts.append(f"{lead}<em>{escape(container)}</em>{escape(extra)}{stop}")
    elif details:
        text_parts.append(", ".join(details) + ".")
        html_parts.append(escape(", ".join(details)) + ".")
    if publisher:
        text_parts.append(f"{publisher}{_stop(publisher)}")
        html_parts.append(f"{escape(publisher)}{_stop(publisher)}")
    if url:
        text_parts.append(url)
        href = address(url)
        live = href is not None and _live_url(href)
        link = f'<a href="{escape(encoded(href or url))}">{escape(url)}</a>'
        html_parts.append(link if live else escape(url))
    return Entry(
        key=key,
        authors=short or title,
        year=year,
        text=" ".join(p for p in text_parts if p),
        html=" ".join(p for p in html_parts if p),
    )


def _stop(part: str) -> str:
    """The full stop after a part, unless it ends in one already: "filopodia.", "track?",
    "Phys. Rev. Lett." (APA adds none; a second one showed as "filopodia..")."""
    return "" if part.rstrip().endswith((".", "?", "!")) else "."


def file_for(named: Path | None, root: Path) -> Path | None:
    """The .bib a post uses, relative to the site: its own, else the site's default if present."""
    if named is not None:
        return named
    return DEFAULT if (root / DEFAULT).is_file() else None
