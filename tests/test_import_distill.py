"""``site-builder import`` of a Distill for R Markdown blog (rstudio/distill): posts in
dated folders under ``_posts/``, knitted beside their ``.Rmd`` with the figures in
``<slug>_files/figure-html5/``."""

from __future__ import annotations

from pathlib import Path

from site_builder.build import build
from site_builder.config import load_config
from site_builder.importer import import_posts
from site_builder.importer.finding import detect
from tests.conftest import make_site

POST = """\
---
title: "Penguins, measured"
description: |
  Bill lengths.
author:
  - name: Ada Lovelace
    url: https://example.org
    affiliation: Analytical Engines
  - name: Charles Babbage
date: 05-12-2021
categories:
  - R
preview: penguins_files/figure-html5/bills-1.png
bibliography: refs.bib
citation_url: https://example.org/posts/2021-05-12-penguins/
output:
  distill::distill_article:
    toc: true
    self_contained: false
---

```{r setup, include=FALSE}
knitr::opts_chunk$set(echo = TRUE)
```

Penguins differ [@gorman2014].^[A footnote.]

<aside>
A margin note.
</aside>

::: l-body-outset
A wide paragraph.
:::

```{r bills, fig.cap="Bills"}
plot(penguins$bill_length_mm)
```

```{r}
summary(penguins)
```
"""
BIB = "@article{gorman2014,\n  title = {Penguins},\n  author = {Gorman, K.},\n  year = {2014}\n}\n"


def distill_blog(root: Path) -> Path:
    """A Distill blog as ``distill::create_blog`` lays it out, one post knitted."""
    root.mkdir(parents=True)
    (root / "_site.yml").write_text(
        'name: "b"\ntitle: "B"\noutput_dir: _site\nnavbar:\n  right: []\n'
    )
    post = root / "_posts/2021-05-12-penguins"
    (post / "penguins_files/figure-html5").mkdir(parents=True)
    (post / "penguins.Rmd").write_text(POST)
    (post / "penguins.html").write_text("<html><img src='penguins_files/figure-html5/bills-1.png'>")
    (post / "penguins_files/figure-html5/bills-1.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (post / "refs.bib").write_text(BIB)
    (root / "index.Rmd").write_text("---\ntitle: B\nsite: distill::distill_website\n---\n")
    return root


def test_a_distill_blog_is_found_converted_and_built(tmp_path: Path) -> None:
    blog = distill_blog(tmp_path / "blog")
    assert detect(blog) == "distill"
    site = make_site(tmp_path / "site")
    into = site / "content/posts"
    report = import_posts(blog, into)
    assert report.format == "distill"
    assert [p.source.name for p in report.posts] == ["penguins.Rmd"]
    text = (into / "penguins/index.md").read_text()
    assert "date: '2021-05-12'" in text  # month first, as Distill read it
    assert "author: Ada Lovelace and Charles Babbage" in text
    assert "toc: true" in text
    assert "[@gorman2014]" in text and "^[A footnote.]" in text
    assert "::: {.column-margin}\nA margin note.\n:::" in text
    assert "l-body-outset" not in text and "A wide paragraph." in text
    # the chunk's figure, from the render, after its code
    assert (
        "plot(penguins$bill_length_mm)\n```\n\n![Bills](penguins_files/figure-html5/bills-1.png)"
        in text
    )
    assert (into / "penguins/penguins_files/figure-html5/bills-1.png").is_file()
    assert (into / "penguins/refs.bib").is_file()
    notes = [n.message for p in report.posts for n in p.notes]
    assert "1 figure(s) of its chunks taken from the render" in notes
    assert not any("l-body-outset" in n for n in notes)
    build(load_config(site), site / "public", jobs=1, use_cache=False)
    page = (site / "public/posts/penguins/index.html").read_text()
    assert "bills-1.png" in page and "Gorman" in page


def test_the_folder_dates_a_post_whose_front_matter_does_not(tmp_path: Path) -> None:
    blog = distill_blog(tmp_path / "blog")
    post = blog / "_posts/2021-05-12-penguins/penguins.Rmd"
    post.write_text(POST.replace("date: 05-12-2021\n", ""))
    into = tmp_path / "site/content/posts"
    import_posts(blog, into)
    assert "date: '2021-05-12'" in (into / "penguins/index.md").read_text()


def test_an_image_whose_caption_holds_a_footnote_with_a_link_is_copied(tmp_path: Path) -> None:
    """``![A gif.^[From [giphy](https://giphy.com).]](img/a.gif)``: brackets two deep."""
    blog = distill_blog(tmp_path / "blog")
    post = blog / "_posts/2021-05-12-penguins"
    (post / "img").mkdir()
    (post / "img/a.gif").write_bytes(b"GIF89a")
    body = "\n![A gif.^[From [giphy](https://giphy.com).]](img/a.gif)\n"
    (post / "penguins.Rmd").write_text(POST + body)
    into = tmp_path / "site/content/posts"
    import_posts(blog, into)
    assert (into / "penguins/img/a.gif").is_file()


def test_a_figure_only_the_sites_output_kept_comes_from_there(tmp_path: Path) -> None:
    """``output_dir: docs``: the render's copy of the post, ``docs/posts/<folder>/``, holds
    the figures when ``_posts``' own ``_files/`` was not committed."""
    blog = distill_blog(tmp_path / "blog")
    (blog / "_site.yml").write_text('name: "b"\noutput_dir: "docs"\n')
    post = blog / "_posts/2021-05-12-penguins"
    (post / "penguins_files/figure-html5/bills-1.png").unlink()
    rendered = blog / "docs/posts/2021-05-12-penguins/penguins_files/figure-html5"
    rendered.mkdir(parents=True)
    (rendered / "unnamed-chunk-1-1.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    into = tmp_path / "site/content/posts"
    import_posts(blog, into)
    text = (into / "penguins/index.md").read_text()
    assert "summary(penguins)\n```\n\n![](unnamed-chunk-1-1.png)" in text
    assert (into / "penguins/unnamed-chunk-1-1.png").is_file()


def test_an_image_whose_file_name_has_spaces_keeps_its_destination(tmp_path: Path) -> None:
    """``![Net](Network-negative ties.png)`` (Pandoc's) is written
    ``<Network-negative ties.png>``, which is no custom element left over to comment out."""
    blog = distill_blog(tmp_path / "blog")
    post = blog / "_posts/2021-05-12-penguins"
    (post / "Network-negative ties.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (post / "penguins.Rmd").write_text(POST + "\n![Net](Network-negative ties.png)\n")
    into = tmp_path / "site/content/posts"
    report = import_posts(blog, into)
    assert "![Net](<Network-negative ties.png>)" in (into / "penguins/index.md").read_text()
    assert not any("custom element" in n.message for p in report.posts for n in p.notes)


def test_a_csl_yaml_bibliography_is_written_as_bibtex(tmp_path: Path) -> None:
    """``bibliography: biblio.yaml`` (Pandoc's CSL YAML, ``issued: {year: 2011}``)."""
    blog = distill_blog(tmp_path / "blog")
    post = blog / "_posts/2021-05-12-penguins"
    (post / "biblio.yaml").write_text(
        "---\nreferences:\n- type: article-journal\n  id: gorman2014\n  author:\n"
        "  - family: Gorman\n    given: K.\n  issued:\n    year: 2014\n  title: Penguins\n---\n"
    )
    (post / "penguins.Rmd").write_text(POST.replace("refs.bib", "biblio.yaml"))
    into = tmp_path / "site/content/posts"
    report = import_posts(blog, into)
    bib = (into / "penguins/biblio.bib").read_text()
    assert "@article{gorman2014," in bib and "year = {2014}" in bib
    assert not any("gorman2014" in n.message for p in report.posts for n in p.notes)


def test_a_post_knitted_with_keep_md_comes_from_its_md(tmp_path: Path) -> None:
    """``keep_md: true`` leaves ``<slug>.md`` beside the ``.Rmd``, with what the chunks
    printed, each in a ``<div class="layout-chunk">``, which goes."""
    blog = distill_blog(tmp_path / "blog")
    post = blog / "_posts/2021-05-12-penguins"
    knitted = (
        "---\ntitle: Penguins\ndate: 05-12-2021\n---\n\n"
        '<div class="layout-chunk" data-layout="l-body">\n\n'
        "```r\nsummary(penguins)\n```\n\n```\n## 344 rows\n```\n\n</div>\n\nAfter.\n"
    )
    (post / "penguins.md").write_text(knitted)
    into = tmp_path / "site/content/posts"
    report = import_posts(blog, into)
    assert [p.source.name for p in report.posts] == ["penguins.md"]
    text = (into / "penguins.md").read_text()
    assert "## 344 rows" in text and "layout-chunk" not in text and "</div>" not in text


def test_a_copy_beside_the_post_in_its_folder_is_not_a_post(tmp_path: Path) -> None:
    blog = distill_blog(tmp_path / "blog")
    post = blog / "_posts/2021-05-12-penguins"
    (post / "penguins-old copy.Rmd").write_text(POST)
    report = import_posts(blog, tmp_path / "site/content/posts")
    assert [p.source.name for p in report.posts] == ["penguins.Rmd"]


def test_a_post_folder_with_only_its_render_is_named_as_skipped(tmp_path: Path) -> None:
    blog = distill_blog(tmp_path / "blog")
    old = blog / "_posts/2018-07-17-activity"
    old.mkdir()
    (old / "index.html").write_text("<html></html>")
    report = import_posts(blog, tmp_path / "site/content/posts")
    skipped = [p for p in report.posts if p.skipped]
    assert [p.source.as_posix() for p in skipped] == ["blog/_posts/2018-07-17-activity/index.html"]
    assert "only its render is here" in skipped[0].skipped
