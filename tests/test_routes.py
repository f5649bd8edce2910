"""The route table (``routes``): every output path planned before anything renders, and a
path claimed twice stops the build at the file that claims it, before anything is written
(the cases ``tests/sites/invalid/collision-*``, run by ``test_errors``)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from site_builder.config import load_config
from site_builder.errors import BuildErrors
from site_builder.frontmatter import SourcePost
from site_builder.routes import check_generated, plan_routes


def _post(slug: str, day: int, tags: tuple[str, ...] = ()) -> SourcePost:
    when = datetime(2026, 1, day, tzinfo=UTC)
    return SourcePost(Path(f"content/posts/{slug}.md"), slug, slug.title(), when, None, "A", "",
                      tags, False, "", 5, None)  # fmt: skip


def test_table_order_neighbours_and_sitemap(tmp_path: Path) -> None:
    (tmp_path / "site.yaml").write_text("title: T\nauthor: A\nbase_url: https://example.org/\n")
    posts = [_post("old", 1, ("ml",)), _post("new", 2, ("ML", "go"))]
    routes = plan_routes(load_config(tmp_path), posts)
    assert [r.path for r in routes.posts] == ["posts/new/", "posts/old/"]
    assert routes.posts[0].older is not None and routes.posts[0].older.path == "posts/old/"
    assert routes.posts[1].newer is not None and routes.posts[1].newer.title == "New"
    assert [r.url for r in routes.sitemap()] == [
        "", "posts/new/", "posts/old/", "tags/", "tags/go/", "tags/ml/", "archive/",
    ]  # fmt: skip
    assert routes.page_sources() == {
        "posts/new/index.html": Path("content/posts/new.md"),
        "posts/old/index.html": Path("content/posts/old.md"),
    }


def test_a_generated_file_in_the_way_of_a_folder_file(tmp_path: Path) -> None:
    """A figure's data file is known only once the post has rendered: checked then."""
    (tmp_path / "site.yaml").write_text("title: T\nauthor: A\nbase_url: https://example.org/\n")
    folder = tmp_path / "content/posts/p"
    folder.mkdir(parents=True)
    (folder / "index.md").write_text("---\ntitle: P\ndate: 2026-01-01\n---\n")
    (folder / "data.json").write_text("{}")
    post = _post("p", 1)
    post = SourcePost(Path("content/posts/p/index.md"), "p", "P", post.date, None, "A", "", (),
                      False, "", 5, folder)  # fmt: skip
    (route,) = plan_routes(load_config(tmp_path), [post]).posts
    (error,) = check_generated(route, ["data.json"])
    assert str(error) == (
        "content/posts/p/index.md: posts/p/data.json would be written twice: from "
        "content/posts/p/data.json and a file its Markdown generates; rename or remove the file"
    )
    with pytest.raises(BuildErrors):
        (folder / "index.html").write_text("in the way")
        plan_routes(load_config(tmp_path), [post])


def test_a_site_file_in_the_way_of_the_widget_loader_is_a_collision(tmp_path: Path) -> None:
    """The widget loader and modules are planned routes: a site's own static/js/widgets.js
    used to replace the loader silently (the build exited 0)."""
    from site_builder.build import build
    from tests.conftest import SITES, make_site

    site = make_site(tmp_path / "site", SITES / "widgets")
    (site / "static/js/widgets.js").write_text("// the site's own\n")
    with pytest.raises(BuildErrors) as caught:
        build(load_config(site), site / "public")
    assert str(caught.value.errors[0]) == (
        "static/js/widgets.js: static/js/widgets.js would be written twice: from "
        "static/js/widgets.js and the widget loader; rename or remove the file"
    )


def test_the_output_writes_only_planned_paths_and_each_once(tmp_path: Path) -> None:
    from site_builder.errors import BuildError
    from site_builder.writer import Output

    (tmp_path / "site.yaml").write_text("title: T\nauthor: A\nbase_url: https://example.org/\n")
    routes = plan_routes(load_config(tmp_path), [_post("p", 1)])
    output = Output(tmp_path / "public", {}, False, routes.planned)
    output.write("posts/p/index.html", "<p>")
    output.write("posts/p/figure-data.json", "{}")  # a render's own file, in its folder
    with pytest.raises(BuildError, match="written twice in one build"):
        output.write("posts/p/index.html", "<p>")
    with pytest.raises(BuildError, match="no route planned this file"):
        output.write("elsewhere/index.html", "<p>")
    output.discard()
