"""A reference's link fields as addresses a page can hold: the DOI of a ``doi`` field in
any of its written forms, an address percent-encoded where it must be, and Markdown's
policy on which schemes are links at all. Both readers of ``.bib`` files use them (a
post's References, ``bibliography``; the publications page's buttons)."""

from __future__ import annotations

import re

_DOI_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi\s*:?\s*(?=10\.))", re.IGNORECASE)


def doi_of(value: str) -> str:
    """A ``doi`` field's DOI, less the forms it is written in: ``https://doi.org/``,
    ``http://dx.doi.org/``, ``doi:``, and ``DOI 10.1109/..`` (IRIS exports)."""
    return _DOI_PREFIX.sub("", value.strip())


_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:(?://|(?=[^\s<>]+$))")
_HOST = re.compile(r"^(?:www\.)?[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,}(?:[/:?#]|$)")


def address(url: str) -> str | None:
    """What a ``url`` field links to: an address with a scheme as written, a bare host
    (``www.exascaleproject.org``, ``dl.acm.org/citation..``) over https, and nothing for
    anything else, which a browser would read as a page of this site (``system/files/x.pdf``)
    or which is no address at all (HTML pasted in: ``doi:<a href="..">..</a>``)."""
    if _SCHEME.match(url):
        return url
    return f"https://{url}" if _HOST.match(url) else None


def encoded(url: str) -> str:
    """``url`` with what an address cannot hold percent-encoded: Mendeley's spaces, a SICI
    DOI's ``<`` and ``>`` (``..036<1117:CUST>2.0.CO;2``); the rest as written."""
    from urllib.parse import quote

    return quote(url, safe="/:?#[]@!$&'()*+,;=%~-._")


def _live_url(url: str) -> bool:
    """Markdown's link policy for a ``url``/``doi`` field: ``javascript:``, ``vbscript:``,
    ``file:`` and ``data:`` (but images) stay text. Browsers drop tabs and line breaks
    inside a URL and control characters around it, so the check reads it as they do."""
    from markdown_it.common.normalize_url import validateLink

    return validateLink(re.sub(r"[\t\n\r]", "", url).strip(_C0_AND_SPACE))


_C0_AND_SPACE = "".join(chr(code) for code in range(0x21))
