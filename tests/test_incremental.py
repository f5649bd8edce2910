"""Incremental and parallel builds must produce exactly the bytes of a clean serial build.

Each scenario changes the input the way an author would, rebuilds the same
output directory with the cache, then compares it file by file with a clean
``--no-cache --jobs 1`` build of the same input into a fresh directory.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from datetime import UTC
from pathlib import Path
from typing import Any

import pytest

from bench.corpus import make_corpus, post
from site_builder import pages
from site_builder.build import build
from site_builder.config import load_config
from site_builder.errors import BuildError, BuildErrors
from site_builder.writer import STAGING_PREFIX, recover
from tests.conftest import ROOT, SITES, make_site, tree_digest

SCHOLAR = SITES / "scholar"


def clean_build(site: Path, dest: Path) -> dict[str, str]:
    shutil.rmtree(dest, ignore_errors=True)
    build(load_config(site), dest, jobs=1, use_cache=False)
    return tree_digest(dest)


def rebuild(site: Path, jobs: int = 1) -> int:
    """Incremental build into site/public; returns how many posts were rendered."""
    return build(load_config(site), site / "public", jobs=jobs).rendered


@pytest.fixture
def site(tmp_path: Path) -> Path:
    site = make_corpus(tmp_path / "site", 24)
    rebuild(site)
    return site


def assert_matches_clean(site: Path, tmp_path: Path) -> None:
    assert tree_digest(site / "public") == clean_build(site, tmp_path / "clean")


def test_parallel_equals_serial(tmp_path: Path) -> None:
    site = make_corpus(tmp_path / "site", 40)
    build(load_config(site), tmp_path / "parallel", jobs=2, use_cache=False)
    assert tree_digest(tmp_path / "parallel") == clean_build(site, tmp_path / "serial")


def test_a_small_sites_cold_build_with_its_helper_equals_serial(tmp_path: Path) -> None:
    """A small site's cold build forks one helper for its widgets and the math font
    (``Session._start_helper``): run in a process of its own (no threads, so it forks),
    this repository's site (the seed's widget, formulas) gives a clean serial build's
    bytes, and a widget that reports its process ran in the helper, not in the build's."""
    site = make_site(tmp_path / "site", ROOT)
    command = [sys.executable, "-m", "site_builder", "-C", str(site), "build", "--jobs", "2"]
    subprocess.run([*command, "--quiet", "--no-cache"], check=True)
    assert tree_digest(site / "public") == clean_build(site, tmp_path / "serial")

    widget = site / "widgets/which-process"
    widget.mkdir()
    (widget / "widget.py").write_text("import os\n\ndef data(params):\n    return os.getpid()\n")
    (widget / "widget.js").write_text("export default function (figure, data) {}\n")
    (widget / "fallback.html").write_text("<p>{{ data }}</p>\n")
    figure = '::: {#fig-pid widget="which-process"}\nWhich process ran it.\n:::\n'
    front = "---\ntitle: Pid\ndate: 2026-01-02\n---\n\n"
    (site / "content/posts/pid.md").write_text(front + figure)
    shutil.rmtree(site / "public")
    build_process = subprocess.Popen([*command, "--quiet", "--no-cache"])
    assert build_process.wait() == 0
    ran_in = json.loads((site / "public/posts/pid/which-process.json").read_bytes())
    assert isinstance(ran_in, int) and ran_in != build_process.pid


def test_a_cold_build_with_early_workers_equals_serial(tmp_path: Path) -> None:
    """A cold build of many posts forks its workers before loading (``Workers.starts_early``),
    after parsing the site's .bib for them: run in a process of its own (no threads, so the
    workers fork), with posts that cite, it must give a clean serial build's bytes."""
    site = make_corpus(tmp_path / "site", 20)
    shutil.copy(SCHOLAR / "content/references.bib", site / "content/references.bib")
    for number in (2, 11, 17):
        victim = site / f"content/posts/post-{number:05d}.md"
        victim.write_text(victim.read_text() + "\nAs shown by @vaswani2017attention.\n")
    command = [sys.executable, "-m", "site_builder", "-C", str(site), "build", "--jobs", "2"]
    subprocess.run([*command, "--quiet", "--no-cache"], check=True)
    assert tree_digest(site / "public") == clean_build(site, tmp_path / "serial")
    assert "Vaswani" in (site / "public/posts/post-00011/index.html").read_text()


def test_a_cold_build_reports_every_bad_file_its_workers_read(tmp_path: Path) -> None:
    """The workers of a cold build parse the source files (``Workers.read``): a file that
    fails there is reported at its line, with every other one, and nothing is written."""
    site = make_corpus(tmp_path / "site", 20)
    for number, (field, broken) in {4: ("title", "[unclosed"), 13: ("date", "2026-02-30")}.items():
        victim = site / f"content/posts/post-{number:05d}.md"
        text = victim.read_text()
        start = text.index(f"\n{field}: ") + 1
        end = text.index("\n", start)
        victim.write_text(f"{text[:start]}{field}: {broken}{text[end:]}")
    command = [sys.executable, "-m", "site_builder", "-C", str(site), "build", "--jobs", "2"]
    done = subprocess.run(command, capture_output=True, text=True)
    assert done.returncode == 1, done.stderr
    assert "content/posts/post-00004.md:2: invalid YAML" in done.stderr
    assert "content/posts/post-00013.md:3: " in done.stderr
    assert "Traceback" not in done.stderr
    assert not (site / "public").exists()


def test_noop_rebuild_renders_nothing(site: Path, tmp_path: Path) -> None:
    before = tree_digest(site / "public")
    assert rebuild(site) == 0
    assert tree_digest(site / "public") == before
    assert_matches_clean(site, tmp_path)


def test_edit_one_post(site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    victim = site / "content/posts/post-00005.md"
    victim.write_text(victim.read_text() + "\nA new closing sentence with $x^2$.\n")
    listed = []
    render_listings = pages.render_listing_pages
    monkeypatch.setattr(pages, "render_listing_pages", lambda *a: listed.append(a) or [])
    assert rebuild(site) == 1
    # The listings show the front matter and the reading time (unchanged here), not the
    # body: they are kept, not rendered again for every edit.
    assert not listed
    monkeypatch.setattr(pages, "render_listing_pages", render_listings)
    assert "A new closing sentence" in (site / "public/posts/post-00005/index.html").read_text()
    assert_matches_clean(site, tmp_path)


def test_few_edits_with_two_cores(site: Path, tmp_path: Path) -> None:
    """With more than one core, a few changed posts render inline (below
    ``workers.PARALLEL_THRESHOLD``): same bytes as a clean serial build."""
    for number in (3, 9):
        victim = site / f"content/posts/post-{number:05d}.md"
        victim.write_text(victim.read_text() + f"\nEdited on a worker, ${number}x$.\n")
    assert rebuild(site, jobs=2) == 2
    assert_matches_clean(site, tmp_path)
    victim.write_text(victim.read_text() + "\n$\\nosuchcommand$\n")
    with pytest.raises(BuildErrors, match=r"post-00009\.md:.*nosuchcommand"):
        rebuild(site, jobs=2)


def test_edit_title_updates_neighbours_and_listings(site: Path, tmp_path: Path) -> None:
    victim = site / "content/posts/post-00005.md"
    victim.write_text(victim.read_text().replace("title: Post 5 on", "title: Renamed 5 on", 1))
    rendered = rebuild(site)
    assert 1 <= rendered <= 3  # the post and its two neighbours' "Older/Newer" links
    assert "Renamed 5 on" in (site / "public/index.html").read_text()
    assert_matches_clean(site, tmp_path)


def test_a_tag_respelled_by_other_posts_updates_an_unchanged_post(tmp_path: Path) -> None:
    """A post's tags show the spelling most posts write (``tags.merge_tags``): when the
    others change it, the page of a post whose file did not change shows the new one."""
    site = make_site(tmp_path / "site", SITES / "minimal")
    for name, tag in (("a", "ml"), ("b", "ML"), ("c", "ML")):
        text = f"---\ntitle: {name}\ndate: 2026-01-0{len(name)}\ntags: [{tag}]\n---\n\nText.\n"
        (site / f"content/posts/{name}.md").write_text(text)
    rebuild(site)
    page = site / "public/posts/a/index.html"
    assert '">ML</a>' in page.read_text()
    for name in ("b", "c"):
        post = site / f"content/posts/{name}.md"
        post.write_text(post.read_text().replace("[ML]", "[ml]"))
    rebuild(site)
    assert '">ml</a>' in page.read_text()
    assert_matches_clean(site, tmp_path)


def test_add_delete_and_rename_posts(site: Path, tmp_path: Path) -> None:
    posts = site / "content/posts"
    (posts / "added.md").write_text(post(424242))
    rebuild(site)
    assert (site / "public/posts/added/index.html").exists()
    assert_matches_clean(site, tmp_path)

    (posts / "post-00003.md").unlink()
    rebuild(site)
    assert not (site / "public/posts/post-00003").exists()
    assert "posts/post-00003/" not in (site / "public/sitemap.xml").read_text()
    assert_matches_clean(site, tmp_path)

    (posts / "post-00004.md").rename(posts / "renamed.md")
    rebuild(site)
    assert (site / "public/posts/renamed/index.html").exists()
    assert not (site / "public/posts/post-00004").exists()
    assert_matches_clean(site, tmp_path)


def test_template_change_rerenders_pages_not_markdown(site: Path, tmp_path: Path) -> None:
    template = site / "templates/post.html"
    template.write_text(template.read_text().replace("Cite this post", "Cite this article"))
    rebuild(site)
    assert "Cite this article" in (site / "public/posts/post-00001/index.html").read_text()
    assert_matches_clean(site, tmp_path)

    tag_template = site / "templates/tag.html"
    tag_template.write_text(tag_template.read_text() + "{# a comment #}\n")
    assert rebuild(site) == 0, "a tag template change must not re-render post pages"
    assert_matches_clean(site, tmp_path)


def test_a_page_depends_on_every_template_its_tags_may_name() -> None:
    """The closure is found from the tags: a conditional or listed name counts (Jinja's own
    scan drops what it cannot evaluate), a variable cannot, a tag of another kind is none."""
    source = (
        '{%- extends parent if parent else "base.html" -%}'
        "{% include ['a.html', \"b.html\"] ignore missing %}"
        '{%+ from "macros.html" import cite %}{% import "icons.html" as icons %}'
        '{% include name %}{% set x = "not-a-template.html" %}{% for from_ in y %}{% endfor %}'
    )
    assert pages._references(source.encode()) == (
        "a.html",
        "b.html",
        "base.html",
        "icons.html",
        "macros.html",
    )
    texts = {"post.html": b'{% extends "base.html" %}', "base.html": b"<html>", "tag.html": b"x"}
    edited = {**texts, "tag.html": b"y"}
    assert pages.closure_hash(texts, "post.html") == pages.closure_hash(edited, "post.html")
    edited["base.html"] = b"<html lang=en>"
    assert pages.closure_hash(texts, "post.html") != pages.closure_hash(edited, "post.html")


def test_site_yaml_and_static_changes(site: Path, tmp_path: Path) -> None:
    config = site / "site.yaml"
    config.write_text(config.read_text().replace("title: Bench", "title: Benchmarks"))
    rebuild(site)
    assert "Benchmarks" in (site / "public/posts/post-00002/index.html").read_text()
    assert_matches_clean(site, tmp_path)

    css = site / "static/css/site.css"
    css.write_text(css.read_text() + "\n/* changed */\n")
    assert rebuild(site) == 0
    assert (site / "public/static/css/site.css").read_text().endswith("/* changed */\n")
    assert_matches_clean(site, tmp_path)


def test_corrupt_cache_is_discarded(site: Path, tmp_path: Path) -> None:
    cache = site / ".cache"
    (cache / "state.db").write_bytes(b"SQLite format 3\x00" + b"garbage" * 100)
    victim = site / "content/posts/post-00001.md"
    victim.write_text(victim.read_text() + "\nEdited.\n")
    rebuild(site)
    assert_matches_clean(site, tmp_path)


def test_corrupt_render_entries_are_not_used(site: Path, tmp_path: Path) -> None:
    """The last build's record is intact, so a template change looks every post up in the
    store and finds entries that fail their checksum (or hold another post): all are
    re-rendered."""
    with contextlib.closing(sqlite3.connect(site / ".cache/state.db")) as db, db:
        rows = db.execute("SELECT key, data FROM render ORDER BY key").fetchall()
        assert len(rows) == 24
        for key, data in rows[:12]:
            db.execute("UPDATE render SET data = ? WHERE key = ?", (data[:-7] + b"garbage", key))
        swapped = [data for _, data in rows[12:]][::-1]  # valid entries under the wrong keys
        for (key, _), data in zip(rows[12:], swapped, strict=True):
            db.execute("UPDATE render SET data = ? WHERE key = ?", (data, key))
    template = site / "templates/post.html"
    template.write_text(template.read_text() + "{# force every post page #}\n")
    assert rebuild(site) == 24
    assert_matches_clean(site, tmp_path)


def test_tampered_output_is_rebuilt(site: Path, tmp_path: Path) -> None:
    page = site / "public/posts/post-00002/index.html"
    page.write_text("tampered")
    rebuild(site)
    assert_matches_clean(site, tmp_path)


def test_parallel_incremental_equals_clean(site: Path, tmp_path: Path) -> None:
    template = site / "templates/post.html"
    template.write_text(template.read_text() + "{# force every post page #}\n")
    assert rebuild(site, jobs=2) == 24
    assert_matches_clean(site, tmp_path)


def test_interrupted_commit_is_rolled_forward(tmp_path: Path) -> None:
    out = tmp_path / "public"
    (out / "posts/a").mkdir(parents=True)
    (out / "posts/a/index.html").write_text("old a")
    (out / "gone.html").write_text("to delete")
    stage = tmp_path / f"{STAGING_PREFIX}public-x"
    (stage / "posts/a").mkdir(parents=True)
    (stage / "posts/a/index.html").write_text("new a")
    journal = tmp_path / f"{STAGING_PREFIX}public.journal"
    journal.write_text(
        json.dumps({"stage": str(stage), "moves": ["posts/a/index.html"], "removed": ["gone.html"]})
    )
    assert recover(out)
    assert (out / "posts/a/index.html").read_text() == "new a"
    assert not (out / "gone.html").exists()
    assert not journal.exists() and not stage.exists()


def test_failed_incremental_build_leaves_output_alone(site: Path) -> None:
    before = tree_digest(site / "public")
    victim = site / "content/posts/post-00001.md"
    victim.write_text(victim.read_text() + "\n$\\nosuchcommand$\n")
    with pytest.raises(Exception, match="nosuchcommand"):
        rebuild(site)
    assert tree_digest(site / "public") == before
    assert not [p for p in os.listdir(site) if p.startswith(STAGING_PREFIX)]


def test_bibliography_edit_rerenders_citing_posts(site: Path, tmp_path: Path) -> None:
    (site / "content/references.bib").write_text(
        "@article{knuth1984,\n  title = {Literate Programming},\n  author = {Knuth, Donald E.},\n"
        "  journal = {The Computer Journal},\n  year = {1984}\n}\n"
    )
    for name in ("post-00002", "post-00007"):
        victim = site / f"content/posts/{name}.md"
        victim.write_text(victim.read_text() + "\nAs argued in [@knuth1984].\n")
    rebuild(site)
    assert_matches_clean(site, tmp_path)
    bib = site / "content/references.bib"
    bib.write_text(bib.read_text().replace("Literate Programming", "Literate {P}rogramming, again"))
    rebuild(site)
    page = (site / "public/posts/post-00007/index.html").read_text()
    assert "Literate Programming, again" in page
    assert_matches_clean(site, tmp_path)


def test_errors_from_worker_processes(tmp_path: Path) -> None:
    """Errors found in a worker come back whole (path, line, message), as from an inline job."""
    site = make_corpus(tmp_path / "site", 40)
    bad = site / "content/posts/post-00003.md"
    bad.write_text(bad.read_text() + "\n$\\nosuchcommand$\n")
    with pytest.raises(BuildErrors) as failure:
        build(load_config(site), tmp_path / "out", jobs=2, use_cache=False)
    line = len(bad.read_text().split("\n")) - 1
    assert [str(e) for e in failure.value.errors] == [
        f"content/posts/post-00003.md:{line}:2: math: unknown LaTeX command \\nosuchcommand"
    ]
    assert not (tmp_path / "out").exists()


def test_every_front_matter_field_is_in_the_page_key() -> None:
    """Keys from declared inputs (issue 14): a field added to the front matter cannot leave
    pages stale, because the page key takes every field of the record but the body's."""
    import dataclasses
    from datetime import datetime

    from site_builder.frontmatter import SourcePost
    from site_builder.incremental.plan import _BODY_FIELDS
    from site_builder.incremental.plan import front_matter as _front_matter

    when = datetime(2026, 1, 1, tzinfo=UTC)
    post = SourcePost(Path("p.md"), "p", "T", when, None, "A", "", (), False, "", 5, None)
    for field in dataclasses.fields(SourcePost):
        if field.name in _BODY_FIELDS:  # the render key's, which the page key holds
            continue
        value = getattr(post, field.name)
        other = {
            str: "changed", int: 7, bool: not value, tuple: ("x",), type(None): "x",
        }.get(type(value), value)  # fmt: skip
        if isinstance(value, datetime):
            other = datetime(2027, 1, 1, tzinfo=UTC)
        elif isinstance(value, Path):
            other = Path("q.md")
        changed = dataclasses.replace(post, **{field.name: other})
        assert _front_matter(changed) != _front_matter(post), field.name


def test_a_per_post_output_file_survives_incremental_builds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file added beside every page (``render.POST_FILES``) is owned by its post in the
    output table, so reusing the post keeps it: no one teaches the reuse about it."""
    from site_builder import render

    def words(
        config: object, route: render.SourceRoute, rendered: object
    ) -> list[tuple[str, bytes]]:
        return [("title.txt", route.source.title.encode())]

    monkeypatch.setattr(render, "POST_FILES", [words])
    site = make_corpus(tmp_path / "site", 6)
    rebuild(site)
    victim = site / "content/posts/post-00002.md"
    victim.write_text(victim.read_text() + "\nOne more line.\n")
    assert rebuild(site) == 1
    for slug in ("post-00001", "post-00002", "post-00005"):
        assert (site / f"public/posts/{slug}/title.txt").is_file()
    assert_matches_clean(site, tmp_path)
    assert rebuild(site) == 0
    assert_matches_clean(site, tmp_path)


def test_the_output_table_is_exactly_the_written_files(site: Path) -> None:
    """The no-op check and page reuse read one table: after a build whose last record could
    not be trusted (here, from another code version), it lists exactly the files written."""
    with contextlib.closing(sqlite3.connect(site / ".cache/state.db")) as db, db:
        db.execute(
            "INSERT INTO output VALUES (?, 'gone.html', 'k', 1, 1, '')", (str(site / "public"),)
        )
        db.execute("DELETE FROM build")
    rebuild(site)
    with contextlib.closing(sqlite3.connect(site / ".cache/state.db")) as db:
        rows = {path for (path,) in db.execute("SELECT path FROM output")}
    written = {p.relative_to(site / "public").as_posix() for p in (site / "public").rglob("*")}
    assert rows == {rel for rel in written if (site / "public" / rel).is_file()}


@pytest.fixture
def pages_site(tmp_path: Path) -> Path:
    """The pages site (every kind: posts, pages, the home text), built once."""
    from tests.conftest import make_site

    site = make_site(tmp_path / "site", SITES / "pages")
    rebuild(site)
    return site


def test_every_kind_incremental_equals_clean(pages_site: Path, tmp_path: Path) -> None:
    assert rebuild(pages_site) == 0  # a no-op renders nothing, pages and home text included
    assert_matches_clean(pages_site, tmp_path)


def test_editing_a_page_rerenders_only_that_page(pages_site: Path, tmp_path: Path) -> None:
    page = pages_site / "content/pages/research/old-work.md"
    page.write_text(page.read_text() + "\nOne more sentence.\n")
    before = tree_digest(pages_site / "public")
    assert rebuild(pages_site) == 1
    after = tree_digest(pages_site / "public")
    assert sorted(rel for rel in after if after[rel] != before.get(rel)) == [
        "research/old-work/index.html"
    ]
    assert_matches_clean(pages_site, tmp_path)


def test_a_menu_page_title_change_rerenders_every_page_with_the_menu(
    pages_site: Path, tmp_path: Path
) -> None:
    page = pages_site / "content/pages/about.md"
    page.write_text(page.read_text().replace("title: About", "title: About me"))
    before = tree_digest(pages_site / "public")
    rebuild(pages_site)
    after = tree_digest(pages_site / "public")
    changed = {rel for rel in after if after[rel] != before.get(rel)}
    assert {"about/index.html", "posts/first/index.html", "research/old-work/index.html",
            "index.html", "archive/index.html", "404.html"} <= changed  # fmt: skip
    assert "About me" in (pages_site / "public/research/old-work/index.html").read_text()
    assert_matches_clean(pages_site, tmp_path)


def test_editing_the_home_text_rewrites_the_home_page(pages_site: Path, tmp_path: Path) -> None:
    home = pages_site / "content/index.md"
    home.write_text(home.read_text().replace("I write about", "Here I write about"))
    assert rebuild(pages_site) == 1
    assert "Here I write about" in (pages_site / "public/index.html").read_text()
    assert_matches_clean(pages_site, tmp_path)
    home.unlink()
    rebuild(pages_site)
    assert "Here I write about" not in (pages_site / "public/index.html").read_text()
    assert_matches_clean(pages_site, tmp_path)


def test_a_second_build_in_one_process_compiles_no_template(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``compiled.remembering``: the same templates are compiled once a process, for a copy
    of the site elsewhere too, and an edited one again; the pages are the bytes a fresh
    compile gives."""
    import jinja2

    site = make_site(tmp_path / "site", SITES / "kitchen")
    compiles: list[str | None] = []
    compile_ = jinja2.Environment.compile

    def counting(self: jinja2.Environment, source: Any, name: str | None = None, *a: Any) -> Any:
        compiles.append(name)
        return compile_(self, source, name, *a)

    first = clean_build(site, tmp_path / "first")
    monkeypatch.setattr(jinja2.Environment, "compile", counting)
    assert clean_build(site, tmp_path / "second") == first
    copy = make_site(tmp_path / "copy", SITES / "kitchen")
    assert clean_build(copy, tmp_path / "third") == first
    assert compiles == []
    base = site / "templates" / "base.html"
    base.write_text(base.read_text("utf-8").replace("</body>", "<!-- x --></body>"), "utf-8")
    edited = clean_build(site, tmp_path / "fourth")
    assert "base.html" in compiles and edited != first


def test_a_template_error_in_a_copy_of_the_site_names_its_line(tmp_path: Path) -> None:
    """The copy's templates run code compiled for the first site's files: their frames are
    renamed after the copy's, so the error is still at the template's line."""
    errors = []
    for name in ("site", "copy"):
        site = make_site(tmp_path / name, SITES / "minimal")
        base = site / "templates" / "base.html"
        lines = base.read_text("utf-8").split("\n")
        lines.insert(2, "{{ config.no_such_setting }}")
        base.write_text("\n".join(lines), "utf-8")
        with pytest.raises((BuildErrors, BuildError)) as raised:
            build(load_config(site), tmp_path / f"out-{name}", jobs=1, use_cache=False)
        errors.append(str(raised.value))
    assert errors[0] == errors[1]
    assert "templates/base.html:3: template error" in errors[1], errors[1]
