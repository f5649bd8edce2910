"""Make the text face: TeX Gyre Pagella as Latin-range WOFF2 subsets in ``static/fonts/``.

The body text is set in TeX Gyre Pagella, the text companion of the math font
(TeX Gyre Pagella Math, subset per build by ``site_builder/fonts.py``). Unlike
the math font, the text face does not depend on the content: it is made once,
here, and the WOFF2 files are committed, so a build needs nothing but Python
(no ``apt``, no fontTools run per build for the text).

Run it after ``apt-get install -y fonts-texgyre`` (the OTFs land in
``/usr/share/texmf/fonts/opentype/public/tex-gyre/``)::

    .venv/bin/python tools/make_text_fonts.py [--source DIR] [--out static/fonts]

Each style is cut down to Latin text: Basic Latin, Latin-1 Supplement, Latin
Extended-A, the spacing accents and general punctuation (dashes, curly quotes,
ellipsis, ...), the euro, trade mark and the ↩ of footnote back-links, and split in
two files (``PARTS``: the characters of English prose, and the rest). Everything
else (Greek, arrows, math) falls back through CSS ``unicode-range``, which the
``@font-face`` rules in ``static/css/site.css`` must repeat. Output is
deterministic: the source fonts' own timestamps are kept (fontTools would
otherwise stamp the current time), so running the script twice gives the same
bytes. Run on the committed WOFF2 files as ``--source`` it gives them again.
"""

from __future__ import annotations

import argparse
import io
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

SOURCE = Path("/usr/share/texmf/fonts/opentype/public/tex-gyre")
OUT = Path(__file__).resolve().parent.parent / "static" / "fonts"
STYLES = {  # output name -> source file, name-table subfamily
    "pagella-regular": ("texgyrepagella-regular.otf", "Regular"),
    "pagella-italic": ("texgyrepagella-italic.otf", "Italic"),
    "pagella-bold": ("texgyrepagella-bold.otf", "Bold"),
    "pagella-bolditalic": ("texgyrepagella-bolditalic.otf", "Bold Italic"),
}
# Keep equal to the unicode-range of the @font-face rules in static/css/site.css.
UNICODE_RANGE = (
    "U+0020-007E, U+00A0-017F, U+02C6, U+02DA, U+02DC, U+2000-206F, U+20AC, U+2122, U+21A9"
)
# Each style in two files, as Google Fonts serves a face: what English prose and the site's
# own labels use (ASCII, the commonest punctuation, the middle dot, copyright and times
# signs, the back-link arrow) in the file every
# page preloads, about half the size of the whole range; the rest of UNICODE_RANGE (accented
# letters, rarer punctuation) in a "-latin" file that a browser fetches only for a page
# holding one of those characters. Keep equal to the @font-face rules in site.css.
CORE_RANGE = (
    "U+0020-007E, U+00A0, U+00A9, U+00AB, U+00AD, U+00B0, U+00B7, U+00BB, U+00D7, "
    "U+2009-200A, U+2010-2014, U+2018-2019, U+201C-201D, U+2022, U+2026, U+2032-2033, "
    "U+2122, U+21A9"
)
REST_RANGE = (
    "U+00A1-00A8, U+00AA, U+00AC, U+00AE-00AF, U+00B1-00B6, U+00B8-00BA, U+00BC-00D6, "
    "U+00D8-017F, U+02C6, U+02DA, U+02DC, U+2000-2008, U+200B-200F, U+2015-2017, "
    "U+201A-201B, U+201E-2021, U+2023-2025, U+2027-2031, U+2034-206F, U+20AC"
)
PARTS = {"": CORE_RANGE, "-latin": REST_RANGE}  # file-name suffix -> its characters
# GUST Font License requests that modified versions be renamed: the subsets are.
FAMILY = "Pagella Text Subset"
# Kerning, ligatures and accents, plus the figure styles the CSS asks for
# (tabular figures in tables and readouts). Small caps and old-style figures
# are left out: the site does not use them, and they would add glyphs.
FEATURES = ["kern", "liga", "ccmp", "locl", "mark", "mkmk", "lnum", "pnum", "tnum"]


def code_points(spec: str) -> list[int]:
    points: list[int] = []
    for part in spec.split(","):
        first, _, last = part.strip().removeprefix("U+").partition("-")
        points.extend(range(int(first, 16), int(last or first, 16) + 1))
    return points


def make(source: Path, subfamily: str, unicode_range: str = UNICODE_RANGE) -> bytes:
    options = subset.Options()
    options.layout_features = FEATURES
    options.name_IDs = [0, 1, 2, 3, 4, 6, 13, 14]  # copyright and licence stay with the font
    options.hinting = False  # a few percent larger with hints, no visible gain in browsers
    options.desubroutinize = True  # WOFF2's brotli compresses plain charstrings better
    options.notdef_outline = True
    options.drop_tables += ["FFTM"]  # FontForge's timestamps: unused
    options.flavor = "woff2"
    font = TTFont(source, recalcTimestamp=False, lazy=False)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=code_points(unicode_range))
    subsetter.subset(font)
    rename(font, subfamily)
    out = io.BytesIO()
    font.flavor = "woff2"
    font.save(out, reorderTables=True)
    return out.getvalue()


def rename(font: TTFont, subfamily: str) -> None:
    """Family ``FAMILY`` in the name table and the CFF, keeping the style names."""
    postscript = FAMILY.replace(" ", "") + "-" + subfamily.replace(" ", "")
    names = font["name"]
    for record in names.names:
        if record.nameID == 1:
            record.string = FAMILY
        elif record.nameID == 3:
            record.string = f"{postscript};site_builder"
        elif record.nameID in (4, 6):
            record.string = f"{FAMILY} {subfamily}" if record.nameID == 4 else postscript
    cff = font["CFF "].cff
    cff.fontNames = [postscript]
    top = cff.topDictIndex[0]
    top.FamilyName = FAMILY
    top.FullName = f"{FAMILY} {subfamily}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--source", type=Path, default=SOURCE, help="directory of the OTFs")
    parser.add_argument("--out", type=Path, default=OUT, help="where the .woff2 files go")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for name, (file, subfamily) in STYLES.items():
        for suffix, characters in PARTS.items():
            data = make(args.source / file, subfamily, characters)
            (args.out / f"{name}{suffix}.woff2").write_bytes(data)
            print(f"{len(data):>7} B  {args.out / name}{suffix}.woff2")


if __name__ == "__main__":
    main()
