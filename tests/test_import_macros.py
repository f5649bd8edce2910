"""The old site's macros come across into ``site.yaml`` and every imported formula is
converted once, so ``import`` names what the build would stop on (issue 25, items 2, 3)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from site_builder.build import build
from site_builder.cli import main
from site_builder.config import load_config
from site_builder.importer import import_posts
from site_builder.importer.report import ImportReport
from tests.conftest import ROOT, make_site

# As real al-folio/Minima layouts write them: MathJax 2 in a layout, MathJax 3 and a
# hidden \newcommand block in includes, KaTeX's options with \gdef, keys in _config.yml.
MATHJAX2 = r"""<html><head>
<script type="text/x-mathjax-config">
MathJax.Hub.Config({
  TeX: {
    equationNumbers: { autoNumber: "AMS" },
    Macros: {
      R: "{\\mathbb{R}}",
      "\\E": ["\\mathbb{E}\\left[#1\\right]", 1],   // expectation
      half: "\frac{1}{2}",
      given: ["#1 \\mid #2", 2, "x"]
    }
  }
});
</script></head><body>{{ content }}</body></html>
"""
MATHJAX3 = r"""<script>
window.MathJax = {
  tex: {
    inlineMath: [['$', '$'], ['\\(', '\\)']],
    macros: {
      norm: ['\\left\\lVert #1 \\right\\rVert', 1],
      vx: '\\mathbf{x}',
      R: '\\mathbb{R}'
    }
  }
};
</script>
<div style="display: none">
$$
\newcommand{\KL}[2]{D_{\mathrm{KL}}\left(#1 \,\|\, #2\right)}
\DeclareMathOperator*{\argmax}{arg\,max}
\def\|{\Vert}
$$
</div>
"""
KATEX = r"""<script>
document.addEventListener("DOMContentLoaded", function () {
  renderMathInElement(document.body, {
    delimiters: [{left: "$$", right: "$$", display: true}],
    macros: { "\\Var": "\\operatorname{Var}", "\\T": "^{\\top}" },
  });
});
</script>
<div class="katex-macros" hidden>\(\gdef\Cov{\operatorname{Cov}}\)</div>
"""


def jekyll_site(root: Path) -> Path:
    (root / "_layouts").mkdir(parents=True)
    (root / "_includes").mkdir()
    (root / "_posts").mkdir()
    (root / "_layouts" / "default.html").write_text(MATHJAX2)
    (root / "_includes" / "mathjax.html").write_text(MATHJAX3)
    (root / "_includes" / "katex.html").write_text(KATEX)
    (root / "_config.yml").write_text(
        "title: Notes\nkatex:\n  macros:\n    \\N: \\mathbb{N}\n    one: ['\\mathbb{1}']\n"
    )
    (root / "_posts" / "2020-10-18-kl.md").write_text(
        "---\ntitle: KL\n---\n\n"
        "For $x \\in \\R$, $\\E{X}$, $\\KL{p}{q}$, $\\norm{\\vx}$, $\\argmax_x f$,\n"
        "$\\Var[X] = \\Cov(X, X)$, $k \\in \\N$ and $\\mathbf{1} = \\one$,\n"
        "$\\given{y}$ and $\\given[a]{b}$.\n"
    )
    return root


def test_the_old_sites_macros_are_written_into_site_yaml(tmp_path: Path) -> None:
    site = make_site(tmp_path / "site", ROOT)
    before = (site / "site.yaml").read_text()
    report = import_posts(jekyll_site(tmp_path / "old"), site / "content" / "posts")
    after = (site / "site.yaml").read_text()
    assert after.startswith(before)  # comments and every other key as they were
    macros = yaml.safe_load(after)["math"]["macros"]
    assert macros == {
        "R": "{\\mathbb{R}}",  # the layout's; the include's other \R is reported
        "E": "\\mathbb{E}\\left[#1\\right]",
        "norm": "\\left\\lVert #1 \\right\\rVert",
        "vx": "\\mathbf{x}",
        "KL": "D_{\\mathrm{KL}}\\left(#1 \\,\\|\\, #2\\right)",
        "argmax": "\\operatorname*{arg\\,max}",
        "Var": "\\operatorname{Var}",
        "T": "^{\\top}",
        "Cov": "\\operatorname{Cov}",
        "N": "\\mathbb{N}",
        "one": "\\mathbb{1}",
        "|": "\\Vert",  # a control symbol, expanded before conversion
        "given": ["#1 \\mid #2", 2, "x"],  # MathJax's form: its first argument optional
    }
    notes = [str(n) for n in report.notes]
    assert notes == [
        "old/_includes/mathjax.html:8: macro \\R defined again differently; "
        "the one at old/_layouts/default.html:7 is kept",
        "old/_layouts/default.html:9: macro \\half not read: JavaScript read \\f as an "
        "escape, not a backslash (write \\\\)",
    ]
    assert report.macros and "13 site macros written to site.yaml" in report.summary()
    build(load_config(site), site / "public", jobs=1, use_cache=False)  # every formula converts
    assert "<math" in (site / "public/posts/kl/index.html").read_text()


def test_a_second_import_keeps_the_sites_own_definitions(tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / "content").mkdir(parents=True)
    (site / "site.yaml").write_text("title: T\nmath:\n  macros:\n    R: \\mathbf{R}  # mine\n")
    report = import_posts(jekyll_site(tmp_path / "old"), site / "content" / "posts")
    text = (site / "site.yaml").read_text()
    assert text.startswith("title: T\nmath:\n  macros:\n    R: \\mathbf{R}  # mine\n    N: ")
    assert any(
        "macro \\R is \\mathbf{R} in site.yaml already: kept there" in str(n) for n in report.notes
    )
    again = import_posts(tmp_path / "old", site / "content" / "posts2", site=site)
    assert again.macros == [] and (site / "site.yaml").read_text() == text


def test_hugo_params_and_partials_and_quarto_headers(tmp_path: Path) -> None:
    hugo = tmp_path / "hugo"
    (hugo / "layouts" / "partials").mkdir(parents=True)
    (hugo / "content" / "posts").mkdir(parents=True)
    (hugo / "hugo.toml").write_text(
        'title = "x"\n[params.math.macros]\n"\\\\RR" = "\\\\mathbb{R}"\n'
        'inner = ["\\\\langle #1, #2 \\\\rangle", 2]\n'
    )
    (hugo / "layouts" / "partials" / "math.html").write_text(
        "<script>MathJax = {tex: {macros: {bb: ['\\\\mathbb{#1}', 1]}}};</script>\n"
    )
    (hugo / "content" / "posts" / "a.md").write_text(
        "---\ntitle: A\ndate: 2024-01-01\n---\n\n$\\RR$, $\\inner{a}{b}$, $\\bb{Z}$.\n"
    )
    site = tmp_path / "site"
    import_posts(hugo, site / "content" / "posts")
    assert yaml.safe_load((site / "site.yaml").read_text())["math"]["macros"] == {
        "RR": "\\mathbb{R}",
        "inner": "\\langle #1, #2 \\rangle",
        "bb": "\\mathbb{#1}",
    }
    quarto = tmp_path / "quarto"
    (quarto / "posts" / "p").mkdir(parents=True)
    (quarto / "_quarto.yml").write_text(
        "project:\n  type: website\nformat:\n  html:\n    include-in-header:\n"
        "      - macros.html\n      - text: |\n          <script>MathJax = {tex: {macros:"
        " {P: '\\\\mathbb{P}'}}};</script>\n"
    )
    (quarto / "macros.html").write_text(
        '<span style="display:none">\\(\\newcommand{\\V}{\\mathbb{V}}\\)</span>\n'
    )
    (quarto / "posts" / "p" / "index.qmd").write_text(
        "---\ntitle: P\ndate: 2024-01-01\n---\n\n$\\P(A)$ and $\\V[X]$.\n"
    )
    site = tmp_path / "site2"
    import_posts(quarto, site / "content" / "posts")
    assert yaml.safe_load((site / "site.yaml").read_text())["math"]["macros"] == {
        "P": "\\mathbb{P}",
        "V": "\\mathbb{V}",
    }


def test_a_formula_that_will_not_convert_is_reported_at_the_imported_line_and_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """MathJax showed ``\\simga`` in red; the build stops on it: import says so first."""
    old = tmp_path / "old" / "_posts"
    old.mkdir(parents=True)
    (old / "2020-01-01-typo.md").write_text(
        "---\ntitle: Typo\n---\n\nText.\n\nThe variance $\\simga^2$ and $$\\math{x}$$ here.\n"
    )
    (old / "2020-01-02-fine.md").write_text("---\ntitle: Fine\n---\n\n$x^2$\n")
    site = make_site(tmp_path / "site", ROOT)
    assert main(["-C", str(site), "import", str(tmp_path / "old")]) == 0
    out = capsys.readouterr()
    assert (
        "old/_posts/2020-01-01-typo.md:7:15: formula does not convert: unknown LaTeX command "
        "\\simga (did you mean \\sigma?) (content/posts/typo.md:8:15)"
    ) in out.err
    assert "old/_posts/2020-01-01-typo.md:7:31: formula does not convert: unknown LaTeX " in (
        out.err
    )
    assert "2 formulas in 1 post do not convert" in out.out
    assert "site.yaml now sets `math: {errors: show}`" in out.out
    assert "fine.md" not in out.err
    # As MathJax showed them in red, the site builds, each formula boxed and warned about.
    assert yaml.safe_load((site / "site.yaml").read_text())["math"] == {"errors": "show"}
    assert main(["-C", str(site), "build", "-q"]) == 0
    assert "content/posts/typo.md:8:15: warning: math: unknown LaTeX command \\simga" in (
        capsys.readouterr().err
    )
    assert 'class="math-error"' in (site / "public/posts/typo/index.html").read_text()


def test_a_site_that_chose_to_stop_keeps_its_choice(tmp_path: Path) -> None:
    old = tmp_path / "old" / "_posts"
    old.mkdir(parents=True)
    (old / "2020-01-01-typo.md").write_text("---\ntitle: Typo\n---\n\n$\\simga$\n")
    site = make_site(tmp_path / "site", ROOT)
    with (site / "site.yaml").open("a") as handle:
        handle.write("math:\n  errors: stop\n")
    report = import_posts(tmp_path / "old", site / "content" / "posts")
    assert not report.errors_shown
    assert "errors: stop" in (site / "site.yaml").read_text()
    assert "set `math: {errors: show}` in site.yaml" in report.summary()


def test_macros_in_a_script_file_the_layout_loads(tmp_path: Path) -> None:
    """KaTeX options in the site's own ``assets/js/katex.js`` (loaded by an include with
    ``relative_url``) and MathJax's ``mathjax-config.js`` named by Quarto's header text
    are the site's macros too; a vendored library is not read."""
    old = tmp_path / "old"
    (old / "_includes").mkdir(parents=True)
    (old / "assets" / "js").mkdir(parents=True)
    (old / "_posts").mkdir()
    (old / "_includes" / "hemline.html").write_text(
        "<script src=\"{{ '/assets/js/katex.min.js' | relative_url }}\"></script>\n"
        "<script src=\"{{ '/assets/js/katex.js' | relative_url }}\"></script>\n"
        '<script src="https://cdn.example.org/x.js"></script>\n'
    )
    (old / "assets" / "js" / "katex.js").write_text(
        'options = {\n\t"macros":{\n\t\t"\\\\Eb":"\\\\mathbb{E}",\n'
        '\t\t"\\\\parens":"\\\\left( #1 \\\\right)"\n\t}\n};\n'
    )
    (old / "assets" / "js" / "katex.min.js").write_text('x={macros:{"\\\\no":"1"}};')
    (old / "_posts" / "2020-01-01-a.md").write_text("---\ntitle: A\n---\n\n$\\Eb \\parens{x}$\n")
    site = make_site(tmp_path / "site", ROOT)
    report = import_posts(old, site / "content" / "posts")
    assert yaml.safe_load((site / "site.yaml").read_text())["math"]["macros"] == {
        "Eb": "\\mathbb{E}",
        "parens": "\\left( #1 \\right)",
    }
    assert report.posts[0].failed == 0
    quarto = tmp_path / "quarto"
    (quarto / "posts").mkdir(parents=True)
    (quarto / "_quarto.yml").write_text(
        "project:\n  type: website\nformat:\n  html:\n    include-in-header:\n"
        '      text: |\n        <script src="mathjax-config.js"></script>\n'
    )
    (quarto / "mathjax-config.js").write_text(
        'MathJax = {\n  tex: {\n    macros: {\n      mean: "\\\\overline",\n'
        '      T: "{\\\\textcolor{purple}{Y^{(1)}}}"\n    }\n  }\n};\n'
    )
    (quarto / "posts" / "p.qmd").write_text("---\ntitle: P\ndate: 2024-01-01\n---\n\n$\\mean Y$\n")
    site = make_site(tmp_path / "site2", ROOT)
    report = import_posts(quarto, site / "content" / "posts")
    assert yaml.safe_load((site / "site.yaml").read_text())["math"]["macros"] == {
        "mean": "\\overline",
        "T": "{\\textcolor{purple}{Y^{(1)}}}",
    }
    assert report.posts[0].failed == 0


def test_macros_in_a_module_the_page_imports_or_a_pipeline_builds(tmp_path: Path) -> None:
    """``main.js`` loaded as a module imports ``./katex-setup.js``, whose KaTeX options hold
    the macros; a Hugo site's ``assets/js/math.js`` reaches the page through Hugo Pipes,
    named by no ``<script src>``: both are the site's macros. A built site's copy and a
    minified library are not read."""
    old = tmp_path / "old"
    (old / "_includes").mkdir(parents=True)
    (old / "assets" / "js").mkdir(parents=True)
    (old / "_posts").mkdir()
    (old / "_includes" / "footer.html").write_text(
        '<script type="module" src=\'{{ "/assets/js/main.js" | prepend: site.baseurl }}\'>'
        "</script>\n"
    )
    (old / "assets" / "js" / "main.js").write_text('import "./katex-setup.js";\n')
    (old / "assets" / "js" / "katex-setup.js").write_text(
        'renderMathInElement(document.body, {\n  macros: {\n    "\\\\t": "\\\\text{#1}",\n'
        '    "\\\\p": "\\\\left(#1\\\\right)",\n  }\n});\n'
    )
    (old / "_posts" / "2020-01-01-a.md").write_text("---\ntitle: A\n---\n\n$\\t{Gamma}\\p{a, b}$\n")
    site = make_site(tmp_path / "site", ROOT)
    report = import_posts(old, site / "content" / "posts")
    assert yaml.safe_load((site / "site.yaml").read_text())["math"]["macros"] == {
        "t": "\\text{#1}",
        "p": "\\left(#1\\right)",
    }
    assert report.posts[0].failed == 0
    hugo = tmp_path / "hugo"
    for folder in ("layouts/partials", "assets/js", "content/posts", "public/js"):
        (hugo / folder).mkdir(parents=True)
    (hugo / "hugo.toml").write_text('baseURL = "https://example.org/"\ntitle = "H"\n')
    (hugo / "layouts" / "partials" / "math.html").write_text(
        '{{ $js := resources.Get "js/math.js" | minify }}<script src="{{ $js.RelPermalink }}">'
        "</script>\n"
    )
    (hugo / "assets" / "js" / "math.js").write_text(
        'window.MathJax = {tex: {macros: {RR: "\\\\mathbb{R}"}}};\n'
    )
    (hugo / "public" / "js" / "math.js").write_text(
        'window.MathJax = {tex: {macros: {RR: "\\\\mathbb{Q}", old: "x"}}};\n'
    )
    (hugo / "content" / "posts" / "p.md").write_text(
        "---\ntitle: P\ndate: 2024-01-01\n---\n\n$x \\in \\RR$\n"
    )
    site = make_site(tmp_path / "site2", ROOT)
    report = import_posts(hugo, site / "content" / "posts")
    assert yaml.safe_load((site / "site.yaml").read_text())["math"]["macros"] == {
        "RR": "\\mathbb{R}"
    }
    assert report.posts[0].failed == 0


def test_mathjaxs_physics_package_loaded_by_the_site(tmp_path: Path) -> None:
    """A site whose MathJax configuration loads the ``physics`` package (as Chirpy's
    ``assets/js/data/mathjax.js`` does) gets its fixed-argument commands in ``site.yaml``,
    its own macros first, and a note naming those left out; the post then builds."""
    old = tmp_path / "old"
    (old / "_includes").mkdir(parents=True)
    (old / "_posts").mkdir()
    (old / "_includes" / "head.html").write_text(
        "<script>\nMathJax = {\n  loader: {load: ['[tex]/physics']},\n"
        "  tex: {\n    macros: {abs: '|#1|', ii: '\\\\mathrm{i}'},\n"
        "    packages: {'[+]': ['physics']}\n  }\n};\n</script>\n"
    )
    (old / "_posts" / "2024-01-01-q.md").write_text(
        "---\ntitle: Q\n---\n\n"
        "$\\abs{x} + \\norm{v} = \\int f \\dd x$, $\\mel{n}{H}{m} = \\braket{a}{b}$,\n"
        "$\\ket{\\psi}\\bra{\\phi} \\vb{r} \\ii$ and $\\hbox{if } x$,\n"
        "$\\grad\\vdot\\vb{E} = \\rho$, $\\vb{a}\\cross\\vb{b}$ and $\\dyad{0}$.\n"
    )
    site = make_site(tmp_path / "site", ROOT)
    report = import_posts(old, site / "content" / "posts")
    macros = yaml.safe_load((site / "site.yaml").read_text())["math"]["macros"]
    assert macros["abs"] == "|#1|"  # the site's own definition, not the package's
    assert macros["mel"] == r"\left\langle #1 \middle\vert #2 \middle\vert #3 \right\rangle"
    assert {
        "norm",
        "dd",
        "braket",
        "ket",
        "bra",
        "vb",
        "ii",
        "vdot",
        "cross",
        "dyad",
    } <= macros.keys()
    assert report.posts[0].failed == 0
    assert any("physics package" in str(note) and "\\dv" in str(note) for note in report.notes)
    build(load_config(site), site / "public", jobs=1)
    page = (site / "public/posts/q/index.html").read_text()
    assert "<mtext>if\xa0</mtext>" in page and "failed" not in page  # \hbox: text


def test_macros_an_astro_config_imports_from_a_typescript_module(tmp_path: Path) -> None:
    """Astro, Gatsby and Docusaurus pass KaTeX its macros in their configuration, often
    from a module of the site's own (``import { katexMacros } from "./src/katex"``, with
    no extension): those are the site's macros."""
    old = tmp_path / "old"
    (old / "src/content/blog").mkdir(parents=True)
    (old / "astro.config.mjs").write_text(
        'import rehypeKatex from "rehype-katex";\nimport { katexMacros } from "./src/katex";\n'
        "export default {\n  markdown: {\n"
        "    rehypePlugins: [[rehypeKatex, { macros: katexMacros }]],\n  },\n};\n"
    )
    (old / "src/katex.ts").write_text(
        'export const katexMacros: Record<string, string> = {\n  "\\\\R": "\\\\mathbb{R}",\n'
        '  "\\\\E": "\\\\mathbb{E}\\\\left[#1\\\\right]",\n};\n'
    )
    (old / "src/content/blog/a.md").write_text(
        "---\ntitle: A\npubDate: 2023-01-02\n---\n\n$\\E{x} \\in \\R$\n"
    )
    site = make_site(tmp_path / "site", ROOT)
    report = import_posts(old, site / "content" / "posts")
    assert yaml.safe_load((site / "site.yaml").read_text())["math"]["macros"] == {
        "R": "\\mathbb{R}",
        "E": "\\mathbb{E}\\left[#1\\right]",
    }
    assert report.posts[0].failed == 0


def test_macros_in_a_pelican_theme_or_an_mkdocs_script(tmp_path: Path) -> None:
    """Pelican's theme templates (``themes/<name>/templates/``) and an MkDocs site's
    ``extra_javascript`` hold the site's MathJax configuration: neither was read, and the
    MkDocs site, with no layout folder at all, never reached the search for scripts."""
    pelican = tmp_path / "pelican"
    (pelican / "themes/plain/templates").mkdir(parents=True)
    (pelican / "content").mkdir()
    (pelican / "pelicanconf.py").write_text("AUTHOR = 'A'\nTHEME = 'themes/plain'\n")
    (pelican / "themes/plain/templates/base.html").write_text(
        '<script type="text/x-mathjax-config">\nMathJax.Hub.Config({ TeX: { Macros: '
        '{ RR: "{\\\\mathbb{R}}", norm: ["\\\\left\\\\| #1 \\\\right\\\\|", 1] } } });\n</script>\n'
    )
    (pelican / "content/gd.md").write_text(
        "Title: GD\nDate: 2021-03-04 10:20\n\nLet $f: \\RR^n \\to \\RR$ and $\\norm{x}$.\n"
    )
    site = make_site(tmp_path / "site", ROOT)
    report = import_posts(pelican, site / "content" / "posts")
    assert yaml.safe_load((site / "site.yaml").read_text())["math"]["macros"] == {
        "RR": "{\\mathbb{R}}",
        "norm": "\\left\\| #1 \\right\\|",
    }
    assert report.posts[0].failed == 0
    mkdocs = tmp_path / "mkdocs"
    (mkdocs / "docs/javascripts").mkdir(parents=True)
    (mkdocs / "mkdocs.yml").write_text(
        "site_name: Notes\nextra_javascript:\n  - javascripts/mathjax.js\n"
    )
    (mkdocs / "docs/javascripts/mathjax.js").write_text(
        'window.MathJax = {\n  tex: {\n    inlineMath: [["\\\\(", "\\\\)"]],\n'
        '    macros: { E: "\\\\mathbb{E}", bm: ["\\\\boldsymbol{#1}", 1] }\n  }\n};\n'
    )
    (mkdocs / "docs/attention.md").write_text("# Attention\n\nSo $\\E[\\bm{x}] = 0$.\n")
    site = make_site(tmp_path / "site2", ROOT)
    report = import_posts(mkdocs, site / "content" / "posts")
    assert yaml.safe_load((site / "site.yaml").read_text())["math"]["macros"] == {
        "E": "\\mathbb{E}",
        "bm": "\\boldsymbol{#1}",
    }
    assert report.posts[0].failed == 0


def test_macros_a_quarto_post_includes(tmp_path: Path) -> None:
    """``{{< include /_macros.qmd >}}`` (a hidden block of ``\\def``s, as many Quarto
    sites keep their macros) was left as a shortcode, and every formula using one failed;
    a nested include is followed, a missing one reported."""
    old = tmp_path / "old"
    (old / "posts/p").mkdir(parents=True)
    (old / "_quarto.yml").write_text("project:\n  type: website\n")
    (old / "_macros.qmd").write_text(
        "::: {.hidden}\n$$\n\\def\\RR{\\mathbb{R}}\n$$\n:::\n\n{{< include _more.qmd >}}\n"
    )
    (old / "_more.qmd").write_text("$$\n\\newcommand{\\norm}[1]{\\lVert #1 \\rVert}\n$$\n")
    (old / "posts/p/index.qmd").write_text(
        "---\ntitle: P\ndate: 2024-02-03\n---\n\n{{< include /_macros.qmd >}}\n\n"
        "Let $x \\in \\RR^n$ with $\\norm{x} = 1$.\n\n{{< include missing.qmd >}}\n"
    )
    site = make_site(tmp_path / "site", ROOT)
    report = import_posts(old, site / "content" / "posts")
    assert report.posts[0].failed == 0
    assert [str(n) for n in report.notes] == [
        "old/posts/p/index.qmd:10: include missing.qmd: no such file; left out"
    ]
    build(load_config(site), site / "public", jobs=1, use_cache=False)
    page = (site / "public/posts/p/index.html").read_text()
    assert "<mi>\N{DOUBLE-STRUCK CAPITAL R}</mi>" in page and "include" not in page


def test_a_math_configuration_in_a_posts_own_script(tmp_path: Path) -> None:
    """A ``<script>`` configuring MathJax in the post itself (here from a file Quarto's
    ``include`` brings in): its macros were not read, the formulas failed, and the
    script stayed in the page."""
    old = tmp_path / "old"
    (old / "posts/p").mkdir(parents=True)
    (old / "_quarto.yml").write_text("project:\n  type: website\n")
    (old / "_macros.qmd").write_text(
        '<script>\nwindow.MathJax = {\n  tex: {\n    macros: {\n      RR: "\\\\mathbb{R}",\n'
        '      bvec: ["\\\\mathbf{#1}", 1]\n    }\n  }\n};\n</script>\n'
    )
    (old / "posts/p/index.qmd").write_text(
        "---\ntitle: P\ndate: 2024-02-03\n---\n\n{{< include /_macros.qmd >}}\n\n"
        "Let $x \\in \\RR^n$ and $\\bvec{v}$.\n"
    )
    site = make_site(tmp_path / "site", ROOT)
    report = import_posts(old, site / "content" / "posts")
    assert report.posts[0].failed == 0 and [str(n) for n in report.notes] == []
    written = (site / "content/posts/p.md").read_text()
    assert "<script" not in written
    assert "math:\n  macros:\n    RR: \\mathbb{R}\n    bvec: \\mathbf{#1}\n" in written


def test_a_key_given_twice_in_one_object_is_the_last(tmp_path: Path) -> None:
    """``const macros = {"\\\\d": "\\\\mathrm{d}", "\\\\d": "\\\\,d"}``: JavaScript keeps the last
    value; the import kept the first and reported the second as a redefinition."""
    old = tmp_path / "old"
    (old / "_includes").mkdir(parents=True)
    (old / "_posts").mkdir()
    (old / "_includes" / "katex.html").write_text(
        '<script>\nconst macros = {\n  "\\\\d": "\\\\mathrm{d}",\n  "\\\\d": "\\\\,d",\n'
        '  "\\\\<": "\\\\langle"\n};\nrenderMathInElement(document.body, {macros: macros});\n'
        "</script>\n"
    )
    (old / "_posts" / "2020-01-01-a.md").write_text("---\ntitle: A\n---\n\n$\\int f \\d x$\n")
    site = make_site(tmp_path / "site", ROOT)
    report = import_posts(old, site / "content" / "posts")
    macros = yaml.safe_load((site / "site.yaml").read_text())["math"]["macros"]
    assert macros == {"d": "\\,d", "<": "\\langle"} and [str(n) for n in report.notes] == []


def _jekyll_site(tmp_path: Path, include: str, post: str) -> tuple[Path, ImportReport]:
    """A Jekyll site of one include (``_includes/head.html``) and one post, imported into
    a fresh site: that site and the import's report."""
    old = tmp_path / "old"
    (old / "_includes").mkdir(parents=True)
    (old / "_posts").mkdir()
    (old / "_config.yml").write_text("title: Old\n")
    (old / "_includes" / "head.html").write_text(include)
    (old / "_posts" / "2020-01-01-a.md").write_text(f"---\ntitle: A\n---\n\n{post}")
    site = make_site(tmp_path / "site", ROOT)
    return site, import_posts(old, site / "content" / "posts")


@pytest.mark.parametrize(
    ("config", "dollar_is_math"),
    [
        ("MathJax.Hub.Config({tex2jax: {inlineMath: [['\\\\(','\\\\)']]}});", False),
        ('window.MathJax = {tex: {inlineMath: [["\\\\(", "\\\\)"]]}};', False),
        (
            "renderMathInElement(document.body, {delimiters: [{left: '$$', right: '$$', "
            "display: true}, {left: '\\\\(', right: '\\\\)', display: false}]});",
            False,
        ),
        ("MathJax.Hub.Config({tex2jax: {inlineMath: [['$','$'], ['\\\\(','\\\\)']]}});", True),
        (
            "renderMathInElement(document.body, {delimiters: [{left: '$', right: '$', "
            "display: false}]});",
            True,
        ),
        ("MathJax.Hub.Config({TeX: {equationNumbers: {autoNumber: 'AMS'}}});", True),
    ],
)
def test_dollars_are_text_where_the_old_sites_math_read_none(
    tmp_path: Path, config: str, dollar_is_math: bool
) -> None:
    """A Jekyll site whose MathJax or KaTeX lists inline openers without ``$`` showed
    ``$5`` as a price: its lone dollars stay text, kramdown's ``$$x$$`` stays math. One
    that lists ``$``, or says nothing of delimiters, keeps ``$x$`` as a formula."""
    site, report = _jekyll_site(
        tmp_path,
        f"<script>{config}</script>\n",
        "It cost $5 and $10, and $$a^2$$ holds for $b$.\n\n```sh\necho $HOME $x\n```\n",
    )
    written = (site / "content" / "posts" / "a.md").read_text()
    assert report.posts[0].failed == 0
    assert "$a^2$" in written and "echo $HOME $x" in written
    assert ("\\$b\\$" not in written) is dollar_is_math
    build(load_config(site), site / "public")
    page = (site / "public" / "posts" / "a" / "index.html").read_text()
    if dollar_is_math:
        assert page.count("<math") == 2
    else:
        assert "cost $5 and $10" in page and "for $b$." in page and page.count("<math") == 1


def test_macros_in_a_quarto_folders_metadata(tmp_path: Path) -> None:
    """``posts/_metadata.yml`` sets its folder's options: a MathJax header there defined
    ``\\utt`` for every post under it, which failed each formula using it."""
    old = tmp_path / "old"
    (old / "posts").mkdir(parents=True)
    (old / "_quarto.yml").write_text("project:\n  type: website\n")
    (old / "posts/_metadata.yml").write_text(
        "format:\n  html:\n    include-in-header:\n      - text: |\n"
        "          <script>window.MathJax = {tex: {macros: {\n"
        '            utt: ["\\\\underbrace{#1}_{\\\\text{#2}}", 2]}}};</script>\n'
    )
    (old / "posts/p.qmd").write_text("---\ntitle: P\ndate: 2024-02-03\n---\n\n$\\utt{x}{a}$\n")
    site = make_site(tmp_path / "site", ROOT)
    report = import_posts(old, site / "content" / "posts")
    assert report.posts[0].failed == 0
    assert yaml.safe_load((site / "site.yaml").read_text())["math"]["macros"] == {
        "utt": "\\underbrace{#1}_{\\text{#2}}"
    }


def test_macros_in_a_global_object_a_configuration_names(tmp_path: Path) -> None:
    """``MathJax_macros = {...}`` (no ``var``), then ``TeX: {Macros: MathJax_macros}``: the
    object was not read, and every post using ``\\E`` or ``\\zero`` failed."""
    site, report = _jekyll_site(
        tmp_path,
        '<script>\nMathJax_macros = {\n    E: "{\\\\mathbb{E}}",  // expectation\n'
        '    abs: ["{\\\\left\\\\lvert#1\\\\right\\\\rvert}", 1],\n};\n'
        "MathJax.Hub.Config({TeX: {Macros: MathJax_macros}});\n</script>\n",
        "$\\E \\abs{x}$\n",
    )
    assert report.posts[0].failed == 0
    assert yaml.safe_load((site / "site.yaml").read_text())["math"]["macros"] == {
        "E": "{\\mathbb{E}}",
        "abs": "{\\left\\lvert#1\\right\\rvert}",
    }


def test_a_macro_whose_body_defines_itself(tmp_path: Path) -> None:
    """``argmin: "\\\\newcommand\\\\argmin[1]{\\\\underset{#1}{\\\\arg\\\\min}}"``: MathJax ran the
    definition at the first use; taken as the body, every use failed."""
    site, report = _jekyll_site(
        tmp_path,
        "<script>MathJax.Hub.Config({TeX: {Macros: {\n"
        '  argmin: "\\\\newcommand\\\\argmin[1]{\\\\underset{#1}{\\\\arg\\\\min}}"\n'
        "}}});</script>\n",
        "$\\argmin{d} f$\n",
    )
    assert report.posts[0].failed == 0
    macros = yaml.safe_load((site / "site.yaml").read_text())["math"]["macros"]
    assert macros == {"argmin": "\\underset{#1}{\\arg\\min}"}
