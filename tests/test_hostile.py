"""What a hostile-input probe found losing data or ending in a traceback (a second round of
``test_hardening``): each test is one finding, on the minimal site."""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import time
from pathlib import Path

import pytest

from site_builder.cli import main
from site_builder.config import SiteConfig, load_config
from site_builder.new import new_post
from site_builder.writer import STAGING_PREFIX, recover
from tests.conftest import SITES, make_site


def build(site: Path, *args: str) -> int:
    return main(["-C", str(site), "build", "--quiet", "--jobs", "1", *args])


def sources(site: Path) -> set[str]:
    return {
        str(p.relative_to(site)) for p in site.rglob("*") if not {"public", ".cache"} & set(p.parts)
    }


@pytest.mark.parametrize(
    ("out", "problem"),
    [
        (".", "is the site's folder, or holds it"),
        ("..", "is the site's folder, or holds it"),
        ("content", "is inside the site's sources"),
        ("templates/x", "is inside the site's sources"),
        ("site.yaml", "is a file, not a folder"),
        ("notes", "holds files no build wrote"),
    ],
)
def test_an_output_folder_that_would_replace_what_no_build_made_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], out: str, problem: str
) -> None:
    """``--out .`` deleted the site, ``--out content`` its posts (and exited 0)."""
    site = make_site(tmp_path / "site")
    (site / "notes").mkdir()
    (site / "notes" / "todo.txt").write_text("mine\n", encoding="utf-8")
    before = sources(site)
    assert build(site, "--out", str(site / out)) == 1
    assert problem in capsys.readouterr().err
    assert sources(site) == before


def test_an_earlier_output_and_a_new_folder_are_written(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site")
    assert build(site, "--out", str(tmp_path / "new")) == 0
    assert build(site, "--out", str(tmp_path / "new"), "--no-cache") == 0  # it has .nojekyll
    assert (tmp_path / "new" / "index.html").is_file()


def test_a_damaged_record_never_deletes_outside_the_output(tmp_path: Path) -> None:
    """The last build's rows name the files a rebuild may delete: ``../site.yaml`` did."""
    site = make_site(tmp_path / "site")
    precious = tmp_path / "precious.txt"
    precious.write_text("keep\n", encoding="utf-8")
    assert build(site) == 0
    with contextlib.closing(sqlite3.connect(site / ".cache" / "state.db")) as conn, conn:
        row = conn.execute("SELECT * FROM output LIMIT 1").fetchone()
        for rel in ("../site.yaml", "../../precious.txt", "/etc/hostname"):
            conn.execute("INSERT INTO output VALUES (?, ?, ?, ?, ?, ?)", (row[0], rel, *row[2:]))
    post = next((site / "content" / "posts").iterdir())
    post.write_text(post.read_text(encoding="utf-8") + "\nEdited.\n", encoding="utf-8")
    assert build(site) == 0
    assert (site / "site.yaml").is_file() and precious.is_file()


def test_a_damaged_journal_moves_and_deletes_nothing(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site")
    out = site / "public"
    out.mkdir()
    journal = out.parent / f"{STAGING_PREFIX}public.journal"
    plan = {"stage": str(site), "moves": ["content/posts"], "removed": ["../site.yaml"]}
    journal.write_text(json.dumps(plan), encoding="utf-8")
    before = sources(site) - {journal.name}
    assert recover(out.resolve()) is False  # not trusted: the caller builds afresh
    assert sources(site) == before


def test_a_file_name_that_is_not_utf8_stops_the_build_before_any_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = make_site(tmp_path / "site")
    posts = os.fsencode(site / "content" / "posts")
    first = next((site / "content" / "posts").iterdir())
    with open(os.path.join(posts, b"caf\xe9.md"), "wb") as file:
        file.write(first.read_bytes().replace(b"\nslug:", b"\nold-slug:"))
    assert build(site) == 1
    assert "the file name is not valid UTF-8: rename it" in capsys.readouterr().err
    assert not (site / "public").exists()


def test_a_post_that_links_to_itself_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = make_site(tmp_path / "site")
    (site / "content" / "posts" / "loop.md").symlink_to("loop.md")
    assert build(site) == 1
    assert "content/posts/loop.md: cannot read: Too many levels of symbolic links" in (
        capsys.readouterr().err
    )


def test_yaml_aliases_that_expand_to_billions_are_read_at_once(tmp_path: Path) -> None:
    """``&a [*b, *b, ...]`` nested eight deep took minutes in the control-character check."""
    lines = ['l0: &l0 ["x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    lines += [f"l{n}: &l{n} [{', '.join([f'*l{n - 1}'] * 9)}]" for n in range(1, 9)]
    site = make_site(tmp_path / "site")
    post = next((site / "content" / "posts").iterdir())
    text = post.read_text(encoding="utf-8").replace("---\n", "---\n" + "\n".join(lines) + "\n", 1)
    post.write_text(text, encoding="utf-8")
    started = time.perf_counter()
    assert build(site) == 0  # unknown keys: warnings
    assert time.perf_counter() - started < 20


def test_raw_html_is_true_or_false_not_a_string(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``raw_html: "false"`` was true to ``bool()``, and let ``<script>`` through."""
    site = make_site(tmp_path / "site")
    config = site / "site.yaml"
    config.write_text(config.read_text(encoding="utf-8") + 'raw_html: "false"\n', "utf-8")
    assert build(site) == 1
    assert "'raw_html' must be true or false" in capsys.readouterr().err


def test_a_notebook_nested_past_pythons_limit_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = make_site(tmp_path / "site")
    (site / "content" / "posts" / "deep.ipynb").write_text("[" * 100_000, encoding="utf-8")
    assert build(site) == 1
    assert "deep.ipynb: not a notebook: its JSON is nested too deeply" in capsys.readouterr().err


def test_a_long_titles_slug_is_cut_at_a_word(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site")
    config: SiteConfig = load_config(site)
    path = new_post(config, " ".join(["Attention"] * 60))
    assert len(path.stem) <= 80 and path.stem.endswith("attention") and path.is_file()


@pytest.mark.parametrize(("kind", "call"), [("pages", "scandir"), ("posts", "stat")])
def test_a_folder_of_posts_that_cannot_be_read_is_named_not_skipped(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    kind: str,
    call: str,
) -> None:
    """An unreadable ``content/posts/bundle/`` dropped the post and its page in silence. As
    root every folder reads, so the refusal is the system call's, made to fail here."""
    from site_builder import kinds

    site = make_site(tmp_path / "site")
    (site / "content" / kind / "locked").mkdir(parents=True)
    real = getattr(os, call)

    def refused(path: str, *args: object, **kwargs: object) -> object:
        if "locked" in str(path):
            raise PermissionError(13, "Permission denied")
        return real(path, *args, **kwargs)

    monkeypatch.setattr(kinds.os, call, refused)
    assert build(site) == 1
    said = f"content/{kind}/locked: cannot read the folder: Permission denied"
    assert said in capsys.readouterr().err


@pytest.mark.parametrize(
    ("where", "line", "said"),
    [
        ("post", "title: Yes", "'title' must be non-empty text: quote one YAML reads as true"),
        ("site", "language: [en]", "'language' must be text"),
        ("site", "description: [1, 2]", "'description' must be text"),
    ],
)
def test_a_value_of_the_wrong_type_is_named_not_shown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str, line: str, said: str
) -> None:
    """``title: Yes`` became the title "True"; ``language: [en]`` reached every page."""
    site = make_site(tmp_path / "site")
    if where == "site":
        config = site / "site.yaml"
        config.write_text(config.read_text(encoding="utf-8") + line + "\n", "utf-8")
    else:
        post = next((site / "content" / "posts").iterdir())
        text = post.read_text(encoding="utf-8")
        post.write_text(text.replace("\ntitle:", f"\n{line}\nold-title:", 1), "utf-8")
    assert build(site) == 1
    assert said in capsys.readouterr().err


def test_a_post_with_another_markdown_ending_is_named_not_dropped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Jekyll's ``.markdown`` (and ``.MD``) were left out without a word."""
    site = make_site(tmp_path / "site")
    first = next((site / "content" / "posts").iterdir())
    (site / "content" / "posts" / "2020-01-01-old.markdown").write_bytes(first.read_bytes())
    (site / "content" / "posts" / "LOUD.MD").write_bytes(first.read_bytes())
    assert main(["-C", str(site), "build", "--jobs", "1"]) == 0
    err = capsys.readouterr().err
    assert "content/posts/2020-01-01-old.markdown: warning: not read: posts and pages end in" in err
    assert (
        "content/posts/LOUD.MD: warning: not read: posts and pages end in .md (rename it LOUD.md)"
        in err
    )


@pytest.mark.parametrize(
    "url", ["https://example.org/my blog/", "https://x.org/?a=1", "https://x.org/#top"]
)
def test_a_base_url_that_cannot_prefix_addresses_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], url: str
) -> None:
    site = make_site(tmp_path / "site")
    assert build(site, "--base-url", url) == 1
    assert (
        "base_url must be a site's address, without spaces, '?' or '#'" in capsys.readouterr().err
    )


def test_serve_refuses_an_output_folder_it_would_otherwise_serve_as_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The build refused ``serve --out /``, and the server then served the folder: /etc."""
    site = make_site(tmp_path / "site")
    assert main(["-C", str(site), "serve", "--out", str(site), "--port", "0"]) == 1
    assert "the output folder is the site's folder" in capsys.readouterr().err


def test_a_menu_link_of_another_scheme_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = make_site(tmp_path / "site")
    config = site / "site.yaml"
    menu = 'menu:\n  - {title: Home, url: ""}\n  - {title: X, url: "javascript:alert(1)//://"}\n'
    config.write_text(config.read_text(encoding="utf-8") + menu, "utf-8")
    assert build(site) == 1
    assert "a link must be http(s), mailto or site-relative" in capsys.readouterr().err


def test_a_widget_that_exits_is_its_error_not_the_builds_exit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``sys.exit(0)`` (or argparse) in a widget ended the build with status 0, nothing built."""
    site = make_site(tmp_path / "site", SITES / "widgets")
    code = site / "widgets" / "sine-wave" / "widget.py"
    code.write_text(code.read_text(encoding="utf-8") + "\nimport sys\nsys.exit(0)\n", "utf-8")
    assert build(site) == 1
    assert "raised SystemExit" in capsys.readouterr().err


def test_check_names_a_link_that_is_no_address(tmp_path: Path) -> None:
    from site_builder.check import check_site

    site = make_site(tmp_path / "site")
    assert build(site) == 0
    page = site / "public" / "index.html"
    bad = '<a href="http://[oops/">x</a></main>'
    page.write_text(page.read_text(encoding="utf-8").replace("</main>", bad), "utf-8")
    report = check_site(site / "public", load_config(site))
    assert any("malformed link 'http://[oops/'" in p.message for p in report.problems)


def test_an_imported_config_of_aliases_is_searched_at_once() -> None:
    """The import looks for macros at any depth of ``_config.yml``: a "billion laughs" hung it."""
    import yaml

    from site_builder.importer.macros import _keyed

    lines = ['l0: &l0 ["x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    lines += [f"l{n}: &l{n} [{', '.join([f'*l{n - 1}'] * 9)}]" for n in range(1, 10)]
    lines.append("kramdown: {macros: {R: '\\\\mathbb{R}'}}")
    data = yaml.safe_load("\n".join(lines))
    started = time.perf_counter()
    assert _keyed(data, "macros") == [data["kramdown"]["macros"]]
    assert time.perf_counter() - started < 1


def test_an_imported_posts_liquid_loop_is_bounded() -> None:
    from liquid.exceptions import LiquidError

    from site_builder.importer.liquid_blocks import _environment

    with pytest.raises(LiquidError):
        _environment().from_string("{% for i in (1..1000000000) %}x{% endfor %}").render()


@pytest.mark.parametrize("jobs", ["0", "-1"])
def test_jobs_below_one_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], jobs: str
) -> None:
    site = make_site(tmp_path / "site")
    assert main(["-C", str(site), "build", "--jobs", jobs]) == 1
    assert f"--jobs: must be 1 or more, got {jobs}" in capsys.readouterr().err


def test_new_names_a_folder_it_cannot_write(tmp_path: Path) -> None:
    from site_builder.errors import BuildError
    from site_builder.new import new_widget

    site = make_site(tmp_path / "site")
    (site / "widgets").write_text("not a folder", encoding="utf-8")
    with pytest.raises(BuildError, match="cannot write"):
        new_widget(load_config(site), "loss-slider")


def test_an_imported_config_nested_past_pythons_limit_is_named(tmp_path: Path) -> None:
    from site_builder.errors import BuildError
    from site_builder.importer import import_posts

    old = tmp_path / "old"
    (old / "_posts").mkdir(parents=True)
    (old / "_config.yml").write_text("a: " + "[" * 100_000, encoding="utf-8")
    (old / "_posts" / "2020-01-01-x.md").write_text("---\ntitle: X\n---\nText.\n", "utf-8")
    site = make_site(tmp_path / "site")
    with pytest.raises(BuildError, match="nested too deeply to read"):
        import_posts(old, site / "content" / "posts")
