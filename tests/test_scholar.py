"""The scholarly features on a whole site: tests/sites/scholar built, validated and driven.

Numbered equations, cross-references, citations from the site's and a post's
own .bib, Scholar meta tags and the APA box; then the failures a site must
report with ``path:line``; then Chromium: the citation tooltip on keyboard
focus and equation numbers aligned at phone and desktop widths.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from site_builder.config import load_config
from site_builder.errors import BuildErrors
from tests.browser import ARTIFACTS, chromium, serve_directory
from tests.conftest import SITES, Sites, build_site, make_site

SCHOLAR = SITES / "scholar"
POST = "posts/scaled-attention/index.html"


@pytest.fixture(scope="module")
def scholar(sites: Sites) -> Path:
    return sites.built(SCHOLAR)


def page(out: Path, rel: str = POST) -> str:
    return (out / rel).read_text(encoding="utf-8")


def test_equations_are_numbered_and_referenced(scholar: Path) -> None:
    html = page(scholar)
    # The number sits in the last cell of math-core's full-width row, which carries the id.
    numbers = re.findall(r'<mtd style="[^"]*" id="([\w-]+)"><mtext>\((\d)\)</mtext>', html)
    assert numbers == [("eq-softmax", "1"), ("eq-scaled", "2"), ("eq-variance", "3")]
    assert '<a class="equation-ref" href="#eq-softmax">Equation 1</a>' in html
    assert '<a class="equation-ref" href="#eq-scaled">(2)</a>' in html  # \eqref
    assert '<a class="equation-ref" href="#eq-scaled">2</a>' in html  # $\ref{}$
    assert '<a class="equation-ref" href="#eq-softmax">1</a>' in html  # [-@eq-softmax]
    presentation = re.sub(r"<annotation.*?</annotation>", "", html, flags=re.DOTALL)
    assert "\\label" not in presentation  # only in the TeX annotation


def test_tables_and_figures_share_the_mechanism(scholar: Path) -> None:
    html = page(scholar)
    assert '<span class="table-label">Table 1</span> Attention variants and their cost' in html
    assert '<a class="table-ref" href="#tbl-variants">Table 1</a>' in html
    assert '<a class="figure-ref" href="#fig-temperature">Figure 1</a>' in html


def test_citations_link_to_references(scholar: Path) -> None:
    html = page(scholar)
    refs = html.split('<h2 id="references">References</h2>', 1)[1]
    assert html.index('<h2 id="notes">Notes</h2>') < html.index('id="references"')
    keys = re.findall(r'<li id="ref-([\w]+)"', refs)
    assert keys == ["vaswani2017attention", "bahdanau2014neural", "brown2020language", "goedel1931"]
    assert "Gödel, K. (1931). <em>Über formal unentscheidbare Sätze</em>" in refs
    assert "GPT-3 and In-Context learning" in refs
    assert "pp. 5998\u20136008" in refs  # -- is an en dash
    assert '<a href="https://doi.org/10.48550/arXiv.1706.03762">' in refs
    assert 'Bahdanau &amp; Cho [<span class="cite"><a href="#ref-bahdanau2014neural"' in html
    own = page(scholar, "posts/own-bibliography/index.html")
    assert '<li id="ref-knuth1984" value="1">Knuth, D. E. (1984). Literate programming.' in own
    assert '<a href="https://doi.org/10.1093/comjnl/27.2.97">' in own


def test_scholar_meta_and_cite_box(scholar: Path) -> None:
    html = page(scholar)
    assert '<meta name="citation_title" content="Scaled attention, with references">' in html
    assert '<meta name="citation_author" content="Grace Hopper">' in html
    assert '<meta name="citation_publication_date" content="2026/03/01">' in html
    pdf = "https://example.org/scholar/posts/scaled-attention/scaled-attention.pdf"
    assert f'<meta name="citation_pdf_url" content="{pdf}">' in html
    assert (
        '<p class="cite-apa" id="apa">Hopper, G. (2026, March 1). Scaled attention, with '
        "references. Scholar Test Site. https://example.org/scholar/posts/scaled-attention/</p>"
    ) in html
    assert 'data-copy="apa"' in html and 'data-copy="bibtex"' in html
    assert "citation_pdf_url" not in page(scholar, "posts/own-bibliography/index.html")


def test_author_year_style(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site", SCHOLAR)
    config = site / "site.yaml"
    config.write_text(config.read_text().replace("numeric", "author-year"))
    build_site(site)
    html = page(site / "public")
    assert ">Vaswani et al., 2017</a>" in html
    assert 'Bahdanau &amp; Cho (<span class="cite"><a href="#ref-bahdanau2014neural"' in html


def test_a_site_may_cite_its_posts_as_another_entry_type(tmp_path: Path) -> None:
    """The box is the seed's ``@article`` unless site.yaml says ``cite: {type: misc}``."""
    site = make_site(tmp_path / "site", SCHOLAR)
    config = site / "site.yaml"
    config.write_text(config.read_text() + "cite: {type: misc}\n")
    build_site(site)
    assert (
        "<code>@misc{hopper2026scaled,\n"
        "  author       = {Grace Hopper},\n"
        "  title        = {Scaled attention, with references},\n"
        "  year         = {2026},\n"
        "  howpublished = {Scholar Test Site},\n"
        "  url          = {https://example.org/scholar/posts/scaled-attention/},\n"
        "  urldate      = {2026-03-01}\n"
        "}</code>"
    ) in page(site / "public")


def failure(tmp_path: Path, edit: Any) -> list[str]:
    site = make_site(tmp_path / "site", SCHOLAR)
    edit(site)
    with pytest.raises(BuildErrors) as caught:
        build_site(site)
    return [str(error) for error in caught.value.errors]


def test_bib_syntax_error_names_the_bib_and_line(tmp_path: Path) -> None:
    def edit(site: Path) -> None:
        bib = site / "content/references.bib"
        # A forgotten comma after the publisher: pybtex stops at the next field, line 24.
        bib.write_text(bib.read_text().replace("Verlagsgesellschaft},", "Verlagsgesellschaft}"))

    errors = failure(tmp_path, edit)
    assert errors == [
        "content/references.bib:24: BibTeX syntax error: '}' expected: "
        "is a ',' missing at the end of line 23?"
    ]


def test_unknown_key_and_missing_bibliography(tmp_path: Path) -> None:
    def edit(site: Path) -> None:
        post = site / "content/posts/scaled-attention/index.md"
        post.write_text(post.read_text().replace("came first [see", "came first [see @knuht1984;"))
        own = site / "content/posts/own-bibliography/index.md"
        own.write_text(own.read_text().replace("papers.bib", "missing.bib"))

    assert failure(tmp_path, edit) == [
        "content/posts/own-bibliography/index.md:4: bibliography "
        "content/posts/own-bibliography/missing.bib not found (paths are relative to the post)",
        "content/posts/scaled-attention/index.md:12: unknown citation key @knuht1984",
    ]


def test_bad_citation_style(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site", SCHOLAR)
    config = site / "site.yaml"
    config.write_text(config.read_text().replace("numeric", "harvard"))
    with pytest.raises(Exception, match=r"site.yaml:5: citation_style must be"):
        load_config(site)


# --- in the browser ------------------------------------------------------------------------

LAYOUT = """() => {
  const out = [];
  for (const eq of document.querySelectorAll('.math-display:has(mtd[id])')) {
    const row = eq.getBoundingClientRect();
    const cells = eq.querySelectorAll('mtr > mtd');
    const math = cells[1].getBoundingClientRect();
    const num = cells[cells.length - 1].querySelector('mtext').getBoundingClientRect();
    out.push({rowRight: row.right, numRight: num.right, mathMid: math.top + math.height / 2,
              numMid: num.top + num.height / 2, numLeft: num.left, mathRight: math.right,
              mathHeight: math.height, boxLeft: row.left,
              overflow: eq.scrollWidth > eq.clientWidth + 1, scrollWidth: eq.scrollWidth});
  }
  const body = document.querySelector('.post-body').getBoundingClientRect();
  return {eqs: out, bodyRight: body.right,
          scroll: document.documentElement.scrollWidth - document.documentElement.clientWidth};
}"""


@pytest.mark.browser
@pytest.mark.parametrize("width", [375, 1280])
def test_equation_numbers_line_up(scholar: Path, width: int) -> None:
    out = ARTIFACTS / "scholar"
    out.mkdir(parents=True, exist_ok=True)
    with (
        serve_directory(scholar.parent / "public", prefix="/scholar/") as base,
        chromium(viewport={"width": width, "height": 900}) as context,
    ):
        tab = context.new_page()
        tab.goto(base + POST.removesuffix("index.html"))
        tab.evaluate("document.fonts.ready.then(() => true)")
        layout = tab.evaluate(LAYOUT)
        tab.locator("#eq-softmax").scroll_into_view_if_needed()
        tab.screenshot(path=str(out / f"equations-{width}.png"))
    assert layout["scroll"] == 0, "the page must not scroll sideways"
    assert len(layout["eqs"]) == 3
    assert [eq["overflow"] for eq in layout["eqs"]] == [False, width < 400, False]
    for eq in layout["eqs"]:
        if eq["overflow"]:  # wider than a phone: the box scrolls, the number at its far end
            assert abs(eq["numRight"] - (eq["boxLeft"] + eq["scrollWidth"])) < 1
            continue
        assert abs(eq["numRight"] - eq["rowRight"]) < 1
        assert abs(eq["numRight"] - layout["bodyRight"]) < 1
        # On the formula's baseline, as LaTeX sets it: level with its middle, give or take
        # a fraction's depth.
        assert abs(eq["numMid"] - eq["mathMid"]) < 0.25 * eq["mathHeight"]
        assert eq["numLeft"] >= eq["mathRight"] - 1 or width < 400


@pytest.mark.browser
@pytest.mark.parametrize("width", [375, 1280])
def test_citation_shows_reference_on_keyboard_focus(scholar: Path, width: int) -> None:
    out = ARTIFACTS / "scholar"
    out.mkdir(parents=True, exist_ok=True)
    with (
        serve_directory(scholar.parent / "public", prefix="/scholar/") as base,
        chromium(viewport={"width": width, "height": 800}) as context,
    ):
        tab = context.new_page()
        tab.goto(base + POST.removesuffix("index.html"))
        tip = tab.locator("#cite-1")
        assert not tip.is_visible()
        # Tab through the page until the first citation link has focus.
        for _ in range(60):
            tab.keyboard.press("Tab")
            if tab.evaluate("document.activeElement.getAttribute('aria-describedby')") == "cite-1":
                break
        else:
            pytest.fail("the citation link is not reachable with the keyboard")
        assert tip.is_visible()
        assert "Attention is all you need" in tip.inner_text()
        box = tip.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
        scroll = tab.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert scroll == 0
        tab.screenshot(path=str(out / f"citation-focus-{width}.png"))
        described = tab.evaluate(
            "document.getElementById(document.activeElement.getAttribute('aria-describedby'))"
            ".textContent"
        )
        assert described.startswith("Vaswani, A.")
        tab.keyboard.press("Tab")
        assert not tip.is_visible()
        tab.locator('a[aria-describedby="cite-2"]').hover()
        assert tab.locator("#cite-2").is_visible()


@pytest.mark.browser
def test_inline_citations_do_not_take_the_cite_box_rule(scholar: Path) -> None:
    """``class="cite"`` names both an inline citation and the "Cite this post" section;
    only the section has the rule and spacing above it."""
    with (
        serve_directory(scholar.parent / "public", prefix="/scholar/") as base,
        chromium(viewport={"width": 1280, "height": 800}) as context,
    ):
        tab = context.new_page()
        tab.goto(base + POST.removesuffix("index.html"))
        style = "(e) => getComputedStyle(e).borderTopStyle"
        assert tab.locator("span.cite").first.evaluate(style) == "none"
        assert tab.locator("section.cite").evaluate(style) == "solid"


def test_apa_titles_keep_the_capital_after_a_colon() -> None:
    from site_builder.bibliography import _sentence_case

    title = "{RoFormer}: Enhanced Transformer with Rotary Position Embedding"
    assert _sentence_case(title) == "RoFormer: Enhanced transformer with rotary position embedding"
    assert _sentence_case("A {Note: Kept} Ratio of 3:1 Here") == "A Note: Kept ratio of 3:1 here"


def test_math_in_a_title_is_set_as_math_and_keeps_its_case() -> None:
    """A .bib title's ``$...$`` is MathML in the References, untouched by the case change."""
    from site_builder.bibliography import parse

    bib = r"""@article{a, author = {Ann Lee}, year = {2020}, journal = {J},
      title = {Learning $\Lambda$-Returns in $O(\sqrt{T})$ Steps}}"""
    entry = parse(bib, "refs.bib")["a"]
    assert "Learning \\Lambda-returns in O(\\sqrt{T}) steps." in entry.text
    assert "$" not in entry.html
    assert (
        '<mi mathvariant="normal">Λ</mi>' in entry.html
        and "<msqrt><mi>T</mi></msqrt>" in entry.html
    )


def test_the_feed_carries_the_references(scholar: Path) -> None:
    """The feed's entry is the whole post: its References list too, not only the page's."""
    import feedparser

    feed = feedparser.parse((scholar / "feed.xml").read_text(encoding="utf-8"))
    (entry,) = [e for e in feed.entries if "scaled-attention" in e.link]
    content = entry.content[0].value
    assert '<h2 id="references">References</h2>' in content
    assert "Attention is all you need" in content or "attention is all you need" in content.lower()
