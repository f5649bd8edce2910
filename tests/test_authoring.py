"""Authoring feedback (issue 17): what the build tells an author, beyond errors in Markdown.

A missing ``pdf:`` file, a typo for a required key, drafts marked in a preview,
``--strict`` naming the warning, a no-op that says so, a post's ``.bib`` kept out
of the site, and ``--help`` in plain words.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from site_builder.cli import main
from tests.conftest import make_site, tree_digest

POST = "---\ntitle: Paper\ndate: 2026-01-02\n{extra}---\n\nText.\n"


def run(site: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["-C", str(site), *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_a_pdf_that_is_not_there_is_an_error_at_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = make_site(tmp_path / "site")
    folder = site / "content" / "posts" / "paper"
    folder.mkdir()
    (folder / "index.md").write_text(POST.format(extra="pdf: paper.pdf\n"), encoding="utf-8")
    status, _, err = run(site, capsys, "build")
    assert status == 1
    assert err.startswith("content/posts/paper/index.md:4: pdf: 'paper.pdf' is not a file")
    (folder / "paper.pdf").write_bytes(b"%PDF-1.4\n")
    status, _, err = run(site, capsys, "build")
    assert status == 0, err
    html = (site / "public" / "posts" / "paper" / "index.html").read_text(encoding="utf-8")
    assert 'name="citation_pdf_url" content="https://example.org/posts/paper/paper.pdf"' in html


def test_drafts_and_scheduled_posts_are_marked_in_a_preview(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")  # 2026-01-01
    site = make_site(tmp_path / "site")
    posts = site / "content" / "posts"
    (posts / "draft.md").write_text(POST.format(extra="draft: true\n"), encoding="utf-8")
    later = POST.replace("2026-01-02", "2026-06-01").format(extra="slug: later\n")
    (posts / "later.md").write_text(later, encoding="utf-8")
    assert run(site, capsys, "build", "--drafts")[0] == 0
    public = site / "public"
    index = (public / "index.html").read_text(encoding="utf-8")
    assert '<strong class="preview-status">Draft</strong>' in index
    assert '<strong class="preview-status">Scheduled for 1 June 2026</strong>' in index
    draft = (public / "posts" / "draft" / "index.html").read_text(encoding="utf-8")
    assert '<strong class="preview-status">Draft</strong>' in draft
    assert run(site, capsys, "build")[0] == 0  # a real build: no drafts, no markers
    assert "preview-status" not in (public / "index.html").read_text(encoding="utf-8")


def test_strict_names_the_warning_that_fails_the_build(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = make_site(tmp_path / "site")
    (site / "content" / "posts" / "odd.md").write_text(
        POST.format(extra="tittle: x\n"), encoding="utf-8"
    )
    status, _, err = run(site, capsys, "build", "--strict")
    assert status == 1
    assert "content/posts/odd.md:4: --strict: this warning fails the build" in err
    assert "site.yaml" not in err


def test_a_noop_says_so_and_counts_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = make_site(tmp_path / "site")
    status, out, _ = run(site, capsys, "build")
    assert status == 0 and "(1 post)" in out and out.startswith("Built ")
    status, out, _ = run(site, capsys, "build")
    assert status == 0
    assert out.startswith("Up to date: ") and "(1 post)" in out and "0.00 s" not in out


def test_a_posts_bib_is_not_published(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site(tmp_path / "site")
    folder = site / "content" / "posts" / "cited"
    folder.mkdir()
    (folder / "index.md").write_text(
        POST.format(extra="bibliography: refs.bib\n").replace("Text.", "As [@k] showed."),
        encoding="utf-8",
    )
    (folder / "refs.bib").write_text("@misc{k, title={T}, year={2020}}\n", encoding="utf-8")
    (folder / "figure.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'/>", "utf-8")
    status, _, err = run(site, capsys, "build")
    assert status == 0, err
    out = site / "public" / "posts" / "cited"
    assert (out / "figure.svg").exists() and not (out / "refs.bib").exists()


def test_help_is_plain_words(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert ":class:" not in out and "``" not in out


def test_build_warns_about_a_link_to_no_post(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The routes are known at build time: a misspelt link between posts is a warning there,
    at its source line, before any `check`."""
    site = make_site(tmp_path / "site")
    text = POST.format(extra="").replace("Text.", "See [good](../good/) and\n[it](../god/).")
    (site / "content" / "posts" / "linking.md").write_text(text, encoding="utf-8")
    status, _, err = run(site, capsys, "build")
    assert status == 0
    assert "content/posts/linking.md:7: warning: link '../god/' names no published post" in err
    assert "(did you mean '../good/'?)" in err
    assert "'../good/'" not in err.split("did you mean")[0]
    assert run(site, capsys, "build", "--strict")[0] == 1


def test_the_dev_server_keeps_its_first_search_index(tmp_path: Path) -> None:
    """Indexing a shard of the site costs up to seconds: `serve` indexes once per session,
    `build` on every change."""
    from site_builder.build import build
    from site_builder.config import load_config

    site = make_site(tmp_path / "site")
    config = site / "site.yaml"
    config.write_text(config.read_text() + "search: true\n", encoding="utf-8")
    out = site / "public"
    build(load_config(site), out)
    index = tree_digest(out / "pagefind")
    post = site / "content" / "posts" / "good.md"
    post.write_text(post.read_text() + "\nA new word: zygomorphic.\n", encoding="utf-8")
    build(load_config(site), out, refresh_search=False)
    assert tree_digest(out / "pagefind") == index
    build(load_config(site), out)
    assert tree_digest(out / "pagefind") != index


def test_search_is_opt_in(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A site without ``search: true`` ships no index, page, link or script for it."""
    site = make_site(tmp_path / "site")
    assert run(site, capsys, "build")[0] == 0
    public = site / "public"
    assert not (public / "pagefind").exists() and not (public / "search").exists()
    assert "search" not in (public / "index.html").read_text(encoding="utf-8").lower()
