"""``site-builder import`` of an al-folio site (issue 28): its ``papers.bib`` and PDFs, its
About page as the home text and its profile as ``author:``, on two real sites
(tests/data/import/README.md): 594zyc's older one, socials in ``_config.yml``, and
0xAdriaTorralba's newer one, ``_data/socials.yml``; then the imported site builds."""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from site_builder.cli import main
from site_builder.importer import siteyaml, socials
from site_builder.importer.report import Note
from site_builder.profile import link_url
from tests.conftest import build_site, make_site, tree_digest

DATA = Path(__file__).parent / "data" / "import"


@dataclass(frozen=True)
class Case:
    folder: str
    author: dict[str, object]  # site.yaml's author: after the import
    about: str  # a sentence of the About page
    unmapped: tuple[str, ...]  # notes for the socials with no link kind here


CASES = (
    Case(
        "alfolio-594zyc",
        {
            "name": "Yichi Zhang",
            "photo": "img/UMich_Yichi.jpg",
            "bio": "Ph.D. Candidate ⎟ UMich CSE ⎟ Conversational AI ⎟ Embodied AI ⎟ Multi-Modal",
            "links": {
                "email": "zhangyic@umich.edu",
                "github": "594zyc",
                "x": "594zyc",
                "linkedin": "yichi-zhang-354a83128",
                "scholar": "xkBBhY8AAAAJ",
            },
        },
        "advised by Professor [Joyce Chai](https://web.eecs.umich.edu/~chaijy/)",
        ("_config.yml:76: semanticscholar_id not brought across",),
    ),
    Case(
        "alfolio-0xAdriaTorralba",
        {
            "name": "Adrià Torralba-Agell",
            "photo": "img/prof_pic.jpeg",
            # The subtitle's <br> lines; more_info's only line, a mailto link, is the email icon.
            "bio": "Blockchain Security Auditor & Vulnerability Researcher · Zero-Knowledge"
            " Cryptographer · PhD Candidate — Applied Cryptography on Blockchain",
            "links": {
                "email": "crypto@0xAdriaTorralba.me",
                "github": "0xAdriaTorralba",
                "scholar": "0E-7eG8AAAAJ",
                "orcid": "0000-0002-1889-3404",
                "x": "0xAdriaTorralba",
            },
        },
        "I audit blockchain systems",
        (),
    ),
)


def imported(tmp_path: Path, case: Case, capsys: pytest.CaptureFixture[str]) -> tuple[Path, str]:
    """A minimal site with ``case`` imported into it; the import's notes and summary."""
    site = make_site(tmp_path / "site")
    assert main(["-C", str(site), "import", str(DATA / case.folder)]) == 0
    out = capsys.readouterr()
    return site, out.out + out.err


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.folder)
def test_an_alfolio_site_brings_its_papers_about_page_and_profile(
    tmp_path: Path, case: Case, capsys: pytest.CaptureFixture[str]
) -> None:
    source = DATA / case.folder
    site, said = imported(tmp_path, case, capsys)
    bib = (source / "_bibliography" / "papers.bib").read_bytes()
    assert (site / "papers.bib").read_bytes() == bib  # Jekyll's --- lines and all
    config = yaml.safe_load((site / "site.yaml").read_text(encoding="utf-8"))
    assert config["publications"] == "papers.bib"
    assert config["author"] == case.author
    assert config["title"] == "T" and config["base_url"] == "https://example.org/"
    for kind, value in case.author["links"].items():  # type: ignore[attr-defined]
        assert link_url(kind, value)[0] == ""
    home = (site / "content" / "index.md").read_text(encoding="utf-8")
    assert case.about in home and "layout" not in home and "{{" not in home
    assert home.startswith("---\ndescription: ")
    local = [p for p in re.findall(r"pdf\s*=\s*\{([^}]*)\}", bib.decode()) if "://" not in p]
    assert local and all((site / "static" / "pdf" / name).is_file() for name in local)
    for message in case.unmapped:
        assert f"{case.folder}/{message}" in said
    assert "from al-folio: papers.bib" in said and "Traceback" not in said

    out = build_site(site)
    papers = (out / "publications" / "index.html").read_text(encoding="utf-8")
    entries = re.findall(r"(?m)^\s*@(?!string|comment|preamble)\w+\s*\{", bib.decode())
    assert papers.count('<li class="pub"') == len(entries) > 0
    pdf_buttons = re.findall(r'href="([^"]*)">PDF<', papers)
    assert len(pdf_buttons) == len(re.findall(r"(?m)^\s*pdf\s*=", bib.decode()))
    page = (out / "index.html").read_text(encoding="utf-8")
    assert f'id="profile-name">{case.author["name"]}</h2>' in page
    assert f'src="static/{case.author["photo"]}"' in page and 'width="160"' in page
    assert "https://github.com/" + case.author["links"]["github"] in page  # type: ignore[index]
    assert case.about.split("[")[0].strip() in page
    ld = [json.loads(b) for b in re.findall(r'(?s)ld\+json">(.*?)</script>', page)]
    assert any(item.get("@type") == "Person" for block in ld for item in _items(block))


def _items(block: object) -> list[dict[str, object]]:
    """The JSON-LD objects of one block (an object, a list or an @graph)."""
    if isinstance(block, list):
        return [i for b in block for i in _items(b)]
    if isinstance(block, dict):
        return [block, *_items(block.get("@graph", []))]
    return []


def test_pages_built_by_liquid_are_reported_and_markdown_pages_come_across(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """cv (its own layout), talks and news (Liquid loops), publications and 404 are
    al-folio's machinery; a page written in Markdown is a page here."""
    source = shutil.copytree(DATA / "alfolio-594zyc", tmp_path / "alfolio")
    (source / "_pages" / "teaching.md").write_text(
        "---\nlayout: page\npermalink: /teaching/\ntitle: teaching\n"
        "description: Materials for courses.\nnav: true\n---\n\n"
        "Organize your courses by years, topics, or *universities*.\n",
        encoding="utf-8",
    )
    site = make_site(tmp_path / "site")
    assert main(["-C", str(site), "import", str(source)]) == 0
    said = capsys.readouterr().err
    teaching = (site / "content" / "pages" / "teaching.md").read_text(encoding="utf-8")
    assert "title: teaching" in teaching and "*universities*" in teaching
    assert sorted(p.name for p in (site / "content" / "pages").iterdir()) == ["teaching.md"]
    assert "alfolio/_pages/404.md:1: page not imported: this site makes its own 404" in said
    assert "_pages/publications.md:1: page not imported: a publications page" in said
    assert "_pages/news.md:1: page not imported: Liquid builds it ({% include %} at line 7)" in said
    assert "_cv.md" not in said  # Jekyll does not publish it either
    assert not list((site / "content" / "posts").glob("about*"))
    assert (build_site(site) / "teaching" / "index.html").is_file()


def test_a_second_import_changes_nothing_and_the_authors_settings_stay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    case = CASES[0]
    site, _ = imported(tmp_path, case, capsys)
    before = tree_digest(site)
    assert main(["-C", str(site), "import", str(DATA / case.folder)]) == 0
    assert "content/index.md exists" in capsys.readouterr().err
    assert tree_digest(site) == before
    # A profile the author wrote, and a papers.bib of their own, are not replaced.
    (site / "site.yaml").write_text(
        "title: T\n# me\nauthor:\n  name: Me\nbase_url: https://example.org/\n", encoding="utf-8"
    )
    (site / "papers.bib").write_text("@misc{a, title={A}, year={2020}}\n", encoding="utf-8")
    assert main(["-C", str(site), "import", str(DATA / case.folder)]) == 0
    said = capsys.readouterr().err
    assert "site.yaml has its own 'author': kept" in said
    assert "papers.bib: not imported: the site has a papers.bib already" in said
    assert (site / "site.yaml").read_text(encoding="utf-8").startswith("title: T\n# me\n")


def test_a_pdf_missing_from_assets_is_reported_at_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = shutil.copytree(DATA / "alfolio-594zyc", tmp_path / "alfolio")
    (source / "assets" / "pdf" / "colm24.pdf").unlink()
    site = make_site(tmp_path / "site")
    assert main(["-C", str(site), "import", str(source)]) == 0
    said = capsys.readouterr().err
    assert "alfolio/_bibliography/papers.bib:314: pdf colm24.pdf not found in assets/pdf/" in said
    assert len(list((site / "static" / "pdf").iterdir())) == 12


def test_socials_map_to_the_profiles_links_and_the_rest_is_reported(tmp_path: Path) -> None:
    """An older al-folio's ``_config.yml`` keys and the newer ``socials.yml`` forms."""
    (tmp_path / "_data").mkdir()
    (tmp_path / "_data" / "socials.yml").write_text(
        "# comment\nemail: me@example.org\nmastodon_username: sigmoid.social/@me\n"
        "bluesky_url: https://bsky.app/profile/me.bsky.social\narxiv_id: doe_j_1\n"
        "dblp_url: https://dblp.org/pid/1/2\norcid_id: not-an-orcid\nrss_icon: true\n"
        "custom_social:\n  title: Custom\n  url: https://example.org\nlinkedin_username:\n",
        encoding="utf-8",
    )
    notes: list[Note] = []
    links = socials.read(tmp_path, {"github_username": "ignored-here"}, notes)
    assert links == {
        "email": "me@example.org",
        "mastodon": "@me@sigmoid.social",
        "bluesky": "https://bsky.app/profile/me.bsky.social",
        "arxiv": "doe_j_1",
    }
    said = [f"{n.line}: {n.message}" for n in notes]
    assert said[0] == "6: dblp_url not brought across: no 'dblp_url' link here"
    assert said[1].startswith("7: orcid_id not brought across: author link 'orcid'")
    assert said[2] == "9: custom_social not brought across: a custom social"
    assert len(said) == 3
    older = {"twitter_username": "@me", "scholar_userid": "abcDEF12", "title": "Site", "url": "x"}
    assert socials.read(tmp_path / "none", older, notes) == {"x": "@me", "scholar": "abcDEF12"}


def test_site_yaml_keeps_its_comments_when_a_key_is_replaced(tmp_path: Path) -> None:
    config = tmp_path / "site.yaml"
    config.write_text(
        "# top\ntitle: T\nauthor: Ada\n\n# the address\nbase_url: https://e.org/\n",
        encoding="utf-8",
    )
    siteyaml.set_key(config, "author", {"name": "Ada", "bio": "One.\n\nTwo."})
    siteyaml.set_key(config, "publications", "papers.bib")
    assert config.read_text(encoding="utf-8") == (
        "# top\ntitle: T\nauthor:\n  name: Ada\n  bio: |-\n    One.\n\n    Two.\n\n"
        "# the address\nbase_url: https://e.org/\npublications: papers.bib\n"
    )


def test_an_alfolio_site_of_collections_and_a_bare_month(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A site with no ``_posts``, its notes in published collections (``_stats-ml/``):
    none came across; and ``month = july`` in ``papers.bib`` (no ``@string`` names
    ``july``) stopped the whole build."""
    source = tmp_path / "old"
    (source / "_stats-ml").mkdir(parents=True)
    (source / "_bibliography").mkdir()
    (source / "_config.yml").write_text("collections:\n  stats-ml:\n    output: true\n")
    (source / "_stats-ml/2024-01-02-kl.md").write_text("---\ntitle: KL\n---\n\n$D(p\\|q)$.\n")
    (source / "_bibliography/papers.bib").write_text(
        "@article{a,\n  title={A},\n  author={B, C},\n  year={2020},\n  month = july,\n}\n"
    )
    site = make_site(tmp_path / "site")
    assert main(["-C", str(site), "import", str(source)]) == 0
    out = capsys.readouterr()
    said = out.out + out.err
    assert "papers.bib: names no @string defines, kept as text: july" in said
    assert (site / "content/posts/kl.md").is_file()
    out = build_site(site)
    assert (out / "posts/kl/index.html").is_file()
    assert (out / "publications/index.html").is_file()
