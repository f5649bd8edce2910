"""``site-builder import``: real posts come across, build, and leave nothing for ``check``.

The posts in ``tests/data/import/`` are real ones (trimmed) from an al-folio
(ICLR blog track), a Hugo and a Quarto blog, with a few constructs added that
cannot convert; ``README.md`` there names each source.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from site_builder.build import build
from site_builder.check import check_site
from site_builder.cli import main
from site_builder.config import load_config
from site_builder.importer import import_posts
from site_builder.importer.finding import detect
from site_builder.importer.report import ImportReport
from site_builder.leftovers import scan_page
from tests.conftest import ROOT, make_site

DATA = Path(__file__).parent / "data" / "import"


def import_and_build(tmp_path: Path, source: str) -> tuple[Path, ImportReport]:
    site = make_site(tmp_path / "site", ROOT)
    shutil.rmtree(site / "content" / "posts")
    report = import_posts(DATA / source, site / "content" / "posts")
    build(load_config(site), site / "public", jobs=1, use_cache=False)
    return site, report


@pytest.mark.parametrize(
    ("source", "fmt"), [("jekyll", "jekyll"), ("hugo", "hugo"), ("quarto", "quarto")]
)
def test_format_is_detected(source: str, fmt: str) -> None:
    assert detect(DATA / source) == fmt


@pytest.mark.parametrize("source", ["jekyll", "hugo", "quarto"])
def test_imported_posts_build_and_check_finds_no_leftovers(tmp_path: Path, source: str) -> None:
    site, report = import_and_build(tmp_path, source)
    assert all(post.written is not None for post in report.posts), report.posts
    result = check_site(site / "public", load_config(site))
    assert result.problems == [], result.problems
    assert result.warnings == [], result.warnings
    for page in (site / "public" / "posts").glob("*/index.html"):
        found = scan_page(page.read_text())
        assert found == [], (page, found)


def test_jekyll_conversions(tmp_path: Path) -> None:
    site, _ = import_and_build(tmp_path, "jekyll")
    post = site / "content/posts/distill-example/index.md"
    text = post.read_text()
    for expected in (
        "author: Albert Einstein and Boris Podolsky",
        "tags:\n- distill\n- example",
        "bibliography: 2025-04-28-distill-example.bib",
        "just like $E = mc^2$.",
        "$$\n\\newcommand{\\R}{\\mathbb{R}}",
        "$$\n\\begin{equation}\n\\label{eq:argmax}",
        "![The ICLR logo, with $\\alpha$ in its caption.](iclr.png){#fig-distill-example-1}",
        "inline like this: [@gregor2015draw]",
        "Jekyll-scholar: [@gregor2015draw]",
        "generated.^[This will become a hoverable footnote.]",
        "```c++\nint main",
        '<iframe src="plotly_demo_1.html"',
        "reads with spaces: $h_t^*$.",
    ):
        assert expected in text, expected
    assert "{:" not in text and "{% raw" not in text
    for name in ("iclr.png", "9.jpg", "7.jpg", "plotly_demo_1.html"):
        assert (post.parent / name).is_file(), name
    html = (site / "public/posts/distill-example/index.html").read_text()
    assert 'id="eq-argmax"' in html and "<math" in html


def test_unconvertible_constructs_are_reported_with_path_and_line(tmp_path: Path) -> None:
    _, report = import_and_build(tmp_path, "jekyll")
    notes = [str(n) for n in report.notes]
    source = (DATA / "jekyll/_posts/2025-04-28-distill-example.md").read_text().split("\n")
    include = next(i for i, ln in enumerate(source, 1) if "related_posts" in ln)
    expected = f"jekyll/_posts/2025-04-28-distill-example.md:{include}: Liquid tag not converted"
    assert any(n.startswith(expected) for n in notes), notes
    _, hugo = import_and_build(tmp_path / "h", "hugo")
    assert any(
        "bundle/index.md:30: Hugo shortcode not converted: {{< box info >}}" in str(n)
        for n in hugo.notes
    ), [str(n) for n in hugo.notes]
    _, quarto = import_and_build(tmp_path / "q", "quarto")
    messages = [str(n) for n in quarto.notes]
    assert any(
        ":12: executable {r} cell hidden on the old page (include: false)" in m for m in messages
    )
    assert any(":59: executable {r} cell kept as code" in m for m in messages), messages
    assert any("@fig-emax refers to nothing" in m for m in messages), messages


def test_hugo_conversions(tmp_path: Path) -> None:
    site, _ = import_and_build(tmp_path, "hugo")
    text = (site / "content/posts/bundle/index.md").read_text()
    assert "![Training loss, $\\mathcal{L}_t$ per step](loss.png){#fig-bundle-1}" in text
    assert "![A Gaussian](gauss.png)" in text
    assert '```python\nprint("{{< not a shortcode >}}")\n```' in text
    assert "[the other post](../modes-stein/)" in text
    assert "$a_1 + a_2$" in text and "x &= 1 \\\\\n" in text
    assert "date: '2024-03-26T09:08:10+11:00'" in text


def test_never_overwrites_an_existing_post(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    into = tmp_path / "posts"
    into.mkdir()
    (into / "distill-example.md").write_text("mine")
    status = main(["-C", str(tmp_path), "import", str(DATA / "jekyll"), "--into", str(into)])
    output = capsys.readouterr()
    assert status == 0
    assert (into / "distill-example.md").read_text() == "mine"
    assert not (into / "distill-example").exists()
    assert "not overwritten" in output.err
    assert "Imported 0 of 1 jekyll posts" in output.out


def test_cli_import_prints_path_line_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["-C", str(tmp_path), "import", str(DATA / "hugo"), "--from", "hugo"])
    output = capsys.readouterr()
    assert status == 0
    assert (tmp_path / "content/posts/bundle/index.md").is_file()
    assert "bundle/index.md:30: Hugo shortcode not converted" in output.err
    assert "Traceback" not in output.err


def test_cli_import_of_a_missing_folder_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["-C", str(tmp_path), "import", str(tmp_path / "nope")])
    err = capsys.readouterr().err
    assert status == 1
    assert err.strip().endswith("no such file or folder to import from")


def test_check_warns_about_leftovers_with_page_and_source_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = make_site(tmp_path / "site", ROOT)
    post = site / "content/posts/pasted.md"
    post.write_text(
        "---\ntitle: Pasted\ndate: 2024-01-01\n---\n\n"
        'A figure: {% include figure.liquid path="x.png" %}\n\n'
        'A shortcode {{< youtube abc >}} and a cite <d-cite key="a"></d-cite>.\n\n'
        "\\begin{equation} x \\end{equation}\n\n"
        "A stray $ $x$ and code `{% not this %}`.\n\n"
        "<p>Raw $\\mathbf{x}_1$ here, $5 and $10 there.</p>\n\n"
        "::: {.my-box width=}\nBoxed.\n:::\n"  # attributes that do not parse: no div
    )
    status = main(["-C", str(site), "check", "-q"])
    err = capsys.readouterr().err
    page = "(posts/pasted/index.html:"
    for line, kind in (
        (6, "Liquid tag left over"),
        (8, "Hugo shortcode left over"),
        (8, "unknown custom element left over: <d-cite>"),
        (10, "raw LaTeX left over"),
        (12, "a visible $ next to math left over"),
        (14, "formula shown as text left over: $\\mathbf{x}_1$"),
        (16, "Pandoc ::: fence left over"),
    ):
        assert any(
            w.startswith(f"content/posts/pasted.md:{line}: warning: {kind}") and page in w
            for w in err.splitlines()
        ), (line, kind, err)
    assert "{% not this %}" not in err and "$5" not in err
    assert status == 0  # warnings; --strict makes them fail
    assert main(["-C", str(site), "check", "-q", "--strict", "--no-build"]) == 1


_LEFTOVER_TEXT = """() => {
  // What a reader sees: the rendered text, outside code (where these are fine to show).
  const clone = document.querySelector('article').cloneNode(true);
  clone.querySelectorAll('pre, code, math').forEach((e) => e.remove());
  const text = clone.innerText;
  return ['{%', '{{<', '$', '<d-', '\\\\begin'].filter((mark) => text.includes(mark));
}"""


@pytest.mark.browser
@pytest.mark.parametrize("source", ["jekyll", "hugo", "quarto"])
def test_imported_posts_show_no_raw_markup_in_a_browser(tmp_path: Path, source: str) -> None:
    """No ``{%``, ``$``, ``<d-`` or ``\\begin`` in what Chromium renders of an imported post."""
    from tests.browser import chromium, serve_directory

    site, _ = import_and_build(tmp_path, source)
    pages = sorted((site / "public" / "posts").glob("*/index.html"))
    assert pages
    with serve_directory(site / "public") as base, chromium() as context:
        tab = context.new_page()
        for page in pages:
            tab.goto(base + page.parent.relative_to(site / "public").as_posix() + "/")
            assert tab.evaluate(_LEFTOVER_TEXT) == [], page


def test_bad_input_is_reported_never_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    posts = tmp_path / "blog" / "_posts"
    posts.mkdir(parents=True)
    (posts / "2024-01-01-broken-yaml.md").write_text("---\ntitle: [unclosed\n---\n\nText.\n")
    (posts / "2024-01-02-binary.md").write_bytes(b"\xff\xfe\x00bin")
    (posts / "2024-01-03-folder.md").mkdir()
    (posts / "_draft.md").write_text("---\ntitle: Not a post\n---\n")  # Jekyll ignores it
    status = main(["-C", str(tmp_path), "import", str(tmp_path / "blog")])
    output = capsys.readouterr()
    assert status == 0
    assert "Traceback" not in output.err
    assert "2024-01-02-binary.md: skipped: not UTF-8 text (byte 0xff at offset 0)" in output.err
    assert "2024-01-03-folder.md: skipped: cannot read it: Is a directory" in output.err
    assert "2024-01-01-broken-yaml.md:2: front matter is not YAML" in output.err
    assert "Imported 1 of 3 jekyll posts" in output.out
    assert (tmp_path / "content/posts/broken-yaml.md").is_file()  # the name gave its date
    a_file = tmp_path / "a-file"
    a_file.write_text("")
    status = main(["-C", str(tmp_path), "import", str(tmp_path / "blog"), "--into", str(a_file)])
    err = capsys.readouterr().err
    assert status == 1 and "Traceback" not in err
    assert err.strip().endswith("is a file: import needs a folder to write posts into")


def test_a_post_the_importer_fails_on_is_named_and_the_rest_come_across(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bug met on one post (a blind set's ``date: 2024-31-12`` raised ValueError) ended
    the whole import in a traceback, naming nothing; now that post is skipped, named with
    the error, and the others come across."""
    import site_builder.importer as importer

    old = tmp_path / "old" / "_posts"
    old.mkdir(parents=True)
    (old / "2020-01-01-good.md").write_text("---\ntitle: Good\n---\n\nFine.\n")
    (old / "2020-01-02-bad.md").write_text("---\ntitle: Bad\n---\n\nBoom.\n")
    real = importer.convert_post

    def convert(path: Path, *args: object, **kwargs: object) -> object:
        if path.name.endswith("bad.md"):
            raise ValueError("month must be in 1..12")
        return real(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(importer, "convert_post", convert)
    site = make_site(tmp_path / "site", ROOT)
    report = importer.import_posts(tmp_path / "old", site / "content" / "posts")
    skipped = [p for p in report.posts if p.skipped]
    assert [str(p.source.name) for p in skipped] == ["2020-01-02-bad.md"]
    assert "ValueError: month must be in 1..12" in skipped[0].skipped
    assert (site / "content/posts/good.md").is_file()
