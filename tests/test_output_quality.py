"""The built output: valid HTML (W3C Nu checker), safe escaping, byte-identical rebuilds."""

from __future__ import annotations

import html
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from tests.conftest import SITES, Sites, build_site, make_site, tree_digest

KITCHEN = SITES / "kitchen"


@pytest.fixture(scope="module")
def kitchen(sites: Sites) -> Path:
    return sites.built(KITCHEN)


def test_hostile_text_is_escaped(kitchen: Path) -> None:
    everything = "posts/everything/index.html"
    for page in kitchen.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        assert "<script>alert" not in html, page
        assert "<b>tags</b>" not in html, page
    html = (kitchen / everything).read_text(encoding="utf-8")
    assert "Everything &lt;script&gt;alert(&#34;title&#34;)&lt;/script&gt; &amp; more" in html
    assert 'href="javascript:' not in html
    assert "<kbd>raw</kbd>" in html  # raw HTML passes through by default


def test_raw_html_can_be_turned_off(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site", KITCHEN)
    config_file = site / "site.yaml"
    config_file.write_text(config_file.read_text() + "raw_html: false\n", encoding="utf-8")
    build_site(site)
    html = (site / "public/posts/everything/index.html").read_text(encoding="utf-8")
    assert "&lt;kbd&gt;raw&lt;/kbd&gt;" in html


def test_bundle_files_are_copied(kitchen: Path) -> None:
    assert (kitchen / "posts/bundle/pixel.png").is_file()
    assert (kitchen / "posts/bundle/data.txt").read_text() == "some data\n"
    html = (kitchen / "posts/bundle/index.html").read_text(encoding="utf-8")
    # The post's first image, near the top: sized from the file, and not lazy (it is in view).
    expected = '<img src="pixel.png" alt="A one-pixel image" width="1" height="1" decoding="async"'
    assert expected in html


def test_math_in_a_title_is_mathml_where_html_goes_and_text_elsewhere(kitchen: Path) -> None:
    """``$\\Lambda$-returns and $\\sqrt{d_k}$`` in a title (``titles``)."""
    page = (kitchen / "posts/bundle/index.html").read_text(encoding="utf-8")
    heading = re.search(r'<h1 class="post-title">(.*?)</h1>', page, re.DOTALL)
    assert heading is not None
    assert heading.group(1).startswith("A post with its own files, <math ")
    assert heading.group(1).count("<math ") == 2 and "$" not in heading.group(1)
    assert "<msqrt><msub><mi>d</mi><mi>k</mi></msub></msqrt>" in heading.group(1)
    text = "A post with its own files, \u039b-returns and \\sqrt{d_k}"
    assert f"<title>{text} · " in page
    assert f'<meta property="og:title" content="{text}">' in page
    assert "static/css/fonts.css" in page  # the math font, for the title alone
    assert f"2026, February 1). {text}. Kitchen" in html.unescape(page)  # APA: text
    assert "title  = {A post with its own files, $\\Lambda$-returns and $\\sqrt{d_k}$}" in page
    listing = (kitchen / "index.html").read_text(encoding="utf-8")
    assert 'A post with its own files, <math xmlns="http://www.w3.org/1998/Math/MathML">' in listing
    assert "static/css/fonts.css" in listing
    older = (kitchen / "posts/everything/index.html").read_text(encoding="utf-8")
    link = r'rel="(?:prev|next)"[^>]*><span class="label">\w+</span> A post with its own files, <m'
    assert re.search(link, older)
    feed = (kitchen / "feed.xml").read_text(encoding="utf-8")
    assert f'<title type="text">{text}</title>' in feed
    font = TTFont(io.BytesIO((kitchen / "static/fonts/math.woff2").read_bytes()))
    assert {ord("\u039b"), ord("\u221a")} <= set(font.getBestCmap()), "the title's in the subset"


def test_math_in_a_description_is_mathml_in_the_dek_and_text_in_metadata(kitchen: Path) -> None:
    """``description: Why $\\sqrt{d_k}$ & not $d$.``: the dek showed the dollars and TeX
    (Quarto and Jekyll themes typeset it), and the metadata held them."""
    page = (kitchen / "posts/bundle/index.html").read_text(encoding="utf-8")
    dek = re.search(r'<p class="post-dek">(.*?)</p>', page, re.DOTALL)
    assert dek is not None and dek.group(1).startswith("Why <math ") and "$" not in dek.group(1)
    assert "&amp; not <math" in dek.group(1)
    assert '<meta name="description" content="Why \\sqrt{d_k} &amp; not d.">' in page
    listing = (kitchen / "index.html").read_text(encoding="utf-8")
    item = re.search(r'<p class="post-item-dek">Why <math .*?</p>', listing, re.DOTALL)
    assert item is not None and "$" not in item.group(0)


def _build_in_subprocess(site: Path, out: Path, env_overrides: dict[str, str]) -> None:
    env = {**os.environ, **env_overrides}
    subprocess.run(
        [
            sys.executable,
            "-m",
            "site_builder",
            "-C",
            str(site),
            "build",
            "--quiet",
            "--out",
            str(out),
        ],
        check=True,
        env=env,
    )


def test_builds_are_byte_identical_across_environments(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site", KITCHEN)
    _build_in_subprocess(
        site, tmp_path / "a", {"TZ": "Pacific/Auckland", "LC_ALL": "C.UTF-8", "PYTHONHASHSEED": "1"}
    )
    _build_in_subprocess(
        site,
        tmp_path / "b",
        {"TZ": "America/Los_Angeles", "LC_ALL": "POSIX", "PYTHONHASHSEED": "4242"},
    )
    assert tree_digest(tmp_path / "a") == tree_digest(tmp_path / "b")


def test_a_titles_font_commands_are_their_text_where_only_text_fits() -> None:
    """``Oblivious Transfer ($\\textsf{OT}$)``: the tab, the feed and the metadata showed
    ``\\textsf{OT}``; a font command's argument is its text there."""
    from site_builder.titles import title_text

    assert title_text("Transfer ($\\textsf{OT}$) and $\\mathsf{MPC}$") == "Transfer (OT) and MPC"
    assert title_text("A $\\boldsymbol{x}$ and $\\mathtt{y}$") == "A x and y"
