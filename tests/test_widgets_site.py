"""Figures an author makes in the site folder: a widget, plots from Python, an inline SVG.

``tests/sites/widgets/`` has a second widget (``sine-wave``, nothing to do with the
package), a post folder with ``plots.py`` (one plot with a dark variant, one
importing a neighbour) and an ``{.inline}`` SVG. Built with this repository's theme.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from site_builder import plots
from site_builder.build import build
from site_builder.cli import main
from site_builder.config import load_config
from site_builder.errors import BuildErrors
from site_builder.markdown import FigureError
from tests.browser import ARTIFACTS, chromium, load_quietly, require_chromium, serve_directory
from tests.conftest import ROOT, SITES, Sites, build_site, make_site

SITE = SITES / "widgets"
WAVES = "posts/waves/"
PLOTS = "posts/plots/"


@pytest.fixture(scope="module")
def built(sites: Sites) -> Path:
    return sites.built(SITE)


def page(out: Path, rel: str) -> str:
    return (out / rel / "index.html").read_text(encoding="utf-8")


# --- a widget that lives only in the site -------------------------------------------------


def test_the_site_widget_renders_its_fallback_and_data(built: Path) -> None:
    html = page(built, WAVES)
    assert '<figure id="fig-sine" class="figure widget" data-widget="sine-wave"' in html
    assert '<svg class="sine-plot"' in html and '<output class="sine-k">1</output>' in html
    (data_file,) = [p for p in (built / WAVES).iterdir() if p.suffix == ".json"]
    assert data_file.name.startswith("sine-wave-")  # parameters: their own data file
    data = json.loads(data_file.read_bytes())
    assert data["frequencies"] == [1, 2, 3, 4, 5] and len(data["curves"][0]) == 33
    assert (built / "static/widgets/sine-wave/widget.js").read_bytes() == (
        SITE / "widgets/sine-wave/widget.js"
    ).read_bytes()


def test_only_pages_with_widgets_load_scripts_and_styles(built: Path) -> None:
    waves = page(built, WAVES)
    assert '<link rel="modulepreload" href="../../static/widgets/sine-wave/widget.js">' in waves
    assert '<script type="module" src="../../static/js/widgets.js"></script>' in waves
    assert '<link rel="stylesheet" href="../../static/widgets/sine-wave/widget.css">' in waves
    for rel in (PLOTS, "posts/plain/"):
        assert "static/widgets/" not in page(built, rel) and "widgets.js" not in page(built, rel)
    assert "fonts.css" in waves and "fonts.css" not in page(built, "posts/plain/")


def test_the_no_op_check_sees_an_edited_widget(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = make_site(tmp_path / "site", SITE)
    for _ in range(2):
        assert main(["-C", str(site), "build"]) == 0
    assert "Up to date" in capsys.readouterr().out
    code = site / "widgets/sine-wave/widget.py"
    code.write_text(
        code.read_text().replace("round(math.sin(k * x), 4)", "round(math.sin(k * x), 3)")
    )
    assert main(["-C", str(site), "build"]) == 0
    assert "Up to date" not in capsys.readouterr().out
    (data,) = (site / "public" / WAVES).glob("*.json")
    assert "0.195," in data.read_text() and "0.1951" not in data.read_text()


def test_two_builds_are_byte_identical(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site", SITE)
    config = load_config(site)
    build(config, tmp_path / "one", use_cache=False, jobs=1)
    build(config, tmp_path / "two", use_cache=False, jobs=2)
    one, two = (
        {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
        for out in (tmp_path / "one", tmp_path / "two")
    )
    assert one.keys() == two.keys() and one == two
    assert not list(site.rglob("__pycache__")), "the site's Python ran without writing bytecode"


def test_an_edited_widget_rebuilds_only_the_posts_that_use_it(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site", SITE)
    out = site / "public"
    build_site(site, out=out)
    assert build(load_config(site), out).rendered == 0, "unchanged: nothing to do"
    code = site / "widgets/sine-wave/widget.py"
    code.write_text(code.read_text().replace('"41"', '"21"').replace('"4"', '"3"'))
    result = build(load_config(site), out)
    assert result.rendered == 1
    shown = page(out, WAVES)
    assert '<output class="sine-k">1</output>' in shown  # points=33 top=5 in the post win
    script = site / "widgets/sine-wave/widget.js"
    script.write_text(script.read_text() + "// edited\n")
    result = build(load_config(site), out)
    assert (out / "static/widgets/sine-wave/widget.js").read_text().endswith("// edited\n")


def test_a_failing_widget_names_its_line_the_widget_and_the_post(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site", SITE)
    code = site / "widgets/sine-wave/widget.py"
    text = code.read_text().replace(
        '    top = int(params.get("top", "4"))', '    top = int(params.get("top", "4")) // 0'
    )
    code.write_text(text)
    line = text.splitlines().index('    top = int(params.get("top", "4")) // 0') + 1
    with pytest.raises(BuildErrors) as caught:
        build_site(site)
    (error,) = caught.value.errors
    assert str(error) == (
        f'widgets/sine-wave/widget.py:{line}: widget "sine-wave" (figure #fig-sine) in '
        "content/posts/waves.md:8: data() raised ZeroDivisionError: integer division or "
        "modulo by zero"
    )


def test_cli_errors_are_one_line_without_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = make_site(tmp_path / "site", SITE)
    post = site / "content/posts/waves.md"
    post.write_text(post.read_text().replace('widget="sine-wave"', 'widget="sine-wav"'))
    (site / "widgets/sine-wave/fallback.html").write_text("{{ data.nope }}\n")
    assert main(["-C", str(site), "build", "--no-cache"]) == 1
    err = capsys.readouterr().err
    assert 'content/posts/waves.md:8: unknown widget "sine-wav" in figure #fig-sine' in err
    assert '(did you mean "sine-wave"?)' in err and "Traceback" not in err
    post.write_text(post.read_text().replace('widget="sine-wav"', 'widget="sine-wave"'))
    assert main(["-C", str(site), "build", "--no-cache"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("widgets/sine-wave/fallback.html:1: widget")
    assert "fallback.html raised UndefinedError" in err and "Traceback" not in err


def test_a_widget_folder_missing_a_part_is_an_error(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site", SITE)
    (site / "widgets/sine-wave/fallback.html").unlink()
    with pytest.raises(Exception, match=r"widgets/sine-wave: widget needs fallback.html"):
        load_config(site)


def test_new_widget_scaffolds_one_that_builds(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site", SITE)
    assert main(["-C", str(site), "new", "--widget", "loss-slider"]) == 0
    assert sorted(p.name for p in (site / "widgets/loss-slider").iterdir()) == [
        "fallback.html",
        "widget.js",
        "widget.py",
    ]
    (site / "content/posts/new.md").write_text(
        '---\ntitle: New\ndate: 2026-01-05\n---\n\n::: {#fig-new widget="loss-slider" count=3}\n'
        "A new widget.\n:::\n"
    )
    build_site(site)
    html = page(site / "public", "posts/new/")
    assert '<output class="loss-slider-value">x1 = 1</output>' in html
    assert main(["-C", str(site), "new", "--widget", "loss-slider"]) == 1
    assert main(["-C", str(site), "new", "--widget", "Bad_Name"]) == 1


def test_serve_rebuilds_when_a_widget_changes(tmp_path: Path) -> None:
    from tests.test_serve import Server, free_port, wait_for

    site = make_site(tmp_path / "site", SITE)
    port = free_port()
    command = [sys.executable, "-m", "site_builder", "-C", str(site), "serve", "--port", str(port)]
    process = subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True
    )
    server = Server(process, f"http://127.0.0.1:{port}", site)
    try:
        wait_for(lambda: server.get("/" + WAVES)[0] == 200, "the first build to be served")
        name = next(p.name for p in (site / ".cache/serve" / WAVES).glob("*.json"))
        assert "0.1951" in server.get(f"/{WAVES}{name}")[1]
        code = site / "widgets/sine-wave/widget.py"
        code.write_text(code.read_text().replace("math.sin(k * x), 4)", "math.sin(k * x), 2)"))
        wait_for(lambda: "0.1951" not in server.get(f"/{WAVES}{name}")[1], "the widget's new data")
        assert "0.2," in server.get(f"/{WAVES}{name}")[1]
    finally:
        process.kill()
        process.wait(timeout=10)


# --- plots from Python ----------------------------------------------------------------------


def test_plots_are_svg_light_and_dark_and_deterministic(built: Path) -> None:
    html = page(built, PLOTS)
    assert (
        '<picture><source srcset="fig-loss-dark.svg" media="(prefers-color-scheme: dark)" />'
        '<img src="fig-loss.svg" alt="Training loss over 50 steps, light or dark with the page."'
        ' width="384" height="240" loading="lazy" decoding="async" /></picture>'
    ) in html
    assert '<img src="fig-lr.svg" alt="The learning rate schedule."' in html
    assert not (built / PLOTS / "fig-lr-dark.svg").exists()
    light, dark = [(built / PLOTS / n).read_bytes() for n in ("fig-loss.svg", "fig-loss-dark.svg")]
    assert light != dark and b"#e8e6e1" in dark
    for svg in (light, dark):
        assert b"<metadata>" not in svg and b"<dc:date>" not in svg and b"Matplotlib v" not in svg


def test_an_unchanged_plot_costs_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site = make_site(tmp_path / "site", SITE)
    out = site / "public"
    build(load_config(site), out, jobs=1)
    before = (out / PLOTS / "fig-loss.svg").read_bytes()

    def refuse(*args: Any) -> None:
        raise AssertionError("the plot was made again")

    monkeypatch.setattr(plots, "_make", refuse)
    post = site / "content/posts/plots/index.md"
    post.write_text(post.read_text() + "\nOne more line.\n")  # the post renders again
    assert build(load_config(site), out, jobs=1).rendered == 1
    assert (out / PLOTS / "fig-loss.svg").read_bytes() == before
    monkeypatch.undo()
    helper = site / "content/posts/plots/schedule.py"  # an import of plots.py changed
    helper.write_text(helper.read_text().replace("** 0.5", "** 0.25"))
    assert build(load_config(site), out, jobs=1).rendered == 1


def test_a_failing_plot_names_its_line_the_function_and_the_post(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site", SITE)
    code = site / "content/posts/plots/schedule.py"
    code.write_text(code.read_text().replace("step / warmup", "step / 0"))
    with pytest.raises(BuildErrors) as caught:
        build(load_config(site), site / "public", use_cache=False)
    (error,) = caught.value.errors
    assert str(error) == (
        'content/posts/plots/schedule.py:2: plot "plots.py:learning_rate" (figure #fig-lr) in '
        "content/posts/plots/index.md:12: learning_rate() raised ZeroDivisionError: "
        "division by zero"
    )


def test_an_absolute_import_of_a_neighbour_gets_a_hint(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site", SITE)
    code = site / "content/posts/plots/plots.py"
    code.write_text(code.read_text().replace("from .schedule import", "from schedule import"))
    with pytest.raises(BuildErrors) as caught:
        build(load_config(site), site / "public", use_cache=False)
    messages = {str(e) for e in caught.value.errors}
    assert (
        'content/posts/plots/plots.py:5: plot "plots.py:learning_rate" (figure #fig-lr) in '
        "content/posts/plots/index.md:12: learning_rate() raised ModuleNotFoundError: No module "
        "named 'schedule' (import a neighbour relatively: from .schedule import ...)"
    ) in messages


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("plots.py", 'plot="plots.py" must name a file and a function: plot="plots.py:loss"'),
        ("nope.py:f", "nope.py not found in plots/ (plots live beside index.md)"),
        ("../x.py:f", "../x.py not found in plots/ (plots live beside index.md)"),
    ],
)
def test_a_plot_names_a_file_beside_the_post_and_a_function(spec: str, message: str) -> None:
    folder = SITE / "content/posts/plots"
    with pytest.raises(FigureError) as caught:
        plots.run(folder, SITE, spec, {})
    assert caught.value.message == message


def test_two_plots_writing_one_file_is_an_error(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site", SITE)
    post = site / "content/posts/plots/index.md"
    post.write_text(
        post.read_text() + '\n::: {#fig-loss-dark plot="plots.py:learning_rate"}\nX.\n:::\n'
    )
    with pytest.raises(BuildErrors) as caught:
        build_site(site)
    assert [e.message for e in caught.value.errors] == [
        "figure #fig-loss-dark would write fig-loss-dark.svg, which another figure writes"
    ]


def test_plots_without_matplotlib_say_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = make_site(tmp_path / "site", SITE)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib fails
    with pytest.raises(BuildErrors) as caught:
        build(load_config(site), site / "public", use_cache=False, jobs=1)
    messages = sorted({e.message for e in caught.value.errors})
    assert messages == [
        'plot "plots.py:learning_rate" (figure #fig-lr): plots need Matplotlib, which is not '
        f"installed: {plots.INSTALL}",
        'plot "plots.py:loss_curve" (figure #fig-loss): plots need Matplotlib, which is not '
        f"installed: {plots.INSTALL}",
    ]


def test_a_site_without_plots_never_imports_matplotlib(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site", ROOT)  # this repository's site
    script = (
        "import sys; from site_builder.cli import main; "
        f"assert main(['-C', {str(site)!r}, 'build', '-q', '--jobs', '1']) == 0; "
        "assert 'matplotlib' not in sys.modules, 'matplotlib imported'"
    )
    subprocess.run([sys.executable, "-c", script], check=True, cwd=ROOT)


# --- inline SVG -------------------------------------------------------------------------------


def test_inline_svg_is_part_of_the_page(built: Path) -> None:
    html = page(built, PLOTS)
    assert '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 30"' in html
    assert 'marker-end="url(#fig-arrow-head)"' in html and 'id="fig-arrow-head"' in html


# --- in a browser -----------------------------------------------------------------------------


@pytest.mark.browser
def test_the_site_widget_works_in_chromium(built: Path) -> None:
    require_chromium()
    with serve_directory(built) as base, chromium(viewport={"width": 1280, "height": 900}) as ctx:
        errors: list[str] = []
        tab = ctx.new_page()
        tab.on("pageerror", lambda exc: errors.append(str(exc)))
        tab.on("console", lambda m: errors.append(m.text) if m.type in ("error", "warning") else 0)
        load_quietly(tab, base + WAVES)
        slider = tab.get_by_role("slider", name="Frequency")
        slider.wait_for()
        line = tab.locator("#fig-sine polyline")
        first = line.get_attribute("points")
        slider.focus()
        tab.keyboard.press("End")
        assert tab.locator("#fig-sine .sine-k").inner_text() == "5"
        assert line.get_attribute("points") != first
        assert tab.locator("#fig-sine.is-interactive").count() == 1
        ARTIFACTS.mkdir(exist_ok=True)
        tab.locator("#fig-sine").screenshot(path=str(ARTIFACTS / "widget-sine-1280.png"))
        assert errors == []


@pytest.mark.browser
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_plots_and_inline_svg_follow_the_colour_scheme(built: Path, scheme: str) -> None:
    require_chromium()
    options = {"viewport": {"width": 1280, "height": 900}, "color_scheme": scheme}
    with serve_directory(built) as base, chromium(**options) as ctx:
        tab = ctx.new_page()
        load_quietly(tab, base + PLOTS)
        image = tab.locator("#fig-loss img")
        image.scroll_into_view_if_needed()
        tab.wait_for_function("document.querySelector('#fig-loss img').complete")
        shown = image.evaluate("img => img.currentSrc")
        assert shown.endswith("fig-loss-dark.svg" if scheme == "dark" else "fig-loss.svg")
        colours = tab.evaluate(
            """() => [getComputedStyle(document.querySelector('#fig-arrow path[stroke]')).stroke,
                      getComputedStyle(document.body).color]"""
        )
        assert colours[0] == colours[1], "the inline SVG draws in the text colour"
        ARTIFACTS.mkdir(exist_ok=True)
        tab.locator("#fig-loss").screenshot(path=str(ARTIFACTS / f"plot-{scheme}.png"))
        tab.locator("#fig-arrow").screenshot(path=str(ARTIFACTS / f"inline-svg-{scheme}.png"))
