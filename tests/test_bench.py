"""The benchmark's corpus measures what its rows say: the generated notebook posts are
valid, the same bytes every time, and render the outputs they stand for (a stream, a
DataFrame table, a PNG, math); the pages kinds are in it; a one-cell edit re-renders
one post."""

from __future__ import annotations

import json
from pathlib import Path

import nbformat

from bench.corpus import make_corpus
from bench.notebook import edited, notebook
from site_builder.build import build
from site_builder.config import load_config


def test_a_notebook_is_valid_and_the_same_every_time() -> None:
    text = notebook(3)
    nbformat.validate(nbformat.reads(text, as_version=4))
    assert text == notebook(3)
    assert text != notebook(4)
    kinds = {o["output_type"] for c in json.loads(text)["cells"] for o in c.get("outputs", [])}
    assert kinds == {"stream", "execute_result", "display_data"}


def test_the_corpus_renders_notebook_outputs_and_pages(tmp_path: Path) -> None:
    site = make_corpus(tmp_path / "site", 3, notebooks=2, pages=True)
    assert build(load_config(site), site / "public", jobs=1).rendered == 7
    page = site / "public/posts/nb-00001"
    html = (page / "index.html").read_text(encoding="utf-8")
    assert '<table class="dataframe">' in html
    assert '<pre class="nb-stream nb-stdout" tabindex="0">step ' in html
    assert html.count("<math") > 12
    assert "<style" not in html.split("<body", 1)[1]  # pandas' style is sanitised away
    [image] = page.glob("*.png")
    assert f'<img src="{image.name}"' in html
    assert image.read_bytes().startswith(b"\x89PNG")
    assert "About" in (site / "public/about/index.html").read_text(encoding="utf-8")
    assert "Words above the recent posts" in (site / "public/index.html").read_text(
        encoding="utf-8"
    )


def test_a_one_cell_edit_re_renders_that_post_only(tmp_path: Path) -> None:
    site = make_corpus(tmp_path / "site", 3, notebooks=2)
    config = load_config(site)
    build(config, site / "public", jobs=1)
    victim = site / "content/posts/nb-00000.ipynb"
    victim.write_text(edited(victim.read_text(encoding="utf-8"), "A new sentence."), "utf-8")
    assert build(config, site / "public", jobs=1).rendered == 1
    html = (site / "public/posts/nb-00000/index.html").read_text(encoding="utf-8")
    assert "A new sentence." in html
