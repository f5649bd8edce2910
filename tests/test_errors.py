"""Bad input never breaks the site: one case per user mistake.

Each case writes one broken file into a copy of a small good site, runs the
CLI in-process, and asserts exit status 1, the exact ``path:line: message``
line on stderr, no traceback, and that ``public/`` is byte-for-byte unchanged.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from site_builder.cli import main
from tests.conftest import make_site, tree_digest

# (case id, file to write relative to the site, its content, expected stderr line)
CASES: list[tuple[str, str, str | bytes, str]] = [
    (
        "yaml-syntax",
        "content/posts/bad.md",
        "---\ntitle: Bad\ndate: 2026-01-01\ntags: [a, b\n---\n",
        "content/posts/bad.md:4: invalid YAML: did not find expected ',' or ']'",
    ),
    (
        "yaml-indent",
        "content/posts/bad.md",
        "---\ntitle: Bad\n  date: 2026-01-01\n---\n",
        "content/posts/bad.md:3: invalid YAML: mapping values are not allowed",
    ),
    (
        "not-a-mapping",
        "content/posts/bad.md",
        "---\n- a\n- b\n---\n",
        "content/posts/bad.md:2: front matter must be a mapping of keys to values",
    ),
    (
        "unterminated",
        "content/posts/bad.md",
        "---\ntitle: Bad\ndate: 2026-01-01\n\nText\n",
        "content/posts/bad.md:1: front matter is not closed: add a '---' line after it",
    ),
    (
        "no-front-matter",
        "content/posts/bad.md",
        "Just text\n",
        "content/posts/bad.md:1: missing front matter: the file must start with a '---' line",
    ),
    (
        "missing-title",
        "content/posts/bad.md",
        "---\ndate: 2026-01-01\n---\n",
        "content/posts/bad.md:1: front matter is missing 'title'",
    ),
    (
        "bad-title",
        "content/posts/bad.md",
        "---\ndate: 2026-01-01\ntitle: [a, b]\n---\n",
        "content/posts/bad.md:3: 'title' must be non-empty text",
    ),
    (
        "missing-date",
        "content/posts/bad.md",
        "---\ntitle: Bad\n---\n",
        "content/posts/bad.md:1: front matter is missing 'date'",
    ),
    (
        "malformed-date",
        "content/posts/bad.md",
        "---\ntitle: Bad\ndate: yesterday\n---\n",
        "content/posts/bad.md:3: invalid date 'yesterday': use YYYY-MM-DD or YYYY-MM-DDTHH:MM",
    ),
    (
        "impossible-date",
        "content/posts/bad.md",
        "---\ntitle: Bad\ndate: 2026-02-30\n---\n",
        "content/posts/bad.md:3: date '2026-02-30' does not exist (day is out of range for month)",
    ),
    (
        "duplicate-slug",
        "content/posts/other.md",
        "---\ntitle: Other\ndate: 2026-01-02\nslug: good\n---\n",
        "content/posts/other.md:4: duplicate slug 'good': also used by content/posts/good.md",
    ),
    (
        "not-utf8",
        "content/posts/bad.md",
        b"---\ntitle: Bad\ndate: 2026-01-01\n---\n\n\xff\xfe\n",
        "content/posts/bad.md:6: file is not valid UTF-8",
    ),
    (
        "unknown-latex",
        "content/posts/bad.md",
        "---\ntitle: Bad\ndate: 2026-01-01\n---\n\nText\nwith $\\foo x$ here.\n",
        "content/posts/bad.md:7:7: math: unknown LaTeX command \\foo",
    ),
    (
        "unbalanced-braces",
        "content/posts/bad.md",
        "---\ntitle: Bad\ndate: 2026-01-01\n---\n\n$$\n\\frac{a}{b\n$$\n",
        "content/posts/bad.md:7:9: math: unbalanced braces",
    ),
    (
        "missing-image",
        "content/posts/bad.md",
        "---\ntitle: Bad\ndate: 2026-01-01\n---\n\nSee\n![a plot](plot.png)\n",
        "content/posts/bad.md:7: image 'plot.png' not found",
    ),
    (
        "template-syntax",
        "templates/index.html",
        "{% block main %}\n{% if %}\n{% endblock %}\n",
        "templates/index.html:2: template syntax error: Expected an expression",
    ),
    (
        "template-undefined",
        "templates/404.html",
        '{% extends "base.html" %}\n{% block main %}\n{{ nosuch.attr }}\n{% endblock %}\n',
        "templates/404.html:3: template error: 'nosuch' is undefined",
    ),
    ("site-yaml", "site.yaml", "title: T\nauthor: A\nbase_url: [\n", "site.yaml:3: invalid YAML"),
    (
        "site-yaml-base-url",
        "site.yaml",
        "title: T\nauthor: A\nbase_url: ftp://x\n",
        "site.yaml:3: base_url must be an absolute http(s) URL, got 'ftp://x'",
    ),
]


@pytest.mark.parametrize(("name", "target", "text", "expected"), CASES, ids=[c[0] for c in CASES])
def test_bad_input_fails_cleanly(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    name: str,
    target: str,
    text: str | bytes,
    expected: str,
) -> None:
    site = make_site(tmp_path / "site")
    assert main(["-C", str(site), "build", "--quiet"]) == 0
    before = tree_digest(site / "public")
    capsys.readouterr()

    path = site / target
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    status = main(["-C", str(site), "build"])
    err = capsys.readouterr().err

    assert status == 1
    assert "Traceback" not in err
    assert any(line.startswith(expected) for line in err.splitlines()), err
    assert tree_digest(site / "public") == before
    assert not list(site.glob(".staging-*")), "a failed build left a staging directory"


def test_all_errors_reported_in_one_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    site = make_site(tmp_path / "site")
    posts = site / "content" / "posts"
    (posts / "a.md").write_text("---\ntitle: A\ndate: 2026-13-01\n---\n", encoding="utf-8")
    (posts / "b.md").write_text("---\ntitle: B\ndate: 2026-01-01\n---\n\n$\\nope$\n", "utf-8")
    (posts / "c.md").write_text("---\ntitle: C\n---\n", encoding="utf-8")
    assert main(["-C", str(site), "build"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert [line.split(":")[0] for line in err[:3]] == [
        "content/posts/a.md",
        "content/posts/b.md",
        "content/posts/c.md",
    ]
    assert err[-1] == "Build failed: 3 errors."


def test_warnings_do_not_fail_unless_strict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = make_site(tmp_path / "site")
    (site / "content" / "posts" / "w.md").write_text(
        "---\ntitle: W\ndate: 2026-01-01\ntitel: typo\n---\n\nText.\n\n[^x]: unused\n", "utf-8"
    )
    assert main(["-C", str(site), "build", "--quiet"]) == 0
    err = capsys.readouterr().err
    assert (
        "content/posts/w.md:4: warning: unknown front matter key 'titel' (did you mean 'title'?)"
        in err
    )
    assert "content/posts/w.md:9: warning: footnote [^x] is defined but never referenced" in err
    assert main(["-C", str(site), "build", "--strict"]) == 1


def test_interrupted_build_leftovers_are_removed(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site")
    stale = site / ".staging-public-abc123"
    (stale / "posts").mkdir(parents=True)
    assert main(["-C", str(site), "build", "--quiet"]) == 0
    assert not stale.exists()
    assert (site / "public" / "index.html").exists()
