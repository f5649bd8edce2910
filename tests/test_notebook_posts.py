"""Notebooks as posts, end to end (``kinds.NOTEBOOK``): the real notebooks of
``tests/data/notebooks/`` built as a site's posts beside a Markdown post, then their
errors and an incremental edit of one cell."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from xml.etree import ElementTree

import pytest

from site_builder.build import build
from site_builder.cli import main
from site_builder.config import load_config
from tests.conftest import ROOT, SITES, build_site, make_site, tree_digest

NOTEBOOKS = ROOT / "tests" / "data" / "notebooks"


def notebook_site(dest: Path) -> Path:
    """The minimal site with every real notebook among its posts, as their authors named
    them (a date in the name, a folder for those with images)."""
    site = make_site(dest, SITES / "minimal")
    for entry in sorted(NOTEBOOKS.iterdir()):
        if entry.is_dir():
            shutil.copytree(entry, site / "content" / "posts" / entry.name)
        elif entry.suffix == ".ipynb":
            shutil.copy(entry, site / "content" / "posts" / entry.name)
    return site


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_site(notebook_site(tmp_path_factory.mktemp("notebooks") / "site"))


def test_every_notebook_is_a_post_named_without_its_date(built: Path) -> None:
    slugs = sorted(p.name for p in (built / "posts").iterdir())
    for slug in ("kaggle-titanic", "linkcheck", "nbdev-tutorial", "nbconvert-jpeg", "test"):
        assert slug in slugs
    home = (built / "index.html").read_text()
    assert "My First Kaggle Competition: Titanic" in home
    feed = (built / "feed.xml").read_bytes()
    ElementTree.fromstring(feed)  # well-formed with notebook HTML inside
    assert b"Titanic" in feed


def test_outputs_images_and_code_reach_the_page(built: Path) -> None:
    page = (built / "posts" / "kaggle-titanic" / "index.html").read_text()
    assert "<table" in page and "PassengerId" in page  # a DataFrame stays a table
    assert "base64," not in page and "\x1b[" not in page
    images = re.findall(r'<img [^>]*src="(nb-[0-9a-f]+\.png)"[^>]*>', page)
    assert images
    for tag in re.findall(r"<img [^>]*>", page):
        assert 'width="' in tag and 'height="' in tag and 'alt="' in tag
    for name in images:
        assert (built / "posts" / "kaggle-titanic" / name).is_file()
    assert (built / "posts" / "kaggle-titanic" / "first_submission.png").is_file()  # its own
    assert 'class="highlight' in page  # code cells highlighted
    errors = (built / "posts" / "linkcheck" / "index.html").read_text()
    assert "nb-error" in errors and "\x1b" not in errors  # colours: fixtures/notebooks/


def test_a_malformed_notebook_is_path_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = make_site(tmp_path / "site", SITES / "minimal")
    (site / "content/posts/2024-01-01-broken.ipynb").write_text('{"cells": [}')
    (site / "content/posts/2024-01-02-old.ipynb").write_text(
        json.dumps({"nbformat": 3, "nbformat_minor": 0, "worksheets": [], "metadata": {}})
    )
    assert main(["-C", str(site), "build"]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert re.search(r"content/posts/2024-01-01-broken\.ipynb:1:\d+: ", err), err
    assert "content/posts/2024-01-02-old.ipynb: " in err and "nbformat" in err, err


def test_editing_one_cell_rerenders_that_post_only(tmp_path: Path) -> None:
    site = notebook_site(tmp_path / "site")
    out = site / "public"
    build(load_config(site), out, jobs=1)
    path = site / "content/posts/2023-11-08-nbconvert-jpeg.ipynb"
    notebook = json.loads(path.read_text())
    cell = next(c for c in notebook["cells"] if c["cell_type"] == "markdown")
    cell["source"] = "An edited cell.\n"
    path.write_text(json.dumps(notebook))
    before = tree_digest(out)
    assert build(load_config(site), out, jobs=1).rendered == 1
    after = tree_digest(out)
    changed = sorted(rel for rel in after if after.get(rel) != before.get(rel))
    assert changed == ["feed.xml", "posts/nbconvert-jpeg/index.html"]  # the feed has its HTML
    assert "An edited cell." in (out / "posts/nbconvert-jpeg/index.html").read_text()
    build(load_config(site), tmp_path / "clean", jobs=1, use_cache=False)
    assert tree_digest(tmp_path / "clean") == after
