"""Kinds of content beyond the dated post (``site_builder/kinds.py``): pages from
``content/pages/``, the home page's text from ``content/index.md``, the header's menu, and
collisions between a page and another source. The site is ``tests/sites/pages/``."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from xml.etree import ElementTree

import pytest

from site_builder.build import build
from site_builder.config import load_config
from site_builder.errors import BuildError, BuildErrors
from tests.conftest import SITES, build_site, make_site

PAGES = SITES / "pages"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_site(make_site(tmp_path_factory.mktemp("pages") / "site", PAGES))


def _nav(html: str) -> list[tuple[str, str, bool]]:
    """(text, href, current) of each header link."""
    nav = html.split('<nav class="site-nav"', 1)[1].split("</nav>", 1)[0]
    return [
        (text, href, "aria-current" in attrs)
        for href, attrs, text in re.findall(r'<a href="([^"]*)"([^>]*)>([^<]*)</a>', nav)
    ]


def test_pages_are_written_with_their_own_template(built: Path) -> None:
    about = (built / "about" / "index.html").read_text()
    assert '<h1 class="post-title">About</h1>' in about
    assert "<math" in about and "math-display" in about  # inline and display math
    assert 'class="sidenote"' in about and 'class="footnotes-list"' in about
    assert 'class="marginnote"' in about or "aside" in about
    assert "Cite this post" not in about and "<time" not in about  # undated: no byline
    assert '"BlogPosting"' not in about
    assert (built / "research" / "old-work" / "index.html").is_file()  # nested folders
    projects = (built / "projects" / "index.html").read_text()
    assert 'src="diagram.png"' in projects and 'width="1"' in projects
    assert (built / "projects" / "diagram.png").is_file()  # a bundle's own file


def test_pages_are_in_the_sitemap_but_not_listed_or_in_the_feed(built: Path) -> None:
    sitemap = (built / "sitemap.xml").read_text()
    for path in ("about/", "projects/", "research/old-work/"):
        assert f"<loc>https://example.org/{path}</loc>" in sitemap
    ElementTree.fromstring((built / "feed.xml").read_bytes())
    feed = (built / "feed.xml").read_text()
    assert "About" not in feed and "Old work" not in feed
    for listing in ("index.html", "archive/index.html", "tags/notes/index.html"):
        html = (built / listing).read_text()
        assert "Old work" not in html and 'href="/research/' not in html


def test_the_home_text_is_above_the_recent_posts(built: Path) -> None:
    home = (built / "index.html").read_text()
    text, posts = home.index("I write about <strong>attention</strong>"), home.index("A first post")
    assert text < posts
    assert "<math" in home and "static/css/fonts.css" in home  # its formula loads the font
    assert 'class="sidenote"' in home
    assert 'content="Ada&#39;s notes on machine learning, and who she is."' in home


def test_the_default_menu_lists_pages_by_order_and_marks_the_current_one(built: Path) -> None:
    about = _nav((built / "about" / "index.html").read_text())
    assert [text for text, _, _ in about] == [
        "Posts", "About", "Projects", "Tags", "Archive", "Feed",
    ]  # fmt: skip
    assert [text for text, _, current in about if current] == ["About"]
    home = _nav((built / "index.html").read_text())
    assert [text for text, _, current in home if current] == ["Posts"]
    post = _nav((built / "posts" / "first" / "index.html").read_text())
    assert not any(current for _, _, current in post)
    assert ("About", "../../about/", False) in post or ("About", "/about/", False) in post


def test_site_yaml_menu_replaces_the_default(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site", PAGES)
    with (site / "site.yaml").open("a") as config:
        config.write(
            "menu:\n  - {title: Home, url: /}\n  - {title: Old work, url: research/old-work/}\n"
            "  - {title: Code, url: 'https://github.com/ada'}\n"
        )
    out = build_site(site)
    nav = _nav((out / "research" / "old-work" / "index.html").read_text())
    assert [(text, current) for text, _, current in nav] == [
        ("Home", False), ("Old work", True), ("Code", False),
    ]  # fmt: skip
    assert nav[2][1] == "https://github.com/ada"


@pytest.mark.parametrize(
    ("menu", "message"),
    [
        ("menu: About", "'menu' must be a list"),
        ("menu:\n  - {title: About}", "menu entry 1 must have exactly 'title' and 'url'"),
    ],
)
def test_a_bad_menu_is_an_error_at_its_line(tmp_path: Path, menu: str, message: str) -> None:
    site = make_site(tmp_path / "site", PAGES)
    text = (site / "site.yaml").read_text()
    (site / "site.yaml").write_text(text + menu + "\n")
    with pytest.raises(BuildError) as caught:
        load_config(site)
    assert caught.value.location.line == len(text.splitlines()) + 1
    assert message in str(caught.value)


def test_a_page_and_a_post_claiming_one_path_stop_the_build_naming_both(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site", PAGES)
    (site / "content" / "pages" / "posts").mkdir()
    shutil.copy(site / "content" / "pages" / "about.md", site / "content/pages/posts/first.md")
    with pytest.raises(BuildErrors) as caught:
        build(load_config(site), site / "public")
    message = str(caught.value.errors[0])
    assert "posts/first/index.html would be written twice" in message
    assert "content/pages/posts/first.md" in message and "content/posts/first.md" in message
    assert not (site / "public").exists()


def test_two_pages_for_one_folder_and_a_page_over_a_listing(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site", PAGES)
    pages = site / "content" / "pages"
    (pages / "about").mkdir()
    (pages / "about" / "index.md").write_text("---\ntitle: About again\n---\nText.\n")
    (pages / "archive.md").write_text("---\ntitle: My archive\n---\nText.\n")
    with pytest.raises(BuildErrors) as caught:
        build(load_config(site), site / "public")
    messages = sorted(str(error) for error in caught.value.errors)
    assert any(
        "about/index.html would be written twice" in m
        and "content/pages/about.md" in m
        and "content/pages/about/index.md" in m
        for m in messages
    ), messages
    assert any("archive/index.html would be written twice" in m for m in messages), messages


def test_a_page_needs_a_title_not_a_date(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site", PAGES)
    (site / "content/pages/untitled.md").write_text("---\ndescription: x\n---\nText.\n")
    with pytest.raises(BuildErrors) as caught:
        build(load_config(site), site / "public")
    assert str(caught.value.errors[0]) == (
        "content/pages/untitled.md:1: front matter is missing 'title'"
    )


def test_menu_keys_on_a_post_are_a_warning(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site", PAGES)
    post = site / "content/posts/first.md"
    post.write_text(post.read_text().replace("tags:", "menu: true\ntags:"))
    result = build(load_config(site), site / "public")
    assert any(
        "'menu' is for pages (content/pages/), not a post" in str(w) for w in result.warnings
    )


def test_a_link_back_up_the_pages_tree_is_not_followed_forever(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site", PAGES)
    (site / "content/pages/research/loop").symlink_to("..", target_is_directory=True)
    build(load_config(site), site / "public")  # no RecursionError
    assert (site / "public/research/old-work/index.html").is_file()
