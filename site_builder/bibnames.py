"""biblatex's extended name lists, read as BibTeX's before pybtex parses a file
(``bibread.read_bibtex``): pybtex splits only ``van Smith, John``."""

from __future__ import annotations

import re

_NAME_FIELD = re.compile(r"\b(author|editor)\s*=\s*\{", re.IGNORECASE)
_NAME_PART = re.compile(r"(?:^|,)\s*(family|given|prefix|suffix)\s*=\s*(\{[^{}]*\}|[^,]*)")


def biblatex_names(text: str) -> str:
    """biblatex's extended names (``family=Smith, given=John, prefix=van``), which ICLR
    blog-track ``.bib`` files use, as BibTeX's ``van Smith, John`` that pybtex splits."""
    if "family=" not in text and "given=" not in text:
        return text
    out = []
    pos = 0
    for match in _NAME_FIELD.finditer(text):
        start = match.end()
        depth, end = 1, start
        while end < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[end], 0)
            end += 1
        if depth:
            break
        names = re.split(r"\s+and\s+", text[start : end - 1])
        out.append(text[pos:start] + " and ".join(_bibtex_name(n) for n in names))
        pos = end - 1
    out.append(text[pos:])
    return "".join(out)


def _bibtex_name(name: str) -> str:
    """One name: biblatex's key=value form as ``prefix family, suffix, given``; others as is."""
    parts = {key.lower(): value.strip() for key, value in _NAME_PART.findall(name)}
    if "family" not in parts:
        return name
    family = " ".join(p for p in (parts.get("prefix", ""), parts["family"]) if p)
    return ", ".join(p for p in (family, parts.get("suffix", ""), parts.get("given", "")) if p)
