"""The first hour, as the README's Quick start walks it.

A page opened straight from disk is styled (assets are relative to the page);
``serve --open`` never hands the terminal to a text browser; ``make test``
installs no torch and says why tests were skipped; the venv set-up is quiet.
"""

from __future__ import annotations

import os
import subprocess
import tomllib
from html.parser import HTMLParser
from pathlib import Path

import pytest

from site_builder.urls import relative_to_page

ROOT = Path(__file__).resolve().parent.parent


class _Assets(HTMLParser):
    """Stylesheets, icons, preloads and scripts: what a page needs to look right."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "link" and values.get("rel") in {"stylesheet", "icon", "preload"}:
            self.urls.append(values["href"] or "")
        elif tag == "script" and values.get("src"):
            self.urls.append(values["src"] or "")


def page_assets(page: Path) -> list[str]:
    parser = _Assets()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.urls


def test_relative_to_page() -> None:
    assert relative_to_page("", "static/css/site.css") == "static/css/site.css"
    assert relative_to_page("tags/", "static/x.js") == "../static/x.js"
    assert relative_to_page("posts/a/", "static/x.js") == "../../static/x.js"
    assert relative_to_page("tags/ml/", "static/x.js") == "../../static/x.js"


def test_pages_opened_from_disk_find_their_assets(built_site: Path) -> None:
    """`open public/index.html` (file://): every asset resolves to a file beside it."""
    pages = [p for p in built_site.rglob("*.html") if p.name != "404.html"]
    assert len(pages) > 3
    for page in pages:
        urls = page_assets(page)
        assert any(url.endswith("static/css/site.css") for url in urls), page
        for url in urls:
            assert not url.startswith(("/", "http:", "https:")), (page, url)
            assert (page.parent / url).resolve().is_file(), (page, url)


def test_the_404_page_keeps_root_relative_assets(built_site: Path) -> None:
    """A host serves 404.html at any missing address, at any depth: only /static/ works."""
    urls = page_assets(built_site / "404.html")
    assert urls and all(url.startswith("/static/") for url in urls), urls


@pytest.mark.browser
def test_a_post_opened_from_disk_is_styled(built_site: Path) -> None:
    from tests.browser import chromium

    post = next(built_site.glob("posts/*/index.html"))
    with chromium() as context:
        page = context.new_page()
        page.goto(post.as_uri(), wait_until="load")
        sheets = page.evaluate("document.styleSheets.length")
        width = page.evaluate("getComputedStyle(document.querySelector('main')).maxWidth")
        font = page.evaluate("getComputedStyle(document.body).fontFamily")
    assert sheets >= 1
    assert width != "none", "site.css sets the column width"
    assert "Pagella" in font, font


def test_serve_open_without_a_desktop_only_prints(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """No DISPLAY: webbrowser would start a text browser in the terminal; print instead."""
    import webbrowser

    from site_builder import serve

    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr(serve.sys, "platform", "linux")

    def refuse(url: str) -> bool:
        raise AssertionError("opened a browser without a desktop")

    monkeypatch.setattr(webbrowser, "open", refuse)
    serve.open_in_browser("http://127.0.0.1:8000/")
    assert "Open http://127.0.0.1:8000/ in a browser." in capsys.readouterr().out


def test_serve_open_with_a_desktop_opens(monkeypatch: pytest.MonkeyPatch) -> None:
    import webbrowser

    from site_builder import serve

    opened: list[str] = []
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.setattr(webbrowser, "open", lambda url: opened.append(url) or True)
    serve.open_in_browser("http://127.0.0.1:8000/")
    assert opened == ["http://127.0.0.1:8000/"]


def make_dry_run(*targets: str) -> str:
    """The commands `make` would run from scratch (-B: as if nothing were installed).

    Run as a top-level make even under `make test`, so no "Entering directory" lines."""
    env = {k: v for k, v in os.environ.items() if k not in {"MAKEFLAGS", "MAKELEVEL", "MFLAGS"}}
    result = subprocess.run(
        ["make", "-n", "-B", "USE_UV=0", *targets],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout


def test_make_test_installs_no_torch() -> None:
    plan = make_dry_run("test")
    assert "[test]" in plan and "torch" not in plan
    assert "actionlint" in plan  # the workflow lint is part of `make test`
    torch_plan = make_dry_run("test-torch")
    assert "'.[torch]'" in torch_plan and "-m torch" in torch_plan
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert not any("torch" in dep for dep in extras["optional-dependencies"]["test"])
    assert extras["optional-dependencies"]["torch"] == ["torch==2.13.0"]


def test_ci_runs_both_test_targets() -> None:
    lines = (ROOT / ".ci" / "run").read_text().splitlines()
    assert lines.index("make test") < lines.index("make test-torch")


def test_setup_output_is_held_back() -> None:
    """pip and setuptools' notices (the "Editable installation" warning) reach the user only
    when a step fails; pip is not upgraded first."""
    plan = make_dry_run("build")
    install = [line for line in plan.splitlines() if "pip install" in line]
    assert install and all("quietly " in line for line in install), install
    assert "--upgrade pip" not in plan


def test_pytest_prints_skip_reasons() -> None:
    options = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]
    assert "-rs" in options["ini_options"]["addopts"].split()
