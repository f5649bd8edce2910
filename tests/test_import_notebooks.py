"""``site-builder import`` brings notebook posts across: fastpages' ``_notebooks/*.ipynb``
and Quarto's ``posts/*/index.ipynb`` (``tests/data/import/fastpages/`` and
``quarto-notebooks/``, trimmed from the real notebooks in ``tests/data/notebooks/``;
sources in ``tests/data/import/README.md``)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from site_builder.build import build
from site_builder.cli import main
from site_builder.config import load_config
from site_builder.importer import import_posts
from site_builder.importer.finding import detect
from site_builder.importer.report import ImportReport
from site_builder.notebooks import load_notebook
from tests.conftest import ROOT, make_site

DATA = Path(__file__).parent / "data" / "import"


def imported(tmp_path: Path, *sources: str) -> tuple[Path, list[ImportReport]]:
    site = make_site(tmp_path / "site", ROOT)
    shutil.rmtree(site / "content" / "posts")
    reports = [import_posts(DATA / source, site / "content" / "posts") for source in sources]
    return site, reports


def front(path: Path) -> dict[str, object]:
    return load_notebook(path, Path("content/posts") / path.parent.name / path.name).front


def test_fastpages_notebooks_come_across_as_folders_with_their_images(tmp_path: Path) -> None:
    assert detect(DATA / "fastpages") == "jekyll"
    site, [report] = imported(tmp_path, "fastpages")
    posts = site / "content" / "posts"
    notebook = posts / "test" / "index.ipynb"  # no date in the slug: it is in the front matter
    assert sorted(p.relative_to(posts).as_posix() for p in posts.rglob("*") if p.is_file()) == [
        "test-markdown-post.md",
        "test/diagram.png",  # the site's /images/, referenced through {{ site.baseurl }}
        "test/index.ipynb",
        "test/my_icons/fastai_logo.png",  # beside _notebooks/, as fastpages kept it
    ]
    source_logo = DATA / "fastpages/_notebooks/my_icons/fastai_logo.png"
    assert (posts / "test/my_icons/fastai_logo.png").read_bytes() == source_logo.read_bytes()
    meta = front(notebook)
    assert (meta["title"], meta["date"], meta["slug"]) == (
        "Fastpages Notebook Blog Post",
        "2020-02-20",
        "test",
    )
    cells = ["".join(c["source"]) for c in json.loads(notebook.read_text())["cells"]]
    text = "\n".join(cells)
    assert '- date: "2020-02-20"' in cells[0]  # where fastpages keeps its front matter
    assert "![A diagram](diagram.png)" in text
    assert "::: {.callout-warning}\nThere will be no second warning!\n:::" in text
    assert "here is a footnote [^1]." in text and "\n[^1]: This is the footnote." in text
    assert "{% raw %}" not in text and "{% fn 1 %}." in text  # the example in code stays
    assert '<!-- not imported: {% include screenshot.html url="my_icons/' in text
    notes = [str(note) for note in report.notes]
    shown = "fastpages/_notebooks/2020-02-20-test.ipynb"
    assert f"{shown}: cell 9, line 7: Liquid tag not converted: {{% include screenshot" in (
        "\n".join(notes)
    )
    assert f"{shown}: cell 10, line 5: twitter embed kept as a link" in notes


def test_quarto_notebooks_come_across_with_their_files(tmp_path: Path) -> None:
    site, [report] = imported(tmp_path, "quarto-notebooks")
    posts = site / "content" / "posts"
    assert [p.written for p in report.posts] == [
        posts / "kaggle-titanic" / "index.ipynb",
        posts / "jpeg-output" / "index.ipynb",
    ]
    assert report.notes == []
    titanic = DATA / "quarto-notebooks/posts/2022-11-05-kaggle-titanic"
    assert (posts / "kaggle-titanic/index.ipynb").read_bytes() == (
        titanic / "index.ipynb"
    ).read_bytes()  # nothing to change: copied byte for byte
    assert (posts / "kaggle-titanic/first_submission.png").is_file()
    # ``posts/2023-11-08-jpeg-output.ipynb``: its title in the metadata, its date in its name
    jpeg = json.loads((posts / "jpeg-output/index.ipynb").read_text())
    assert (jpeg["metadata"]["title"], jpeg["metadata"]["date"]) == ("A JPEG output", "2023-11-08")
    text = "".join(json.loads((titanic / "index.ipynb").read_text())["cells"][3]["source"])
    assert "> Note: Running" in text  # a plain quote in Quarto: no fastpages box


def test_imported_notebook_posts_build_with_their_images(tmp_path: Path) -> None:
    site, _ = imported(tmp_path, "fastpages", "quarto-notebooks")
    build(load_config(site), site / "public", jobs=1, use_cache=False)
    pages = site / "public" / "posts"
    fastpages = (pages / "test/index.html").read_text()
    for src in ('src="my_icons/fastai_logo.png"', 'src="diagram.png"'):
        assert src in fastpages
    assert (pages / "test/my_icons/fastai_logo.png").is_file()
    assert (pages / "test/diagram.png").is_file()
    assert 'datetime="2020-02-20' in fastpages and "callout-warning" in fastpages
    assert 'class="footnote-ref"' in fastpages
    titanic = (pages / "kaggle-titanic/index.html").read_text()
    assert (
        'src="first_submission.png"' in titanic
        and (pages / "kaggle-titanic/first_submission.png").is_file()
    )
    outputs = [p.name for p in (pages / "kaggle-titanic").glob("nb-*.png")]
    assert len(outputs) == 1 and f'src="{outputs[0]}"' in titanic  # the stored plot
    jpeg = (pages / "jpeg-output/index.html").read_text()
    assert 'datetime="2023-11-08' in jpeg and ".jpg" in jpeg
    assert (pages / "test-markdown-post/index.html").is_file()  # the .md post beside them


def test_a_broken_notebook_is_reported_with_its_path_and_not_copied(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site, [report] = imported(tmp_path, "fastpages")
    [broken] = [p for p in report.posts if p.source.name == "2020-03-01-broken.ipynb"]
    assert broken.written is None
    assert broken.skipped == (
        "does not load: line 6, column 2: not a notebook: invalid JSON (Expecting ',' delimiter)"
    )
    assert not (site / "content/posts/broken").exists()
    into = tmp_path / "again"
    assert main(["-C", str(site), "import", str(DATA / "fastpages"), "--into", str(into)]) == 0
    err = capsys.readouterr().err
    assert "fastpages/_notebooks/2020-03-01-broken.ipynb: skipped: does not load: line 6" in err


def test_a_notebook_the_build_would_stop_on_is_named_at_its_cell(tmp_path: Path) -> None:
    source = tmp_path / "blog"
    shutil.copytree(DATA / "quarto-notebooks", source)
    path = source / "posts/2023-11-08-jpeg-output.ipynb"
    notebook = json.loads(path.read_text())
    notebook["cells"][0]["source"] = ["A formula: $\\frac{1}{$ and a slip.\n"]
    path.write_text(json.dumps(notebook))
    (source / "posts/2024-01-01-undated").mkdir()
    undated = source / "posts/2024-01-01-undated/notes.ipynb"  # a date in no name here
    notebook["metadata"]["title"] = "Notes"
    undated.write_text(json.dumps(notebook))
    site = make_site(tmp_path / "site", ROOT)
    report = import_posts(source, site / "content" / "posts")
    notes = [str(n) for n in report.notes]
    assert len(notes) == 1, notes
    assert notes[0].startswith("blog/posts/2023-11-08-jpeg-output.ipynb: cell 1, line 1: formula")
    assert notes[0].endswith("(content/posts/jpeg-output/index.ipynb)")
    assert sum(p.failed for p in report.posts) == 1
    [skipped] = [p for p in report.posts if p.skipped]
    assert skipped.skipped.startswith("no date in its front matter or its name")


def test_a_namesake_and_a_second_import(tmp_path: Path) -> None:
    """A notebook and a Markdown post with one name get two slugs, as two .md posts do;
    an import run again overwrites nothing."""
    source = tmp_path / "blog"
    shutil.copytree(DATA / "fastpages", source)
    (source / "_posts/2020-02-20-test.md").write_text("---\ntitle: Test\n---\nText.\n")
    into = tmp_path / "other" / "content" / "posts"
    report = import_posts(source, into)
    written = {p.source.name: p.written.relative_to(into) for p in report.posts if p.written}
    assert written["2020-02-20-test.ipynb"] == Path("test/index.ipynb")  # _notebooks/ first
    assert written["2020-02-20-test.md"] == Path("posts-test.md")
    site, _ = imported(tmp_path, "fastpages")
    again = import_posts(DATA / "fastpages", site / "content" / "posts")
    [notebook] = [p for p in again.posts if p.source.name == "2020-02-20-test.ipynb"]
    assert notebook.written is None and "already has 'test'" in notebook.skipped


def test_one_notebook_file(tmp_path: Path) -> None:
    fastpages = DATA / "fastpages/_notebooks/2020-02-20-test.ipynb"
    quarto = DATA / "quarto-notebooks/posts/2022-11-05-kaggle-titanic/index.ipynb"
    assert (detect(fastpages), detect(quarto)) == ("jekyll", "quarto")
    into = tmp_path / "content" / "posts"
    for source, slug in ((fastpages, "test"), (quarto, "kaggle-titanic")):
        report = import_posts(source, into)
        assert [p.written for p in report.posts] == [into / slug / "index.ipynb"]
    assert (into / "test/my_icons/fastai_logo.png").is_file()
    assert (into / "kaggle-titanic/first_submission.png").is_file()


def test_math_in_a_notebook_cells_html_renders(tmp_path: Path) -> None:
    """``<ol><li>Comparing $y_\\theta$ ...</li></ol>`` in a Markdown cell: MathJax typeset
    it on the old site; here the HTML block kept it as ``$`` text."""
    source = tmp_path / "blog"
    shutil.copytree(DATA / "quarto-notebooks", source)
    path = source / "posts/2023-11-08-jpeg-output.ipynb"
    notebook = json.loads(path.read_text())
    cell = ["<ol>\n", "<li>Comparing $y_\\theta$ and $y'$</li>\n", "</ol>\n"]
    notebook["cells"][0]["source"] = cell
    path.write_text(json.dumps(notebook))
    site = make_site(tmp_path / "site", ROOT)
    import_posts(source, site / "content" / "posts")
    written = json.loads((site / "content/posts/jpeg-output/index.ipynb").read_text())
    assert "<li>\n\nComparing $y_\\theta$ and $y'$\n\n</li>" in "".join(
        written["cells"][0]["source"]
    )


def test_a_quarto_notebooks_bibliography_comes_into_its_folder(tmp_path: Path) -> None:
    """A raw cell's ``bibliography: references.bib`` beside the notebook (Quarto read it
    there): the build stopped on "not found", as the file stayed behind."""
    posts = tmp_path / "blog/posts"
    posts.mkdir(parents=True)
    (tmp_path / "blog/_quarto.yml").write_text("project:\n  type: website\n")
    (posts / "references.bib").write_text(
        "@article{lipman2023,\n  author = {Lipman, Yaron},\n  title = {Flow Matching},\n"
        "  year = {2023}\n}\n"
    )
    front = "---\ntitle: Flow\ndate: 2024-05-01\nbibliography: references.bib\n---\n"
    cells = [
        {"cell_type": "raw", "metadata": {}, "source": front},
        {"cell_type": "markdown", "metadata": {}, "source": "As in [@lipman2023]."},
    ]
    (posts / "flow.ipynb").write_text(
        json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 4})
    )
    site = make_site(tmp_path / "site", ROOT)
    report = import_posts(tmp_path / "blog", site / "content" / "posts")
    assert [str(n) for n in report.notes] == []
    assert (site / "content/posts/flow/references.bib").is_file()
    build(load_config(site), site / "public", jobs=1, use_cache=False)
    assert "Lipman, Y. (2023)" in (site / "public/posts/flow/index.html").read_text()


def test_a_notebook_cells_math_as_jupyters_mathjax_read_it(tmp_path: Path) -> None:
    """``$p(y) = x $`` (a space before the closing ``$``) and a bare ``\\begin{pmatrix}``
    with ``\\\\`` rows: Jupyter's MathJax typeset both; here the first was ``$`` text and
    the second lost a backslash of each row to Markdown. A ``$$...$$`` on one line became
    ``\\$$...\\$$``, two dollar signs either side of the formula's TeX as text."""
    source = tmp_path / "blog"
    shutil.copytree(DATA / "quarto-notebooks", source)
    path = source / "posts/2023-11-08-jpeg-output.ipynb"
    notebook = json.loads(path.read_text())
    notebook["cells"][0]["source"] = [
        "Likelihood $p(y|X) = \\prod_i p(y_i) $ here.\n",
        "\n",
        "The matrix \\begin{pmatrix} a & \\rho \\\\ \\rho & b \\end{pmatrix} is SPD.\n",
        "\n",
        "$$ SE = \\sum_i (f(x_i) - y_i)^2,$$\n",
        "and inline $$ a^2 $$ too.\n",
        "\n",
        "<table>\n",
        "  <tr><td>0</td></tr>\n",
        "  </table>\n",
        "  The values for $Y$ are bits.\n",
    ]
    path.write_text(json.dumps(notebook))
    site = make_site(tmp_path / "site", ROOT)
    import_posts(source, site / "content" / "posts")
    written = json.loads((site / "content/posts/jpeg-output/index.ipynb").read_text())
    first = "".join(written["cells"][0]["source"])
    assert "Likelihood $p(y|X) = \\prod_i p(y_i)$ here." in first
    assert "$$\n\\begin{pmatrix} a & \\rho \\\\ \\rho & b \\end{pmatrix}\n$$" in first
    # ``$$...$$`` on a line, or inside one: display math for Jupyter and the build alike
    assert "$$ SE = \\sum_i (f(x_i) - y_i)^2,$$\nand inline $$ a^2 $$ too." in first
    # the text under a closing </table> is no longer the HTML block: its $Y$ is math
    assert "  </table>\n\n  The values for $Y$ are bits." in first
    build(load_config(site), site / "public", jobs=1, use_cache=False)
    page = (site / "public/posts/jpeg-output/index.html").read_text()
    assert page.count('display="block"') >= 3 and "$$" not in page


def test_a_link_to_a_notebooks_repeated_heading_points_at_the_id_the_build_gives_it(
    tmp_path: Path,
) -> None:
    """A notebook's headings are read as the build reads the notebook (nbformat, then one
    Markdown document of its cells): ``## Results`` in two cells are ``results`` and
    ``results-1`` there, so nbconvert's ``#Results-1`` is aimed at the second."""
    posts = tmp_path / "blog/posts"
    posts.mkdir(parents=True)
    (tmp_path / "blog/_quarto.yml").write_text("project:\n  type: website\n")
    cells = [
        {"cell_type": "raw", "metadata": {}, "source": "---\ntitle: Runs\ndate: 2024-05-01\n---\n"},
        {"cell_type": "markdown", "metadata": {}, "source": "## Results\n\nFirst run."},
        {"cell_type": "markdown", "metadata": {}, "source": "## Results\n\nSecond run."},
        {"cell_type": "markdown", "metadata": {}, "source": "See [the second](#Results-1)."},
    ]
    (posts / "runs.ipynb").write_text(
        json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 4})
    )
    site = make_site(tmp_path / "site", ROOT)
    import_posts(tmp_path / "blog", site / "content" / "posts")
    written = site / "content/posts/runs/index.ipynb"
    sources = ["".join(c["source"]) for c in json.loads(written.read_text())["cells"]]
    assert sources[-1] == "See [the second](#results-1)."
    build(load_config(site), site / "public", jobs=1, use_cache=False)
    assert 'id="results-1"' in (site / "public/posts/runs/index.html").read_text()
