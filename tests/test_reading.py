"""The reading experience in a browser (issue 16): wide code, one heading scale, the UI face,
listings, tap targets, citation tooltips on touch, heading anchors, booktabs tables, print
and search. Each test measures the built page in Debian's Chromium."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.browser import (
    ARTIFACTS,
    chromium,
    load,
    load_quietly,
    require_chromium,
)
from tests.conftest import ROOT, SITES, Sites

pytestmark = pytest.mark.browser

POST = "posts/attention-from-the-softmax-up/"
SCHOLAR = SITES / "scholar"
SHOTS = ARTIFACTS / "reading"


@pytest.fixture(scope="module")
def site(sites: Sites) -> str:
    """This repository's site, built and served under /blog/ (a project site's base path)."""
    require_chromium()
    return sites.served(ROOT, "/blog/")


@pytest.fixture(scope="module")
def scholar(sites: Sites, site: str) -> str:
    return sites.served(SCHOLAR)


def open_page(context: Any, url: str) -> Any:
    page = context.new_page()
    load(page, url)
    return page


# --------------------------------------------------------------------------- code


def test_code_takes_the_margin_column_and_fits_79_characters(site: str) -> None:
    with chromium(viewport={"width": 1280, "height": 900}) as context:
        page = open_page(context, site + POST)
        text = page.locator(".post-body > p").first.bounding_box()
        code = page.locator("figure.code-block").first.bounding_box()
        assert code["width"] > text["width"] + 200, (code, text)
        line = "x" * 79
        fits = page.evaluate(
            """line => {
                const pre = document.querySelector('figure.code-block pre');
                const code = pre.querySelector('code');
                code.textContent = line;
                return [pre.scrollWidth, pre.clientWidth];
            }""",
            line,
        )
        assert fits[0] <= fits[1], f"a 79-character line scrolls: {fits}"


def test_scroll_cue_is_visible_on_phones(site: str) -> None:
    with chromium(viewport={"width": 375, "height": 800}) as context:
        page = open_page(context, site + POST)
        pre = page.locator("figure.code-block pre").first
        assert pre.evaluate("el => el.scrollWidth > el.clientWidth")
        shadow = page.evaluate(
            "getComputedStyle(document.documentElement).getPropertyValue('--scroll-shadow')"
        )
        alpha = float(re.findall(r"[\d.]+", shadow)[-1])
        assert alpha >= 0.3, shadow


# --------------------------------------------------------------------------- headings and type


HEADINGS_JS = """() => [...document.querySelectorAll('.post h2, .post h3, .post h4')].map(h => {
    const s = getComputedStyle(h);
    return {text: h.textContent.trim(), tag: h.tagName, size: parseFloat(s.fontSize),
            family: s.fontFamily, weight: s.fontWeight, style: s.fontStyle};
})"""


def test_one_heading_scale_including_the_back_matter(scholar: str) -> None:
    with chromium(viewport={"width": 1280, "height": 900}) as context:
        page = open_page(context, scholar + "posts/scaled-attention/")
        page.evaluate(
            """() => {  // an h3 and an h4 to compare with, whatever the post has
                const body = document.querySelector('.post-body');
                for (const tag of ['h3', 'h4']) {
                    const h = document.createElement(tag); h.textContent = tag; body.append(h);
                }
            }"""
        )
        headings = page.evaluate(HEADINGS_JS)
        body = float(page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)"))
    h2 = [h for h in headings if h["tag"] == "H2"]
    back = {h["text"]: h for h in h2 if h["text"] in ("Notes", "References", "Cite this post")}
    assert set(back) >= {"References", "Cite this post"}, back
    styles = {(h["size"], h["family"], h["weight"], h["style"]) for h in h2}
    assert len(styles) == 1, h2  # the back matter looks like any other h2
    h3 = next(h for h in headings if h["tag"] == "H3")
    h4 = next(h for h in headings if h["tag"] == "H4")
    assert h2[0]["size"] > h3["size"] > h4["size"] >= body
    assert int(h3["weight"]) <= int(h2[0]["weight"]) and int(h4["weight"]) <= int(h3["weight"])


def test_small_type_uses_the_text_face(site: str) -> None:
    selectors = [
        ".site-nav a",
        ".post-meta",
        ".footnote-ref",
        ".sidenote-number",
        "thead th",
        ".figure-label",
        ".temp-widget",
        ".cite-head",
    ]
    with chromium(viewport={"width": 1280, "height": 900}) as context:
        page = open_page(context, site + POST)
        families = {
            sel: page.evaluate(f"getComputedStyle(document.querySelector('{sel}')).fontFamily")
            for sel in selectors
        }
    for sel, family in families.items():
        assert family.startswith('"TeX Gyre Pagella"'), (sel, family)
        assert "system-ui" not in family, (sel, family)


# --------------------------------------------------------------------------- listings


def test_listings_have_no_empty_margin_and_no_repeated_title(site: str) -> None:
    with chromium(viewport={"width": 1280, "height": 900}) as context:
        page = open_page(context, site)
        box = page.locator(".post-list").bounding_box()
        left, right = box["x"], 1280 - box["x"] - box["width"]
        assert abs(left - right) < 2, (left, right)  # centred
        h1 = page.locator("h1")
        assert h1.count() == 1
        assert h1.evaluate("el => el.getBoundingClientRect().width") <= 1  # screen readers only
        title = page.locator(".site-title").inner_text()
        shown = page.evaluate(
            """title => [...document.querySelectorAll('.listing *')].filter(el =>
                el.textContent.trim() === title && el.getBoundingClientRect().width > 1).length""",
            title,
        )
        assert shown == 0


def test_archive_titles_never_wrap_under_the_date(site: str) -> None:
    with chromium(viewport={"width": 375, "height": 800}) as context:
        page = open_page(context, site + "archive/")
        page.evaluate(
            """() => {  // a long title, as real archives have
                const a = document.querySelector('.archive-list a');
                a.textContent = 'A very long title that has to wrap onto a second line here';
            }"""
        )
        lefts = page.evaluate(
            """() => {  // one rectangle per line of the title's text
                const range = document.createRange();
                range.selectNodeContents(document.querySelector('.archive-list a'));
                return [...range.getClientRects()].map(r => Math.round(r.left));
            }"""
        )
    assert len(lefts) >= 2 and len(set(lefts)) == 1, lefts


# --------------------------------------------------------------------------- phones


TARGETS_JS = """selectors => selectors.flatMap(sel => [...document.querySelectorAll(sel)]
    .filter(el => el.getClientRects().length)
    .map(el => {
        const box = el.getBoundingClientRect();
        return {sel, text: el.textContent.trim().slice(0, 20), width: box.width,
                height: box.height};
    }))"""


@pytest.mark.parametrize(
    ("which", "path", "selectors"),
    [
        ("site", POST, [".site-nav a", ".post-meta a", ".footnote-ref a", ".footnote-backref"]),
        ("site", "tags/", [".tag-list a"]),
        ("site", "archive/", [".archive-list a"]),
        ("scholar", "posts/scaled-attention/", ["span.cite > a"]),
    ],
)
def test_tap_targets_are_at_least_24px_on_a_phone(
    request: pytest.FixtureRequest, which: str, path: str, selectors: list[str]
) -> None:
    base: str = request.getfixturevalue(which)
    with chromium(viewport={"width": 375, "height": 800}, has_touch=True) as context:
        page = open_page(context, base + path)
        targets = page.evaluate(TARGETS_JS, selectors)
    assert {t["sel"] for t in targets} == set(selectors), targets
    small = [t for t in targets if t["width"] < 24 or t["height"] < 24]
    assert not small, small


def test_a_tapped_citation_shows_its_reference_not_a_tooltip(scholar: str) -> None:
    options = {"viewport": {"width": 375, "height": 800}, "has_touch": True, "is_mobile": True}
    with chromium(**options) as context:
        page = open_page(context, scholar + "posts/scaled-attention/")
        link = page.locator("span.cite > a").first
        link.scroll_into_view_if_needed()
        link.tap()
        page.wait_for_timeout(300)
        target = page.evaluate("location.hash")
        assert target.startswith("#ref-")
        assert not page.locator(".cite-tip").first.is_visible()
        ref = page.locator(target).bounding_box()
        assert ref is not None and -1 <= ref["y"] < 800
    # A keyboard still gets the tooltip, below the citation or as a panel.
    with chromium(viewport={"width": 375, "height": 800}) as context:
        page = open_page(context, scholar + "posts/scaled-attention/")
        page.locator("span.cite > a").first.focus()
        assert page.locator(".cite-tip").first.is_visible()


# --------------------------------------------------------------------------- anchors, tables


def test_heading_anchors_show_on_hover_and_focus_only(site: str) -> None:
    with chromium(viewport={"width": 1280, "height": 900}) as context:
        page = open_page(context, site + POST)
        anchor = page.locator(".heading-anchor").first
        opacity = "el => getComputedStyle(el).opacity"
        assert anchor.evaluate(opacity) == "0"
        page.locator(".post-body h2").first.hover()
        assert anchor.evaluate(opacity) == "1"
        page.mouse.move(0, 0)
        assert anchor.evaluate(opacity) == "0"
        anchor.focus()  # from script, as from the keyboard: :focus-visible
        assert anchor.evaluate(opacity) == "1"


def test_tables_are_booktabs(site: str) -> None:
    with chromium(viewport={"width": 1280, "height": 900}) as context:
        page = open_page(context, site + POST)
        rules = page.evaluate(
            """() => {
                const t = document.querySelector('.post-body table');
                const w = (el, side) => parseFloat(getComputedStyle(el)['border' + side + 'Width']);
                return {top: w(t, 'Top'), bottom: w(t, 'Bottom'),
                        head: w(t.querySelector('thead th'), 'Bottom'),
                        rows: [...t.querySelectorAll('tbody td')].map(td => w(td, 'Bottom'))};
            }"""
        )
    assert rules["top"] >= 1.5 and rules["bottom"] >= 1.5, rules
    assert 0 < rules["head"] < rules["top"], rules
    assert set(rules["rows"]) == {0}, rules


# --------------------------------------------------------------------------- print


def _pdf_pages(page: Any, path: Path, fmt: str) -> list[str]:
    page.pdf(path=str(path), format=fmt)
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not installed")
    text = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True, text=True
    ).stdout
    return text.split("\f")


@pytest.mark.parametrize("fmt", ["A4", "Letter"])
def test_print(site: str, fmt: str, tmp_path: Path) -> None:
    with chromium() as context:
        page = open_page(context, site + POST)
        page.evaluate(
            """() => document.querySelector('.post-body > p').insertAdjacentHTML(
                'beforeend', ' <a href="https://example.org/paper">a paper</a>')"""
        )
        page.emulate_media(media="print")
        style = page.evaluate(
            """() => {
                const fill = getComputedStyle(document.querySelector('.temp-fill'));
                const p = document.querySelector('.post-body > p');
                return {bar: parseFloat(fill.borderTopWidth), colour: fill.borderTopColor,
                        measure: p.getBoundingClientRect().width,
                        size: parseFloat(getComputedStyle(p).fontSize)};
            }"""
        )
        headings = page.evaluate(
            "[...document.querySelectorAll('.post h2, .post h3')].map(h => h.textContent.trim())"
        )
        SHOTS.mkdir(parents=True, exist_ok=True)
        pages = _pdf_pages(page, SHOTS / f"post-{fmt}.pdf", fmt)
    # Bars are borders (printed even without "background graphics").
    assert style["bar"] >= 8 and style["colour"] not in ("rgb(255, 255, 255)", "rgba(0, 0, 0, 0)")
    # A measure: at most ~75 characters of 11 pt (0.5 em average).
    assert style["measure"] / (style["size"] * 0.5) <= 75, style
    text = "\n".join(pages)
    assert "↩" not in text and "min read" not in text
    assert "a paper <https://example.org/paper>" in text  # an external link's URL
    for number, body in enumerate(pages, 1):
        lines = [line.strip() for line in body.splitlines() if line.strip()]
        if lines:
            last = re.sub(r"\s+#$", "", lines[-1])
            assert last not in headings, f"page {number} ends with the heading {last!r}"
    cite = [body for body in pages if "Cite this post" in body]
    # The box's last line, the BibTeX entry's url field, is on the page its heading is on.
    assert len(cite) == 1 and re.search(r"\burl\s*=", cite[0]), "the cite box split across pages"


# --------------------------------------------------------------------------- search


def test_search_finds_the_post_under_a_base_path(site: str) -> None:
    with chromium(viewport={"width": 1280, "height": 900}) as context:
        post = context.new_page()
        requests: list[str] = []
        post.on("request", lambda r: requests.append(r.url))
        load_quietly(post, site + POST)
        assert not [u for u in requests if "/pagefind/" in u], "the post loaded the index"
        post.keyboard.press("/")
        post.wait_for_url(site + "search/")
        box = post.locator("#search-input")
        assert box.evaluate("el => el === document.activeElement")
        box.fill("temperature")
        first = post.locator(".search-result-title").first
        first.wait_for()
        assert first.get_attribute("href") == "/blog/" + POST
        assert first.inner_text() == "Attention, from the softmax up"
        assert post.locator(".search-result .post-meta").first.inner_text() == "29 November 2026"
        assert "<mark>" in post.locator(".search-excerpt").first.inner_html()
        assert all(u.startswith(site) for u in requests)
        # Math is indexed by its LaTeX.
        box.fill("operatorname")
        post.locator(".search-excerpt mark", has_text="operatorname").first.wait_for()
        post.screenshot(path=str(SHOTS / "search-1280.png"))
