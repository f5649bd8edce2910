"""Image figures, callouts, theorems and the table of contents on a whole site (issue 15).

``tests/sites/figures/`` is built with this repository's theme, validated and
checked in the HTML; then Chromium loads it with the images held back, to
show that nothing moves when they arrive (layout shift 0), that the table of
contents links work and mark the section being read, and that it is there
without JavaScript. Screenshots go to ``test-artifacts/figures-*.png``.
"""

from __future__ import annotations

import os
import re
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from site_builder.errors import BuildError, BuildErrors
from tests.browser import (
    ARTIFACTS,
    chromium,
    load,
    load_quietly,
    require_chromium,
    serve_directory,
)
from tests.conftest import SITES, Sites, build_site, make_site

FIGURES = SITES / "figures"
POST = "posts/figures/"


@pytest.fixture(scope="module")
def public(sites: Sites) -> Path:
    return sites.built(FIGURES)


def page(public: Path) -> str:
    return (public / POST / "index.html").read_text(encoding="utf-8")


# --------------------------------------------------------------------------- the HTML


def test_figures_are_numbered_sized_and_referenced(public: Path) -> None:
    html = page(public)
    images = re.findall(r"<img [^>]*>", html)
    assert len(images) == 4
    first, loss, before, after = images
    # The first image is near the top: sized, and not lazy (it is in view at load).
    assert 'width="480" height="480" style="width:60%"' in first and "loading" not in first
    assert 'alt="Attention weights of a causal head: row i attends to keys j \\le i,' in first
    assert 'src="loss.svg"' in loss and 'width="600" height="300" loading="lazy"' in loss
    assert 'width="320" height="240" loading="lazy"' in before and "loading=" in after
    assert '<figure id="fig-attention" class="figure image-figure">' in html
    labels = re.findall(r'<span class="figure-label">Figure (\d)</span>', html)
    assert labels == ["1", "2", "3"]
    assert re.findall(r'<span class="subfigure-label">\((\w)\)</span>', html) == ["a", "b"]
    assert '<a class="figure-ref" href="#fig-before">Figure 3a</a>' in html
    assert '<a class="figure-ref" href="#fig-panels">Figure 3</a>' in html


def test_callouts_and_theorems(public: Path) -> None:
    html = page(public)
    kinds = re.findall(r'class="callout callout-(\w+)" role="note" aria-label="([^"]+)"', html)
    assert kinds == [
        ("note", "Note"),
        ("warning", "Numerical stability"),
        ("tip", "Reading the panels"),
        ("important", "Important"),
        ("caution", "Caution"),
    ]
    assert 'id="reading-the-panels"' not in html  # a callout's title is not a section
    assert "<strong>Definition 1</strong> (Smoothness)." in html
    assert "<strong>Lemma 1</strong> (Descent lemma)." in html
    assert "<strong>Theorem 1</strong> (Gradient descent)." in html
    assert '<a class="lemma-ref" href="#lem-smooth">Lemma 1</a>' in html
    assert html.count('aria-label="End of proof">∎</span>') == 2


def test_table_of_contents(public: Path) -> None:
    html = page(public)
    toc = re.search(r'<nav class="toc".*?</nav>', html, re.DOTALL)
    assert toc is not None
    links = re.findall(r'<a href="#([\w-]+)">([^<]+)</a>', toc.group(0))
    assert links == [
        ("training", "Training"),
        ("before-and-after", "Before and after"),
        ("theory", "Theory"),
        ("further-reading", "Further reading"),
    ]
    assert toc.group(0).count("<ol") == 2  # "Before and after" nests under "Training"
    assert "static/js/toc.js" in html
    # Pages without a table of contents do not load its script.
    assert "toc.js" not in (public / "index.html").read_text(encoding="utf-8")


def test_toc_settings_and_cache(tmp_path: Path) -> None:
    """``toc-depth`` and ``toc: false`` in the front matter win over site.yaml; both are in the
    page's cache key, so an edit to either shows on the next (incremental) build."""
    site = make_site(tmp_path / "site", FIGURES)
    post = site / "content/posts/figures/index.md"
    out = site / "public"
    build_site(site, out=out)
    assert "Before and after</a>" in page(out)
    post.write_text(post.read_text().replace("toc: true", "toc: true\ntoc-depth: 2"))
    build_site(site, out=out)
    assert '<nav class="toc"' in page(out) and "Before and after</a>" not in page(out)
    post.write_text(post.read_text().replace("toc: true", "toc: false"))
    build_site(site, out=out)
    assert '<nav class="toc"' not in page(out)


def test_replaced_image_renders_again(tmp_path: Path) -> None:
    """The page holds the image's size: a different file under the same name re-renders it."""
    site = make_site(tmp_path / "site", FIGURES)
    out = site / "public"
    build_site(site, out=out)
    assert 'src="before.png" alt="Before training" width="320" height="240"' in page(out)
    folder = site / "content/posts/figures"
    shutil.copy(folder / "attention.png", folder / "before.png")
    later = time.time_ns() + 10**9  # a new mtime even on coarse file systems
    os.utime(folder / "before.png", ns=(later, later))
    build_site(site, out=out)
    assert 'src="before.png" alt="Before training" width="480" height="480"' in page(out)


@pytest.mark.parametrize(
    ("front", "message"),
    [
        ("toc: yes please", "content/posts/figures/index.md:6: 'toc' must be true or false"),
        ("toc-depth: 9", "content/posts/figures/index.md:6: 'toc-depth' must be a heading level"),
    ],
)
def test_bad_toc_front_matter(tmp_path: Path, front: str, message: str) -> None:
    site = make_site(tmp_path / "site", FIGURES)
    post = site / "content/posts/figures/index.md"
    post.write_text(post.read_text().replace("toc: true", front))
    with pytest.raises((BuildErrors, BuildError)) as caught:
        build_site(site)
    errors = caught.value.errors if isinstance(caught.value, BuildErrors) else [caught.value]
    assert any(str(e).startswith(message) for e in errors), errors


def test_missing_image_is_an_error_at_its_line(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site", FIGURES)
    (site / "content/posts/figures/loss.svg").unlink()
    with pytest.raises(BuildErrors) as caught:
        build_site(site)
    assert [str(e) for e in caught.value.errors] == [
        "content/posts/figures/index.md:26: image 'loss.svg' not found in figures/"
    ]


# --------------------------------------------------------------------------- in Chromium


@pytest.fixture(scope="module")
def base_url(public: Path) -> Iterator[str]:
    require_chromium()
    with serve_directory(public) as url:
        yield url


IMAGES = re.compile(r".*\.(png|svg)$")


@pytest.fixture(scope="module")
def slow_images_url(public: Path) -> Iterator[str]:
    """The same site, its images held back 400 ms each by the server."""
    require_chromium()
    with serve_directory(public, delay=lambda path: 0.4 if IMAGES.match(path) else 0) as url:
        yield url


# The layout shifts since the first image arrived, and what moved (for the failure
# message). A shift before then is not the images' doing: under load, a web font can
# still be decoding at the first paint (even from the cache), and its swap moves the text.
_CLS = """() => new Promise(resolve => {
    const images = performance.getEntriesByType('resource')
        .filter(entry => entry.initiatorType === 'img');
    const firstImage = Math.min(...images.map(entry => entry.responseEnd));
    let total = 0;
    const moved = [];
    new PerformanceObserver(list => {
        for (const entry of list.getEntries()) {
            if (entry.hadRecentInput || entry.startTime < firstImage) continue;
            total += entry.value;
            for (const source of entry.sources || []) {
                const node = source.node;
                const name = node && node.nodeType === 1
                    ? node.tagName.toLowerCase() + (node.id ? '#' + node.id : '')
                      + (node.className ? '.' + node.className : '')
                    : String(node && node.nodeName);
                moved.push(`${name} at ${Math.round(entry.startTime)} ms: `
                           + `${JSON.stringify(source.previousRect)} -> `
                           + `${JSON.stringify(source.currentRect)}`);
            }
        }
    }).observe({type: 'layout-shift', buffered: true});
    setTimeout(() => resolve({total, moved, images: images.length}), 300);
})"""


@pytest.mark.browser
@pytest.mark.parametrize("width", [375, 1280, 1600])
def test_images_do_not_shift_the_layout(slow_images_url: str, width: int) -> None:
    """Each image is held back 400 ms and the page scrolled through while they arrive: the
    boxes were reserved from the first paint, so the cumulative layout shift from the
    first image's arrival on stays 0.

    A first visit without the images puts the fonts and stylesheets in the browser's
    cache, as for a reader's second page, and shifts before the first image arrives are
    not counted (``_CLS``): on a busy machine a font's swap could shift the text, which is
    not what this measures (Lighthouse's CLS, in ``test_lighthouse``, counts that case on
    a throttled phone)."""
    with chromium(viewport={"width": width, "height": 800}) as context:
        page_ = context.new_page()
        page_.route(IMAGES, lambda route: route.abort())
        page_.goto(slow_images_url + POST, wait_until="load")
        page_.evaluate("document.fonts.ready.then(() => true)")
        page_.unroute(IMAGES)
        page_.goto(slow_images_url + POST, wait_until="domcontentloaded")
        before = page_.evaluate("document.querySelector('#fig-loss').getBoundingClientRect().top")
        for y in range(0, 6000, 400):
            page_.evaluate(f"window.scrollTo(0, {y})")
            page_.wait_for_timeout(60)
        page_.wait_for_function("[...document.images].every(image => image.complete)")
        page_.evaluate("window.scrollTo(0, 0)")
        after = page_.evaluate("document.querySelector('#fig-loss').getBoundingClientRect().top")
        assert after == before
        shifts = page_.evaluate(_CLS)
        assert shifts["images"] == 4
        assert shifts["total"] == 0, shifts["moved"]
        loaded = page_.eval_on_selector_all(
            "img", "imgs => imgs.map(i => i.complete && i.naturalWidth > 0)"
        )
        assert all(loaded)


@pytest.mark.browser
def test_toc_links_work_and_mark_the_current_section(base_url: str) -> None:
    with chromium(viewport={"width": 1600, "height": 900}) as context:
        page_ = context.new_page()
        load(page_, base_url + POST)
        toc = page_.locator("nav.toc")
        assert toc.get_attribute("aria-labelledby") == "toc-title"
        current = "nav.toc a[aria-current='location']"
        assert page_.locator(current).count() == 0  # nothing read yet at the top
        page_.locator("nav.toc a", has_text="Theory").click()
        page_.wait_for_function("location.hash === '#theory'")
        page_.wait_for_function(f"document.querySelector(\"{current}\")?.textContent === 'Theory'")
        heading = page_.locator("#theory").bounding_box()
        assert heading is not None and 0 <= heading["y"] < 100
        # Sticky: beside the column and in view wherever the reader is.
        box = toc.bounding_box()
        column = page_.locator(".post-body").bounding_box()
        assert box is not None and column is not None
        assert box["x"] + box["width"] <= column["x"] and 0 <= box["y"] < 900
        ARTIFACTS.mkdir(exist_ok=True)
        page_.screenshot(path=str(ARTIFACTS / "figures-toc-1600.png"))
        page_.locator("nav.toc a", has_text="Before and after").focus()
        page_.keyboard.press("Enter")
        page_.wait_for_function(
            f"document.querySelector(\"{current}\")?.textContent === 'Before and after'"
        )
        page_.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        page_.wait_for_function(
            f"document.querySelector(\"{current}\")?.textContent === 'Further reading'"
        )


@pytest.mark.browser
@pytest.mark.parametrize("width", [375, 1280])
def test_toc_is_above_the_post_on_narrower_screens_and_needs_no_javascript(
    base_url: str, width: int
) -> None:
    with chromium(viewport={"width": width, "height": 800}, java_script_enabled=False) as context:
        page_ = context.new_page()
        load_quietly(page_, base_url + POST)
        toc = page_.locator("nav.toc").bounding_box()
        body = page_.locator(".post-body").bounding_box()
        assert toc is not None and body is not None
        assert toc["y"] + toc["height"] <= body["y"]  # above the text, in the flow
        overflow = page_.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0
        page_.locator("nav.toc a", has_text="Theory").click()
        page_.wait_for_function("location.hash === '#theory'")
        ARTIFACTS.mkdir(exist_ok=True)
        page_.screenshot(path=str(ARTIFACTS / f"figures-nojs-{width}.png"))


@pytest.mark.browser
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_screenshots(base_url: str, scheme: str) -> None:
    for width in (375, 1280):
        options = {"viewport": {"width": width, "height": 900}, "color_scheme": scheme}
        with chromium(**options) as context:
            page_ = context.new_page()
            load(page_, base_url + POST)
            ARTIFACTS.mkdir(exist_ok=True)
            shot = ARTIFACTS / f"figures-{scheme}-{width}.png"
            page_.screenshot(path=str(shot), full_page=True)
