"""Slugs from text: heading ids, tag URLs and new post file names share one rule."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from anyascii import anyascii


def slugify(text: str) -> str:
    """Lowercase ASCII words joined by ``-``: ``Café`` gives ``cafe``, ``Привет`` ``privet``.

    Other scripts are spelled in Latin letters (anyascii), so a post named in Chinese
    gets a slug of its own, not the ``section`` every such name got: each CJK character
    is a word (``注意力`` gives ``zhu-yi-li``), as pinyin slugs are written."""
    if not text.isascii():  # most headings and names: nothing to spell in Latin letters
        text = "".join(
            f" {anyascii(ch)} " if unicodedata.east_asian_width(ch) in "WF" else anyascii(ch)
            for ch in unicodedata.normalize("NFKC", text)
        )
    text = re.sub(r"[^\w\s-]", "", text.lower())
    return re.sub(r"[\s_-]+", "-", text).strip("-") or "section"


# Punctuation that tells tags apart (``C#``/``C``, ``F#``) but has no place in a URL path.
_TAG_WORDS = {"#": "-sharp", "%": "-percent", "&": "-and", "@": "-at"}


@lru_cache(maxsize=4096)  # a site has a few dozen tags, looked up on every post, thrice
def tag_slug(name: str) -> str:
    """A tag's folder name: like :func:`slugify`, but it keeps what tells tags apart.

    ``slugify`` folds to ASCII, so every CJK or emoji tag became ``section`` (one page
    for all of them) and ``C++`` shared ``c`` with ``C``. Here letters, digits and
    symbols of any script stay (the URL percent-encodes them), case is folded so
    ``ML`` and ``ml`` are one tag, ``#`` and friends become words, and whatever is
    left that cannot sit in a path (``/``, ``?``, quotes, a bare ``..``) becomes ``-``.
    A tag with nothing usable gets a stable name from its hash.
    """
    text = unicodedata.normalize("NFC", name).casefold()
    text = "".join(_TAG_WORDS.get(ch, ch) for ch in text)
    text = "".join(
        ch if ch in "+-." or unicodedata.category(ch)[0] in "LMNS" else "-" for ch in text
    )
    text = re.sub(r"-{2,}", "-", text).strip("-.")
    if not text:
        import hashlib

        text = "tag-" + hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return text


def tag_url_slug(name: str) -> str:
    """The tag's folder as it appears in a URL, percent-encoded: ``c++`` stays, ``é`` is
    ``%C3%A9``."""
    from urllib.parse import quote

    return quote(tag_slug(name), safe="+-.")  # as model.Tag.path
