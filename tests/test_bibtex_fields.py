"""What real .bib files hold beyond plain BibTeX: LaTeX text commands latexcodec leaves
raw (``bibtex_latex``), ``crossref`` and BibLaTeX's field names (``bibfields``), read
the same by a post's references and by the publications page. Each case is one that
showed raw on a page built from a real file (theses, ADS, Zotero, Google Scholar)."""

from __future__ import annotations

from pathlib import Path

import pytest

from site_builder import bibliography
from site_builder.errors import BuildError
from site_builder.publications import parse_publications
from site_builder.publications.people import site_name

ROOT = Path(__file__).parent


@pytest.mark.parametrize(
    ("latex", "text"),
    [
        (r"Mart{\'{\i}}n Kraj\'\i{}cek", "Martín Krajícek"),  # ADS's dotless i
        (r"Lekav\`y and {\"{\i}}", "Lekavỳ and ï"),  # no precomposed ỳ in latexcodec
        (r"M{\"u}ller \c{c}a {\o}ystein", "Müller ça øystein"),  # latexcodec's, unchanged
        (r"\emph{i}SAX, \textit{top}-\textsc{k}, {\sc ESTAR}", "iSAX, top-k, ESTAR"),
        (r"relax {\em All}", "relax All"),
        (r"\mbox{ab} \texttt{http://x.org} \textup{u}", "ab http://x.org u"),
        (r"A \enquote{divide-and-conquer} way", "A “divide-and-conquer” way"),
        (r"x\textsuperscript{2} and 29\textsuperscript{th}", "x² and 29th"),
        (r"location--\hspace{0pt}allocation", "location\u2013allocation"),
        (r"The \TeX book in \LaTeX{} by l\textquotesingle IHÉS", "The TeXbook in LaTeX by l'IHÉS"),
        (r"\apj, 543 and \mnras , 12 and \aap", "ApJ, 543 and MNRAS, 12 and A&A"),
        (r"In 29th $\{$USENIX$\}$ Security", "In 29th USENIX Security"),  # Google Scholar
        (r"a \$2 million puzzle", "a $2 million puzzle"),
        (r"\rpackage{irace} in \proglang{R}", "irace in R"),  # a @preamble's own macros
        # Mendeley's accent on \i with the word going on (latexcodec read \in, \ia)
        (r"Mart\'\in Farach and Terr\'on-D\'\iaz", "Martín Farach and Terrón-Díaz"),
        # Zotero: an abstract's <p>, braces and backslash; these were dropped or left raw
        (r"{\textless}p{\textgreater}A \textless{} B{\textless}/p{\textgreater}", "<p>A < B</p>"),
        (
            r"sets \{x\} and {\textbackslash}n, \textasciitilde5 \texttimes{} 2",
            "sets {x} and \\n, ~5 \u00d7 2",
        ),
    ],
)
def test_latex_text_commands_become_text(latex: str, text: str) -> None:
    assert bibliography._latex(latex) == text


@pytest.mark.parametrize(
    "title", [r"The $$\phi$$ Accrual Failure Detector", r"The \($\phi$\) Accrual Failure Detector"]
)
def test_mendeleys_double_dollars_in_a_title_are_inline_math(title: str) -> None:
    """``$$\\phi$$`` (Mendeley writes a title's math so) lost its φ in a post's references
    (``The $ accrual``) and showed as TeX on the publications page."""
    text, html = bibliography._title(title)
    assert text == r"The \phi accrual failure detector" and html.count("<math") == 1
    pubs = parse_publications(
        f"@misc{{a, title = {{{title}}}, year = 2004}}", Path("p.bib"), ROOT, ""
    )
    assert pubs.entries[0].title == "The ϕ Accrual Failure Detector"


def test_a_titles_formulas_are_left_to_math_core() -> None:
    """``\\text{..}`` inside ``$..$`` is math-core's; ``\\(..\\)`` is math as ``$..$`` is."""
    text, html = bibliography._title(r"The $\text{softmax}$ of \emph{all} \(x^2\)")
    assert text == r"The \text{softmax} of all x^2"
    assert html.count("<math") == 2 and "<mtext>softmax</mtext>" in html


BIB = r"""
@proceedings{icaps2015, title = {Proceedings of {ICAPS} 2015}, year = {2015},
  publisher = {AAAI Press}}
@inproceedings{hoffmann2015, author = {Hoffmann, J{\"o}rg and Fickert, Maximilian},
  title = {Explicit conjunctions w/o compilation}, crossref = {ICAPS2015}, pages = {115--119}}
@article{banville2017, author = {Banville, Hubert}, title = {Uncovering structure},
  journaltitle = {Journal of Neural Engineering}, date = {2017-05-02}}
"""


def test_crossref_and_biblatex_fields_in_a_posts_references() -> None:
    entries = bibliography.parse(BIB, "refs.bib")
    paper = entries["hoffmann2015"]
    assert paper.year == "2015"
    assert "In Proceedings of ICAPS 2015 (pp. 115\u2013119). AAAI Press." in paper.text
    article = entries["banville2017"]
    assert article.year == "2017" and "Journal of Neural Engineering" in article.text


def test_crossref_and_biblatex_fields_on_the_publications_page() -> None:
    pubs = parse_publications(BIB, Path("papers.bib"), ROOT, "Jörg Hoffmann")
    by_key = {paper.key: paper for paper in pubs.entries}
    assert set(by_key) == {"hoffmann2015", "banville2017"}, "the proceedings is no paper"
    assert (by_key["hoffmann2015"].year, by_key["hoffmann2015"].venue) == (
        "2015",
        "Proceedings of ICAPS 2015",
    )
    assert (by_key["banville2017"].year, by_key["banville2017"].month) == ("2017", 5)
    assert by_key["banville2017"].venue == "Journal of Neural Engineering"
    assert not pubs.warnings


def test_a_site_author_with_more_commas_than_bibtex_allows_is_still_matched() -> None:
    """pybtex raised on "Smith, John, Jr., PhD" (a traceback, on every build)."""
    assert site_name("Smith, John, Jr., PhD").last


@pytest.mark.parametrize(
    ("bib", "message"),
    [
        (
            "@inproceedings{a,\n  title = {T},\n  booktitle = ijcai,\n  year = 2020}\n",
            "refs.bib:3: undefined @string macro 'ijcai': define it",
        ),
    ],
)
def test_an_undefined_macro_stops_at_its_line(bib: str, message: str) -> None:
    with pytest.raises(BuildError) as caught:
        bibliography.parse(bib, "refs.bib")
    assert str(caught.value).startswith(message)


@pytest.mark.parametrize(
    ("bib", "warning", "year"),
    [
        (  # Google Scholar's and DBLP's pastes: a second year, title or isbn
            "@article{b,\n  title = {T},\n  year = {2019},\n  year = {2020}}\n",
            "refs.bib:4: warning: BibTeX: entry with key b has a duplicate year field; "
            "BibTeX keeps the first",
            "2019",
        ),
        (  # on one line
            "\n@misc{c, title = {T}, year = {2019}, year = {2020}}\n",
            "refs.bib:2: warning: BibTeX: entry with key c has a duplicate year field; "
            "BibTeX keeps the first",
            "2019",
        ),
        (  # one paper listed twice; DBLP's keys hold colons
            "@misc{DBLP:conf/x/B19, title = {T}, year = 2019}\n\n"
            "@misc{DBLP:conf/x/B19, title = {T}, year = 2020}\n",
            "refs.bib:3: warning: BibTeX: repeated bibliography entry: DBLP:conf/x/B19; "
            "BibTeX keeps the first and ignores this one",
            "2019",
        ),
    ],
)
def test_a_repeated_entry_or_field_is_a_warning_and_the_first_is_kept(
    bib: str, warning: str, year: str
) -> None:
    """BibTeX and biber keep the first and go on; 7 of 37 real files hold one."""
    found = bibliography.parse(bib, "refs.bib")
    assert [str(w) for w in bibliography.warnings_of(found)] == [warning]
    assert [entry.year for entry in found.values()] == [year]


@pytest.mark.parametrize(
    ("bib", "message"),
    [
        (  # an al-folio entry with a field added at its end (98Ali/98ali.github.io)
            "@article{a,\n  title={T},\n  publisher={Elsevier}\n  google_scholar_id={x}\n}\n",
            "r.bib:4: BibTeX syntax error: '}' expected: is a ',' missing at the end of line 3?",
        ),
        (
            "@article(a,\n  title={T}\n\n  year=2024\n)\n",
            "r.bib:4: BibTeX syntax error: ')' expected: is a ',' missing at the end of line 2?",
        ),
        ('@article{a,\n  title={T}\n  "x"\n}\n', "r.bib:3: BibTeX syntax error: '}' expected"),
    ],
)
def test_a_missing_comma_between_fields_is_named(bib: str, message: str) -> None:
    with pytest.raises(BuildError) as caught:
        bibliography.parse(bib, "r.bib")
    assert str(caught.value).startswith(message)
    assert "missing" not in message or str(caught.value) == message


def test_a_form_feed_between_entries_is_whitespace() -> None:
    """Pasted from a printed bibliography, it stopped the build as a page's control character."""
    text = "@misc{a, title = {T}, year = 2020}\n\f\n@misc{b, title = {U}}"
    assert set(bibliography.parse(text, "r.bib")) == {"a", "b"}


def test_a_urls_escapes_are_printed_as_latex_prints_them() -> None:
    """``\\url{..%20..\\_..}``: the publications page escaped its ``%`` and both showed ``\\_``."""
    from site_builder.publications import _decode

    value = r"\url{http://x.org/Secure%20Rule/OWASP\_ASIDE} and 92.9% success"
    assert _decode(value) == "http://x.org/Secure%20Rule/OWASP_ASIDE and 92.9% success"
    assert bibliography._latex(r"\url{http://x.org/a\_b%20c}") == "http://x.org/a_b%20c"


def test_a_url_field_is_an_address_and_one_hyphen_makes_a_page_range() -> None:
    """Decoded as LaTeX, ``~`` in a ``url`` became a no-break space and broke the link."""
    bib = (
        "@article{a, author = {Ada B}, title = {T}, journal = {J}, year = 2020,\n"
        "  pages = {109-118}, url = {https://x.org/~user/p--q.pdf}}"
    )
    entry = bibliography.parse(bib, "r.bib")["a"]
    assert '<a href="https://x.org/~user/p--q.pdf">' in entry.html
    assert "(pp. 109\u2013118)" in entry.text


@pytest.mark.parametrize(
    "doi",
    [
        "10.1109/WAINA.2013.149",
        "DOI 10.1109/WAINA.2013.149",  # an IRIS export (25sal/25sal)
        "doi:10.1109/WAINA.2013.149",
        "http://dx.doi.org/10.1109/WAINA.2013.149",
    ],
)
def test_a_doi_in_any_of_its_written_forms_links_to_doi_org(doi: str) -> None:
    """``DOI 10.1109/..`` and ``http://dx.doi.org/..`` became ``https://doi.org/DOI 10..``
    and ``https://doi.org/http://dx.doi.org/..``: links that lead nowhere."""
    text = f"@inproceedings{{a, title = {{T}}, year = 2013, doi = {{{doi}}}}}"
    entry = bibliography.parse(text, "refs.bib")["a"]
    assert 'href="https://doi.org/10.1109/WAINA.2013.149"' in entry.html
    pubs = parse_publications(text, Path("papers.bib"), ROOT, "")
    assert [link.href for link in pubs.entries[0].links] == [
        "https://doi.org/10.1109/WAINA.2013.149"
    ]


def test_a_sici_dois_angle_brackets_are_encoded_in_the_link() -> None:
    """A SICI DOI (AMS journals, 05michaelallen/thesis) holds ``<`` and ``>``."""
    doi = "10.1175/1520-0450(1977)016<0129:EEOUEO>2.0.CO;2"
    text = f"@article{{a, title = {{T}}, year = 1977, doi = {{{doi}}}}}"
    href = "https://doi.org/10.1175/1520-0450(1977)016%3C0129:EEOUEO%3E2.0.CO;2"
    assert f'href="{href}"' in bibliography.parse(text, "refs.bib")["a"].html
    pubs = parse_publications(text, Path("papers.bib"), ROOT, "")
    assert [link.href for link in pubs.entries[0].links] == [href]


@pytest.mark.parametrize(
    ("url", "href"),
    [
        ("https://example.org/a", "https://example.org/a"),
        ("www.exascaleproject.org", "https://www.exascaleproject.org"),  # celeritas
        ("dl.acm.org/citation.cfm?id=2479440", "https://dl.acm.org/citation.cfm?id=2479440"),
        ("system/files/publications/x.pdf", None),  # DCBoland/thesis: no page of this site
        ('doi:<a href="https://doi.org/10.1115/1.4071133">10.1115/1.4071133</a>', None),
    ],
)
def test_a_url_field_links_only_to_an_address(url: str, href: str | None) -> None:
    """A bare host was a link relative to the post; HTML pasted into the field (355
    entries of 4C-multiphysics/website) a ``doi:%3Ca..`` link: both led nowhere."""
    text = f"@misc{{a, title = {{T}}, year = 2020, url = {{{url}}}}}"
    html = bibliography.parse(text, "refs.bib")["a"].html
    assert (f'<a href="{href}"' in html) if href else "<a " not in html


def test_ads_relax_initials_keep_both_letters() -> None:
    """ADS writes ``{\\relax Th}.`` for an initial of two letters (CoreySpohn/dissertation):
    a post's reference showed "Dall, \\." and the publications page "\\relax Th. Dall"."""
    text = r"@article{a, author = {Dall, {\relax Th}. and Benz, W.}, title = {T}, year = 2003}"
    assert bibliography.parse(text, "refs.bib")["a"].text.startswith("Dall, Th., & Benz, W.")
    pubs = parse_publications(text, Path("papers.bib"), ROOT, "")
    assert [a.name for a in pubs.entries[0].authors] == ["Th. Dall", "W. Benz"]
