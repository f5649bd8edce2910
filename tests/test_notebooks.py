"""Notebook posts: each output kind and cell option as a fixture (``fixtures/notebooks/``:
a title, the notebook as YAML (see ``notebook_cases``), the expected page body), then
front matter, errors, ``raw_html: false`` and the line map."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from markdown_it.utils import read_fixture_file

from site_builder.errors import BuildError
from site_builder.notebooks import loads_notebook
from site_builder.notebooks.ansi import ansi_to_html
from site_builder.notebooks.markdown_cells import display_math
from tests.notebook_cases import FRONT, notebook_json, render_notebook

FIXTURES = Path(__file__).parent / "fixtures" / "notebooks"
CASES = [
    pytest.param(text, expected, id=f"{path.stem}:{line}:{title}")
    for path in sorted(FIXTURES.glob("*.md"))
    for line, title, text, expected in read_fixture_file(path)
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_fixture(text: str, expected: str) -> None:
    assert render_notebook(text) == expected


def load(spec: object, rel: str = "content/posts/nb.ipynb") -> object:
    return loads_notebook(notebook_json(spec), Path(rel))


# --- front matter -------------------------------------------------------------------------


def test_front_matter_from_a_raw_cell_maps_quarto_keys() -> None:
    raw = "---\ntitle: Hi\nauthor:\n  - name: Ada Lovelace\n  - Alan Turing\ndate: 10/26/2024\ncategories: [ml, jax]\nimage: card.png\n---"  # noqa: E501
    source = load({"cells": [{"raw": raw}, {"markdown": "Body."}]})
    assert source.front == {  # type: ignore[attr-defined]
        "title": "Hi",
        "author": "Ada Lovelace and Alan Turing",
        "date": "2024-10-26",
        "tags": ["ml", "jax"],
        "slug": "nb",
    }


def test_front_matter_from_the_metadata() -> None:
    spec = {
        "metadata": {"title": "From metadata", "date": "2023-05-06"},
        "cells": [{"markdown": "x"}],
    }
    assert load(spec).front["title"] == "From metadata"  # type: ignore[attr-defined]


def test_fastpages_front_matter_cell_is_read_and_not_shown() -> None:
    cell = '# "Hello fastpages"\n> A summary.\n\n- toc: true\n- badges: true\n- categories: [a, b]'
    spec = {"cells": [{"markdown": cell}, {"markdown": "Body text."}]}
    source = load(spec, "content/posts/2020-02-20-hello.ipynb")
    assert source.front == {  # type: ignore[attr-defined]
        "title": "Hello fastpages",
        "description": "A summary.",
        "toc": True,
        "tags": ["a", "b"],
        "date": "2020-02-20",
        "slug": "hello",
    }
    assert "Hello fastpages" not in render_notebook(spec, "content/posts/2020-02-20-hello.ipynb")


def test_a_first_heading_is_the_title_when_nothing_else_names_one() -> None:
    """Jupyter Book's rule: a plain notebook's ``# Heading`` titles it; the line is not
    shown twice, the rest of its cell is, and a bad line further on keeps its number."""
    cell = "\n# Attention by hand #\nIt starts here, $x$.\n\n[bad](@nokey)"
    spec = {"cells": [{"markdown": cell}, {"code": "1"}]}
    rel = "content/posts/2024-01-02-attention.ipynb"
    source = load(spec, rel)
    assert source.front["title"] == "Attention by hand"  # type: ignore[attr-defined]
    page = render_notebook(spec, rel)
    assert "Attention by hand" not in page and "It starts here" in page
    line = source.text.split("\n").index("[bad](@nokey)") + 1  # type: ignore[attr-defined]
    assert source.where(line) == "cell 1, line 5"  # type: ignore[attr-defined]


def test_a_heading_after_prose_or_a_titled_front_matter_is_not_the_title() -> None:
    prose = {"cells": [{"markdown": "Intro first.\n\n# Later"}]}
    assert render_notebook(prose, "content/posts/2024-01-02-x.ipynb") == (
        "ERROR content/posts/2024-01-02-x.ipynb: front matter is missing 'title': give the "
        "notebook a first Markdown cell '# Title', or a first raw cell '---' / 'title: ...' / "
        "'---'\n"
    )
    code_first = {"cells": [{"code": "import numpy"}, {"markdown": "# Later"}]}
    assert "title" not in load(code_first).front  # type: ignore[attr-defined]
    section_first = {"cells": [{"markdown": "[badge](x)"}, {"markdown": "## Setup\n# Later"}]}
    assert "title" not in load(section_first).front  # type: ignore[attr-defined]
    titled = {"cells": [{"raw": "---\ntitle: Own\n---"}, {"markdown": "# Section"}]}
    assert load(titled).front["title"] == "Own"  # type: ignore[attr-defined]
    untitled = {"cells": [{"raw": "---\ndate: 2024-01-02\n---"}, {"markdown": "# From it"}]}
    assert load(untitled).front["title"] == "From it"  # type: ignore[attr-defined]


def test_the_first_heading_after_banner_cells_is_the_title() -> None:
    """A Colab badge or a book's banner comes before the ``# Title`` in many notebooks
    (udlbook, the Python Data Science Handbook); a setext ``Title`` over ``===`` is a
    level-1 heading too, and ``# **Title**`` (Colab's habit) loses its asterisks."""
    badge = '<a href="https://colab.research.google.com/x"><img src="https://x/badge.svg"/></a>'
    spec = {
        "cells": [
            {"markdown": badge},
            {"markdown": "*An excerpt from a book.*"},
            {"markdown": "# **Deep networks**\nHow depth helps."},
            {"code": "1"},
        ]
    }
    source = load(spec)
    assert source.front["title"] == "Deep networks"  # type: ignore[attr-defined]
    page = render_notebook(spec, "content/posts/2024-01-02-x.ipynb")
    assert "Deep networks</h2>" not in page and "How depth helps." in page
    setext = {"cells": [{"markdown": "Bayesian Methods\n=====\n\nChapter 1"}, {"code": "1"}]}
    source = load(setext)
    assert source.front["title"] == "Bayesian Methods"  # type: ignore[attr-defined]
    page = render_notebook(setext, "content/posts/2024-01-02-x.ipynb")
    assert "=====" not in page and "Chapter 1" in page
    marked = {"cells": [{"markdown": "# Attention, *by hand*: `softmax` of $a*b*c$\nText."}]}
    assert load(marked).front["title"] == "Attention, by hand: softmax of $a*b*c$"  # type: ignore[attr-defined]


def test_date_and_slug_from_a_dated_folder() -> None:
    spec = {"cells": [{"raw": "---\ntitle: T\n---"}, {"markdown": "x"}]}
    source = load(spec, "content/posts/2021-03-04-my-post/index.ipynb")
    assert (source.front["date"], source.front["slug"]) == ("2021-03-04", "my-post")  # type: ignore[attr-defined]


def test_no_date_anywhere_is_an_error_naming_the_date() -> None:
    spec = {"cells": [{"raw": "---\ntitle: T\n---"}, {"markdown": "x"}]}
    assert render_notebook(spec, "content/posts/undated.ipynb") == (
        "ERROR content/posts/undated.ipynb: front matter is missing 'date'\n"
    )


def test_front_matter_lines_map_back_to_the_raw_cell() -> None:
    raw = "---\ntitle: T\ndate: 2024-01-01\nbadkey: 1\n---"
    source = load({"cells": [{"raw": raw}, {"markdown": "x"}]})
    line = source.text.split("\n").index("badkey: 1") + 1  # type: ignore[attr-defined]
    assert source.where(line) == "cell 1, line 4"  # type: ignore[attr-defined]


# --- errors -------------------------------------------------------------------------------


def test_malformed_json_stops_at_its_line() -> None:
    with pytest.raises(BuildError) as caught:
        loads_notebook('{\n "cells": [\n  {,]\n}', Path("content/posts/bad.ipynb"))
    assert str(caught.value).startswith("content/posts/bad.ipynb:3:4: not a notebook: invalid JSON")


def test_unknown_nbformat() -> None:
    raw = json.dumps({"cells": [], "metadata": {}, "nbformat": 5, "nbformat_minor": 0})
    with pytest.raises(BuildError) as caught:
        loads_notebook(raw, Path("p.ipynb"))
    assert str(caught.value) == "p.ipynb: unknown nbformat 5: only nbformat 4 is read"


def test_a_notebook_that_breaks_the_schema() -> None:
    raw = json.loads(notebook_json([{"markdown": "x"}]))
    raw["cells"][1]["cell_type"] = "poem"
    with pytest.raises(BuildError) as caught:
        loads_notebook(json.dumps(raw), Path("p.ipynb"))
    assert str(caught.value).startswith("p.ipynb: not a valid notebook")


@pytest.mark.parametrize(
    ("cells", "message"),
    [
        ("hello", "p.ipynb: not a valid notebook: 'cells' must be a list of cells"),
        (["hello"], "p.ipynb: not a valid notebook at cells/0: a cell must be an object"),
    ],
)
def test_cells_of_the_wrong_shape_are_named_not_a_traceback(cells: object, message: str) -> None:
    """nbformat 4.5 gives every cell an id before checking the schema: a cell that is not
    an object was a TypeError from inside it."""
    raw = json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})
    with pytest.raises(BuildError) as caught:
        loads_notebook(raw, Path("p.ipynb"))
    assert str(caught.value) == message


@pytest.mark.parametrize(
    "first",
    [
        {"raw": "---\ntitle: T\ndate: 2024-13-45\n---"},
        {"markdown": "# T\n- date: 2024-13-45"},
    ],
)
def test_an_impossible_date_in_a_notebook_is_the_posts_own_message(first: object) -> None:
    """YAML made 2024-13-45 a ValueError with no line; the date now reaches the post's
    checks as text, as in a ``.md`` post."""
    rendered = render_notebook({"cells": [first, {"markdown": "x"}]})
    assert rendered.startswith("ERROR content/posts/nb.ipynb: cell 1, line ")
    assert "invalid date '2024-13-45'" in rendered


def test_front_matter_after_blank_lines_in_the_raw_cell() -> None:
    source = load({"cells": [{"raw": "\n\n---\ntitle: T\ndate: 2024-01-02\n---"}]})
    assert source.front["title"] == "T"  # type: ignore[attr-defined]


def test_the_notebooks_own_metadata_gives_only_a_posts_keys() -> None:
    """Jupyter's extensions keep settings there: the Table of Contents extension's ``toc``
    is a mapping, not the post's ``toc: true``; jupytext's pairing is no key of a post."""
    metadata = {
        "title": "T",
        "date": "2024-01-02",
        "toc": {"base_numbering": 1, "nav_menu": {}},
        "jupytext": {"formats": "ipynb,py"},
        "anaconda-cloud": {},
    }
    front = load({"metadata": metadata, "cells": [{"markdown": "x"}]}).front  # type: ignore[attr-defined]
    assert {key: front[key] for key in ("title", "date")} == {"title": "T", "date": "2024-01-02"}
    assert not {"toc", "jupytext", "anaconda-cloud"} & set(front)
    assert render_notebook({"metadata": metadata, "cells": [{"markdown": "x"}]}).startswith("<p>x")


def test_what_jupyter_opens_despite_the_schema_is_read(recwarn: pytest.WarningsRecorder) -> None:
    """Old fastpages and nbconvert wrote ``outputs`` on markdown cells, and some tools a
    code cell without them, or 4.5 cells without ids: Jupyter and Quarto open these; the
    notebook was skipped ("not a valid notebook at cells/1"), and nbformat's
    ``MissingIDFieldWarning`` leaked into the output."""
    raw = json.loads(notebook_json([{"markdown": "x $y$"}, {"code": "print(1)"}]))
    raw["nbformat_minor"] = 5
    raw["cells"][1]["outputs"] = []
    raw["cells"][1]["execution_count"] = None
    del raw["cells"][2]["outputs"]
    for cell in raw["cells"]:
        cell.pop("id", None)
    one = loads_notebook(json.dumps(raw), Path("p.ipynb"))
    again = loads_notebook(json.dumps(raw), Path("p.ipynb"))
    assert one == again and "x $y$" in one.text and "print(1)" in one.text  # mended alike
    assert not [w for w in recwarn if "nbformat" in str(w.filename)]


def test_quartos_page_settings_in_a_notebook_are_not_unknown_keys() -> None:
    """``twitter-card``, ``crossref``, ``number-sections``, ``csl``: Quarto's settings for
    its own page, a warning each ("unknown front matter key") on every imported post."""
    front = (
        "---\ntitle: T\ndate: 2024-01-01\ntwitter-card: true\ncrossref:\n  fig-prefix: Fig\n"
        "number-sections: true\ncsl: ieee.csl\naliases: [/old/]\n---"
    )
    cells = [{"cell_type": "raw", "metadata": {}, "source": front}]
    notebook = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 4}
    source = loads_notebook(json.dumps(notebook), Path("p.ipynb"))
    assert source.front == {"title": "T", "date": "2024-01-01", "slug": "p"}


def test_unreadable_base64_names_the_cell() -> None:
    spec = [
        {"code": "x", "outputs": [{"output_type": "display_data", "data": {"image/png": "%%%"}}]}
    ]
    assert render_notebook(spec) == (
        "ERROR content/posts/nb.ipynb: cell 2: its image/png output is not base64\n"
    )


def test_a_reference_to_a_figure_cell_with_no_saved_output_says_why() -> None:
    """A labelled cell never run (or saved with its outputs cleared) draws no figure:
    the reference's error names the cell and the fix, not only the missing figure."""
    spec = [
        {"markdown": "See @fig-loss and @fig-typo."},
        {"code": "#| label: fig-loss\n#| fig-cap: Loss\nplot()"},
    ]
    assert render_notebook(spec) == (
        "ERROR content/posts/nb.ipynb: cell 2, line 1: @fig-loss refers to no figure in this"
        " post: cell 3 labels it, but has no saved image or HTML output to show: run the"
        " notebook and save it, or set execute: true\n"
        "ERROR content/posts/nb.ipynb: cell 2, line 1: @fig-typo refers to no figure in this"
        " post\n"
    )


def test_an_error_in_a_code_cell_fence_names_cell_and_line() -> None:
    source = load([{"markdown": "a"}, {"code": "#| echo: true\n\nx = 1\ny = 2"}])
    lines = source.text.split("\n")  # type: ignore[attr-defined]
    assert source.where(lines.index("y = 2") + 1) == "cell 3, line 4"  # type: ignore[attr-defined]


# --- safety and details -------------------------------------------------------------------


def test_outputs_reach_the_page_with_raw_html_off_while_cell_html_does_not() -> None:
    spec = [
        {"markdown": "<b>typed</b>"},
        {
            "code": "df",
            "outputs": [
                {
                    "output_type": "execute_result",
                    "data": {"text/html": "<table><tr><td>1</td></tr></table>"},
                }
            ],
        },
    ]
    html = render_notebook(spec, raw_html=False)
    assert "&lt;b&gt;typed&lt;/b&gt;" in html
    assert "<table><tbody><tr><td>1</td></tr></tbody></table>" in html


def test_a_markdown_post_cannot_use_the_prerendered_fence() -> None:
    from site_builder.markdown import MarkdownContext, render

    html = render("```{=prerendered}\nnb-1-1\n```", MarkdownContext("p.md")).html
    assert "<pre" in html and "nb-1-1" in html


def test_ansi_codes_never_reach_the_page() -> None:
    html = ansi_to_html("\x1b[1;31mred bold\x1b[0m \x1b]8;;http://x\x07link\x1b]8;;\x07 \x1b[2K")
    assert html == '<span class="ansi-red ansi-bold">red bold</span> link '


def test_display_math_keeps_code_and_list_items() -> None:
    text, origins = display_math("- item $$a$$ b\n\n`$$code$$`")
    assert text == "- item\n\n  $$a$$\n\n  b\n\n`$$code$$`"
    assert origins == [0, 0, 0, 0, 0, 1, 2]


def test_front_matter_default_is_prepended_in_cases() -> None:
    assert json.loads(notebook_json([]))["cells"][0]["source"] == FRONT


def test_an_html_outputs_inline_image_is_a_file_beside_the_page() -> None:
    png = (
        "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAECAIAAAA8r+mnAAAAFElEQVR4nGM8YSPCgA0wYRUlSwIAbdgBIAgEQ"
        "OIAAAAASUVORK5CYII="
    )
    html = f'<table><tr><td><img src="data:image/png;base64,{png}"></td></tr></table>'
    output = {"output_type": "display_data", "data": {"text/html": html}}
    source = load([{"code": "df", "outputs": [output]}])
    files = dict(source.files)  # type: ignore[attr-defined]
    assert list(files) == ["nb-9f3eeacebe7bd3b9.png"]
    assert files["nb-9f3eeacebe7bd3b9.png"].startswith(b"\x89PNG")


def test_a_missing_image_says_where_a_notebook_keeps_its_images() -> None:
    rendered = render_notebook([{"markdown": "![Logo](my_icons/logo.png)"}])
    assert "put the post in a folder (content/posts/<slug>/index.ipynb)" in rendered


def test_jupyter_heading_links_reach_the_page_headings() -> None:
    """A notebook's table of contents links Jupyter's ids (``#Asking-for-Help``); the page's
    headings have the site's (``asking-for-help``). An id the notebook defines itself
    (``<a id="Setup-Notes">``) and a link to no heading are left as written."""
    toc = (
        "# Debugging\n\n- [Asking for Help](#Asking-for-Help)\n"
        '- <a href="#The-`alt.Chart`-object">the chart</a>\n'
        "- [own](#Setup-Notes)\n- [nowhere](#Nowhere-Here)"
    )
    spec = {
        "cells": [
            {"markdown": toc},
            {"markdown": '## Asking for Help\n\n<a id="Setup-Notes"></a>'},
            {"markdown": "## The `alt.Chart` object"},
        ]
    }
    page = render_notebook(spec, "content/posts/2024-01-02-x.ipynb")
    assert 'href="#asking-for-help"' in page and 'id="asking-for-help"' in page
    assert 'href="#the-altchart-object"' in page and 'id="the-altchart-object"' in page
    assert 'href="#Setup-Notes"' in page and 'href="#Nowhere-Here"' in page


def test_a_unix_time_in_the_metadata_is_a_date() -> None:
    """sphinx-tojupyter (QuantEcon's lectures) stores ``date`` as seconds since 1970."""
    spec = {"metadata": {"title": "Escaping Nash", "date": 1786684099.342443}, "cells": []}
    assert load(spec).front["date"] == "2026-08-14"  # type: ignore[attr-defined]
