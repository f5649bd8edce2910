"""What a blind set of real blogs found on import (issue 25): each fix proven on a small
site shaped like the real one."""

from __future__ import annotations

from pathlib import Path

from site_builder.importer import import_posts
from tests.conftest import ROOT, make_site


def test_a_jekyll_collection_the_site_publishes_is_imported(tmp_path: Path) -> None:
    """``_config.yml``'s ``collections: {notes: {output: true}}``: ``_notes/`` was on the
    site as much as ``_posts/``; a collection it did not publish stays out."""
    old = tmp_path / "old"
    for folder in ("_posts", "_notes", "_staff"):
        (old / folder).mkdir(parents=True)
    (old / "_config.yml").write_text(
        "collections:\n  notes:\n    output: true\n  staff:\n    output: false\n"
    )
    (old / "_posts" / "2020-01-01-a.md").write_text("---\ntitle: A\n---\n\nA.\n")
    (old / "_notes" / "2021-02-09-b.markdown").write_text("---\ntitle: B\n---\n\nB.\n")
    (old / "_staff" / "c.md").write_text("---\nname: C\n---\n\nC.\n")
    site = make_site(tmp_path / "site", ROOT)
    report = import_posts(old, site / "content" / "posts")
    assert [str(p.source) for p in report.posts] == [
        "old/_notes/2021-02-09-b.markdown",
        "old/_posts/2020-01-01-a.md",
    ]
    assert "date: '2021-02-09'" in (site / "content" / "posts" / "b.md").read_text()


def quarto_drafts(root: Path, mode: str) -> Path:
    (root / "posts").mkdir(parents=True)
    website = f"website:\n  draft-mode: {mode}\n" if mode else ""
    (root / "_quarto.yml").write_text(f"project:\n  type: website\n{website}")
    (root / "posts" / "2025-06-14-chatbots.qmd").write_text(
        "---\ntitle: Chatbots\ndraft: true\ndate: 2025-06-14\n---\n\nText.\n"
    )
    return root


def test_a_quarto_draft_comes_across_as_the_old_site_published_it(tmp_path: Path) -> None:
    """``draft-mode: unlinked`` rendered a draft at its address, listed nowhere: an undated
    page here (built, not listed); Quarto's default (``gone``) published nothing: a
    draft, named at its line since the build leaves it out."""
    site = make_site(tmp_path / "site", ROOT)
    report = import_posts(quarto_drafts(tmp_path / "a", "unlinked"), site / "content" / "posts")
    page = site / "content" / "pages" / "chatbots.md"
    assert page.read_text() == "---\ntitle: Chatbots\n---\n\nText.\n"
    assert [str(n) for n in report.notes] == [
        "a/posts/2025-06-14-chatbots.qmd:3: draft: the old site published it unlinked "
        "(draft-mode: unlinked): an undated page here, built and listed nowhere"
    ]
    site = make_site(tmp_path / "site2", ROOT)
    report = import_posts(quarto_drafts(tmp_path / "b", ""), site / "content" / "posts")
    assert "draft: true" in (site / "content" / "posts" / "chatbots.md").read_text()
    assert [str(n) for n in report.notes] == [
        "b/posts/2025-06-14-chatbots.qmd:3: draft: kept as a draft, as on the old site: "
        "the build leaves it out"
    ]
    site = make_site(tmp_path / "site3", ROOT)
    import_posts(quarto_drafts(tmp_path / "c", "visible"), site / "content" / "posts")
    assert "draft" not in (site / "content" / "posts" / "chatbots.md").read_text()
