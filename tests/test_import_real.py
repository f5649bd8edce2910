"""What a blind set of real blogs found on import (issue 25): each fix proven on a small
site shaped like the real one."""

from __future__ import annotations

from pathlib import Path

from site_builder.importer import convert_post, import_posts
from site_builder.importer.finding import detect
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


def test_a_quarto_posts_own_mathjax_macros_come_across_in_its_front_matter(
    tmp_path: Path,
) -> None:
    """``format: html: include-in-header:`` in a post configures MathJax for that page:
    its macros become the post's ``math: {macros}``, and the import's check uses them."""
    old = tmp_path / "old"
    (old / "posts").mkdir(parents=True)
    (old / "_quarto.yml").write_text("project:\n  type: website\n")
    (old / "posts" / "p.qmd").write_text(
        "---\ntitle: P\ndate: 2024-04-28\nformat:\n   html:\n      include-in-header:\n"
        "         - text: |\n            <script>\n              window.MathJax = {\n"
        "                tex: {\n                  macros: {\n"
        '                     RR: "{\\\\bf R}",\n'
        '                     ut: ["\\\\underbrace{#1}_{\\\\text{#2}}", 2],\n'
        '                     "a-b": "x"\n'
        "                  }\n                }\n              };\n            </script>\n"
        "---\n\n$\\ut{x}{cost} \\in \\RR$\n"
    )
    site = make_site(tmp_path / "site", ROOT)
    report = import_posts(old, site / "content" / "posts")
    assert (
        (site / "content" / "posts" / "p.md")
        .read_text()
        .startswith(
            "---\ntitle: P\ndate: '2024-04-28'\nmath:\n  macros:\n    RR: '{\\bf R}'\n"
            "    ut: \\underbrace{#1}_{\\text{#2}}\n---\n"
        )
    )
    assert report.posts[0].failed == 0
    assert [str(n) for n in report.notes] == [
        "old/posts/p.qmd:14: macro \\a-b not read: "
        "site.yaml's macro names are letters, or one symbol (\\|)"
    ]


def test_a_field_a_bib_entry_repeats_is_dropped_and_reported(tmp_path: Path) -> None:
    """BibTeX keeps the first ``url`` and warns; the build would stop on the second. It
    also warns of a name with too many commas, where the build stops: braced, one name."""
    old = tmp_path / "old"
    (old / "posts").mkdir(parents=True)
    (old / "_quarto.yml").write_text("project:\n  type: website\n")
    (old / "posts" / "ai.bib").write_text(
        "@misc{arm2021,\n  title = {On {GPT}, in Catalan},\n  url = {https://a.org/1},\n"
        "  year = {2021},\n  url = {https://a.org/2}\n}\n"
        "@report{ilo2020,\n  author   = {ILO, OECD, IMF, WB},\n  year = {2020}\n}\n"
        "@misc{baily2023,\n  author = {Baily, Martin\\,Neil and Korinek, Anton},\n}\n"
    )
    (old / "posts" / "p.qmd").write_text(
        "---\ntitle: P\ndate: 2024-01-01\nbibliography: ai.bib\n---\n\n"
        "As [@arm2021; @ilo2020; @baily2023].\n"
    )
    site = make_site(tmp_path / "site", ROOT)
    report = import_posts(old, site / "content" / "posts")
    assert (site / "content" / "posts" / "p" / "ai.bib").read_text() == (
        "@misc{arm2021,\n  title = {On {GPT}, in Catalan},\n  url = {https://a.org/1},\n"
        "  year = {2021}\n}\n"
        "@report{ilo2020,\n  author   = {{ILO, OECD, IMF, WB}},\n  year = {2020}\n}\n"
        "@misc{baily2023,\n  author = {Baily, Martin Neil and Korinek, Anton},\n}\n"
    )
    assert [str(n) for n in report.notes] == [
        "old/posts/p.qmd:1: ai.bib: repeated fields dropped (the first kept): arm2021.url",
        "old/posts/p.qmd:1: ai.bib: names BibTeX would split wrongly, kept whole: "
        "ILO, OECD, IMF, WB; Baily, Martin\\,Neil",
    ]


def test_an_author_written_as_html_is_its_text(tmp_path: Path) -> None:
    """A theme that printed ``author:`` as HTML, with a Liquid ``{{ site.url }}`` link."""
    post = tmp_path / "2016-09-19-d.md"
    post.write_text(
        '---\ntitle: D\nauthor: <a class="author-name" href="{{ site.url }}">Dustin Tran</a>'
        ' and <a href="http://e.org/">David Blei</a>\n---\n\nText.\n'
    )
    converted = convert_post(post, Path(post.name), "jekyll", [tmp_path])
    assert "author: Dustin Tran and David Blei\n" in converted.text


def test_an_unpublished_jekyll_post_is_a_draft_named_at_its_line(tmp_path: Path) -> None:
    post = tmp_path / "2017-12-18-b.markdown"
    post.write_text("---\nlayout: post\ntitle: B\ncomments: false\npublished: false\n---\n\nB.\n")
    converted = convert_post(post, Path(post.name), "jekyll", [tmp_path])
    assert "draft: true\n" in converted.text
    assert [str(n) for n in converted.notes.notes] == [
        "2017-12-18-b.markdown:5: draft: kept as a draft, as on the old site: "
        "the build leaves it out"
    ]


def test_tex_in_prose_without_delimiters_is_reported(tmp_path: Path) -> None:
    """The author forgot the ``$``: the old page showed ``\\int`` as text, so does this
    one, and ``import`` says where (math, code and ``C:\\Users`` are not TeX in prose)."""
    post = tmp_path / "2022-04-04-n.markdown"
    post.write_text(
        "---\ntitle: N\n---\n\nThe model is then p(X) = \\int p(X|u)p(u) du, and $\\int x$.\n"
        "\n`\\frac{a}{b}` in C:\\Users.\n"
    )
    converted = convert_post(post, Path(post.name), "jekyll", [tmp_path])
    assert [str(n) for n in converted.notes.notes] == [
        "2022-04-04-n.markdown:5: LaTeX \\int outside math: shown as text, as it was"
    ]


def test_backslash_brackets_in_a_quarto_post_are_reported(tmp_path: Path) -> None:
    post = tmp_path / "p.qmd"
    post.write_text("---\ntitle: P\ndate: 2025-06-14\n---\n\nSo:\n\\[\n\\sigma^2\n\\]\n")
    converted = convert_post(post, Path(post.name), "quarto", [tmp_path])
    assert "$$\n\\sigma^2\n$$" in converted.text
    assert [str(n) for n in converted.notes.notes] == [
        "p.qmd:7: \\[...\\] not math for Quarto (Pandoc's tex_math_single_backslash is off "
        "by default): brought across as math"
    ]


def test_a_name_part_pybtex_cannot_decode_is_text_not_a_traceback() -> None:
    """``Baily, Martin\\,Neil`` left pybtex a lineage ``Martin\\``: the build ended in a
    ``UnicodeDecodeError`` traceback."""
    from site_builder.bibliography import _latex

    assert _latex("Martin\\") == "Martin"


def test_a_reference_to_no_equation_is_shown_as_mathjax_showed_it(tmp_path: Path) -> None:
    """``\\eqref{x}`` in prose to a label no formula has: MathJax drew "(???)" and the page
    stood. The import names it as a formula that fails, writes ``math: {errors: show}``,
    and the build shows the reference in the marked box, with a warning."""
    from site_builder.build import build
    from site_builder.config import load_config

    old = tmp_path / "old"
    (old / "_posts").mkdir(parents=True)
    (old / "_posts" / "2020-01-01-flows.md").write_text(
        "---\ntitle: Flows\n---\n\n$$ y = f(x) \\label{eq:one} $$\n\n"
        "By \\eqref{eq:one} and \\eqref{eq:paper}, it holds.\n"
    )
    site = make_site(tmp_path / "site", ROOT)
    report = import_posts(old, site / "content" / "posts")
    assert [p.failed for p in report.posts] == [1]
    assert any("\\eqref{eq:paper} refers to no equation" in str(n) for n in report.notes)
    assert "errors: show" in (site / "site.yaml").read_text()
    build(load_config(site), site / "public")
    page = (site / "public" / "posts" / "flows" / "index.html").read_text()
    assert 'href="#eq-one">(1)</a>' in page
    assert '<code class="math-error" title="\\eqref{eq:paper} refers to no equation' in page


def hugo_bundles(root: Path, passthrough: str) -> Path:
    """Two page bundles from Hugo's archetype (``slug = ""``), one formula in each kind of
    delimiter, written for Goldmark: ``\\\\,`` where MathJax was to see ``\\,``."""
    (root / "content" / "posts").mkdir(parents=True)
    (root / "config.toml").write_text('title = "Old"\n' + passthrough)
    for name in ("first-post", "second-post"):
        (root / "content" / "posts" / name).mkdir()
        (root / "content" / "posts" / name / "index.md").write_text(
            f'+++\ndate = 2022-08-14T16:43:54+02:00\ntitle = "{name}"\nslug = ""\n+++\n\n'
            "Inline $\\int u^2 \\\\, dx$ here.\n\n$$\nJ = \\int u^2 \\\\, dx\n$$\n\n"
            "$$\na \\\\ b\n$$\n"
        )
    return root


def test_hugo_passthrough_of_some_delimiters_unescapes_the_others(tmp_path: Path) -> None:
    """``passthrough.delimiters`` naming ``$$`` and ``\\(`` only: Goldmark read ``$...$`` as
    Markdown and took a backslash from ``\\\\,``, MathJax saw ``\\,``; ``$$`` reached it
    as written. An empty ``slug = ""`` names no slug: the folder does."""
    passthrough = (
        "[markup.goldmark.extensions.passthrough]\nenable = true\n"
        "[markup.goldmark.extensions.passthrough.delimiters]\n"
        "block = [['$$', '$$']]\ninline = [['\\(', '\\)']]\n"
    )
    site = make_site(tmp_path / "site", ROOT)
    report = import_posts(hugo_bundles(tmp_path / "old", passthrough), site / "content" / "posts")
    posts = site / "content" / "posts"
    assert (posts / "second-post.md").is_file() and not (posts / "section.md").exists()
    written = (site / "content" / "posts" / "first-post.md").read_text()
    assert "Inline $\\int u^2 \\, dx$ here." in written
    # ``\\,`` in a ``$$`` passed through: written for Markdown all the same (before the
    # site turned passthrough on); a real row break stays.
    assert "J = \\int u^2 \\, dx" in written and "a \\\\ b" in written
    notes = [str(n) for n in report.notes]
    assert "old/content/posts/first-post/index.md:9: 1 formula(s) escaped for Markdown" in notes[0]


def test_a_hugo_sites_own_shortcodes_are_expanded_from_their_templates(tmp_path: Path) -> None:
    """``layouts/shortcodes/pair.html`` placing ``.Get`` values in HTML is expanded as Hugo
    would (its images found and copied); one with ``.Inner | markdownify`` keeps the inner
    Markdown rendering; one running Go code (``range``) is left to the report."""
    old = tmp_path / "old"
    (old / "layouts" / "shortcodes").mkdir(parents=True)
    (old / "content" / "posts" / "seg").mkdir(parents=True)
    (old / "hugo.toml").write_text('title = "Old"\n')
    shortcodes = old / "layouts" / "shortcodes"
    (shortcodes / "pair.html").write_text(
        '<figure>\n\t<div class="two">\n\t\t<img src="{{ .Get "first" }}">\n'
        '\t\t<img src="{{ .Get "second" }}">\n\t</div>\n'
        '    <figcaption><p>{{ .Get "caption" }}</p></figcaption>\n</figure>'
    )
    (shortcodes / "pic.html").write_text(
        '{{- $src := .Get 0 -}}\n{{- $alt := .Get "alt" | default "A picture" -}}\n'
        '<img src="{{ $src }}" alt="{{ $alt }}">'
    )
    (shortcodes / "note.html").write_text('<div class="note">\n{{ .Inner | markdownify }}\n</div>')
    (shortcodes / "video.html").write_text(
        '{{ range .Page.Resources.Match (printf "%s*" (.Get 0)) }}<video></video>{{ end }}'
    )
    post = old / "content" / "posts" / "seg"
    for name in ("a.png", "b.png"):
        (post / name).write_bytes(b"\x89PNG\r\n\x1a\n")
    (post / "index.md").write_text(
        '+++\ndate = 2022-08-14\ntitle = "Seg"\n+++\n\n'
        '{{< pair first="a.png" second="b.png" caption="Two cuts" >}}\n\n'
        '{{< pic "b.png" >}}\n\n'
        '{{% note %}}A *note* with $x$.{{% /note %}}\n\n{{< video "clip" >}}\n'
    )
    site = make_site(tmp_path / "site", ROOT)
    report = import_posts(old, site / "content" / "posts")
    written = (site / "content" / "posts" / "seg" / "index.md").read_text()
    assert (
        '<figure>\n<div class="two">\n<img src="a.png">\n<img src="b.png">\n</div>\n'
        "<figcaption><p>Two cuts</p></figcaption>\n</figure>"
    ) in written
    assert '<div class="note">\n\nA *note* with $x$.\n\n</div>' in written
    assert '<img src="b.png" alt="A picture">' in written
    assert (site / "content" / "posts" / "seg" / "b.png").is_file()
    assert [str(n) for n in report.notes] == [
        'old/content/posts/seg/index.md:12: Hugo shortcode not converted: {{< video "clip" >}}'
    ]


def test_pelican_metadata_lines_are_front_matter(tmp_path: Path) -> None:
    """Pelican's posts open with ``Title:``/``Date:`` lines, not ``---``: without reading
    them every post was an undated page titled from its file name. A first paragraph
    that only looks so (``Note: ...``) stays text."""
    old = tmp_path / "old" / "content"
    old.mkdir(parents=True)
    (old.parent / "pelicanconf.py").write_text("AUTHOR = 'A'\n")
    (old / "heaps.md").write_text(
        "Title: Binary heaps\nDate: 2016-06-28\nTags: data structures, sampling\n"
        "Category: misc\nStatus: draft\n\nA heap $h$.\n"
    )
    (old / "note.md").write_text("Note: not metadata.\nSecond: line.\n\nText.\n")
    site = make_site(tmp_path / "site", ROOT)
    import_posts(tmp_path / "old", site / "content" / "posts")
    assert (site / "content" / "posts" / "heaps.md").read_text() == (
        "---\ntitle: Binary heaps\ndate: '2016-06-28'\ntags:\n- data structures\n- sampling\n"
        "- misc\ndraft: true\n---\n\nA heap $h$.\n"
    )
    assert "Note: not metadata." in (site / "content" / "pages" / "note.md").read_text()


def test_pelicans_static_placeholders_find_their_images(tmp_path: Path) -> None:
    """``![plot]({static}/images/plot.png)`` (from the content folder) and ``{attach}``
    relative to the post: both were left out as images not found."""
    old = tmp_path / "old" / "content"
    (old / "images").mkdir(parents=True)
    (old / "posts").mkdir()
    (old.parent / "pelicanconf.py").write_text("AUTHOR = 'A'\n")
    (old / "images" / "plot.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (old / "posts" / "a.md").write_text(
        "Title: A\nDate: 2021-03-04\n\n![plot]({static}/images/plot.png) and "
        '<img src="{attach}../images/plot.png" alt="again">\n'
    )
    site = make_site(tmp_path / "site", ROOT)
    report = import_posts(tmp_path / "old", site / "content" / "posts")
    written = (site / "content" / "posts" / "a" / "index.md").read_text()
    assert "![plot](plot.png)" in written and "{static}" not in written, written
    assert '<img src="plot.png" alt="again">' in written  # one copy of the one file
    assert sorted(p.name for p in (site / "content/posts/a").iterdir()) == ["index.md", "plot.png"]
    assert [str(n) for n in report.notes] == []


def test_tufte_figures_are_figures(tmp_path: Path) -> None:
    """Tufte-Jekyll's ``{% maincolumn %}``, ``{% fullwidth %}`` and ``{% marginfigure %}``
    were Liquid tags left out, their images with them."""
    old = tmp_path / "old"
    (old / "_posts").mkdir(parents=True)
    (old / "assets" / "img").mkdir(parents=True)
    (old / "assets" / "img" / "a.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (old / "_posts" / "2020-01-01-t.md").write_text(
        "---\ntitle: T\n---\n\n{% maincolumn 'assets/img/a.png' 'Main' %}\n\n"
        "{% fullwidth 'assets/img/a.png' 'Wide' %}\n\n"
        "{% marginfigure 'mf-1' 'assets/img/a.png' 'Margin' %}\n"
    )
    site = make_site(tmp_path / "site", ROOT)
    report = import_posts(old, site / "content" / "posts")
    written = (site / "content" / "posts" / "t" / "index.md").read_text()
    for caption, number in (("Main", 1), ("Wide", 2), ("Margin", 3)):
        assert f"![{caption}](a.png){{#fig-t-{number}}}" in written
    assert [str(n) for n in report.notes] == []


def test_a_hugo_config_yml_is_read_for_the_format_and_its_passthrough(tmp_path: Path) -> None:
    """Hugo reads ``config.yml`` too: a site configured there was taken for Jekyll, and
    ``\\(...\\)`` in a list item, passed through to MathJax, stayed text."""
    old = tmp_path / "old"
    (old / "content" / "posts").mkdir(parents=True)
    (old / "config.yml").write_text(
        "title: Old\nmarkup:\n  goldmark:\n    extensions:\n      passthrough:\n"
        "        enable: true\n        delimiters:\n          inline:\n"
        "            - - '\\('\n              - '\\)'\n"
    )
    (old / "content" / "posts" / "a.md").write_text(
        "---\ntitle: A\ndate: 2024-01-01\n---\n\n* **C.**\n  \\(\\mathbb{E}_{x} [ y ]\\) holds.\n"
    )
    assert detect(old) == "hugo"
    site = make_site(tmp_path / "site", ROOT)
    import_posts(old, site / "content" / "posts")
    assert "  $\\mathbb{E}_{x} [ y ]$ holds." in (site / "content/posts/a.md").read_text()


def test_backslash_parentheses_in_a_quarto_post_are_math_too(tmp_path: Path) -> None:
    """``\\( \\alpha_{2}-\\alpha_{1} \\)``: Pandoc printed ``( _{2}-_{1} )`` (it drops
    ``\\alpha`` as raw TeX); the author meant math, as with ``\\[...\\]``."""
    post = tmp_path / "p.qmd"
    post.write_text("---\ntitle: P\ndate: 2025-06-14\n---\n\nDensity for \\( \\alpha_{2} \\).\n")
    converted = convert_post(post, Path(post.name), "quarto", [tmp_path])
    assert "Density for $\\alpha_{2}$." in converted.text
    assert [str(n) for n in converted.notes.notes] == [
        "p.qmd:6: \\(...\\) not math for Quarto (Pandoc's tex_math_single_backslash is off "
        "by default): brought across as math"
    ]


def test_links_between_the_old_posts_point_at_their_new_pages(tmp_path: Path) -> None:
    """Pelican's dated ``ARTICLE_URL``, a title's slug, ``Slug:`` and the site's own host:
    each link to another post of the blog was broken once the posts moved to
    ``posts/<slug>/``. A tag listing, code and other hosts' pages stay as they were."""
    old = tmp_path / "old"
    (old / "content").mkdir(parents=True)
    (old / "pelicanconf.py").write_text("SITEURL = 'https://me.github.io'\n")
    (old / "content" / "2012-08-18-anim.md").write_text(
        "Title: Matplotlib Animation Tutorial\nDate: 2012-08-18\n\nAnimations.\n"
    )
    (old / "content" / "topics.md").write_text(
        "Title: Topic models\nDate: 2013-01-01\nSlug: lda\n\nTopics.\n"
    )
    (old / "content" / "b.md").write_text(
        "Title: B\nDate: 2014-01-01\n\n"
        "See [the tutorial](/blog/2012/08/18/matplotlib-animation-tutorial/#setup),"
        " [LDA](../lda/), [again](https://me.github.io/blog/matplotlib-animation-tutorial.html),"
        " [tag](/tag/lda/) and [elsewhere](https://other.org/lda/).\n\n"
        "```\n[code](/lda/)\n```\n"
    )
    site = make_site(tmp_path / "site", ROOT)
    import_posts(old, site / "content" / "posts")
    text = (site / "content" / "posts" / "b.md").read_text()
    assert "[the tutorial](../anim/#setup)" in text
    assert "[LDA](../lda/)" in text
    assert "[again](../anim/)" in text
    assert "[tag](/tag/lda/)" in text and "(https://other.org/lda/)" in text
    assert "[code](/lda/)" in text


def test_the_names_of_a_post_are_read_from_its_front_matter_as_the_importer_reads_it(
    tmp_path: Path,
) -> None:
    """A post's old ``permalink:`` names it wherever its front matter has it (the links
    were matched against its first 40 lines only), and an author's ``url:`` under ``authors:``
    names the author's page, not the post (any line ``url:`` was taken as the post's)."""
    old = tmp_path / "old"
    (old / "_posts").mkdir(parents=True)
    tags = "".join(f"  - tag{n}\n" for n in range(40))
    (old / "_posts" / "2022-01-01-a.md").write_text(
        "---\ntitle: A\nslug: fresh\nauthors:\n  - name: Alice\n    url: /people/alice/\n"
        f"tags:\n{tags}permalink: /the-old-name/\n---\n\nText.\n"
    )
    (old / "_posts" / "2022-01-02-b.md").write_text(
        "---\ntitle: B\n---\n\nAs [in A](/the-old-name/), by [Alice](/people/alice/).\n"
    )
    site = make_site(tmp_path / "site", ROOT)
    import_posts(old, site / "content" / "posts")
    text = (site / "content" / "posts" / "b.md").read_text()
    assert "As [in A](../fresh/), by [Alice](/people/alice/)." in text


def test_a_pelican_post_showing_a_notebook_becomes_that_notebook(tmp_path: Path) -> None:
    """``{% notebook nb.ipynb cells[1:] %}`` (Pelican's liquid_tags): the post was the
    notebook's cells, and came across empty. It is a notebook post now, its front matter
    in a raw cell, its own text around the notebook's cells; a version 3 notebook too."""
    import json

    old = tmp_path / "old"
    (old / "content" / "notebooks").mkdir(parents=True)
    (old / "pelicanconf.py").write_text("")
    cells = [
        {"cell_type": "heading", "level": 1, "metadata": {}, "source": "Old title"},
        {"cell_type": "markdown", "metadata": {}, "source": "The sum $\\sum_i x_i$."},
        {
            "cell_type": "code",
            "collapsed": False,
            "input": "print(1)",
            "language": "python",
            "metadata": {},
            "outputs": [{"output_type": "stream", "stream": "stdout", "text": "1\n"}],
            "prompt_number": 1,
        },
    ]
    v3 = {"metadata": {"name": ""}, "nbformat": 3, "nbformat_minor": 0,
          "worksheets": [{"cells": cells, "metadata": {}}]}  # fmt: skip
    (old / "content" / "notebooks" / "nb.ipynb").write_text(json.dumps(v3))
    (old / "content" / "post.md").write_text(
        "Title: Sums\nDate: 2013-05-07\nTags: math\n\nBefore.\n\n"
        "{% notebook nb.ipynb cells[1:] %}\n\nAfter.\n"
    )
    site = make_site(tmp_path / "site", ROOT)
    report = import_posts(old, site / "content" / "posts")
    written = site / "content" / "posts" / "post" / "index.ipynb"
    data = json.loads(written.read_text())
    sources = ["".join(c["source"]) for c in data["cells"]]
    assert sources[0].startswith("---\ntitle: Sums\n") and "date: '2013-05-07'" in sources[0]
    assert sources[1:] == ["Before.", "The sum $\\sum_i x_i$.", "print(1)", "After."]
    assert "".join(data["cells"][3]["outputs"][0]["text"]) == "1\n"
    assert not [n for n in report.notes if "notebook" in n.message]


def test_links_to_a_posts_own_headings_point_at_their_ids_here(tmp_path: Path) -> None:
    """Hexo kept a Chinese heading's text as its id (``#机器字``, percent-encoded or not),
    nbconvert its case (``#Fundamental-Matrix``); ids here are slugs, and the links
    broke. A fragment no heading has, whose slug one has, is rewritten to it."""
    old = tmp_path / "old"
    (old / "_posts").mkdir(parents=True)
    (old / "_posts" / "2022-01-01-a.md").write_text(
        "---\ntitle: A\n---\n\n## 机器字\n\n## Fundamental Matrix\n\n## Kept {#mine}\n\n"
        "See [one](#机器字), [two](#%E6%9C%BA%E5%99%A8%E5%AD%97), [three](#Fundamental-Matrix),"
        " [four](#mine) and [five](#nowhere).\n"
    )
    (old / "_posts" / "2022-01-02-b.md").write_text(
        "---\ntitle: B\n---\n\nAs [in A](/2022/01/01/a.html#Fundamental-Matrix).\n"
    )
    site = make_site(tmp_path / "site", ROOT)
    import_posts(old, site / "content" / "posts")
    text = (site / "content" / "posts" / "a.md").read_text()
    assert "[one](#ji-qi-zi), [two](#ji-qi-zi), [three](#fundamental-matrix)" in text
    assert "[four](#mine) and [five](#nowhere)" in text
    other = (site / "content" / "posts" / "b.md").read_text()
    assert "[in A](../a/#fundamental-matrix)" in other


def test_a_link_to_a_repeated_heading_points_at_the_id_the_build_gives_it(
    tmp_path: Path,
) -> None:
    """Hexo gave a second ``## 机器`` the id ``机器-1``; the build here gives it
    ``ji-qi-1``, which the importer now reads from the build's own parse (it slugified
    each heading alone, knew only ``ji-qi``, and left the link broken). A ``# Setup``
    comment in a code block is no heading, so ``#Setup`` names nothing and is kept."""
    from site_builder.importer.frontmatter import split
    from site_builder.importer.report import PostNotes
    from site_builder.markdown import MarkdownContext, render

    old = tmp_path / "old"
    (old / "_posts").mkdir(parents=True)
    (old / "_posts" / "2022-01-01-a.md").write_text(
        "---\ntitle: A\n---\n\n## 机器\n\nOne.\n\n## 机器\n\nTwo.\n\n"
        "```sh\n# Setup\n```\n\n"
        "See [first](#机器), [second](#机器-1), [encoded](#%E6%9C%BA%E5%99%A8-1)"
        " and [code](#Setup).\n"
    )
    site = make_site(tmp_path / "site", ROOT)
    import_posts(old, site / "content" / "posts")
    written = site / "content" / "posts" / "a.md"
    text = written.read_text()
    assert "[first](#ji-qi), [second](#ji-qi-1), [encoded](#ji-qi-1)" in text
    assert "[code](#Setup)" in text
    body = split(text, PostNotes(written)).body
    assert [h.id for h in render(body, MarkdownContext(path="a.md")).headings] == [
        "ji-qi",
        "ji-qi-1",
    ]


def test_pelicans_include_code_and_video_tags(tmp_path: Path) -> None:
    """Pelican's liquid_tags (Octopress's heritage): ``{% include_code file.py lang:python
    Title %}`` reads ``content/<CODE_DIR>/file.py`` (the file first, where Hexo puts it
    last), ``{% video x.mp4 360 270 x.png %}`` is a video with its poster; both were
    Liquid left as comments, the code and the video lost. A post that also shows a
    notebook keeps the files its own text needs."""
    old = tmp_path / "old"
    for folder in ("content/downloads/code", "content/downloads/videos", "content/notebooks"):
        (old / folder).mkdir(parents=True)
    (old / "pelicanconf.py").write_text("CODE_DIR = 'downloads/code'\n")
    (old / "content/downloads/code/anim.py").write_text("print('hi')\n")
    (old / "content/downloads/videos/a.mp4").write_bytes(b"mp4")
    (old / "content/downloads/videos/a.png").write_bytes(b"png")
    (old / "content/notebooks/nb.ipynb").write_text(
        '{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}'
    )
    (old / "content/a.md").write_text(
        "Title: A\nDate: 2013-01-01\n\n{% include_code anim.py lang:python Basic Animation %}\n\n"
        "{% video /downloads/videos/a.mp4 360 270 /downloads/videos/a.png %}\n"
    )
    (old / "content/b.md").write_text(
        "Title: B\nDate: 2013-01-02\n\n{% video /downloads/videos/a.mp4 %}\n\n"
        "{% notebook nb.ipynb %}\n"
    )
    site = make_site(tmp_path / "site", ROOT)
    report = import_posts(old, site / "content" / "posts")
    assert [str(n) for n in report.notes] == []
    text = (site / "content/posts/a/index.md").read_text()
    assert "```python filename=\"Basic Animation\"\nprint('hi')\n```" in text
    video = 'src="downloads/videos/a.mp4" width="360" height="270"'
    assert f'<video {video} poster="downloads/videos/a.png" controls></video>' in text
    assert (site / "content/posts/b/downloads/videos/a.mp4").read_bytes() == b"mp4"
