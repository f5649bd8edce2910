"""The committed text faces (TeX Gyre Pagella, made by tools/make_text_fonts.py)."""

from __future__ import annotations

import re

import pytest
from fontTools.ttLib import TTFont

from tests.conftest import ROOT
from tools import make_text_fonts

FONTS = ROOT / "static" / "fonts"


@pytest.mark.parametrize("name", sorted(make_text_fonts.STYLES))
def test_text_face_is_a_small_latin_woff2(name: str) -> None:
    path = FONTS / f"{name}.woff2"
    data = path.read_bytes()
    assert data[:4] == b"wOF2"
    assert len(data) <= 30 * 1024, f"{path.name}: {len(data)} B"
    font = TTFont(path)
    cmap = set(font.getBestCmap())
    wanted = set(make_text_fonts.code_points(make_text_fonts.UNICODE_RANGE))
    assert cmap <= wanted  # nothing outside the declared range ...
    # ... and all Latin text in it (Pagella has no kra, ŉ or T with stroke: they fall back).
    latin = {*range(0x20, 0x7F), *range(0xA0, 0x180)} - {0x138, 0x149, 0x166, 0x167}
    assert latin <= cmap
    assert {0x201C, 0x201D, 0x2018, 0x2019, 0x2013, 0x2014, 0x2026, 0xB7, 0x21A9} <= cmap
    assert font["name"].getDebugName(1) == make_text_fonts.FAMILY  # renamed, as GFL asks
    assert {"kern"} <= {r.FeatureTag for r in font["GPOS"].table.FeatureList.FeatureRecord}


def test_css_unicode_range_matches_the_subsets() -> None:
    css = (ROOT / "static" / "css" / "site.css").read_text(encoding="utf-8")
    faces = re.findall(r'@font-face \{[^}]*"TeX Gyre Pagella";[^}]*\}', css)
    assert len(faces) == len(make_text_fonts.STYLES)
    for face in faces:
        assert f"unicode-range: {make_text_fonts.UNICODE_RANGE};" in face
        assert "font-display: swap" in face
        assert re.search(r'url\("\.\./fonts/pagella-[a-z]+\.woff2"\)', face)
    assert (FONTS / "GUST-FONT-LICENSE.txt").is_file()
