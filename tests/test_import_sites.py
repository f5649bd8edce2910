"""``site-builder import`` on whole sites: undated pages, dates in every form the old
tools read, same-named bundles, pasted page wrappers (issue 25, items 7, 11 and 12)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from site_builder.build import build
from site_builder.cli import main
from site_builder.config import load_config
from site_builder.importer import convert_post, import_posts
from site_builder.importer.finding import detect, find_posts
from site_builder.importer.frontmatter import map_front_matter, split
from site_builder.importer.report import PostNotes
from tests.conftest import ROOT, make_site

DATA = Path(__file__).parent / "data" / "import"


@pytest.mark.parametrize(
    ("written", "iso"),
    [
        ("18 Oct 2020", "2020-10-18"),  # Jekyll (Ruby's Time.parse)
        ("18-08-2019", "2019-08-18"),  # Ruby: day first with dashes
        ("18.08.2019", "2019-08-18"),
        ("11-24-2021", "2021-11-24"),  # Quarto, month first: no month 24, so unambiguous
        ("10/18/2020", "2020-10-18"),  # Ruby and Quarto: month first with slashes
        ("2020/10/18", "2020-10-18"),
        ("October 18, 2020", "2020-10-18"),  # Hugo's "January 2, 2006", Quarto
        ("Sunday, 18th October 2020", "2020-10-18"),
        ("2020-10-18 10:00:00 +0100", "2020-10-18T10:00:00+01:00"),  # Jekyll's own docs
        ("2020-10-18 10:00", "2020-10-18T10:00"),
        ("Mon, 02 Jan 2006 15:04:05 MST", "2006-01-02T15:04:05-07:00"),  # Hugo: RFC 1123
        ("Mon Jan 2 15:04:05 -0700 2006", "2006-01-02T15:04:05-07:00"),  # Go's RubyDate
        ("2006-01-02 15:04:05.999999999 -0700 MST", "2006-01-02T15:04:05-07:00"),
        ("02 Jan 06 15:04 MST", "2006-01-02T15:04:00-07:00"),  # RFC 822
        ("May 4, 2022 5:30 PM", "2022-05-04T17:30:00"),
    ],
)
def test_dates_the_old_tools_read_are_dates(written: str, iso: str) -> None:
    notes = PostNotes(Path("p.md"))
    front = map_front_matter({"title": "T", "date": written}, None, notes, ("T", "x"))
    assert front["date"] == iso
    assert notes.notes == []


@pytest.mark.parametrize("written", ["March, 2020", "2020", "soon", "Feb 30, 2020", "32-01-2020"])
def test_a_date_without_its_day_is_no_date(written: str) -> None:
    notes = PostNotes(Path("p.md"))
    front = map_front_matter({"title": "T", "date": written}, None, notes, ("T", "x"))
    assert "date" not in front
    assert [n.message for n in notes.notes] == [f"date {written!r} is not a date"]


def course_site(root: Path) -> Path:
    """A course-notes site as Jekyll serves it: pages in folders, none dated."""
    (root / "_config.yml").parent.mkdir(parents=True)
    (root / "_config.yml").write_text("title: Notes\n")
    for part in ("representation", "learning"):
        (root / part / "directed").mkdir(parents=True)
        (root / part / "directed" / "index.md").write_text(
            f"---\nlayout: post\ntitle: Directed models ({part})\n---\n\nText of {part}.\n"
        )
    (root / "preliminaries").mkdir()
    (root / "preliminaries" / "index.md").write_text("---\ntitle: Preliminaries\n---\n\nA.\n")
    dated = root / "news"
    dated.mkdir()
    (dated / "launch.md").write_text("---\ntitle: Launch\ndate: 18 Oct 2020\n---\n\nNews.\n")
    return root


def test_undated_files_come_across_as_pages_and_namesakes_by_their_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A course's notes (Jekyll pages without ``date:``) were skipped; two bundles named
    ``directed`` collided and the second was skipped."""
    site = make_site(tmp_path / "site", ROOT)
    assert main(["-C", str(site), "import", str(course_site(tmp_path / "notes"))]) == 0
    out = capsys.readouterr()
    pages = site / "content" / "pages"
    first = (pages / "directed.md").read_text()  # the first in file order keeps its name
    second = (pages / "representation-directed.md").read_text()
    assert first == "---\ntitle: Directed models (learning)\n---\n\nText of learning.\n"
    assert second.startswith("---\ntitle: Directed models (representation)\n---\n")
    assert (pages / "preliminaries.md").is_file()
    launch = (site / "content" / "posts" / "launch.md").read_text()
    assert "date: '2020-10-18'" in launch
    assert (
        "notes/representation/directed/index.md: 'directed' is the slug of "
        "notes/learning/directed/index.md already: this one is 'representation-directed'"
    ) in out.err
    assert "notes/preliminaries/index.md:1: no date: brought across as an undated page" in out.err
    assert "Imported 4 of 4 jekyll posts (3 undated, as pages)" in out.out
    build(load_config(site), site / "public", jobs=1, use_cache=False)
    assert (
        "Text of representation."
        in (site / "public/representation-directed/index.html").read_text()
    )
    assert (site / "public/posts/launch/index.html").is_file()


def test_a_slug_the_site_had_is_never_renamed_or_overwritten(tmp_path: Path) -> None:
    into = tmp_path / "site" / "content" / "posts"
    (tmp_path / "site" / "content" / "pages").mkdir(parents=True)
    (tmp_path / "site" / "content" / "pages" / "directed.md").write_text("mine")
    report = import_posts(course_site(tmp_path / "notes"), into)
    assert (tmp_path / "site" / "content" / "pages" / "directed.md").read_text() == "mine"
    skipped = [p.skipped for p in report.posts if p.skipped]
    assert skipped == ["content/pages already has 'directed'; not overwritten"] * 2


def test_a_hugging_face_post_loses_its_page_wrapper_and_repeated_title(tmp_path: Path) -> None:
    report = import_posts(DATA / "hf", tmp_path / "content" / "posts")
    text = (tmp_path / "content" / "posts" / "annotated-rnn.md").read_text()
    assert text == (
        "---\ntitle: The Annotated RNN\ndate: '2022-06-07'\ntags:\n- research\n- guide\n"
        "author: nielsr and kashif\n---\n\n"
        "A recurrent network keeps a state $h_t = \\tanh(W h_{t-1} + U x_t)$ from step to step.\n"
    )
    assert [str(n) for n in report.notes] == []


def test_a_title_from_the_first_heading_or_the_file_name_is_reported(tmp_path: Path) -> None:
    post = tmp_path / "2021-02-05-rnn.md"
    post.write_text("---\nlayout: post\n---\n\n# Recurrent networks\n\nText.\n")
    converted = convert_post(post, Path(post.name), "jekyll", [tmp_path])
    assert converted.text.startswith("---\ntitle: Recurrent networks\ndate: '2021-02-05'\n")
    assert "# Recurrent" not in converted.text
    notes = [str(n) for n in converted.notes.notes]
    assert notes == [
        "2021-02-05-rnn.md:1: no title: used 'Recurrent networks' from its first heading"
    ]
    post.write_text("---\nlayout: post\n---\n\nText.\n")
    converted = convert_post(post, Path(post.name), "jekyll", [tmp_path])
    notes = [str(n) for n in converted.notes.notes]
    assert notes == ["2021-02-05-rnn.md:1: no title: used 'Rnn' from the file name"]


def test_an_empty_listing_page_is_skipped_and_the_site_builds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Chirpy's ``_tabs/tags.md`` (``layout: tags``, no text) came across as a page whose
    ``tags/`` collided with this site's own tags page: the build failed."""
    old = course_site(tmp_path / "notes")
    (old / "tags.md").write_text("---\nlayout: tags\nicon: fas fa-tags\norder: 2\n---\n\n")
    site = make_site(tmp_path / "site", ROOT)
    assert main(["-C", str(site), "import", str(old)]) == 0
    err = capsys.readouterr().err
    assert (
        "notes/tags.md: skipped: an undated page with no text of its own (the old layout "
        "'tags' filled it): nothing to bring across"
    ) in err
    assert not (site / "content" / "pages" / "tags.md").exists()
    build(load_config(site), site / "public", jobs=1, use_cache=False)
    assert (site / "public/tags/index.html").is_file()


def test_an_mdx_site_comes_across_without_its_javascript(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An Astro blog: .mdx posts dated ``pubDate``, imports, components and JSX comments;
    beside them the repository's README and node_modules, which hold no posts."""
    old = tmp_path / "astro"
    post = old / "src/content/blog/gp/index.mdx"
    post.parent.mkdir(parents=True)
    (old / "node_modules/pkg").mkdir(parents=True)
    (old / "node_modules/pkg/README.md").write_text("# A package\n")
    (old / "README.md").write_text("# My site\n\nRun `npm run dev`.\n")
    (post.parent / "gp.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    post.write_text(
        "---\ntitle: Gaussian processes\npubDate: 2023-04-05\n---\n"
        'import Figure from "../../components/Figure.astro";\n'
        'import { Callout,\n  Note } from "@/components";\n\n'
        "{/* a note to myself */}\n"
        "A GP is $f \\sim \\mathcal{GP}(m, k)$.\n\n"
        '<Figure src="./gp.png" alt="Samples from a GP" />\n\n'
        '<Callout type="info">\nThe kernel $k(x, x\')$ is positive definite.\n</Callout>\n\n'
        '<div className="note" style={{color: "red"}}>Note.</div>\n\n'
        '```js\nimport x from "y";\n<Foo />\n```\n'
    )
    site = make_site(tmp_path / "site", ROOT)
    before = set((site / "content").rglob("*.md"))
    (old / "astro.config.mjs").write_text("export default {};\n")
    assert main(["-C", str(site), "import", str(old)]) == 0
    out, err = capsys.readouterr()
    assert "Imported 1 of 1 Astro posts" in out  # read as Markdown, named as it was
    assert "index.mdx:5: MDX import/export statements dropped" in err
    assert "index.mdx:14: MDX component <Callout> not converted" in err
    assert set((site / "content").rglob("*.md")) - before == {site / "content/posts/gp/index.md"}
    body = (site / "content/posts/gp/index.md").read_text()
    assert body.startswith("---\ntitle: Gaussian processes\ndate: '2023-04-05'\n")
    assert "import" not in body.split("```")[0] and "{/*" not in body
    assert "![Samples from a GP](gp.png)" in body
    assert '<div class="note">Note.</div>' in body
    assert '```js\nimport x from "y";\n<Foo />\n```' in body  # code is left as it is
    build(load_config(site), site / "public", jobs=1, use_cache=False)
    page = (site / "public/posts/gp/index.html").read_text()
    assert "The kernel <math" in page and "Callout" not in page


def test_a_blogdown_source_gives_way_to_its_rendered_twin(tmp_path: Path) -> None:
    """blogdown renders ``x.Rmarkdown`` to ``x.markdown`` beside it; a lone ``.Rmd`` is
    the post itself, its ``{r}`` chunks kept as code."""
    posts = tmp_path / "blog/content/post"
    posts.mkdir(parents=True)
    (tmp_path / "blog/config.toml").write_text('title = "B"\n')
    front = "---\ntitle: {}\ndate: 2020-01-02\n---\n\n"
    (posts / "a.Rmarkdown").write_text(front.format("A") + "```{r}\nx <- 1\n```\n")
    (posts / "a.markdown").write_text(front.format("A") + "```r\nx <- 1\n## [1] 1\n```\n")
    (posts / "b.Rmd").write_text(
        front.format("B") + "```{r, fig.width=4}\n#| label: p\nplot(1)\n```\n\n"
        "```{r, echo=FALSE}\nhidden()\n```\n"
    )
    into = tmp_path / "site/content/posts"
    report = import_posts(tmp_path / "blog", into)
    assert [p.source.name for p in report.posts] == ["a.markdown", "b.Rmd"]
    assert "## [1] 1" in (into / "a.md").read_text()
    # as the old page showed it: no option lines, no cell whose code it hid
    assert "```r\nplot(1)\n```" in (into / "b.md").read_text()
    assert "hidden" not in (into / "b.md").read_text()


def test_a_pelican_img_tag_is_an_image_found_in_its_content_folder(tmp_path: Path) -> None:
    """``{% img /images/nn.png [nn] %}`` (Pelican's liquid_tags) was commented out as an
    unknown Liquid tag, its figure lost; ``/images/`` is ``content/images/`` there."""
    old = tmp_path / "old"
    (old / "content/images").mkdir(parents=True)
    (old / "content/posts").mkdir()
    (old / "pelicanconf.py").write_text("PATH = 'content'\nSTATIC_PATHS = ['images']\n")
    (old / "content/images/nn.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (old / "content/posts/fwd.md").write_text(
        "Title: Forward\nDate: 2018-07-18\n\nA network:\n\n{% img /images/nn.png [nn] %}\n\n"
        '{% img left http://e.org/a.png 300 200 "A title" "An alt" %}\n'
    )
    into = tmp_path / "site/content/posts"
    report = import_posts(old, into)
    assert [str(n) for n in report.notes] == []
    written = (into / "fwd/index.md").read_text()
    assert "![nn](nn.png)" in written and "![An alt](http://e.org/a.png)" in written
    assert (into / "fwd/nn.png").is_file()


def test_jekyll_scholar_citations_use_the_sites_bibliography(tmp_path: Path) -> None:
    """``{% cite key %}`` with the ``.bib`` named in ``_config.yml``'s ``scholar:`` block
    (not in the post): the key was kept as text and ``{% bibliography --cited %}``
    commented out, so the post had no references."""
    old = tmp_path / "old"
    (old / "_posts").mkdir(parents=True)
    (old / "_bib").mkdir()
    (old / "_config.yml").write_text(
        "plugins: [jekyll-scholar]\nscholar:\n  bibliography: biblio\n  bibliography_dir: _bib\n"
    )
    (old / "_bib/biblio.bib").write_text(
        "@book{levine2018,\n  author = {Levine, Sergey},\n  title = {Control as Inference},\n"
        "  year = {2018}\n}\n"
    )
    (old / "_posts/2020-01-01-cite.md").write_text(
        "---\ntitle: Cite\n---\nSoft RL {% cite levine2018 %} works.\n\n"
        "{% bibliography --cited %}\n"
    )
    site = make_site(tmp_path / "site", ROOT)
    report = import_posts(old, site / "content/posts")
    assert [str(n) for n in report.notes] == []
    post = site / "content/posts/cite"
    assert "Soft RL [@levine2018] works.\n" in (post / "index.md").read_text()
    assert "bibliography: biblio.bib" in (post / "index.md").read_text()
    assert (post / "biblio.bib").is_file()
    build(load_config(site), site / "public", jobs=1, use_cache=False)
    page = (site / "public/posts/cite/index.html").read_text()
    assert "Levine, S. (2018)" in page and "{%" not in page


def test_jekyll_scholar_bibliography_file_of_a_post(tmp_path: Path) -> None:
    """``{% bibliography --file normflow %}`` names the post's own ``.bib`` in the
    bibliography folder: the site's default one was read instead (the keys missing from
    it) and the tag was left to fix by hand."""
    old = tmp_path / "old"
    (old / "_posts").mkdir(parents=True)
    (old / "_bibliography").mkdir()
    (old / "_config.yml").write_text("plugins: [jekyll-scholar]\n")
    (old / "_bibliography/normflow.bib").write_text(
        "@article{rezende2015,\n  author = {Rezende, Danilo},\n  title = {Flows},\n"
        "  year = {2015}\n}\n"
    )
    (old / "_posts/2020-01-01-flows.md").write_text(
        "---\ntitle: Flows\n---\nFlows {% cite rezende2015 --file normflow %}.\n\n"
        "{% bibliography --file normflow %}\n"
    )
    site = make_site(tmp_path / "site", ROOT)
    report = import_posts(old, site / "content/posts")
    assert [str(n) for n in report.notes] == []
    written = (site / "content/posts/flows/index.md").read_text()
    assert "bibliography: normflow.bib" in written and "Flows [@rezende2015]." in written


def test_a_quarto_post_comes_with_the_output_its_frozen_render_kept(tmp_path: Path) -> None:
    """``freeze: auto`` keeps each post's last render in ``_freeze/``: its cells' printed
    output and figures came across as nothing ("kept as code; its output is not
    included") though the project held them."""
    old = tmp_path / "old"
    post = old / "posts/week-1.qmd"
    frozen = old / "_freeze/posts/week-1"
    (frozen / "execute-results").mkdir(parents=True)
    (frozen / "figure-html").mkdir()
    (old / "_quarto.yml").write_text("project:\n  type: website\nexecute:\n  freeze: auto\n")
    post.parent.mkdir()
    post.write_text("---\ntitle: Week 1\ndate: 2020-04-19\n---\n\n```{r}\nmean(x)\n```\n")
    (frozen / "figure-html/chunk-2-1.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    render = (
        "---\ntitle: Week 1\ndate: 2020-04-19\n---\n\n::: {.cell}\n\n```{.r .cell-code}\n"
        "mean(x)\n```\n\n::: {.cell-output .cell-output-stdout}\n```\n[1] 0.5288668\n```\n"
        ":::\n:::\n\n::: {.cell}\n::: {.cell-output-display}\n"
        "![](week-1_files/figure-html/chunk-2-1.png){width=672}\n:::\n:::\n"
    )
    (frozen / "execute-results/html.json").write_text(
        json.dumps({"hash": "x", "result": {"markdown": render, "supporting": []}})
    )
    into = tmp_path / "site/content/posts"
    report = import_posts(old, into)
    assert "_freeze/posts/week-1/execute-results/html.json (the last render" in str(report.notes[0])
    written = (into / "week-1/index.md").read_text()
    assert "```r\nmean(x)\n```" in written and "[1] 0.5288668" in written
    assert "![](chunk-2-1.png){width=672}" in written
    assert (into / "week-1/chunk-2-1.png").is_file()


def test_a_tab_after_a_front_matter_value_is_read_as_hexo_reads_it() -> None:
    """``date: 2024-03-07 20:26<TAB>``: js-yaml (Hexo) and Ruby's Psych take it; PyYAML
    refused, so the whole front matter was ignored and the post became an undated page."""
    notes = PostNotes(Path("p.md"))
    text = "---\ntitle: CF 1935\ndate: 2024-03-07 20:26\t\ntags:\n- acm\n---\nText.\n"
    source = split(text, notes)
    assert source.meta["title"] == "CF 1935" and source.meta["tags"] == ["acm"]
    assert notes.notes == []


def test_a_post_named_in_chinese_keeps_its_name_as_title_and_a_pinyin_slug(tmp_path: Path) -> None:
    """Hexo posts named ``矩阵分解.md`` with no ``title:``: the title came from the slug,
    "Ju zhen fen jie"; Hexo showed the file name."""
    old = tmp_path / "old/source/_posts"
    old.mkdir(parents=True)
    (old / "矩阵分解.md").write_text("---\ndate: 2021-03-04\n---\n\n正文 $A = LU$。\n")
    into = tmp_path / "site/content/posts"
    report = import_posts(tmp_path / "old", into)
    assert "矩阵分解.md:1: no title: used '矩阵分解' from the file name" in str(report.notes[0])
    assert (into / "ju-zhen-fen-jie.md").read_text().startswith("---\ntitle: 矩阵分解\n")


def test_a_zola_sites_shortcodes_become_math_figures_and_images(tmp_path: Path) -> None:
    """Zola was read as Hugo: ``{% m() %}...{% end %}`` and ``{% math() %}`` became HTML
    comments around TeX read as Markdown, and ``{% cap() %}`` captions lost their figure.
    What each template does decides what its uses become. ``[taxonomies]`` tags were lost
    and ``@/ml/other.md`` links left broken."""
    old = tmp_path / "old"
    (old / "templates/shortcodes").mkdir(parents=True)
    (old / "content/ml/post").mkdir(parents=True)
    (old / "config.toml").write_text('base_url = "https://x.org"\ncompile_sass = true\n')
    for name, template in (
        ("m", "${{ body | safe }}$"),
        ("math", "$${{ body | safe }}$$"),
        ("cap", "<figcaption>{{ body | markdown | safe }}</figcaption>"),
        ("img", '<p><img src="{{ src }}" alt="{{ alt }}"></p>'),
        ("note", '<div class="note">{{ body | markdown | safe }}</div>'),
    ):
        (old / "templates/shortcodes" / f"{name}.html").write_text(template)
    (old / "content/ml/post/flow.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (old / "content/ml/other.md").write_text('+++\ntitle = "Other"\ndate = 2025-06-01\n+++\nO.\n')
    (old / "content/ml/post/index.md").write_text(
        '+++\ntitle = "Zola math"\ndate = 2025-07-01\n[taxonomies]\ntags = ["vae", "flows"]\n+++\n'
        "As [before](@/ml/other.md#end), the loss "
        "{% m() %}\\mathcal{L}_{\\text{VAE}}{% end %} is minimised:\n\n"
        "{% math() %}\n\\mathcal{L} = \\mathbb{E}_{q_\\phi(z)}[\\log p(x_i)]\n{% end %}\n\n"
        '{{ img(src="flow.png", alt="flow") }}\n'
        "{% cap() %}Flow from $x_0$ to $x_1$.{% end %}\n\n"
        "{% note() %}Kept.{% end %}\n"
    )
    assert detect(old) == "zola"
    into = tmp_path / "site/content/posts"
    report = import_posts(old, into)
    assert [str(n) for n in report.notes] == [
        "old/content/ml/post/index.md:16: Zola shortcode note not converted: its body kept"
    ]
    written = (into / "post/index.md").read_text()
    assert (
        "As [before](../other/#end), the loss $\\mathcal{L}_{\\text{VAE}}$ is minimised:" in written
    )
    assert "\ntags:\n- vae\n- flows\n" in written  # Zola's [taxonomies]
    assert "$$\n\\mathcal{L} = \\mathbb{E}_{q_\\phi(z)}[\\log p(x_i)]\n$$" in written
    assert "![Flow from $x_0$ to $x_1$.](flow.png)" in written and "Kept." in written


def test_a_quarto_figure_whose_image_is_missing_loses_its_fences(tmp_path: Path) -> None:
    """``::: {#fig-regions}`` around an image missing from the repository: import left the
    image out and reported it, then the build stopped on a figure with no image."""
    old = tmp_path / "old/posts"
    old.mkdir(parents=True)
    (tmp_path / "old/_quarto.yml").write_text("project:\n  type: website\n")
    (old / "rvq.qmd").write_text(
        "---\ntitle: RVQ\ndate: 2023-06-12\n---\nQuantise $x$.\n\n::: {#fig-regions}\n"
        "![Regions](images/missing.png)\n\nRegions of k-means.\n:::\n"
    )
    site = make_site(tmp_path / "site", ROOT)
    report = import_posts(tmp_path / "old", site / "content/posts")
    assert sorted(str(n).split(": ", 1)[1] for n in report.notes) == [
        "figure ::: {#fig-regions} has no image (a cell or a filter drew it, or it was not found)",
        "image images/missing.png not found: left out of the post",
    ]
    build(load_config(site), site / "public", jobs=1, use_cache=False)
    assert "Regions of k-means." in (site / "public/posts/rvq/index.html").read_text()


def test_hexo_code_and_image_tags(tmp_path: Path) -> None:
    """Hexo's ``{% codeblock %}``, ``{% include_code %}`` (a file from
    ``source/downloads/code/``) and ``{% asset_img %}`` (the post's asset folder) were
    Liquid tags left as HTML comments: the code and the figure were lost."""
    old = tmp_path / "old"
    posts = old / "source/_posts"
    (posts / "heap").mkdir(parents=True)
    (old / "source/downloads/code/cpp").mkdir(parents=True)
    (old / "_config.yml").write_text("title: H\npost_asset_folder: true\n")
    (old / "source/downloads/code/cpp/heap.h").write_text("struct Heap {};\n")
    (posts / "heap/tree.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (posts / "heap.md").write_text(
        "---\ntitle: Heap\ndate: 2021-01-02\n---\n\n{% codeblock heap.py lang:python %}\n"
        "x = {{ 1 }}\n{% endcodeblock %}\n\n{% include_code skew lang:cpp cpp/heap.h %}\n\n"
        "{% asset_img tree.png The tree %}\n"
    )
    into = tmp_path / "site/content/posts"
    report = import_posts(old, into)
    assert [str(n) for n in report.notes] == []
    written = (into / "heap/index.md").read_text()
    assert '```python filename="heap.py"\nx = {{ 1 }}\n```' in written
    assert '```cpp filename="skew"\nstruct Heap {};\n```' in written
    assert "![The tree](heap/tree.png)" in written and (into / "heap/heap/tree.png").is_file()


def test_a_quarto_site_of_markdown_pages(tmp_path: Path) -> None:
    """A Quarto project whose notes are ``.md`` files (Quarto renders them as it does
    ``.qmd``): "no quarto posts found", as only an ``index.md`` was taken. A ``.md`` beside
    a ``.qmd`` of its name is still left to the ``.qmd``."""
    old = tmp_path / "old"
    (old / "docs/methods").mkdir(parents=True)
    (old / "_quarto.yml").write_text("project:\n  type: website\n")
    (old / "docs/methods/gd.md").write_text("---\ntitle: GD\n---\n\n$x_{k+1} = x_k$\n")
    (old / "docs/methods/sgd.qmd").write_text("---\ntitle: SGD\n---\n\nNoisy $g$.\n")
    (old / "docs/methods/sgd.md").write_text("---\ntitle: SGD render\n---\n\nRendered.\n")
    into = tmp_path / "site/content/posts"
    report = import_posts(old, into)
    assert sorted(p.source.name for p in report.posts) == ["gd.md", "sgd.qmd"]


def test_pandoc_spaced_image_paths_and_link_attributes(tmp_path: Path) -> None:
    """``![](GD 0.1.svg)`` (Pandoc takes spaces in a path; CommonMark shows the text) and
    ``[![](cn.svg)](clip.mp4){width=60%}`` (a key on a link, shown as text here)."""
    old = tmp_path / "old/posts/gd"
    old.mkdir(parents=True)
    (tmp_path / "old/_quarto.yml").write_text("project:\n  type: website\n")
    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>'
    (old / "GD 0.1.svg").write_text(svg)
    (old / "cn.svg").write_text(svg)
    (old / "index.qmd").write_text(
        "---\ntitle: GD\ndate: 2024-01-01\n---\n\n![](GD 0.1.svg){width=95%}\n\n"
        "[![](cn.svg)](https://example.org/cn.mp4){width=60%}\n"
    )
    site = make_site(tmp_path / "site", ROOT)
    report = import_posts(tmp_path / "old", site / "content/posts")
    assert [str(n) for n in report.notes] == []
    build(load_config(site), site / "public", jobs=1, use_cache=False)
    page = (site / "public/posts/gd/index.html").read_text()
    assert 'src="GD%200.1.svg"' in page and "{width" not in page


def test_a_hugo_sites_own_block_shortcodes_and_hugo_cite(tmp_path: Path) -> None:
    """A site's ``{{% env type="theorem" %}}``, ``{{% tmfigure src= %}}`` and nested
    ``{{% list %}}{{% item %}}`` templates do more than fill in: their bodies were hidden
    (a ``{%`` inside ``{{%`` was even read as Liquid, leaving ``{}`` on the page) and
    hugo-cite's ``{{< cite "k" >}}`` with ``data/bib.json`` lost every citation."""
    old = tmp_path / "old"
    (old / "layouts/shortcodes").mkdir(parents=True)
    (old / "data").mkdir()
    (old / "content/posts/p").mkdir(parents=True)
    (old / "hugo.toml").write_text('baseURL = "https://x.org/"\ntitle = "X"\n')
    busy = '{{- $t := .Get "type" -}}{{ if eq $t "proof" }}P{{ end }}<div>{{ .Inner }}</div>'
    for name, template in (
        ("env", busy),
        ("tmfigure", '{{ with .Get "src" }}<img src="{{ . }}">{{ end }}{{ .Inner }}'),
        ("list", "<div class='l'>{{ .Inner }}</div>"),
        ("item", '<p><strong>{{ .Get "title" }}.</strong> {{ .Inner | markdownify }}</p>'),
        ("cite", "{{ range .Params }}{{ index $.Site.Data.bib . }}{{ end }}"),
    ):
        (old / "layouts/shortcodes" / f"{name}.html").write_text(template)
    (old / "references.bib").write_text("@article{mine, title={Mine}, author={Me}, year={2020}}\n")
    (old / "data/bib.json").write_text(
        '[{"id": "Knuth1984", "type": "book", "title": "The TeXbook",'
        ' "author": [{"family": "Knuth", "given": "Donald"}], "issued": {"date-parts": [[1984]]}}]'
    )
    (old / "content/posts/p/plot.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (old / "content/posts/p/index.md").write_text(
        '---\ntitle: "P"\ndate: 2025-01-01\n---\n\nAs {{< cite "Knuth1984" >}} shows.\n\n'
        '{{% env type="theorem" title="Main" %}}\nAll $x$ are $x$.\n{{% /env %}}\n\n'
        '{{% env type="proof" %}}\nTrivial.\n{{% /env %}}\n\n'
        '{{% env type="remark" %}}\nA remark.\n\n{{% env type="lemma" %}}\nInner.\n'
        "{{% /env %}}\n{{% /env %}}\n\n"
        '{{% tmfigure src="plot.png" %}}\nThe *plot*.\n{{% /tmfigure %}}\n\n'
        '{{% list %}}\n{{% item title="A" %}}\nFirst.\n{{% /item %}}\n'
        '{{% item title="B" %}}\nSecond.\n{{% /item %}}\n{{% /list %}}\n\n'
        "{{< bibliography >}}\n"
    )
    site = make_site(tmp_path / "site", ROOT)
    report = import_posts(old, site / "content/posts")
    written = (site / "content/posts/p/index.md").read_text()
    assert "bibliography: bib.bib" in written and "As [@Knuth1984] shows." in written
    assert '::: {#thm-block-1 name="Main"}\nAll $x$ are $x$.\n:::' in written
    assert "::: {.proof}\nTrivial.\n:::" in written
    assert ':::: {.callout-note title="Remark"}\nA remark.' in written
    assert "::: {#lem-block-2}\nInner.\n:::\n::::" in written
    assert "![The *plot*.](plot.png){#fig-p-1}" in written
    assert "First." in written and "Second." in written and "{{" not in written
    assert [n.message for n in report.posts[0].notes] == [
        "bib.json (CSL JSON) written as bib.bib",
        "shortcode 'env' is a note here; its text is kept",
    ]
    build(load_config(site), site / "public")
    page = (site / "public/posts/p/index.html").read_text()
    assert "Knuth, D. (1984)" in page and "Theorem 1" in page and "Lemma 1" in page
    assert "{}" not in page and "<strong>B.</strong>" in page


def test_a_titles_parenthesised_math_is_a_formula() -> None:
    """``title: "Some constructions of \\\\(G_2\\\\)"``: MathJax typeset it in the old heading;
    copied as it was, the new page showed ``\\(G_2\\)``."""
    notes = PostNotes(Path("p.md"))
    meta = {
        "title": "Some constructions of \\(G_2\\)",
        "description": "On \\( \\mathfrak{g}_2 \\).",
    }
    front = map_front_matter(meta, "2024-11-14", notes, ("T", "x"))
    assert front["title"] == "Some constructions of $G_2$"
    assert front["description"] == "On $\\mathfrak{g}_2$."
    meta = {"title": "Parseval's Identity, and $$\\zeta(2)$$"}
    assert (
        map_front_matter(meta, None, notes, ("T", "x"))["title"]
        == "Parseval's Identity, and $\\zeta(2)$"
    )


def test_pelican_front_matter_in_any_case_and_not_yaml() -> None:
    """Pelican reads ``Title:``/``Date:`` in any case, and ``title: Models: Diffusion``
    between ``---`` lines as ``Key: value`` lines: both lost their title and date."""
    notes = PostNotes(Path("p.md"))
    text = "---\ntitle: Models: Diffusion\ndate: 2024-02-04 07:00\nSlug: diff\n---\n\nText.\n"
    assert split(text, notes).meta == {
        "title": "Models: Diffusion",
        "date": "2024-02-04 07:00",
        "slug": "diff",
    }
    assert [n.message.split(" (")[0] for n in notes.notes] == ["front matter is not YAML"]
    text = "---\nTitle: Spherical Harmonics\nDate: 2024-10-26 07:00\nTags: cs\ntitle_x: 1\n---\n"
    assert split(text, notes).meta == {
        "title": "Spherical Harmonics",
        "date": "2024-10-26 07:00",
        "tags": "cs",
        "title_x": 1,
    }


def test_an_include_that_only_loads_scripts_goes(tmp_path: Path) -> None:
    """``{% include katex.html %}`` at the top of each post loaded KaTeX and showed
    nothing: it goes (reported once); an include that shows text is still reported."""
    old = tmp_path / "old"
    (old / "_includes").mkdir(parents=True)
    (old / "_posts").mkdir()
    (old / "_includes/katex.html").write_text(
        '<link rel="stylesheet" href="katex.css">\n<script src="katex.js"></script>\n'
        "<script>renderMathInElement(document.body);</script>\n{% if page.x %}{% endif %}\n"
    )
    (old / "_includes/row.html").write_text("<tr><td>{{ include.a }}</td></tr>\n")
    (old / "_posts/2020-01-01-a.md").write_text(
        "---\ntitle: A\n---\n{% include katex.html %}\n\nText $x$.\n\n{% include row.html a=1 %}\n"
    )
    into = tmp_path / "site/content/posts"
    report = import_posts(old, into)
    written = (into / "a.md").read_text()
    assert "katex" not in written and "Text $x$." in written and "row.html" in written
    assert [n.message.split(":")[0] for n in report.notes] == [
        "1 include(s) of a file that only loads scripts or styles, which the build does without",
        "Liquid tag not converted",
    ]


def test_a_hexo_sites_scaffolds_drafts_and_themes_are_not_posts(tmp_path: Path) -> None:
    """Hexo keeps the templates of new posts in ``scaffolds/`` (``{{ title }}`` in them),
    unpublished drafts in ``source/_drafts/`` and theme docs in ``themes/``: all were
    imported as posts beside ``source/_posts/``."""
    old = tmp_path
    for name in (
        "scaffolds/post.md",
        "source/_drafts/d.md",
        "themes/next/docs/AGPL.md",
        "source/_posts/a.md",
        "source/about/index.md",
    ):
        (old / name).parent.mkdir(parents=True, exist_ok=True)
        (old / name).write_text("---\ntitle: {{ title }}\n---\n")
    (old / "_config.yml").write_text("title: Hexo\n")
    files, _ = find_posts(old, "jekyll")
    assert [str(p.relative_to(old)) for p in files] == [
        "source/_posts/a.md",
        "source/about/index.md",
    ]


def test_a_quarto_folders_metadata_gives_its_posts_a_bibliography(tmp_path: Path) -> None:
    """``posts/_metadata.yml`` sets ``bibliography: ../references.bib`` for each post in
    the folder: the import took only a post's own front matter, so a post citing
    ``[@k]`` stopped the build on a citation without a bibliography."""
    old = tmp_path / "old"
    (old / "posts/p").mkdir(parents=True)
    (old / "_quarto.yml").write_text("project:\n  type: website\n")
    (old / "posts/_metadata.yml").write_text("bibliography: ../references.bib\nfreeze: true\n")
    (old / "references.bib").write_text("@book{k, title={T}, author={A, B}, year={2000}}\n")
    (old / "posts/p/index.qmd").write_text("---\ntitle: P\ndate: 2024-01-01\n---\n\nAs [@k].\n")
    site = make_site(tmp_path / "site", ROOT)
    import_posts(old, site / "content/posts")
    written = (site / "content/posts/p/index.md").read_text()
    assert "bibliography: references.bib" in written and "As [@k]." in written
    build(load_config(site), site / "public")
    assert "A, B. (2000)" in (site / "public/posts/p/index.html").read_text()


def test_jekylls_collections_dir_and_underscored_folders(tmp_path: Path) -> None:
    """``collections_dir: collections`` keeps ``_posts`` under ``collections/``: the
    importer walked the whole site instead, ``TODO.md``, ``AGENTS.md`` and old drafts in
    ``_temp/`` with it. Without any ``_posts``, folders starting with ``_`` (which
    Jekyll does not render) are left out."""
    old = tmp_path / "old"
    names = ("collections/_posts/2020-01-01-a.md", "TODO.md", "AGENTS.md", "about.md", "_temp/x.md")
    for name in names:
        (old / name).parent.mkdir(parents=True, exist_ok=True)
        (old / name).write_text("---\ntitle: X\n---\nText.\n")
    (old / "_config.yml").write_text("collections_dir: collections\n")
    files, _ = find_posts(old, "jekyll")
    assert [str(p.relative_to(old)) for p in files] == ["collections/_posts/2020-01-01-a.md"]
    (old / "collections/_posts/2020-01-01-a.md").unlink()
    (old / "collections/_posts").rmdir()
    files, _ = find_posts(old, "jekyll")
    assert [str(p.relative_to(old)) for p in files] == ["about.md"]


def test_a_jekyll_site_of_collections_alone(tmp_path: Path) -> None:
    """No ``_posts``, but published collections: their files are the posts (walking the
    whole site instead had picked up its ``_pages`` and READMEs)."""
    old = tmp_path / "old"
    for name in ("_notes/a.md", "_drafts_old/b.md", "about.md"):
        (old / name).parent.mkdir(parents=True, exist_ok=True)
        (old / name).write_text("---\ntitle: X\n---\nText.\n")
    (old / "_config.yml").write_text("collections:\n  notes:\n    output: true\n")
    files, _ = find_posts(old, "jekyll")
    assert [str(p.relative_to(old)) for p in files] == ["_notes/a.md"]


def test_a_hugo_sites_own_video_and_image_shortcodes(tmp_path: Path) -> None:
    """``{{< webm-video file="v/x.webm" caption="C" >}}`` runs Go code (``resources.Get``)
    to show one video: the call was left to fix by hand, the video lost."""
    old = tmp_path / "old"
    (old / "layouts/shortcodes").mkdir(parents=True)
    (old / "assets/v").mkdir(parents=True)
    (old / "content/posts/p").mkdir(parents=True)
    (old / "hugo.toml").write_text('baseURL = "https://x.org/"\ntitle = "X"\n')
    (old / "layouts/shortcodes/webm-video.html").write_text(
        '{{ $video := resources.Get (.Get "file") }}<figure><video controls>'
        '<source src="{{ $video.Permalink }}"></video>{{ with .Get "caption" }}'
        "<figcaption>{{ . }}</figcaption>{{ end }}</figure>"
    )
    (old / "layouts/shortcodes/pic.html").write_text(
        '{{ $img := .Page.Resources.GetMatch (.Get 0) }}<img src="{{ $img.RelPermalink }}">'
    )
    (old / "assets/v/x.webm").write_bytes(b"\x1a\x45\xdf\xa3")
    (old / "content/posts/p/plot.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (old / "content/posts/p/index.md").write_text(
        '---\ntitle: "P"\ndate: 2025-01-01\n---\n\n'
        '{{< webm-video file="v/x.webm" caption="A robot." >}}\n\n{{< pic "plot.png" >}}\n'
    )
    site = make_site(tmp_path / "site", ROOT)
    import_posts(old, site / "content/posts")
    written = (site / "content/posts/p/index.md").read_text()
    assert '<video src="x.webm" controls muted playsinline></video>\n\nA robot.' in written
    assert "![](plot.png)" in written and "{{" not in written
    assert (site / "content/posts/p/x.webm").is_file()


def test_a_jekyll_post_written_in_html(tmp_path: Path) -> None:
    """``_posts/2015-06-11-softmax.html`` (front matter, then nbconvert's HTML): Jekyll
    published it as it was and MathJax typeset its text. No post was found at all."""
    old = tmp_path / "old"
    (old / "_posts/blog").mkdir(parents=True)
    (old / "_config.yml").write_text("title: Old\n")
    (old / "_posts/blog/2015-06-11-softmax.html").write_text(
        "---\ntitle: Softmax\n---\n"
        '<div class="cell"><div class="prompt input_prompt">In&nbsp;[1]:</div>\n'
        '<h2 id="S">The softmax<a class="anchor-link" href="#S">&#182;</a></h2>\n'
        "<p>The <a href='https://en.wikipedia.org/wiki/Softmax'>softmax</a>\n.\n"
        "Its outputs $y_i$ with $y_i &lt; 1$ sum to one:\n$$\\sum_i y_i = 1$$</p>\n"
        '<div class="highlight hl-ipython3"><pre><span class="kn">import</span> numpy</pre>'
        "</div><script>var x = $(document);</script></div>\n"
    )
    site = make_site(tmp_path / "site", ROOT)
    report = import_posts(old, site / "content/posts")
    assert report.posts and report.posts[0].failed == 0
    written = (site / "content/posts/softmax.md").read_text()
    assert "## The softmax\n" in written and "In [1]" not in written and "document" not in written
    assert "The [softmax](https://en.wikipedia.org/wiki/Softmax).\nIts outputs $y_i$" in written
    assert "$y_i < 1$" in written and "\n$$\n\\sum_i y_i = 1\n$$\n" in written
    assert "```python\nimport numpy\n```" in written
    build(load_config(site), site / "public")
    page = (site / "public/posts/softmax/index.html").read_text()
    assert page.count("<math") == 3 and 'display="block"' in page


def test_a_body_of_many_comments_ends(tmp_path: Path) -> None:
    """A post opening with many commented-out lines (``<!-- $$ -->``, ``<!-- \\\\( -->``...)
    and no heading made the leading-title search try every pairing of its comments: the
    import ran for hours. Run apart, so that a regression fails here instead of hanging."""
    import subprocess
    import sys

    body = "".join(f"<!-- line {i} -->\n" for i in range(40)) + "\nText $x$.\n"
    code = (
        "from site_builder.importer.page import leading_title\n"
        "from site_builder.importer.text import Text\n"
        f"print(leading_title(Text({body!r}, 1), 'T'))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "None"


def test_a_hexo_sites_files_are_found_under_its_source_folder(tmp_path: Path) -> None:
    """Hexo serves ``source/uploads/x.png`` at ``/uploads/x.png``: each such image was
    reported not found and left out of the post."""
    old = tmp_path / "old"
    (old / "source" / "_posts").mkdir(parents=True)
    (old / "source" / "uploads").mkdir()
    (old / "source" / "uploads" / "x.png").write_bytes(b"png")
    (old / "_config.yml").write_text("title: Hexo\n")
    (old / "source" / "_posts" / "a.md").write_text(
        "---\ntitle: A\ndate: 2022-01-01\n---\n\n"
        '![](/uploads/x.png)\n\n<img src="/uploads/x.png">\n'
    )
    site = make_site(tmp_path / "site", ROOT)
    report = import_posts(old, site / "content" / "posts")
    assert (site / "content" / "posts" / "a" / "x.png").read_bytes() == b"png"
    assert not report.notes
    text = (site / "content" / "posts" / "a" / "index.md").read_text()
    assert "](x.png)" in text and 'src="x.png"' in text


def test_an_image_under_the_sites_base_path_is_found(tmp_path: Path) -> None:
    """A Hugo site served at ``https://me.github.io/blog`` links ``/blog/images/x.png``,
    its ``static/images/x.png``: each such image was reported not found and left out."""
    old = tmp_path / "old"
    (old / "content" / "posts").mkdir(parents=True)
    (old / "static" / "images").mkdir(parents=True)
    (old / "static" / "images" / "x.png").write_bytes(b"png")
    (old / "config.toml").write_text('baseURL = "https://me.github.io/blog"\n')
    (old / "content" / "posts" / "a.md").write_text(
        '+++\ntitle = "A"\ndate = 2023-01-01\n+++\n\n![](/blog/images/x.png)\n\n![](/nope/y.png)\n'
    )
    site = make_site(tmp_path / "site", ROOT)
    report = import_posts(old, site / "content" / "posts")
    assert (site / "content" / "posts" / "a" / "x.png").read_bytes() == b"png"
    missing = "image /nope/y.png not found: left out of the post"
    assert [n.message for n in report.notes] == [missing]


def test_a_zola_themes_shortcodes_are_read_too(tmp_path: Path) -> None:
    """``theme = "serene"``: its ``figure`` shortcode lives in ``themes/serene/templates/
    shortcodes/``; only the site's own were read, and each figure was dropped and
    reported. A caption argument is the figure's caption."""
    old = tmp_path / "old"
    (old / "templates").mkdir(parents=True)
    (old / "themes/serene/templates/shortcodes").mkdir(parents=True)
    (old / "content/blog").mkdir(parents=True)
    (old / "config.toml").write_text('base_url = "https://x.org"\ntheme = "serene"\n')
    (old / "themes/serene/templates/shortcodes/figure.html").write_text(
        '<figure><img\n  src="{{ src }}"><figcaption>{{ caption }}</figcaption></figure>'
    )
    (old / "content/blog/a.md").write_text(
        '+++\ntitle = "A"\ndate = 2025-01-01\n+++\n\n'
        '{{ figure(src="https://x.org/a.png", alt="A", caption="The saddle") }}\n'
    )
    into = tmp_path / "site/content/posts"
    report = import_posts(old, into)
    assert [str(n) for n in report.notes] == []
    assert "![The saddle](https://x.org/a.png)" in (into / "a.md").read_text()
