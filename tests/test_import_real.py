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
