"""Authors of a paper as the page shows them, the site's author among them marked.

al-folio marks its owner by ``scholar: {last_name, first_name}`` in ``_config.yml``;
here the site's author name is enough: "Zhang, Yichi", "Yichi Zhang", "Y. Zhang"
and "Zhang, Y." all match the author "Yichi Zhang". Equal-contribution and
corresponding-author marks (``Yuan*, Zhihang``, ``*Pang, Ce``,
``Shang$^\\dagger$, Yuzhang``, ``Lee^, Yong Jae``) are taken off the name before
matching and shown as a superscript after it.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from site_builder.bibliography import _latex  # pybtex + latexcodec, as citations decode

ET_AL = "et al."  # "and others" in a BibTeX author list

# A mark in LaTeX (math or text mode) or as a character, and how the page writes it.
_MARK_LATEX = re.compile(
    r"\$\^?\{?(\\dagger|\\dag|\\ddagger|\\ddag|\\ast|\*|\\#)\}?\$"
    r"|\\textsuperscript\{(\*|\\dag|\\dagger|\\ddag|\\ddagger|\\#)\}"
    r"|\\(dagger|dag|ddagger|ddag|ast)\b\s*(?:\{\})?"
)
_MARK_CHARS = re.compile(r"[*\u2020\u2021\u2217#^]+")
_MARK_NAMES = {
    "\\dagger": "\u2020",
    "\\dag": "\u2020",
    "\\ddagger": "\u2021",
    "\\ddag": "\u2021",
    "\\ast": "*",
    "\\#": "#",
    "dagger": "\u2020",
    "dag": "\u2020",
    "ddagger": "\u2021",
    "ddag": "\u2021",
    "ast": "*",
    "\u2217": "*",  # the asterisk operator some files use for "*"
}


@dataclass(frozen=True)
class Author:
    """One author as shown: the name as written (first names first), decoded."""

    name: str
    marks: str = ""  # "*", "†", "*†": written after the name as a superscript
    me: bool = False  # the site's author: shown in bold


@dataclass(frozen=True)
class Name:
    """A name reduced for matching: folded surname and given names (no accents, no case)."""

    last: str
    given: tuple[str, ...]


def site_name(name: str) -> Name:
    """The site author's name ("Yichi Zhang" or "Zhang, Yichi") ready for matching."""
    from pybtex.database import Person
    from pybtex.exceptions import PybtexError

    try:
        person = Person(name)
    except PybtexError:  # "Smith, John, Jr., PhD": more commas than BibTeX's name parts
        person = Person(name.replace(",", " "))
    return _reduced(_parts(person)[0], _parts(person)[1])


def authors(persons: list[Any], me: Name | None) -> tuple[Author, ...]:
    """pybtex Persons as Authors; ``me`` (from :func:`site_name`) is marked where it matches.
    A trailing "and others" becomes "et al.", as BibTeX styles print it."""
    out = []
    for person in persons:
        if str(person) == "others":
            out.append(Author(ET_AL))
            continue
        (last, given), marks = _unmarked(person)
        shown = " ".join(p for p in (*given, last) if p)
        out.append(Author(shown, marks, me is not None and _matches(_reduced(last, given), me)))
    return tuple(out)


def _parts(person: Any) -> tuple[str, tuple[str, ...]]:
    """(surname with its "von" part and "Jr", given names) of a pybtex Person, as LaTeX.

    ``Shang, Yuzhang,`` (a stray comma) leaves the given name where pybtex puts a
    "Jr": with no given name, that part is the given name.
    """
    given = [*person.first_names, *person.middle_names]
    lineage = list(person.lineage_names)
    if not given and lineage:
        given, lineage = lineage, []
    last = " ".join([*person.prelast_names, *person.last_names])
    if lineage:
        last += ", " + " ".join(lineage)
    return last, tuple(given)


def _unmarked(person: Any) -> tuple[tuple[str, tuple[str, ...]], str]:
    """The decoded name parts without their marks, and the marks in order of appearance."""
    last, given = _parts(person)
    marks: list[str] = []

    def take(part: str) -> str:
        def latex_mark(match: re.Match[str]) -> str:
            token = next(g for g in match.groups() if g)
            marks.append(_MARK_NAMES.get(token, token))
            return ""

        text = _latex(_MARK_LATEX.sub(latex_mark, part)) if part else ""
        for found in _MARK_CHARS.findall(text):
            marks.extend(_MARK_NAMES.get(c, c) for c in found)
        return _MARK_CHARS.sub("", text).strip()

    clean = (take(last), tuple(t for t in (take(g) for g in given) if t))
    unique = "".join(dict.fromkeys(marks))
    return clean, unique


def _fold(text: str) -> str:
    """Lower case, accents off, letters only: "Müller" and "Muller" are one surname."""
    plain = unicodedata.normalize("NFKD", text)
    return "".join(c for c in plain if c.isalnum()).casefold()


def _reduced(last: str, given: tuple[str, ...]) -> Name:
    words = [w for part in given for w in re.split(r"[\s.\-]+", part) if w]
    return Name(_fold(last), tuple(_fold(w) for w in words))


def _matches(name: Name, me: Name) -> bool:
    """Same surname, and given names that agree: in full ("Yong Jae", "Yong-Jae"), or as
    initials ("Y.", "Y. J.", "YJ" against "Yong Jae"). No given name at all: surname only."""
    if not name.last or name.last != me.last:
        return False
    if not name.given or not me.given:
        return True
    if "".join(name.given) == "".join(me.given):
        return True
    if all(len(w) == 1 for w in name.given) or (
        len(name.given) == 1 and len(name.given[0]) <= 3 and name.given[0].isalpha()
    ):
        return "".join(w[0] for w in me.given).startswith("".join(name.given))
    return False
