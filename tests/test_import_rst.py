"""``site-builder import`` of blogs written in reStructuredText: Pelican, Nikola, ABlog.

The conversions themselves are fixtures (``tests/fixtures/import/rst.md``); here are
the whole sites: where their posts are found, their front matter, their images, the
report of what docutils could not read, and a build of what came across.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from site_builder.build import build
from site_builder.cli import main
from site_builder.config import load_config
from site_builder.importer import convert_post
from site_builder.importer.finding import engine, find_posts
from tests.conftest import make_site

PNG = (  # a 1x1 PNG
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00"
    b"\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N"
    b"\x00\x00\x00\x00IEND\xaeB`\x82"
)
PELICAN_POST = """\
Softmax, from the scores up
###########################

:date: 2021-03-04 10:20
:modified: 2021-03-05
:tags: attention, math
:category: ML
:slug: softmax
:summary: Why the scores are divided by :math:`\\sqrt{d}`.

.. contents::

Scores
======

The weights are :math:`w_i = e^{s_i} / \\sum_j e^{s_j}`:

.. math::
   :label: softmax

   w_i = \\frac{e^{s_i / \\tau}}{\\sum_j e^{s_j / \\tau}}

As :eq:`softmax` shows, see the figure.

.. figure:: {static}/images/plot.png
   :width: 60%

   The weights at :math:`\\tau = 1`.

.. code-block:: python
   :linenos:

   def softmax(s):
       return s.exp() / s.exp().sum()

.. note:: Subtract the maximum first.

.. youtube:: dQw4w9WgXcQ
"""


def pelican_site(root: Path) -> Path:
    """A Pelican blog in reST: a post with math, a figure and code; a page; a README."""
    (root / "content" / "posts").mkdir(parents=True)
    (root / "content" / "pages").mkdir()
    (root / "content" / "images").mkdir()
    (root / "pelicanconf.py").write_text('AUTHOR = "A"\nPATH = "content"\n')
    (root / "README.rst").write_text("The blog\n========\n\nHow to build it.\n")
    (root / "content" / "images" / "plot.png").write_bytes(PNG)
    (root / "content" / "posts" / "softmax.rst").write_text(PELICAN_POST)
    (root / "content" / "pages" / "about.rst").write_text("About\n#####\n\nMe.\n")
    return root


def test_a_pelican_rst_blog_imports_and_builds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before, a blog written in reST imported nothing ("no jekyll posts found")."""
    source = pelican_site(tmp_path / "blog")
    site = make_site(tmp_path / "site")
    assert main(["-C", str(site), "import", str(source)]) == 0
    out = capsys.readouterr()
    assert "Imported 1 of 1 Pelican posts" in out.out
    assert "blog/content/posts/softmax.rst:38: YouTube video embedded as a link" in out.err
    post = (site / "content" / "posts" / "softmax" / "index.md").read_text()
    assert post.startswith(
        "---\ntitle: Softmax, from the scores up\ndate: 2021-03-04T10:20\n"
        "description: Why the scores are divided by $\\sqrt{d}$.\n"
        "tags:\n- attention\n- math\n- ML\nupdated: '2021-03-05'\ntoc: true\n---\n"
    )
    assert "$$\nw_i = \\frac{e^{s_i / \\tau}}{\\sum_j e^{s_j / \\tau}}\n$$ {#eq-softmax}" in post
    assert "As @eq-softmax shows" in post
    assert "![The weights at $\\tau = 1$.](plot.png){#fig-softmax-1 width=60%}" in post
    assert "```python\ndef softmax(s):" in post and "::: {.callout-note}" in post
    assert (site / "content" / "posts" / "softmax" / "plot.png").read_bytes() == PNG
    build(load_config(site), site / "public", jobs=1, use_cache=False)
    page = (site / "public" / "posts" / "softmax" / "index.html").read_text()
    assert "<math" in page and "<figcaption" in page and 'class="callout' in page


def test_pelican_pages_and_the_repositorys_readme_are_not_posts(tmp_path: Path) -> None:
    source = pelican_site(tmp_path / "blog")
    files, _ = find_posts(source, "jekyll")
    assert [p.relative_to(source).as_posix() for p in files] == ["content/posts/softmax.rst"]


def test_a_nikola_post_takes_its_metadata_from_comments_or_its_meta_file(tmp_path: Path) -> None:
    """Nikola's ``.. title:`` lines (a ``draft`` tag, ``UTC+11:00`` dates), or a ``.meta``
    file beside the post; its ``POSTS`` globs say where posts are."""
    blog = tmp_path / "blog"
    (blog / "posts").mkdir(parents=True)
    (blog / "stories").mkdir()
    (blog / "conf.py").write_text(
        'POSTS = (\n    ("posts/*.rst", "posts", "post.tmpl"),\n'
        '    # ("drafts/*.rst", "posts", "post.tmpl"),\n)\nPAGES = (("stories/*.rst", "", "x"),)\n'
    )
    (blog / "posts" / "a.rst").write_text(
        ".. title: Gaussian processes\n.. slug: gp\n.. date: 2015-10-28 16:31:44 UTC+11:00\n"
        ".. tags: ml, draft\n.. description: A kernel view.\n\nA title of its own\n"
        "==================\n\nText :doc:`the other <b>`.\n"
    )
    (blog / "posts" / "b.rst").write_text("Body of b.\n")
    (blog / "posts" / "b.meta").write_text("Old style\nold-style\n2012/03/30 23:00\n")
    (blog / "stories" / "about.rst").write_text("About.\n")
    files, _ = find_posts(blog, "jekyll")
    assert [p.name for p in files] == ["a.rst", "b.rst"] and engine(blog, "jekyll") == "Nikola"
    a = convert_post(files[0], Path("a.rst"), "jekyll", [blog])
    assert a.slug == "gp" and a.text == (
        "---\ntitle: Gaussian processes\ndate: '2015-10-28T16:31:44+11:00'\n"
        "description: A kernel view.\ntags:\n- ml\ndraft: true\n---\n\n"
        "## A title of its own\n\nText [the other](../b/).\n"
    )
    b = convert_post(files[1], Path("b.rst"), "jekyll", [blog])
    assert b.slug == "old-style" and "title: Old style\ndate: '2012-03-30T23:00:00'" in b.text


def test_nikolas_txt_and_markdown_posts_come_across_with_their_metadata(tmp_path: Path) -> None:
    """Nikola reads ``.txt`` posts as reST (its ``POSTS`` says where), and a Markdown
    post keeps its ``.. title:`` lines in an HTML comment at the top."""
    blog = tmp_path / "blog"
    (blog / "posts").mkdir(parents=True)
    (blog / "conf.py").write_text(
        'POSTS = (\n    ("posts/*.txt", "posts", "post.tmpl"),\n'
        '    ("posts/*.md", "posts", "post.tmpl"),\n)\n'
    )
    (blog / "posts" / "old.txt").write_text(".. title: Old\n.. date: 2013-01-02\n\n*Text*.\n")
    (blog / "posts" / "new.md").write_text(
        "<!--\n.. title: New one\n.. slug: new-one\n.. date: 2020-05-06 07:08:09 UTC\n"
        ".. tags: ml\n-->\n\nBody with $x$.\n"
    )
    (blog / "requirements.txt").write_text("nikola\n")
    files, _ = find_posts(blog, "jekyll")
    assert sorted(p.name for p in files) == ["new.md", "old.txt"]
    old = convert_post(blog / "posts" / "old.txt", Path("old.txt"), "jekyll", [blog])
    assert old.text == "---\ntitle: Old\ndate: '2013-01-02'\n---\n\n*Text*.\n"
    new = convert_post(blog / "posts" / "new.md", Path("new.md"), "jekyll", [blog])
    assert new.slug == "new-one"
    assert new.text.startswith("---\ntitle: New one\ndate: '2020-05-06T07:08:09Z'\ntags:\n- ml\n")
    assert new.text.endswith("Body with $x$.\n") and "<!--" not in new.text


def test_an_ablog_post_directive_is_its_front_matter(tmp_path: Path) -> None:
    blog = tmp_path / "blog"
    (blog / "posts").mkdir(parents=True)
    (blog / "conf.py").write_text('extensions = ["ablog"]\n')
    (blog / "index.rst").write_text("Home\n====\n\n.. postlist::\n")
    (blog / "posts" / "first.rst").write_text(
        ".. post:: Jan 31, 2020\n   :tags: sphinx, blogging\n   :category: News\n\n"
        "First post\n==========\n\nHello.\n"
    )
    files, _ = find_posts(blog, "jekyll")
    assert [p.name for p in files] == ["first.rst"] and engine(blog, "jekyll") == "ABlog"
    post = convert_post(files[0], Path("first.rst"), "jekyll", [blog])
    assert post.text == (
        "---\ntitle: First post\ndate: '2020-01-31'\ntags:\n- sphinx\n- blogging\n- News\n---\n"
        "\nHello.\n"
    )


def test_broken_rst_is_reported_by_line_and_never_printed_or_raised(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """docutils writes its messages to stderr and can raise on bad input; here each is a
    note at its line, and a post never reads another file (``include``)."""
    post = tmp_path / "post.rst"
    post.write_text(
        "T\n#\n\n:date: 2024-01-01\n\nAn *unclosed emphasis.\n\n.. include:: /etc/passwd\n\n"
        "- a list\nnot indented\n\n.. figure::\n\n`link <broken_\n"
    )
    converted = convert_post(post, Path("post.rst"), "jekyll", [tmp_path])
    assert capfd.readouterr().err == ""
    notes = [str(n) for n in converted.notes.notes]
    assert "post.rst:6: reST: Inline emphasis start-string without end-string." in notes
    assert any(n.startswith("post.rst:8: reST: ") and "include" in n for n in notes)
    assert "root:" not in converted.text
    assert all(n.split(":")[1].isdigit() for n in notes)


def test_a_line_longer_than_docutils_limit_keeps_the_post(tmp_path: Path) -> None:
    """docutils (0.17 on) drops the whole document at a line past 10 000 characters, as
    a pasted test case in a LeetCode post has; the post came across empty."""
    post = tmp_path / "post.rst"
    case = ", ".join(["1"] * 6000)
    post.write_text(f"T\n#\n\n:date: 2016-02-26\n\nIntro.\n\n::\n\n    [{case}]\n")
    converted = convert_post(post, Path("post.rst"), "jekyll", [tmp_path])
    assert "Intro.\n\n```\n[1, 1," in converted.text and not converted.notes.notes


def test_pelicans_tags_are_split_at_commas_only(tmp_path: Path) -> None:
    """``:tags: Blog Setup`` is one tag in Pelican; split at every space (Jekyll's rule
    for a string without a comma) it was two."""
    post = tmp_path / "post.rst"
    post.write_text("T\n#\n\n:date: 2018-02-01\n:tags: Blog Setup\n\nText.\n")
    converted = convert_post(post, Path("post.rst"), "jekyll", [tmp_path])
    assert "tags:\n- Blog Setup\n" in converted.text
