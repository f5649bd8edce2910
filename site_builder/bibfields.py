"""A BibTeX entry's fields as BibTeX and biber read them, before anything formats them.

Both readers of ``.bib`` files (a post's references, ``bibliography``; the
publications page, ``publications``) start from here:

- ``crossref = {icaps2015}`` inherits every field the entry lacks from that entry,
  and a proceedings' ``title`` becomes the paper's ``booktitle``, as BibTeX and biber
  do (group bibliographies hold a thousand of them, and each paper had no year);
- BibLaTeX's names for BibTeX's fields, which Zotero's BibLaTeX export writes:
  ``journaltitle`` is the ``journal``, ``date = {2017-05-02}`` gives ``year`` and
  ``month``.

pybtex parses the file; it leaves both of these to a style, and we have none.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

# What a crossref'd container is: listed as a paper of its own only when nothing points at it.
CONTAINERS = frozenset({"proceedings", "collection", "mvproceedings", "mvcollection", "book"})
_DATE = re.compile(r"^\s*(\d{4})(?:-(\d{1,2}))?")


def fields_of(entry: Any, entries: Mapping[str, Any]) -> dict[str, str]:
    """``entry``'s fields by lower-case name, inherited and aliased (see the module)."""
    fields = {name.lower(): str(value) for name, value in entry.fields.items()}
    parent = _parent(fields, entries)
    if parent is not None:
        inherited = {name.lower(): str(value) for name, value in parent.fields.items()}
        if "title" in inherited and "booktitle" not in fields:
            fields["booktitle"] = inherited["title"]
        for name, value in inherited.items():
            if name not in ("title", "crossref", "ids", "key"):
                fields.setdefault(name, value)
    if "journaltitle" in fields:
        fields.setdefault("journal", fields["journaltitle"])
    date = _DATE.match(fields.get("date", ""))
    if date is not None and not fields.get("year", "").strip():
        fields["year"] = date.group(1)
        if date.group(2) and not fields.get("month", "").strip():
            fields["month"] = str(int(date.group(2)))
    return fields


def crossref_targets(entries: Mapping[str, Any]) -> set[str]:
    """The keys (lower case) other entries inherit from: containers, not papers."""
    return {
        str(entry.fields["crossref"]).strip().lower()
        for entry in entries.values()
        if "crossref" in entry.fields
    }


def _parent(fields: dict[str, str], entries: Mapping[str, Any]) -> Any | None:
    key = fields.get("crossref", "").strip()
    return entries.get(key) if key else None  # pybtex's entries ignore case, as BibTeX does
