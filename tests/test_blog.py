"""The blog around the posts: listings, feed, sitemap, metadata, drafts, base URL, `new`.

Built from ``tests/sites/blog`` (three published posts, a draft and one dated
in 2999) with this repository's templates and static files.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import feedparser
import pytest

from site_builder.build import build
from site_builder.cli import main
from site_builder.config import load_config
from tests.browser import chromium, load_quietly, serve_directory
from tests.conftest import ROOT, SITES, Sites, build_site, make_site
from tests.crawl import crawl

BLOG = SITES / "blog"
NOW = datetime(2026, 1, 1, tzinfo=UTC)
ATOM = "{http://www.w3.org/2005/Atom}"
SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
PUBLISHED = ["math-and-notes", "hello-world", "old-notes"]  # newest first


def build_blog(site: Path, *, base_url: str | None = None, drafts: bool = False) -> Path:
    return build_site(site, base_url=base_url, drafts=drafts, now=NOW)


@pytest.fixture(scope="module")
def public(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_blog(make_site(tmp_path_factory.mktemp("blog") / "site", BLOG))


def html_pages(public: Path) -> list[Path]:
    return sorted(public.rglob("*.html"))


def test_pages_exist(public: Path) -> None:
    for rel in [
        "index.html",
        "404.html",
        ".nojekyll",
        "tags/index.html",
        "tags/python/index.html",
        "tags/meta/index.html",
        "archive/index.html",
        "feed.xml",
        "sitemap.xml",
        "robots.txt",
        *(f"posts/{slug}/index.html" for slug in PUBLISHED),
    ]:
        assert (public / rel).is_file(), rel


def test_index_lists_posts_newest_first(public: Path) -> None:
    index = (public / "index.html").read_text()
    positions = [index.index(f'href="/posts/{slug}/"') for slug in PUBLISHED]
    assert positions == sorted(positions)
    assert "The first post of the test blog." in index and "min read" in index


def test_tag_pages_and_archive(public: Path) -> None:
    python = (public / "tags/python/index.html").read_text()
    assert all(f'href="/posts/{slug}/"' in python for slug in PUBLISHED)
    meta = (public / "tags/meta/index.html").read_text()
    assert 'href="/posts/hello-world/"' in meta and "old-notes" not in meta
    overview = (public / "tags/index.html").read_text()
    assert 'href="/tags/python/"' in overview and 'href="/tags/math/"' in overview
    archive = (public / "archive/index.html").read_text()
    assert archive.index('id="year-2025"') < archive.index('id="year-2024"')
    assert (
        archive.index("hello-world") < archive.index('id="year-2024"') < archive.index("old-notes")
    )


def test_drafts_and_future_posts_left_out(public: Path) -> None:
    every_file = "".join(p.read_text() for p in public.rglob("*") if p.suffix in (".html", ".xml"))
    assert "DRAFT-MARKER" not in every_file and "FUTURE-MARKER" not in every_file
    assert not (public / "posts/draft-idea").exists()
    assert not (public / "posts/from-the-future").exists()
    assert not (public / "tags/later").exists()


def test_drafts_flag_includes_them(tmp_path: Path) -> None:
    public = build_blog(make_site(tmp_path / "site", BLOG), drafts=True)
    assert "DRAFT-MARKER" in (public / "posts/draft-idea/index.html").read_text()
    assert "FUTURE-MARKER" in (public / "posts/from-the-future/index.html").read_text()
    assert (public / "tags/later/index.html").is_file()


def test_future_post_appears_once_due(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site", BLOG)
    build_site(site, now=datetime(2999, 1, 2, tzinfo=UTC))
    assert (site / "public/posts/from-the-future/index.html").is_file()


def test_source_date_epoch_pins_the_reference_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = make_site(tmp_path / "site", BLOG)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(int(datetime(2025, 5, 1, tzinfo=UTC).timestamp())))
    build_site(site)
    assert (site / "public/posts/hello-world/index.html").is_file()
    assert not (site / "public/posts/math-and-notes").exists()  # dated 2025-06-01
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "yesterday")
    assert main(["-C", str(site), "build", "-q"]) == 1


def test_builds_are_byte_identical_whatever_the_clock(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site", BLOG)
    config = load_config(site)
    build(config, tmp_path / "a", now=NOW)
    build(config, tmp_path / "b", now=datetime(2998, 12, 31, tzinfo=UTC))
    files_a = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*"))
    files_b = sorted(p.relative_to(tmp_path / "b") for p in (tmp_path / "b").rglob("*"))
    assert files_a == files_b
    for rel in files_a:
        if (tmp_path / "a" / rel).is_file():
            assert (tmp_path / "a" / rel).read_bytes() == (tmp_path / "b" / rel).read_bytes(), rel


def test_feed_parses_cleanly_with_full_content(public: Path) -> None:
    feed = feedparser.parse((public / "feed.xml").read_bytes())
    assert not feed.bozo, feed.get("bozo_exception")
    assert feed.version == "atom10"
    assert feed.feed.title == "Test Blog"
    assert feed.feed.link == "https://example.org/"
    assert feed.feed.updated == "2025-06-01T08:00:00+01:00"
    assert feed.feed.author == "Ada Lovelace"
    assert [e.id for e in feed.entries] == [
        f"https://example.org/posts/{slug}/" for slug in PUBLISHED
    ]
    first = feed.entries[0]
    assert first.title == 'Less < more & "quotes"'
    assert first.link == "https://example.org/posts/math-and-notes/"
    html = first.content[0].value
    assert "<math" in html and "<mfrac>" in html  # MathML survives the escaping
    # relative links in the content resolve against the post (xml:base)
    assert 'href="https://example.org/posts/hello-world/#a-heading"' in html
    assert {t.term for t in first.tags} == {"math", "python"}
    hello = feed.entries[1]
    assert hello.published == "2025-03-10T00:00:00+00:00"
    assert hello.updated == "2025-04-01T09:30:00+01:00"


def test_feed_has_valid_atom_structure(public: Path) -> None:
    root = ET.parse(public / "feed.xml").getroot()
    assert root.tag == f"{ATOM}feed"
    for name in ("id", "title", "updated", "author"):
        assert root.find(f"{ATOM}{name}") is not None, name
    self_link = root.find(f"{ATOM}link[@rel='self']")
    assert self_link is not None and self_link.get("href") == "https://example.org/feed.xml"
    stamp = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:\d{2})$")
    entries = root.findall(f"{ATOM}entry")
    assert len(entries) == 3
    for entry in entries:
        for name in ("id", "title", "updated", "published", "content"):
            element = entry.find(f"{ATOM}{name}")
            assert element is not None and (element.text or "").strip(), name
        assert stamp.match(entry.findtext(f"{ATOM}updated") or "")
        assert entry.find(f"{ATOM}content").get("type") == "html"  # type: ignore[union-attr]
        assert entry.find(f"{ATOM}link[@rel='alternate']") is not None


def test_sitemap_and_robots(public: Path) -> None:
    root = ET.parse(public / "sitemap.xml").getroot()
    assert root.tag == f"{SITEMAP}urlset"
    urls = {u.findtext(f"{SITEMAP}loc"): u.findtext(f"{SITEMAP}lastmod") for u in root}
    assert urls["https://example.org/posts/hello-world/"] == "2025-04-01T09:30:00+01:00"
    for url in urls:
        rel = url.removeprefix("https://example.org/")
        assert (public / rel / "index.html").is_file(), url
    assert "https://example.org/404.html" not in urls
    robots = (public / "robots.txt").read_text()
    assert "Sitemap: https://example.org/sitemap.xml" in robots.splitlines()


def _meta(html: str, key: str) -> str | None:
    match = re.search(rf'<meta (?:name|property)="{re.escape(key)}" content="([^"]*)">', html)
    return match.group(1) if match else None


def test_every_page_has_social_metadata(public: Path) -> None:
    for page in html_pages(public):
        html = page.read_text()
        rel = page.relative_to(public).as_posix()
        assert re.search(r"<title>[^<]+</title>", html), rel
        assert _meta(html, "description"), rel
        assert '<link rel="canonical" href="https://example.org/' in html, rel
        assert 'rel="alternate" type="application/atom+xml"' in html, rel
        for key in ("og:title", "og:description", "og:url", "og:site_name", "og:type"):
            assert _meta(html, key), (rel, key)
        assert _meta(html, "twitter:card") == "summary", rel
        is_post = rel.startswith("posts/")
        assert _meta(html, "og:type") == ("article" if is_post else "website"), rel
        assert (_meta(html, "article:published_time") is not None) == is_post, rel
        assert ("application/ld+json" in html) == is_post, rel


def test_json_ld_is_a_safely_escaped_blog_posting(public: Path) -> None:
    html = (public / "posts/math-and-notes/index.html").read_text()
    script = re.search(r'<script type="application/ld\+json">(.*?)</script>', html, re.S)
    assert script
    raw = script.group(1)
    assert "<" not in raw and ">" not in raw and "&" not in raw
    data = json.loads(raw)
    assert data["@type"] == "BlogPosting"
    assert data["headline"] == 'Less < more & "quotes"'
    assert data["author"] == {"@type": "Person", "name": "Ada Lovelace"}
    assert data["datePublished"] == "2025-06-01T08:00:00+01:00"
    assert data["dateModified"] == data["datePublished"]
    assert data["url"] == "https://example.org/posts/math-and-notes/"
    assert data["description"].startswith("Math, notes & a bundle <file>")


def test_base_path_is_followed_everywhere(tmp_path: Path) -> None:
    public = build_blog(make_site(tmp_path / "site", BLOG), base_url="https://user.github.io/repo")
    for page in [*html_pages(public), public / "feed.xml", public / "sitemap.xml"]:
        text = page.read_text()
        for ref in re.findall(r'(?:href|src|content)="(/[^"]*)"', text):
            assert ref.startswith("/repo/"), (page, ref)
        for ref in re.findall(r"https://user\.github\.io[^\"<\s]*", text):
            assert ref.startswith("https://user.github.io/repo/"), (page, ref)
    assert "Sitemap: https://user.github.io/repo/sitemap.xml" in (public / "robots.txt").read_text()


def test_crawl_under_a_path_prefix_finds_no_broken_links(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site", BLOG)
    with serve_directory(site / "public", prefix="/blog/") as base:
        build_blog(site, base_url=base)
        result = crawl([base, base + "feed.xml", base + "sitemap.xml", base + "404.html"])
    assert not result.broken, "\n".join(result.broken)
    fetched = set(result.fetched)
    for slug in PUBLISHED:
        assert f"{base}posts/{slug}/" in fetched
    assert f"{base}posts/math-and-notes/diagram.svg" in fetched
    assert f"{base}static/css/site.css" in fetched
    assert f"{base}tags/python/" in fetched and f"{base}archive/" in fetched


def test_crawl_of_this_repository_site_under_a_path_prefix(sites: Sites) -> None:
    base = sites.served(ROOT, "/blog/")
    result = crawl([base, base + "404.html"])
    assert not result.broken, "\n".join(result.broken)
    assert result.pages > 5


def test_new_creates_a_post_that_builds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site(tmp_path / "site", BLOG)
    assert main(["-C", str(site), "new", 'My "first": title & more']) == 0
    path = site / "content/posts/my-first-title-more.md"
    assert "Created content/posts/my-first-title-more.md" in capsys.readouterr().out
    text = path.read_text()
    assert text.startswith('---\ntitle: "My \\"first\\": title & more"\ndate: ')
    assert 'description: ""\ntags: []\ndraft: true  # ' in text
    # A draft: the next push must not publish "Write here.", but a preview shows it.
    assert main(["-C", str(site), "build", "-q"]) == 0
    assert not (site / "public/posts/my-first-title-more").exists()
    assert main(["-C", str(site), "build", "-q", "--drafts"]) == 0
    page = (site / "public/posts/my-first-title-more/index.html").read_text()
    assert "My &#34;first&#34;: title &amp; more" in page


def test_new_bundle_makes_the_folder_form(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = make_site(tmp_path / "site", BLOG)
    assert main(["-C", str(site), "new", "--bundle", "With pictures"]) == 0
    out = capsys.readouterr().out
    assert "Created content/posts/with-pictures/index.md (a draft)" in out
    assert "serve --drafts" in out
    post = site / "content/posts/with-pictures"
    assert "draft: true" in (post / "index.md").read_text()
    (post / "index.md").write_text(
        (post / "index.md").read_text().replace("Write here.", "![A dot](dot.svg)")
    )
    (post / "dot.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"/>')
    assert main(["-C", str(site), "build", "-q", "--drafts"]) == 0
    assert (site / "public/posts/with-pictures/dot.svg").is_file()
    assert main(["-C", str(site), "new", "With pictures"]) == 1  # either form blocks the slug
    assert "content/posts/with-pictures/index.md: already exists" in capsys.readouterr().err


def test_new_uses_today_in_the_site_time_zone(tmp_path: Path) -> None:
    from site_builder.new import new_post

    site = make_site(tmp_path / "site", BLOG)  # timezone: Europe/London (UTC+1 in summer)
    late = datetime(2025, 7, 1, 23, 30, tzinfo=UTC)
    path = new_post(load_config(site), "Late night", now=late)
    assert "date: 2025-07-02\n" in path.read_text()


def test_new_refuses_to_overwrite(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site(tmp_path / "site", BLOG)
    before = (site / "content/posts/old-notes.md").read_text()
    assert main(["-C", str(site), "new", "Old notes"]) == 1
    err = capsys.readouterr().err
    assert "content/posts/old-notes.md: already exists" in err and "Traceback" not in err
    assert (site / "content/posts/old-notes.md").read_text() == before
    assert main(["-C", str(site), "new", "Math and notes"]) == 1  # a bundle with that slug
    assert "content/posts/math-and-notes/index.md: already exists" in capsys.readouterr().err


def _workflow() -> dict[str, Any]:
    import yaml

    data: dict[str, Any] = yaml.safe_load((ROOT / ".github/workflows/pages.yml").read_text())
    return data


def test_pages_workflow_uses_the_official_actions() -> None:
    workflow = _workflow()
    assert workflow["permissions"] == {"contents": "read", "pages": "write", "id-token": "write"}
    assert workflow["concurrency"] == {"group": "pages", "cancel-in-progress": False}
    build_steps = workflow["jobs"]["build"]["steps"]
    uses = [step.get("uses") for step in build_steps if "uses" in step]
    assert uses == [
        "actions/checkout@v7",  # every one a major that runs on Node 24
        "actions/setup-python@v7",
        "actions/configure-pages@v6",
        "actions/upload-pages-artifact@v5",
    ]
    assert build_steps[1]["with"]["python-version"] == "3.11"
    assert build_steps[-1]["with"] == {"path": "public", "include-hidden-files": True}
    assert any("make build BASE_URL=" in step.get("run", "") for step in build_steps)
    deploy = workflow["jobs"]["deploy"]
    assert deploy["needs"] == "build" and deploy["environment"]["name"] == "github-pages"
    assert deploy["steps"][0]["uses"] == "actions/deploy-pages@v5"


@pytest.mark.parametrize(
    ("owner", "repo", "override", "expected"),
    [
        ("Ojus1", "ojus1.github.io", "", "https://ojus1.github.io/"),
        ("Ojus1", "blog", "", "https://ojus1.github.io/blog/"),
        ("ojus1", "blog", "https://example.com/", "https://example.com/"),
    ],
)
def test_pages_workflow_base_url(
    tmp_path: Path, owner: str, repo: str, override: str, expected: str
) -> None:
    import os
    import subprocess

    step = next(s for s in _workflow()["jobs"]["build"]["steps"] if s.get("id") == "base")
    output = tmp_path / "output"
    env = {**os.environ, "OWNER": owner, "REPO": repo, "OVERRIDE": override}
    env["GITHUB_OUTPUT"] = str(output)
    subprocess.run(["bash", "-euo", "pipefail", "-c", step["run"]], env=env, check=True)
    assert output.read_text() == f"url={expected}\n"


@pytest.mark.browser
def test_every_request_a_browser_makes_under_a_path_prefix_succeeds(sites: Sites) -> None:
    """What the static crawl cannot see: fonts from CSS, data the figure script fetches."""
    base = sites.served(ROOT, "/blog/")
    failures: list[str] = []
    pages = [url for url in crawl([base]).fetched if url.endswith("/")]
    with chromium() as context:
        page = context.new_page()
        page.on(
            "response",
            lambda r: failures.append(f"{r.status} {r.url}") if r.status >= 400 else None,
        )
        page.on("requestfailed", lambda r: failures.append(f"failed {r.url}"))
        for url in pages:
            load_quietly(page, url)
    assert len(pages) > 3
    assert not failures, failures
