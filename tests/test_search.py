"""The search index in shards (site_builder/search.py): an edit re-indexes one shard, the
shards give the same bytes however the site got there, and the search page merges them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pagefind_bin
import pytest

from site_builder import search
from site_builder.build import build
from site_builder.cli import main
from site_builder.config import load_config, with_overrides
from site_builder.errors import BuildError
from site_builder.indexer import Indexer
from tests.browser import chromium, load_quietly, require_chromium, serve_directory
from tests.test_errors import make_site, tree_digest

POSTS = 24
SMALL_SHARD = 4  # so that a site of a couple of dozen posts has several shards


def entries(count: int, stamp: str = "1") -> list[search.Entry]:
    return [search.Entry(f"posts/p{n:05d}/", stamp) for n in range(count)]


def test_a_site_under_a_shard_is_one_index_beside_the_script() -> None:
    shards = search.plan_shards(entries(search.MIN_SHARD), "en")
    assert [(s.dir, len(s.paths)) for s in shards] == [("pagefind/", search.MIN_SHARD)]
    assert search.listing(shards) == ("pagefind/shards.json", b'[""]')


def test_an_edit_changes_one_shard_and_an_added_post_one_or_two() -> None:
    before = search.plan_shards(entries(5000), "en")
    assert len(before) > 5
    assert all(search.MIN_SHARD <= len(s.paths) <= 8 * search.MIN_SHARD for s in before[:-1])
    edited = entries(5000)
    edited[2345] = search.Entry(edited[2345].path, "2")
    after = search.plan_shards(edited, "en")
    assert len({s.key for s in after} - {s.key for s in before}) == 1
    added = [*entries(5000), search.Entry("posts/p02345a/", "1")]
    assert len({s.key for s in search.plan_shards(added, "en")} - {s.key for s in before}) <= 2


def write_posts(site: Path, count: int) -> None:
    posts = site / "content" / "posts"
    for n in range(count):
        (posts / f"p{n:02d}.md").write_text(
            f"---\ntitle: Post {n}\ndate: 2026-01-{1 + n % 28:02d}\n---\n\n"
            f"Word{n}unique and a formula $\\sqrt{{d_{n}}}$ shared by every post.\n",
            encoding="utf-8",
        )


@pytest.fixture
def sharded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(search, "MIN_SHARD", SMALL_SHARD)
    monkeypatch.setattr(search, "_MAX_SHARD", 8 * SMALL_SHARD)
    site = make_site(tmp_path / "site")
    config = site / "site.yaml"
    config.write_text(config.read_text() + "search: true\n", encoding="utf-8")
    write_posts(site, POSTS)
    return site


def test_an_edit_reindexes_its_shard_and_gives_a_cold_builds_bytes(
    sharded: Path, tmp_path: Path
) -> None:
    out = sharded / "public"
    build(load_config(sharded), out)
    folders = json.loads((out / "pagefind/shards.json").read_text(encoding="utf-8"))
    assert len(folders) > 2 and folders[0] == ""
    before = tree_digest(out / "pagefind")
    post = sharded / "content" / "posts" / f"p{POSTS - 1}.md"  # in the last shard
    post.write_text(post.read_text() + "\nA new word: zygomorphic.\n", encoding="utf-8")
    build(load_config(sharded), out)
    after = tree_digest(out / "pagefind")
    assert json.loads((out / "pagefind/shards.json").read_text(encoding="utf-8")) == folders
    changed = {r.split("/")[0] + "/" for r, _ in set(before.items()) ^ set(after.items())}
    assert changed == {folders[-1]}  # the last shard's folder, and only it
    # The same posts built from nothing give the same bytes, on two Pagefind processes (one
    # a core) as on one.
    for jobs in (2, 1):
        cold = tmp_path / f"cold-{jobs}"
        build(load_config(sharded), cold, use_cache=False, jobs=jobs)
        assert tree_digest(cold / "pagefind") == after


def test_a_site_without_posts_has_an_empty_index(tmp_path: Path) -> None:
    site = make_site(tmp_path)
    config = site / "site.yaml"
    config.write_text(config.read_text() + "search: true\n", encoding="utf-8")
    (site / "content" / "posts" / "good.md").unlink()
    build(load_config(site), site / "public")
    assert (site / "public/pagefind/shards.json").read_text(encoding="utf-8") == "[]"


def test_pagefind_gives_an_index_of_the_pages_in_the_order_sent() -> None:
    """Pagefind numbers pages as they come: the same pages in the same order, the same bytes
    (its command line numbered them in the file system's order)."""
    pages = [
        (f"/posts/p{n}/", f"<html><body><h1>Post {n}</h1><p>w{n} x</p></body></html>")
        for n in range(3)
    ]
    indexer = search.start_indexer("en")
    try:
        first, again = indexer.index(pages), indexer.index(pages)
        reversed_ = indexer.index(pages[::-1])
    finally:
        indexer.close()
    assert first == again
    assert any(rel.startswith("fragment/") for rel in first)
    assert first != reversed_


def test_a_pagefind_that_fails_stops_the_build_with_a_search_error(
    sharded: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["-C", str(sharded), "build", "--quiet"]) == 0
    before = tree_digest(sharded / "public")
    broken = sharded / "broken-pagefind"
    broken.write_text("#!/bin/sh\necho 'out of cheese' >&2\nexit 3\n", encoding="utf-8")
    broken.chmod(0o755)
    monkeypatch.setattr(pagefind_bin, "get_executable", lambda: broken)
    post = sharded / "content" / "posts" / "p03.md"
    post.write_text(post.read_text() + "\nAn edit.\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["-C", str(sharded), "build"]) == 1
    err = capsys.readouterr().err
    assert "search: pagefind stopped out of cheese" in err and "Traceback" not in err
    assert tree_digest(sharded / "public") == before


def test_an_error_pagefind_reports_is_a_search_error() -> None:
    indexer = Indexer("en", ["[[["])  # a selector Pagefind cannot parse
    with pytest.raises(BuildError, match=r"^search: pagefind failed: .*MissingAttributeName"):
        indexer.index([("/a/", "<html><body><p>a word</p></body></html>")])
    indexer.close()


@pytest.fixture
def served(sharded: Path) -> Iterator[str]:
    require_chromium()
    out = sharded / "public"
    config = with_overrides(load_config(sharded), base_url="http://127.0.0.1/blog/", drafts=False)
    build(config, out)
    with serve_directory(out, prefix="/blog/") as url:
        yield url


@pytest.mark.browser
def test_the_search_page_merges_the_shards_under_a_base_path(served: str) -> None:
    with chromium(viewport={"width": 1280, "height": 900}) as context:
        page = context.new_page()
        failed: list[str] = []
        page.on("requestfailed", lambda r: failed.append(r.url))
        page.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
        load_quietly(page, served + "search/")
        for n in (0, POSTS // 2, POSTS - 1):  # the first shard, one in the middle, the last
            page.fill("#search-input", f"word{n}unique")
            page.wait_for_function(
                "href => document.querySelector('.search-result-title')?.getAttribute('href')"
                " === href",
                arg=f"/blog/posts/p{n:02d}/",
            )
            assert page.inner_text("#search-status") == "1 post matches."
        page.fill("#search-input", "shared")
        page.wait_for_function(
            f"document.getElementById('search-status').textContent === '{POSTS} posts match.'"
        )
        assert not failed
