"""The "Cite this post" box: a BibTeX entry built from front matter and site config.

The key follows Google Scholar's habit, ``<author last name><year><first title
word>`` (``sahu2026attention``), skipping a leading article so "The ..." posts
don't all cite as ``...the``.

The entry is the seed post's: an ``@article`` with author, title, year and url, the form
ML blogs (Distill, the seed) print. ``@article`` without a ``journal`` makes BibTeX warn, so
a site may choose another type (``cite: {type: misc}``): ``@misc`` adds ``howpublished``
(the blog, which BibTeX's standard styles print) and ``urldate``, as Quarto's ``@online``
does; ``@online`` is BibLaTeX's alone and adds ``urldate``.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from site_builder.titles import map_spans, title_text

_ARTICLES = {"a", "an", "the"}
# Each entry type's fields beyond author, title and year, in order (``cite: {type: ...}``).
ENTRY_FIELDS = {
    "article": ("url",),
    "misc": ("howpublished", "url", "urldate"),
    "online": ("url", "urldate"),
}
_BIBTEX_SPECIAL = {"&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_"}


@dataclass(frozen=True)
class Citation:
    key: str
    bibtex: str
    apa: str = ""  # APA 7 reference for a blog post, as plain text


def _ascii_word(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]", "", folded.lower())


def citation_key(author: str, year: int, title: str) -> str:
    names = author.replace(",", " ").split()
    last = _ascii_word(names[-1]) if names else "anon"
    words = [w for w in (_ascii_word(w) for w in title.split()) if w]
    first = next((w for w in words if w not in _ARTICLES), words[0] if words else "post")
    return f"{last or 'anon'}{year}{first}"


def _escape(value: str) -> str:
    return "".join(_BIBTEX_SPECIAL.get(ch, ch) for ch in value)


def _escape_outside_math(title: str) -> str:
    """A title for BibTeX: its formulas as they are (BibTeX keeps ``$...$``), the rest escaped."""
    return map_spans(title, _escape, lambda match: match.group(0))


def apa_name(author: str) -> str:
    """ "Ada Lovelace" as APA writes it, "Lovelace, A."; a single word stays as it is."""
    names = author.split()
    if len(names) < 2:
        return author
    return f"{names[-1]}, " + " ".join(f"{n[0]}." for n in names[:-1])


def make_citation(
    author: str,
    title: str,
    year: int,
    url: str,
    date: str = "",
    site: str = "",
    urldate: str = "",
    entry_type: str = "article",
) -> Citation:
    """BibTeX for one post, fields aligned as a person would write them, and APA text.

    ``date`` is the APA date in parentheses ("2026, November 29"), ``site`` the blog's name,
    ``urldate`` the ISO date the page was last changed (the build reads no clock, so the
    post's own date stands for "visited": a reader who cites later updates it), each used
    as ``entry_type`` (a key of :data:`ENTRY_FIELDS`) lists.
    """
    text = title_text(title)
    key = citation_key(author, year, text)
    extra = {"howpublished": _escape(site), "url": url, "urldate": urldate}
    fields = [
        ("author", _escape(author)),
        ("title", _escape_outside_math(title)),
        ("year", str(year)),
        *((name, extra[name]) for name in ENTRY_FIELDS[entry_type]),
    ]
    fields = [(name, value) for name, value in fields if value]
    width = max(len(name) for name, _ in fields)
    body = ",\n".join(f"  {name.ljust(width)} = {{{value}}}" for name, value in fields)
    apa = f"{apa_name(author)} ({date or year}). {text}{'' if text[-1:] in '.?!' else '.'}"
    if site:
        apa += f" {site}."
    return Citation(key=key, bibtex=f"@{entry_type}{{{key},\n{body}\n}}", apa=f"{apa} {url}")
