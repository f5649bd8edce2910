"""A researcher's home page, end to end (``tests/sites/researcher/``): the profile and the
selected papers on the home page, the publications page from a real al-folio
``papers.bib`` (``publications:``), its menu entry, its errors and its incremental
rebuilds. The publications stage itself is ``tests/test_publications.py``'s."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from site_builder.build import build
from site_builder.cli import main
from site_builder.config import load_config
from tests.conftest import SITES, build_site, make_site, tree_digest

RESEARCHER = SITES / "researcher"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_site(make_site(tmp_path_factory.mktemp("researcher") / "site", RESEARCHER))


def test_the_publications_page_lists_every_entry_by_year(built: Path) -> None:
    page = (built / "publications" / "index.html").read_text()
    bib = (RESEARCHER / "papers.bib").read_text()
    keys = re.findall(r"^@\w+\{([^,]+),", bib, re.MULTILINE)
    assert len(keys) == 13
    assert page.count('<li class="pub"') == len(keys)
    years = [int(y) for y in re.findall(r'<h2 id="[^"]*">(\d{4})</h2>', page)]
    assert years == sorted(years, reverse=True) and years
    assert page.count("<details") >= len(keys)  # abstracts and BibTeX, no script needed
    assert "<script" not in page.split("<main", 1)[1].split("</main>", 1)[0]


def test_the_home_page_shows_the_profile_and_selected_papers(built: Path) -> None:
    home = (built / "index.html").read_text()
    assert 'class="profile-photo"' in home and 'width="96" height="120"' in home
    assert 'alt="Yichi Zhang, smiling, in front of a whiteboard"' in home
    assert "<strong>dialog systems</strong>" in home
    assert 'rel="me"' in home and "https://sigmoid.social/@yichi" in home
    assert "<svg" in home and "fonts.googleapis" not in home
    selected = home.split('id="selected-publications"', 1)[1].split("</section>", 1)[0]
    marked = re.findall(r"selected\s*=\s*\{true\}", (RESEARCHER / "papers.bib").read_text())
    assert selected.count('<li class="pub"') == len(marked) > 0
    assert home.index("profile-photo") < home.index("selected-publications")
    assert home.index("selected-publications") < home.index("Notes on dialog policies")
    ld = json.loads(re.search(r'<script type="application/ld\+json">(.*?)</script>', home).group(1))
    assert ld["@type"] == "Person" and ld["name"] == "Yichi Zhang"
    assert "https://github.com/594zyc" in ld["sameAs"]


def test_the_menu_links_the_publications(built: Path) -> None:
    page = (built / "publications" / "index.html").read_text()
    nav = page.split('<nav class="site-nav"', 1)[1].split("</nav>", 1)[0]
    assert re.search(r'<a href="[^"]*publications/" aria-current="page">Publications</a>', nav)
    sitemap = (built / "sitemap.xml").read_text()
    assert "<loc>https://example.org/publications/</loc>" in sitemap


def test_a_malformed_entry_stops_the_build_at_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = make_site(tmp_path / "site", RESEARCHER)
    bib = site / "papers.bib"
    text = bib.read_text()
    broken = text + "\n@article{broken,\n  title = {Unclosed\n"
    bib.write_text(broken)
    line = broken[: broken.index("@article{broken")].count("\n") + 1
    assert main(["-C", str(site), "build"]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert f"papers.bib:{line}:" in err, err


def test_an_edit_of_the_bib_rewrites_the_pages_that_show_it(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site", RESEARCHER)
    out = site / "public"
    build(load_config(site), out, jobs=1)
    bib = site / "papers.bib"
    bib.write_text(bib.read_text().replace("Task-oriented dialog systems", "Task-oriented agents"))
    before = tree_digest(out)
    assert build(load_config(site), out, jobs=1).rendered == 0  # no post re-renders
    after = tree_digest(out)
    changed = {rel for rel in after if after[rel] != before.get(rel)}
    assert {"publications/index.html", "index.html"} <= changed
    assert "Task-oriented agents" in (out / "publications/index.html").read_text()
    build(load_config(site), tmp_path / "clean", jobs=1, use_cache=False)
    assert tree_digest(tmp_path / "clean") == after
