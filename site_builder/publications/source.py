"""A .bib file's entries as written: where each starts and its fields' own text.

pybtex parses the values (names, macros, LaTeX) but forgets where an entry was
and how it was written. The page needs both: a problem with an entry is
reported at its line, and the BibTeX disclosure shows the entry as its author
wrote it (``month = nov`` stays ``nov``), less the fields that only al-folio
reads. So this module scans the text once for the spans, by BibTeX's own rule:
an entry is ``@type{...}`` (or ``@type(...)``) and its body ends at the
matching brace; anything between entries, Jekyll's ``---`` lines included, is
a comment.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

# Fields al-folio reads to lay the page out, not part of the reference: the BibTeX
# disclosure leaves them out (al-folio's ``filtered_bibtex_keywords`` and friends).
ALFOLIO_FIELDS = frozenset(
    {
        "abbr",
        "abstract",
        "additional_info",
        "altmetric",
        "annotation",
        "arxiv",
        "award",
        "award_name",
        "bibtex_show",
        "blog",
        "code",
        "dimensions",
        "google_scholar_id",
        "html",
        "inspirehep_id",
        "pdf",
        "poster",
        "preview",
        "selected",
        "slides",
        "supp",
        "video",
        "website",
    }
)

_START = re.compile(r"@[ \t]*([A-Za-z]+)[ \t\r\n]*([{(])")
_NOT_ENTRIES = frozenset({"comment", "string", "preamble"})


@dataclass(frozen=True)
class Field:
    """One ``name = value`` as written; ``value`` keeps its braces or quotes."""

    name: str
    value: str
    line: int


@dataclass(frozen=True)
class SourceEntry:
    """One entry's place in the file and its fields in their order."""

    kind: str  # as written: "inproceedings", "ARTICLE"
    key: str
    line: int  # of the "@"
    fields: tuple[Field, ...]

    def field_line(self, name: str) -> int:
        """The line of field ``name`` (any case), else the entry's own line."""
        for item in self.fields:
            if item.name.lower() == name:
                return item.line
        return self.line

    def bibtex(
        self, expanded: Mapping[str, str], leave_out: frozenset[str] = ALFOLIO_FIELDS
    ) -> str:
        """The entry as BibTeX, one field a line, without the fields in ``leave_out``.

        A value that uses an ``@string`` macro (``booktitle = neurips``) is written out
        (``expanded``: pybtex's values by lower-case name), so the entry stands alone
        when copied; the months' standard macros (``month = nov``) stay."""
        kept = [f for f in self.fields if f.name.lower() not in leave_out]
        body = ",\n".join(
            f"  {f.name} = {_standalone(f.value, expanded.get(f.name.lower()))}" for f in kept
        )
        return f"@{self.kind}{{{self.key},\n{body}\n}}" if kept else f"@{self.kind}{{{self.key}}}"


_MONTH_MACROS = frozenset(
    ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
)


def _standalone(value: str, expanded: str | None) -> str:
    """``value`` as written, or braced ``expanded`` if it names a macro of the file."""
    if expanded is None or value[:1] in '{"' or value.isdigit() or value.lower() in _MONTH_MACROS:
        return value
    return "{" + expanded + "}"


def scan(text: str) -> dict[str, SourceEntry]:
    """Every entry of ``text`` by its key (as pybtex keys them). Text that pybtex would
    reject never gets here: the caller parses with pybtex first, so spans close."""
    found: dict[str, SourceEntry] = {}
    at = 0
    while (match := _START.search(text, at)) is not None:
        end = _close(text, match.end(), match.group(2))
        at = end
        if match.group(1).lower() in _NOT_ENTRIES:
            continue
        line = text.count("\n", 0, match.start()) + 1
        body = text[match.end() : end - 1]
        key, _, rest = body.partition(",")
        offset = match.end() + len(key) + 1
        fields = tuple(_fields(text, rest, offset))
        # A repeated key: BibTeX (and pybtex, ``bibread``) keep the first.
        found.setdefault(key.strip(), SourceEntry(match.group(1), key.strip(), line, fields))
    return found


def unclosed(text: str) -> tuple[str, int] | None:
    """(key, line) of the first entry whose braces never close: pybtex only says "premature
    end of file" at the last line, far from the entry that lacks its ``}``."""
    at = 0
    while (match := _START.search(text, at)) is not None:
        at = _close(text, match.end(), match.group(2))
        if at == len(text) and text[at - 1 : at] not in "})":
            line = text.count("\n", 0, match.start()) + 1
            return text[match.end() : at].partition(",")[0].strip()[:40], line
    return None


def _close(text: str, start: int, opener: str) -> int:
    """The index just past the brace (or parenthesis) that closes an entry's body."""
    depth, index = 0, start
    closer = "}" if opener == "{" else ")"
    while index < len(text):
        char = text[index]
        if char == "{":
            depth += 1
        elif char == "}" and depth:
            depth -= 1
        elif char == closer and depth == 0:
            return index + 1
        index += 1
    return len(text)


def _fields(text: str, body: str, offset: int) -> list[Field]:
    """``body``'s top-level ``name = value`` parts; ``offset`` is where body starts in text."""
    out = []
    for start, part in _split_commas(body):
        name, equals, value = part.partition("=")
        if not equals or not name.strip():
            continue
        lead = len(part) - len(part.lstrip())
        line = text.count("\n", 0, offset + start + lead) + 1
        out.append(Field(name.strip(), " ".join(value.split()), line))
    return out


def _split_commas(body: str) -> list[tuple[int, str]]:
    """``body`` split at commas outside braces and quotes, with each part's start."""
    parts, depth, quoted, start = [], 0, False, 0
    for index, char in enumerate(body):
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
        elif char == '"' and depth == 0:
            quoted = not quoted
        elif char == "," and depth == 0 and not quoted:
            parts.append((start, body[start:index]))
            start = index + 1
    parts.append((start, body[start:]))
    return [(s, p) for s, p in parts if p.strip()]
