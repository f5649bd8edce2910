"""The committed text faces (TeX Gyre Pagella, made by tools/make_text_fonts.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from site_builder.build import build
from site_builder.config import load_config
from tests.browser import chromium, load_quietly, require_chromium, serve_directory
from tests.conftest import ROOT
from tests.test_errors import make_site
from tools import make_text_fonts

FONTS = ROOT / "static" / "fonts"


@pytest.mark.parametrize("name", sorted(make_text_fonts.STYLES))
def test_text_face_is_a_small_latin_woff2(name: str) -> None:
    cmaps = {}
    for suffix, characters in make_text_fonts.PARTS.items():
        path = FONTS / f"{name}{suffix}.woff2"
        data = path.read_bytes()
        assert data[:4] == b"wOF2"
        assert len(data) <= 20 * 1024, f"{path.name}: {len(data)} B"
        font = TTFont(path)
        cmaps[suffix] = set(font.getBestCmap())
        assert cmaps[suffix] <= set(make_text_fonts.code_points(characters))  # in its range
        assert font["name"].getDebugName(1) == make_text_fonts.FAMILY  # renamed, as GFL asks
        assert {"kern"} <= {r.FeatureTag for r in font["GPOS"].table.FeatureList.FeatureRecord}
    # The file every page preloads has English prose and the site's own labels ...
    core = cmaps[""]
    assert {*range(0x20, 0x7F), 0x201C, 0x201D, 0x2018, 0x2019, 0x2013, 0x2014, 0x2026} <= core
    assert {0xA9, 0xB7, 0xD7, 0x21A9} <= core
    assert len((FONTS / f"{name}.woff2").read_bytes()) <= 13 * 1024
    # ... and both files all Latin text (Pagella has no kra, ŉ or T with stroke: they fall back).
    latin = {*range(0x20, 0x7F), *range(0xA0, 0x180)} - {0x138, 0x149, 0x166, 0x167}
    assert latin <= core | cmaps["-latin"]


def test_the_two_parts_split_the_whole_range() -> None:
    parts = [set(make_text_fonts.code_points(r)) for r in make_text_fonts.PARTS.values()]
    assert not parts[0] & parts[1]
    assert parts[0] | parts[1] == set(make_text_fonts.code_points(make_text_fonts.UNICODE_RANGE))


def test_css_unicode_range_matches_the_subsets() -> None:
    css = (ROOT / "static" / "css" / "site.css").read_text(encoding="utf-8")
    faces = re.findall(r'@font-face \{[^}]*"TeX Gyre Pagella";[^}]*\}', css)
    assert len(faces) == len(make_text_fonts.STYLES) * len(make_text_fonts.PARTS)
    for face in faces:
        file = re.search(r'url\("\.\./fonts/pagella-[a-z]+(-latin)?\.woff2"\)', face)
        assert file is not None
        assert f"unicode-range: {make_text_fonts.PARTS[file.group(1) or '']};" in face
        assert "font-display: swap" in face
    assert (FONTS / "GUST-FONT-LICENSE.txt").is_file()


@pytest.mark.browser
def test_a_page_with_accented_letters_fetches_the_latin_part(tmp_path: Path) -> None:
    """A post in English fetches one file per style; "Poincaré" adds the -latin part, so an
    accented letter is set in Pagella, not in a fallback face."""
    require_chromium()
    site = make_site(tmp_path)
    post = site / "content" / "posts" / "good.md"
    post.write_text(post.read_text() + "\nPoincaré and Łukasz.\n", encoding="utf-8")
    build(load_config(site), site / "public")
    with serve_directory(site / "public") as url, chromium() as context:
        page = context.new_page()
        fonts: list[str] = []
        page.on("response", lambda r: fonts.append(r.url) if r.url.endswith(".woff2") else None)
        load_quietly(page, url + "posts/good/")
        page.evaluate("document.fonts.ready")
        assert any(u.endswith("/pagella-regular-latin.woff2") for u in fonts), fonts
        # The letters are drawn from the fetched part, not from a fallback face.
        assert page.evaluate("document.fonts.check('18px \"TeX Gyre Pagella\"', 'éŁ')")
        seen = len(fonts)
        load_quietly(page, url)  # the index: English only
        assert not [u for u in fonts[seen:] if u.endswith("-latin.woff2")]
