"""The publications page from real al-folio ``papers.bib`` files, and from hand-made cases.

Three researchers' files (tests/data/publications/README.md names their sources) are
rendered through the real templates. Each test reads what a reader would: the entry
under its year heading, its buttons, the author marked, the disclosures.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from site_builder.errors import BuildError
from site_builder.publications import load_publications, parse_publications, selected
from site_builder.publications.people import Author
from site_builder.publications.source import scan
from tests.pubsite import DATA, Node, make_site, parse_html, render

# file, the site author, entries, distinct years; al-folio's own site had these figures.
REAL = [
    ("594zyc.bib", "Yichi Zhang", 13, 5),
    ("42Shawn.bib", "Yuzhang Shang", 33, 5),
    ("12wang3.bib", "Zhuo Wang", 5, 3),
]
AUTHOR = "author: {name}"


def _pdfs(bib: str) -> tuple[str, ...]:
    """The local files a .bib's link fields name, as al-folio keeps them (assets/pdf/)."""
    text = (DATA / bib).read_text(encoding="utf-8")
    found = re.findall(r"\b(?:pdf|poster|slides)\s*=\s*\{([^}]+)\}", text)
    return tuple(f"pdf/{name}" for name in found if "://" not in name)


def _entries(page: str) -> dict[str, tuple[str, Node]]:
    """Each rendered paper by its id, with the year heading it is listed under."""
    out = {}
    for section in parse_html(page).find_all("section", "pub-year"):
        heading = section.find("h2")
        assert heading is not None
        for item in section.find_all("li", "pub"):
            out[item.attrs["id"]] = (heading.text, item)
    return out


@pytest.fixture(scope="module", params=REAL, ids=[r[0] for r in REAL])
def real(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    bib, name, count, years = request.param
    root = make_site(tmp_path_factory.mktemp("site"), AUTHOR.format(name=name), bib, _pdfs(bib))
    return bib, count, years, render(root)


def test_every_entry_is_shown_under_its_year(real) -> None:  # type: ignore[no-untyped-def]
    bib, count, years, rendered = real
    import pybtex.database

    source = pybtex.database.parse_string((DATA / bib).read_text(encoding="utf-8"), "bibtex")
    shown = _entries(rendered.page)
    assert len(shown) == count == len(source.entries)
    headings = [h for h, _ in shown.values()]
    assert len(set(headings)) == years
    assert headings == sorted(headings, reverse=True)  # newest year first, each year once
    for key, entry in source.entries.items():
        heading, item = shown["pub-" + re.sub(r"[^\w\-]+", "-", key)]
        assert heading == entry.fields["year"].strip()
        title = item.find(cls="pub-title")
        assert title is not None and title.text.strip()
        assert "{" not in title.text and "\\" not in title.text


def test_every_link_field_becomes_a_button(real) -> None:  # type: ignore[no-untyped-def]
    bib, _, _, rendered = real
    pubs = rendered.publications
    assert pubs.warnings == ()  # every local file was found under static/pdf/
    shown = _entries(rendered.page)
    for paper in pubs.entries:
        _, item = shown[paper.anchor]
        buttons = {
            a.text.split(" of ")[0]: a.attrs["href"] for a in item.find_all("a", "pub-button")
        }
        fields = {
            f.name.lower(): f.value.strip('{}"')
            for f in scan((DATA / bib).read_text(encoding="utf-8"))[paper.key].fields
        }
        for field, label in (("pdf", "PDF"), ("code", "Code"), ("html", "HTML"),
                             ("website", "Website"), ("arxiv", "arXiv")):  # fmt: skip
            if field in fields:
                assert label in buttons, (paper.key, field)
        if "arxiv" in fields:
            assert buttons["arXiv"] == "https://arxiv.org/abs/" + fields["arxiv"]
        if "pdf" in fields and "://" not in fields["pdf"]:
            assert buttons["PDF"] == "../static/pdf/" + fields["pdf"]  # relative to the page
        if "doi" in fields:
            assert buttons["DOI"].startswith("https://doi.org/10.")


def test_the_site_author_is_marked_in_every_entry(real) -> None:  # type: ignore[no-untyped-def]
    _, _, _, rendered = real
    for _, item in _entries(rendered.page).values():
        marked = item.find_all("strong", "pub-me")
        assert [m.text for m in marked] == [rendered.config.author]


def test_disclosures_are_details_without_script(real) -> None:  # type: ignore[no-untyped-def]
    _, _, _, rendered = real
    tree = parse_html(rendered.page)
    main = tree.find("main")
    assert main is not None and not main.find_all("script")
    for _, item in _entries(rendered.page).values():
        summaries = [d.find("summary") for d in item.find_all("details")]
        labels = [s.text.split(" of ")[0] for s in summaries if s is not None]
        assert labels[-1] == "BibTeX"
        bibtex = item.find("pre", "pub-bibtex")
        assert bibtex is not None
        text = bibtex.text
        assert text.startswith("@") and text.rstrip().endswith("}")
        for field in ("abbr", "selected", "pdf", "code", "preview", "bibtex_show", "abstract"):
            assert not re.search(rf"^\s*{field}\s*=", text, re.MULTILINE | re.IGNORECASE), field


def test_selected_entries_are_the_ones_marked(real) -> None:  # type: ignore[no-untyped-def]
    bib, _, _, rendered = real
    text = (DATA / bib).read_text(encoding="utf-8")
    marked = len(re.findall(r"selected\s*=\s*\{true\}", text, re.IGNORECASE))
    papers = selected(rendered.publications)
    assert len(papers) == marked > 0
    home = parse_html(rendered.home).find("section", "pub-selected")
    assert home is not None
    assert [li.attrs["id"] for li in home.find_all("li", "pub")] == [p.anchor for p in papers]


def test_jekyll_front_matter_is_read_as_a_comment() -> None:
    text = (DATA / "594zyc.bib").read_text(encoding="utf-8")
    assert text.startswith("---\n---\n")
    pubs = parse_publications(text, Path("papers.bib"), DATA, "Yichi Zhang")
    assert len(pubs.entries) == 13


# --- hand-made cases (tests/data/publications/edge.bib) -------------------------------------


@pytest.fixture(scope="module")
def edge(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    root = make_site(
        tmp_path_factory.mktemp("edge"), AUTHOR.format(name="Yong Jae Lee"), "edge.bib",
        ("lee2024sqrt.pdf",),
    )  # fmt: skip
    return render(root)


def test_months_order_a_year_and_unknown_fields_are_kept(edge) -> None:  # type: ignore[no-untyped-def]
    years = [(y.year, [p.key for p in y.publications]) for y in edge.publications.years]
    assert years == [
        ("2024", ["lee2024sqrt", "lee2024march", "lee2024nomonth"]),  # Dec, Mar, none
        ("2019", ["lee2019thesis"]),
        ("2018", ["lee2018url"]),
    ]
    first = edge.publications.entries[0]
    assert "reviewer_notes = {an unknown field, kept}" in first.bibtex
    # an @string macro is written out, so the copied entry stands alone; month macros stay
    assert "booktitle = {Advances in Neural Information Processing Systems}" in first.bibtex
    assert "month = mar" in edge.publications.entries[1].bibtex


def test_titles_decode_latex_and_render_math(edge) -> None:  # type: ignore[no-untyped-def]
    paper = edge.publications.entries[0]
    assert paper.title == "Why \u221ad Scaling? Attention at M\u00fcnchen"
    assert "<msqrt>" in paper.title_html and "M\u00fcnchen" in paper.title_html
    assert "<msqrt>" in paper.abstract_html and "50% less drift" in paper.abstract_html
    assert '<link rel="stylesheet" href="../static/css/fonts.css">' in edge.page


def test_author_forms_and_marks(edge) -> None:  # type: ignore[no-untyped-def]
    by_key = {p.key: p.authors for p in edge.publications.entries}
    assert by_key["lee2024sqrt"] == (
        Author("Yong Jae Lee", "\u2020", me=True),  # Lee$^\dagger$, Yong Jae
        Author("J\u00f6rg M\u00fcller", "*"),  # M{\"u}ller*, J{\"o}rg
        Author("Mar\u00eda Garc\u00eda"),
    )
    assert by_key["lee2024march"] == (
        Author("Y. J. Lee", me=True),  # "F. Last" with initials
        Author("Ana Kim", "*"),  # \textsuperscript{*}
        Author("et al."),  # "and others"
    )
    assert by_key["lee2024nomonth"][0] == Author("Y. Lee", me=True)  # "Last, F."
    assert by_key["lee2019thesis"] == (Author("Yong-Jae Lee", me=True),)
    item = _entries(edge.page)["pub-lee2024sqrt"][1]
    authors = item.find("p", "pub-authors")
    assert authors is not None
    assert authors.text == "Yong Jae Lee\u2020, J\u00f6rg M\u00fcller*, and Mar\u00eda Garc\u00eda"


@pytest.mark.parametrize(
    ("name", "written", "marked"),
    [
        ("Yichi Zhang", "Zhang, Yichi", True),
        ("Yichi Zhang", "Yichi Zhang", True),
        ("Yichi Zhang", "Y. Zhang", True),
        ("Yichi Zhang", "Zhang, Y.", True),
        ("Yichi Zhang", "Yi Zhang", False),  # another person with the surname
        ("Yichi Zhang", "Zhang, Yue", False),
        ("Yichi Zhang", "Yichi Zhao", False),
        ("Jörg Müller", 'M{\\"u}ller, J.', True),
        ("Jorg Muller", 'M{\\"u}ller, J{\\"o}rg', True),  # accents folded
        ("Yong Jae Lee", "Lee, Yong-Jae", True),
        ("Yong Jae Lee", "Lee, Y.-J.", True),
        ("Yong Jae Lee", "Lee, Y. K.", False),
    ],
)
def test_name_matching(name: str, written: str, marked: bool) -> None:
    text = f"@misc{{k, title={{T}}, year={{2020}}, author={{{written} and Other, Person}}}}"
    pubs = parse_publications(text, Path("papers.bib"), DATA, name)
    assert [a.me for a in pubs.entries[0].authors] == [marked, False]


def test_a_missing_local_file_is_a_warning_at_its_line(edge) -> None:  # type: ignore[no-untyped-def]
    assert [str(w) for w in edge.publications.warnings] == [
        "papers.bib:47: warning: 'posters/thesis.pdf' is not a file under static/ (nor "
        "static/pdf/): no button for it"
    ]
    labels = [link.label for link in edge.publications.entries[-2].links]
    assert "Poster" not in labels


@pytest.mark.parametrize(
    ("fields", "labels"),
    [
        ("eprint = {2002.07764}, eprinttype = {arxiv}", ["arXiv"]),  # Zotero's biblatex
        ("eprint = {2002.07764}, archivePrefix = {arXiv}", ["arXiv"]),
        ("eprint = {2002.07764}", ["arXiv"]),
        ("eprint = {19192285}, eprinttype = {pmid}", []),  # a PubMed id is no arXiv link
        ("eprint = {19192285}, archivePrefix = {PMID}", []),
    ],
)
def test_an_eprint_is_an_arxiv_button_only_for_arxiv(fields: str, labels: list[str]) -> None:
    text = f"@article{{a, title = {{T}}, year = 2009, {fields}}}"
    pubs = parse_publications(text, Path("papers.bib"), DATA, "A B")
    assert [link.label for link in pubs.entries[0].links] == labels


def test_link_fields_are_read_verbatim_not_as_latex(edge) -> None:  # type: ignore[no-untyped-def]
    links = {link.label: link.href for link in edge.publications.entries[-1].links}
    assert links == {
        "Code": "https://example.org/code?x=1&y=2",
        "Website": "https://www.example.edu/~ylee/a--b_c/",  # not a no-break space, a dash
    }


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("@article{a,\n  title = {One},\n  year = 2020\n}\n\n@article{b,\n  title = {Two\n",
         6, "entry 'b' is not closed: a '}' is missing"),
        ("---\n---\n@article{a, title={A}, year={2020}}\n\n@misc{b,\n  year = {2021}\n}\n",
         5, "entry 'b' has no title"),
    ],
)  # fmt: skip
def test_a_malformed_entry_stops_at_its_line(text: str, line: int, message: str) -> None:
    with pytest.raises(BuildError) as caught:
        parse_publications(text, Path("papers.bib"), DATA, "A B")
    assert caught.value.location.line == line
    assert str(caught.value).startswith(f"papers.bib:{line}: {message}")


def test_a_repeated_entry_is_a_warning_and_the_first_is_listed() -> None:
    """As BibTeX does: the file's LaTeX builds, so the page does too."""
    text = "@article{a, title={A}, year={2020}}\n@article{a, title={B}, year={2021}}\n"
    pubs = parse_publications(text, Path("papers.bib"), DATA, "A B")
    assert [(p.title, p.line) for p in pubs.entries] == [("A", 1)]
    assert [str(w) for w in pubs.warnings] == [
        "papers.bib:2: warning: BibTeX: repeated bibliography entry: a; "
        "BibTeX keeps the first and ignores this one"
    ]


def test_load_reads_the_file_relative_to_the_site(tmp_path: Path) -> None:
    (tmp_path / "bib").mkdir()
    (tmp_path / "bib" / "papers.bib").write_bytes(b"@misc{k, title={\xff}}")
    with pytest.raises(BuildError, match=r"^bib/papers.bib:1: .*not valid UTF-8"):
        load_publications(Path("bib/papers.bib"), tmp_path, "A B")


def test_the_pages_are_valid_html(edge, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The W3C Nu checker on the publications page and the home page with selected papers:
    the three real files and the cases with math, marks and a thesis, in one run."""
    from tests.conftest import validate

    results = {"edge": edge}
    for bib, name, _, _ in REAL:
        site = make_site(tmp_path / "sites" / bib, AUTHOR.format(name=name), bib, _pdfs(bib))
        results[bib] = render(site)
    for name, result in results.items():
        (tmp_path / "out" / name / "publications").mkdir(parents=True)
        (tmp_path / "out" / name / "publications" / "index.html").write_text(result.page, "utf-8")
        (tmp_path / "out" / name / "index.html").write_text(result.home, "utf-8")
    assert validate(tmp_path / "out") == {tmp_path / "out": ""}
