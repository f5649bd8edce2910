"""The link buttons under a paper, from the fields al-folio uses for them.

``pdf``, ``poster``, ``slides`` (and any other link field) may name a file of the
site: a path under ``static/`` (``papers/x.pdf`` is ``static/papers/x.pdf``), or,
as al-folio keeps papers in ``assets/pdf/``, under ``static/pdf/``. A file that
is in neither place is a warning at the field's line, and gets no button (it would
be a broken link).
An ``arxiv`` field is an arXiv identifier, and so is ``eprint`` unless ``archivePrefix``
(or biblatex's ``eprinttype``) names another archive; ``doi`` is a DOI.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from site_builder.bibhref import _live_url, doi_of, encoded
from site_builder.errors import BuildWarning, Location

# (field, button label) in the order the buttons are shown: al-folio's order.
LINK_FIELDS = (
    ("html", "HTML"),
    ("pdf", "PDF"),
    ("arxiv", "arXiv"),
    ("doi", "DOI"),
    ("supp", "Supplement"),
    ("code", "Code"),
    ("poster", "Poster"),
    ("slides", "Slides"),
    ("video", "Video"),
    ("website", "Website"),
    ("blog", "Blog"),
)
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")
_ARXIV = "https://arxiv.org/abs/"
_ARXIV_PREFIX = re.compile(r"^(?:https?://arxiv\.org/(?:abs|pdf)/|arxiv:)", re.IGNORECASE)


@dataclass(frozen=True)
class Link:
    """One button. ``href`` is an absolute URL, or a site path (``static/...``) that the
    template turns into a link with ``url()``; ``local`` says which."""

    kind: str  # the field: "pdf", "arxiv", ...
    label: str
    href: str
    local: bool = False


def links(
    fields: dict[str, str], root: Path, where: Path | str, line_of: dict[str, int]
) -> tuple[tuple[Link, ...], tuple[BuildWarning, ...]]:
    """The buttons for one entry's (decoded, lower-cased) ``fields``, and what was wrong."""
    out: list[Link] = []
    warnings: list[BuildWarning] = []
    # biblatex names the archive ``eprinttype`` (Zotero: ``{arxiv}``, or ``{pmid}`` for a
    # PubMed id, which as an arXiv link led nowhere); BibTeX styles ``archivePrefix``.
    archive = fields.get("archiveprefix") or fields.get("eprinttype") or "arxiv"
    arxiv = fields.get("arxiv") or (fields.get("eprint", "") if archive.lower() == "arxiv" else "")
    for name, label in LINK_FIELDS:
        value = arxiv if name == "arxiv" else fields.get(name, "")
        value = value.strip()
        if not value:
            continue
        if name == "arxiv":
            ident = _ARXIV_PREFIX.sub("", value)
            href = value if value.startswith(("https://", "http://")) else _ARXIV + ident
        elif name == "doi":
            href = "https://doi.org/" + doi_of(value)
        elif _SCHEME.match(value) or value.startswith("//"):
            href = value
        else:
            local, problem = _site_file(value, root)
            if problem:  # a button to a missing file would be a broken link: left out
                warnings.append(BuildWarning(Location(where, line_of.get(name)), problem))
            else:
                out.append(Link(name, label, local, local=True))
            continue
        if not _live_url(href):
            problem = f"'{name}' is not a link this page can follow: {value!r}"
            warnings.append(BuildWarning(Location(where, line_of.get(name)), problem))
            continue
        out.append(Link(name, label, encoded(href)))
    return tuple(out), tuple(warnings)


def _site_file(value: str, root: Path) -> tuple[str, str]:
    """(the site path for a file named in a field, what is wrong with it or "")."""
    path = value.lstrip("/").removeprefix("static/")
    if ".." in Path(path).parts:
        return "", f"'{value}' must name a file under static/, without '..'"
    for candidate in (path, f"pdf/{path}"):
        if (root / "static" / candidate).is_file():
            return quote(f"static/{candidate}"), ""  # al-folio's file names hold spaces
    return "", f"'{value}' is not a file under static/ (nor static/pdf/): no button for it"
