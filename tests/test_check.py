"""``site-builder check``: a whole site passes; each breakage is named with page and link."""

from __future__ import annotations

from pathlib import Path

import pytest

from site_builder.check import PageParser, check_site
from site_builder.cli import main
from site_builder.config import load_config
from tests.conftest import ROOT, SITES, build_site, make_site


@pytest.fixture
def site(tmp_path: Path) -> Path:
    return make_site(tmp_path / "site", SITES / "blog")


def run_check(site: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str]:
    status = main(["-C", str(site), "check", "-q", *extra])
    captured = capsys.readouterr()
    return status, captured.out + captured.err


def test_good_site_passes(site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, output = run_check(site, capsys)
    assert status == 0, output
    assert "no problems" in output and "Checked " in output


def test_good_site_passes_under_a_base_path(site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, output = run_check(site, capsys, "--base-url", "https://user.github.io/repo/")
    assert status == 0, output


def test_this_repository_passes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site(tmp_path / "repo", ROOT)
    status, output = run_check(site, capsys)
    assert status == 0, output


def test_broken_link_and_anchor_fail_naming_page_and_link(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    post = site / "content/posts/old-notes.md"
    post.write_text(
        post.read_text()
        + "\nSee [nothing](../no-such-post/), [a bad anchor](../hello-world/#nowhere)"
        + " and [a local one](#missing).\n"
    )
    status, output = run_check(site, capsys)
    assert status == 1
    lines = output.splitlines()
    # Reported where the author fixes them: the post's Markdown, then the page's line.
    line = len(post.read_text().splitlines())
    source = f"content/posts/old-notes.md:{line}: "
    assert any(
        entry.startswith(source + "broken link '../no-such-post/'")
        and "(in posts/old-notes/index.html:" in entry
        for entry in lines
    ), output
    assert any(
        entry.startswith(source + "broken anchor '../hello-world/#nowhere'")
        and "posts/hello-world/index.html" in entry
        for entry in lines
    ), output
    assert any(entry.startswith(source) and "'#missing'" in entry for entry in lines), output
    assert "3 problem(s)" in output


def test_a_misspelt_post_link_gets_the_closest_slug(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    post = site / "content/posts/old-notes.md"
    post.write_text(post.read_text() + "\nSee [hello](../helo-world/).\n")
    status, output = run_check(site, capsys)
    assert status == 1
    assert "no such file in the output (did you mean '../hello-world/'?)" in output


def test_missing_asset_and_link_outside_base_path(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site", SITES / "blog")
    public = build_site(site, base_url="https://user.github.io/repo/")
    page = public / "posts/hello-world/index.html"
    html = page.read_text().replace(
        "</main>", '<img src="gone.png" alt=""><a href="/posts/old-notes/">root</a></main>'
    )
    page.write_text(html)
    (public / "static/css/site.css").unlink()
    config = load_config(site)
    from site_builder.config import with_overrides

    report = check_site(
        public, with_overrides(config, base_url="https://user.github.io/repo/", drafts=False)
    )
    messages = [str(p) for p in report.problems]
    assert any("missing asset 'gone.png'" in m for m in messages), messages
    assert any(
        "broken link '/posts/old-notes/': outside the site (/repo/)" in m for m in messages
    ), messages
    # Assets are relative to the page (site_builder/urls.py), so the same file under any base.
    assert any("missing asset '../../static/css/site.css'" in m for m in messages), messages


def test_malformed_feed_and_sitemap(site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    public = build_site(site)
    (public / "feed.xml").write_text("<feed><entry></feed>")
    (public / "sitemap.xml").write_text(
        "<urlset xmlns='http://www.sitemaps.org/schemas/sitemap/0.9'>"
        "<url><loc>https://example.org/nope/</loc></url></urlset>"
    )
    status, output = run_check(site, capsys, "--no-build")
    assert status == 1
    assert "feed.xml:1: not well-formed XML" in output
    assert "sitemap.xml: broken link 'https://example.org/nope/'" in output


@pytest.mark.parametrize(
    ("html", "message"),
    [
        ("<div><span></div>", "<span> is not closed before </div>"),
        ("<p>text</span></p>", "stray </span> closes nothing"),
        ("<section><p>open", "<section> is never closed"),
        ('<h2 id="a"></h2><h3 id="a"></h3>', "duplicate id 'a' (also on line 1)"),
    ],
)
def test_html_that_does_not_balance(html: str, message: str) -> None:
    parser = PageParser()
    parser.feed(html)
    parser.close()
    assert [m for _, m in parser.errors] == [message]


def test_optional_end_tags_and_foreign_self_closing_are_fine() -> None:
    parser = PageParser()
    parser.feed(
        "<ul><li>one<li>two</ul><p>para<table><tr><td>x</table>"
        "<math><mspace width='1em'/></math><br><img src=x>"
    )
    parser.close()
    assert parser.errors == []
