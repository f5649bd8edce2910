"""One conversion per case: a post body from another tool in, this site's Markdown out.

``tests/fixtures/import/<format>.md`` in markdown-it-py's fixture format (a
title line, ``.``, the source body, ``.``, the expected body, ``.``). Each body
is imported as a post of that format with only a title and a date; Hugo posts
as from a site without goldmark's passthrough; ``rst`` bodies as a Pelican post
written in reStructuredText (its title, then ``:date:``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from markdown_it.utils import read_fixture_file

from site_builder.importer import convert_post

FIXTURES = Path(__file__).parent / "fixtures" / "import"
SUFFIX = {"jekyll": ".md", "hugo": ".md", "quarto": ".qmd", "rst": ".rst"}
CASES = [
    pytest.param(path.stem, text, expected, id=f"{path.stem}:{line}:{title}")
    for path in sorted(FIXTURES.glob("*.md"))
    for line, title, text, expected in read_fixture_file(path)
]


def body(fmt: str, source: str, tmp_path: Path) -> str:
    post = tmp_path / f"post{SUFFIX[fmt]}"
    head = "---\ntitle: T\ndate: 2024-01-01\n---\n\n"
    if fmt == "rst":  # Pelican's: the title, then its fields
        head = "#\nT\n#\n\n:date: 2024-01-01\n\n"
    post.write_text(head + source, encoding="utf-8")
    reader = "jekyll" if fmt == "rst" else fmt  # Pelican is read as Jekyll is; .rst by docutils
    converted = convert_post(post, Path(post.name), reader, [tmp_path], passthrough=False)
    return converted.text.split("---\n", 2)[2].strip("\n") + "\n"


@pytest.mark.parametrize(("fmt", "source", "expected"), CASES)
def test_import_fixture(fmt: str, source: str, expected: str, tmp_path: Path) -> None:
    assert body(fmt, source, tmp_path) == expected


def test_unknown_block_is_reported_with_its_line(tmp_path: Path) -> None:
    post = tmp_path / "post.qmd"
    post.write_text("---\ntitle: T\ndate: 2024-01-01\n---\n\nA.\n\n::: {.my-box}\nB.\n:::\n")
    notes = [str(n) for n in convert_post(post, Path("post.qmd"), "quarto", [tmp_path]).notes.notes]
    assert notes == ["post.qmd:8: ::: block {.my-box} has no meaning here: its content was kept"]


def test_bib_keys_a_citation_cannot_spell_are_renamed(tmp_path: Path) -> None:
    (tmp_path / "refs.bib").write_text(
        "@article{d'oro2022,\n  title={Poisoning $\\{$Semi-Supervised$\\}$ learning},\n}\n"
    )
    post = tmp_path / "post.md"
    post.write_text(
        "---\ntitle: T\ndate: 2024-01-01\nbibliography: refs.bib\n---\n\n"
        'As shown <d-cite key="d\'oro2022"></d-cite>.\n'
    )
    converted = convert_post(post, Path("post.md"), "jekyll", [tmp_path])
    assert "As shown [@doro2022]." in converted.text
    assert "@article{doro2022," in converted.written["refs.bib"]
    assert "Poisoning Semi-Supervised learning" in converted.written["refs.bib"]
    assert any("d'oro2022 renamed doro2022" in str(n) for n in converted.notes.notes)


def test_a_bib_value_naming_an_undefined_string_is_its_text(tmp_path: Path) -> None:
    """``booktitle=NAACL18,`` with no ``@string{NAACL18 = ...}``: pybtex stopped the build
    ("BibTeX syntax error"); citeproc printed the name. A defined one and a month stay."""
    (tmp_path / "refs.bib").write_text(
        "@string{ICML = {Proc. ICML}}\n@inproceedings{elmo,\n  title={ELMo},\n"
        "  booktitle=NAACL18,\n  series = ICML,\n  month = jun,\n  year={2018},\n}\n"
    )
    post = tmp_path / "post.md"
    post.write_text(
        "---\ntitle: T\ndate: 2024-01-01\nbibliography: refs.bib\n---\n\nSee [@elmo].\n"
    )
    converted = convert_post(post, Path("post.md"), "jekyll", [tmp_path])
    bib = converted.written["refs.bib"]
    assert "  booktitle={NAACL18}," in bib and "  series = ICML," in bib and "month = jun," in bib
    assert any(
        "names no @string defines, kept as text: NAACL18" in str(n) for n in converted.notes.notes
    )


def test_one_spelling_per_tag_across_an_import(tmp_path: Path) -> None:
    """'Software Design' and 'software-design' would be two tags sharing one page."""
    from site_builder.importer import import_posts

    posts = tmp_path / "blog" / "content" / "post"
    posts.mkdir(parents=True)
    (tmp_path / "blog" / "hugo.toml").write_text("")
    for name, tags in (("a", "[Software Design, software-design]"), ("b", "[software-design]")):
        (posts / f"{name}.markdown").write_text(
            f"---\ntitle: {name}\ndate: 2024-01-01\ntags: {tags}\n---\n\nText.\n"
        )
    import_posts(tmp_path / "blog", tmp_path / "out")
    assert "tags:\n- Software Design\n---" in (tmp_path / "out" / "a.md").read_text()
    assert "tags:\n- Software Design\n---" in (tmp_path / "out" / "b.md").read_text()


def test_title_math_is_kept(tmp_path: Path) -> None:
    """A title's formulas render (``site_builder.titles``): the importer leaves them be."""
    post = tmp_path / "2021-02-05-chi.md"
    post.write_text('---\ntitle: "$\\\\chi$ triangles and $x_1$"\n---\n\nText.\n')
    converted = convert_post(post, Path(post.name), "jekyll", [tmp_path])
    assert "title: $\\chi$ triangles and $x_1$\n" in converted.text
    assert not any("title" in str(n) for n in converted.notes.notes)


def test_terminal_colour_codes_are_removed_and_reported(tmp_path: Path) -> None:
    """A notebook's coloured traceback would stop the build (an escape cannot be in a page)."""
    post = tmp_path / "2021-02-05-tb.md"
    post.write_text("---\ntitle: T\n---\n\n```\n\x1b[0;31mValueError\x1b[0m: bad\n```\n")
    converted = convert_post(post, Path(post.name), "jekyll", [tmp_path])
    assert "```\nValueError: bad\n```" in converted.text and "\x1b" not in converted.text
    (note,) = [str(n) for n in converted.notes.notes]
    assert note == "2021-02-05-tb.md:6: terminal colour codes and control characters removed"


def test_a_csl_json_bibliography_is_written_as_bibtex(tmp_path: Path) -> None:
    """Quarto posts cite from Zotero's CSL JSON; the build reads BibTeX."""
    folder = tmp_path / "posts" / "seeds"
    folder.mkdir(parents=True)
    (folder / "index.qmd").write_text(
        "---\ntitle: Seeds\ndate: 2026-04-13\nbibliography: references.json\n---\n\n"
        "As @Bao:2025 show.\n"
    )
    item = {
        "id": "Bao:2025",
        "type": "article-journal",
        "title": "Towards {reliable} DP learning",
        "author": [{"family": "Bao", "given": "Wenxuan"}, {"literal": "DP Team"}],
        "issued": {"date-parts": [[2025, 8, 21]]},
        "container-title": "JMLR",
        "DOI": "10.1/x",
    }
    (folder / "references.json").write_text(json.dumps([item]))
    converted = convert_post(folder / "index.qmd", Path("seeds/index.qmd"), "quarto", [tmp_path])
    assert "bibliography: references.bib\n" in converted.text and "@Bao:2025" in converted.text
    assert converted.written["references.bib"] == (
        "@article{Bao:2025,\n  author = {Bao, Wenxuan and DP Team},\n"
        "  title = {Towards reliable DP learning},\n  year = {2025},\n  journal = {JMLR},\n"
        "  doi = {10.1/x},\n}\n"
    )


def test_a_description_written_as_html_is_text(tmp_path: Path) -> None:
    """al-folio shows the description as HTML; here it is the page's meta text and the feed's."""
    post = tmp_path / "2025-04-28-mia.md"
    post.write_text(
        '---\ntitle: MIA\ndescription: "<strong>TL;DR: No.</strong><br> A &amp; B."\n---\n\nText.\n'
    )
    converted = convert_post(post, Path(post.name), "jekyll", [tmp_path])
    assert "description: 'TL;DR: No. A & B.'\n" in converted.text


def test_kramdowns_toc_list_turns_the_posts_toc_on(tmp_path: Path) -> None:
    """``* TOC`` with ``{:toc}`` under it was kramdown's table of contents; it came across
    as a list holding the word "TOC"."""
    post = tmp_path / "post.md"
    post.write_text("---\ntitle: T\ndate: 2024-01-01\n---\n\n* TOC\n{:toc}\n\n## A\n\nText.\n")
    converted = convert_post(post, Path("post.md"), "jekyll", [tmp_path])
    assert "\ntoc: true\n" in converted.text and "TOC" not in converted.text


@pytest.mark.parametrize(("fmt", "call"), [("hugo", "{{< toc >}}"), ("zola", "{{ toc() }}")])
def test_hugos_and_zolas_toc_shortcodes_turn_the_posts_toc_on(
    tmp_path: Path, fmt: str, call: str
) -> None:
    """Hugo's ``{{< toc >}}`` (a theme's) and Zola's ``{{ toc() }}`` were left to fix by hand."""
    post = tmp_path / "post.md"
    post.write_text(f"---\ntitle: T\ndate: 2024-01-01\n---\n\n{call}\n\n## A\n\nText.\n")
    converted = convert_post(post, Path("post.md"), fmt, [tmp_path])
    assert "\ntoc: true\n" in converted.text and "toc" not in converted.text.split("---")[2]
    assert not converted.notes.notes


def test_a_jekyll_file_name_with_a_one_digit_day(tmp_path: Path) -> None:
    """``2016-12-5-dissecting-rl.md``: Jekyll reads the date (one-digit months and days
    are allowed); here the date was kept in the slug and the post had no date."""
    post = tmp_path / "_posts" / "2016-12-5-dissecting-rl.md"
    post.parent.mkdir()
    post.write_text("---\ntitle: T\n---\n\nText.\n")
    converted = convert_post(post, Path("2016-12-5-dissecting-rl.md"), "jekyll", [tmp_path])
    assert converted.slug == "dissecting-rl" and "\ndate: '2016-12-05'\n" in converted.text


@pytest.mark.parametrize("value", ["today", "last-modified", "Last Modified", "git Created"])
def test_a_build_day_date_is_the_files_day(value: str, tmp_path: Path) -> None:
    """Quarto's ``date: today`` and Eleventy's ``date: Last Modified`` were "not a date":
    the post came across as an undated page. The engine took the file's day at build time."""
    import datetime as dt
    import os

    post = tmp_path / "post.md"
    post.write_text(f"---\ntitle: T\ndate: {value}\n---\n\nText.\n")
    stamp = dt.datetime(2023, 5, 17, 12, tzinfo=dt.UTC).timestamp()
    os.utime(post, (stamp, stamp))
    converted = convert_post(post, Path("post.md"), "jekyll", [tmp_path])
    assert "\ndate: '2023-05-17'\n" in converted.text and converted.kind == "post"


def test_a_date_that_does_not_exist_is_reported_not_a_traceback(tmp_path: Path) -> None:
    """``date: 2024-31-12``: PyYAML's date constructor raised ValueError, and the whole
    import ended in a traceback (a blind set's Astro notes)."""
    post = tmp_path / "post.md"
    post.write_text("---\ntitle: T\ndate: 2024-31-12\n---\n\nText.\n")
    converted = convert_post(post, Path("post.md"), "jekyll", [tmp_path])
    notes = [str(n) for n in converted.notes.notes]
    assert "post.md:1: date '2024-31-12' is not a date" in notes and converted.kind == "page"
