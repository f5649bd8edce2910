"""The math font: TeX Gyre Pagella Math, cut down to the characters the site's MathML uses.

It is the math companion of the text face, TeX Gyre Pagella (``static/fonts/``,
made by ``tools/make_text_fonts.py``), so letters in formulas match the prose.

Browsers need an OpenType MATH table to stretch ``\\left(`` around a fraction
and to draw a display-size ``\\sum``; system fonts rarely have one. The full
font is 600 KB, while a blog uses a few dozen characters, so each build
subsets it with HarfBuzz's subsetter (``uharfbuzz``) and writes it as WOFF2 with
fontTools. The subset keeps the MATH table together with the size variants and
assembly parts of every kept glyph (HarfBuzz closes the glyph set over MATH and
GSUB), so stretchy delimiters, radicals and large operators keep working.

Builds must be byte-identical: fontTools would stamp ``head.modified`` with the
current time, so timestamps are kept from the source font.
"""

from __future__ import annotations

import html
import io
import re
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any

import brotli

FONT_FILE = "texgyrepagella-math.otf"
FAMILY = "TeX Gyre Pagella Math"
# GUST Font License asks that modified versions be renamed: the subset is.
SUBSET_NAME = "Pagella Math Subset"
NAME_IDS = (0, 1, 2, 3, 4, 6, 13, 14)  # copyright and licence stay with the font
PACKAGE_FONTS = Path(__file__).resolve().parent / "data"

_MATH = re.compile(r"<math\b.*?</math>", re.DOTALL)
_ANNOTATION = re.compile(r"<annotation\b.*?</annotation>", re.DOTALL)
_TAG = re.compile(r"<[^>]*>")


def math_characters(documents: Iterable[str]) -> frozenset[str]:
    """Every character a browser may draw with the math font, over all ``<math>`` in ``documents``.

    Single-letter ``<mi>`` are shown in mathematical italic (U+1D44E...), a
    different code point than the letter in the source, so both are kept.
    """
    # One pass over all the formulas at once: a post has dozens, each a few calls.
    formulas = "\n".join(_MATH.findall("\n".join(documents)))
    chars = set(html.unescape(_TAG.sub("", _ANNOTATION.sub("", formulas))))
    if "<msqrt" in formulas or "<mroot" in formulas:
        chars.add("\u221a")  # the radical sign is drawn from the font, not the text
    chars.update(filter(None, (italic(char) for char in list(chars))))
    chars.discard("\n")
    return frozenset(chars)


def italic(char: str) -> str | None:
    """The code point of ``char`` under CSS ``text-transform: math-auto`` (what ``<mi>x`` shows)."""
    special = {"h": "\u210e", "\u0131": "\U0001d6a4", "\u0237": "\U0001d6a5"}
    if char in special:
        return special[char]
    code = ord(char)
    if 0x41 <= code <= 0x5A:
        return chr(0x1D434 + code - 0x41)
    if 0x61 <= code <= 0x7A:
        return chr(0x1D44E + code - 0x61)
    if 0x391 <= code <= 0x3A9 and code != 0x3A2:
        return chr(0x1D6E2 + code - 0x391)
    if 0x3B1 <= code <= 0x3C9:
        return chr(0x1D6FC + code - 0x3B1)
    greek = "\u2207\u2202\u03f5\u03d1\u03f0\u03d5\u03f1\u03d6"  # nabla, partial, variants
    if char in greek:
        return chr(0x1D6FB if char == "\u2207" else 0x1D715 + greek.index(char) - 1)
    return None


def find_font(root: Path) -> Path | None:
    """The site's own ``fonts/`` first, then the copy shipped in the package (``data/``), so
    a site made with an installed wheel has its math font too."""
    for directory in (root / "fonts", PACKAGE_FONTS):
        if (directory / FONT_FILE).is_file():
            return directory / FONT_FILE
    return None


def preload() -> None:
    """Import the subsetting libraries ahead of :func:`subset_woff2` (a helper process does,
    while the main one renders the posts whose characters it will need: ``Session``)."""
    import uharfbuzz  # noqa: F401
    from fontTools.ttLib import woff2  # noqa: F401


def subset_woff2(source: Path, chars: frozenset[str]) -> bytes:
    """WOFF2 bytes of ``source`` cut down to ``chars``."""
    return _subset(source.read_bytes(), chars)


@lru_cache(maxsize=8)
def _subset(data: bytes, chars: frozenset[str]) -> bytes:
    """Remembered by the font's bytes (not its path: a test's or a preview's copy of the
    site has the same font elsewhere, and an edited font at one path is another font),
    since ``serve`` rebuilds often.

    HarfBuzz cuts the font (``uharfbuzz``: a few milliseconds, where fontTools' subsetter
    took ~0.6 s and 0.3 s more to import, most of a one-post site's cold build); fontTools
    then renames it and writes the WOFF2, whose Brotli is the slow part left."""
    import uharfbuzz as hb
    from fontTools.ttLib import TTFont, woff2

    woff2.brotli = _Brotli
    wanted = hb.SubsetInput()
    wanted.unicode_set.update(ord(char) for char in chars)
    # Every layout feature: ssty (script-size) and friends are used by the browser.
    wanted.sets(hb.SubsetInputSets.LAYOUT_FEATURE_TAG).invert()
    names = wanted.sets(hb.SubsetInputSets.NAME_ID)
    names.clear()
    names.update(NAME_IDS)
    wanted.flags = (
        hb.SubsetFlags.NO_HINTING  # browsers do not hint CFF math on screen
        | hb.SubsetFlags.DESUBROUTINIZE  # WOFF2's brotli compresses plain charstrings better
        | hb.SubsetFlags.NOTDEF_OUTLINE
    )
    cut = hb.subset(hb.Face(data), wanted)
    if cut is None:  # HarfBuzz could not read the font: the same as fontTools failing
        raise ValueError("the math font could not be subset")
    # The bounding boxes stay as HarfBuzz wrote them: browsers lay out math from the MATH
    # and OS/2 tables, and recomputing them cost a third of fontTools' time.
    font = TTFont(io.BytesIO(cut.blob.data), recalcTimestamp=False, recalcBBoxes=False)
    _rename(font)
    out = io.BytesIO()
    font.flavor = "woff2"
    font.save(out)
    return out.getvalue()


class _Brotli:
    """Brotli as fontTools' WOFF2 writer calls it, at quality 10 instead of the default 11.

    Quality 11 took 144 ms for a typical subset (60 KB before compression), the slowest
    step of a small site's cold build; quality 10 takes 56 ms for a file 2% larger
    (35.9 KB against 35.2 KB), and 9 takes 20 ms for 8.5% more. fontTools has no setting
    for it, so its module's ``brotli`` is this class."""

    MODE_FONT = brotli.MODE_FONT
    MODE_TEXT = brotli.MODE_TEXT
    QUALITY = 10

    @staticmethod
    def compress(data: bytes, **options: Any) -> bytes:
        return bytes(brotli.compress(data, **{"quality": _Brotli.QUALITY, **options}))

    decompress = staticmethod(brotli.decompress)


def _rename(font: object) -> None:
    """Give the subset its own name (nameIDs 1, 3, 4, 6), as the GUST Font License requests."""
    names = font["name"]  # type: ignore[index]
    postscript = SUBSET_NAME.replace(" ", "") + "-Regular"
    for record in names.names:
        if record.nameID in (1, 4):
            record.string = SUBSET_NAME if record.nameID == 1 else f"{SUBSET_NAME} Regular"
        elif record.nameID == 3:
            record.string = f"{postscript};site_builder"
        elif record.nameID == 6:
            record.string = postscript
    font["CFF "].cff.fontNames = [postscript]  # type: ignore[index]


def font_face_css(font_url: str | None) -> str:
    """The ``@font-face`` rule; without a font (no math, no font file) the family falls back."""
    if font_url is None:
        return "/* No math on this site, or no math font found: no @font-face. */\n"
    return (
        f"/* {FAMILY} (GUST Font License), subset to the characters this site uses. */\n"
        "@font-face {\n"
        f'  font-family: "{FAMILY}";\n'
        f'  src: url("{font_url}") format("woff2");\n'
        "  font-display: swap;\n"
        "}\n"
    )
