"""Render TeX formulas two ways, side by side: the site's MathML next to MathJax's SVG.

Why: the site turns LaTeX into MathML at build time and lets the browser lay it
out with TeX Gyre Pagella Math. Whether a formula *looks* right is a question no
unit test answers well, so this page puts each formula next to a LaTeX-quality
reference (MathJax 3, SVG output, drawn from its own glyph outlines, so it does
not depend on the fonts or MathML support of the browser) for a person to compare
in Chromium at 1280 px.

The left column goes through the public Markdown stage (``site_builder.markdown.render``),
exactly as a post's body does, and is styled by copies of the site's own CSS and
text faces. The math font is the full TeX Gyre Pagella Math (``site_builder/data/``): a
build subsets it per site (``site_builder/fonts.py``), and a subset cut for one
post would miss glyphs these formulas need, which would show as a font problem
that the site does not have.

Usage::

    .venv/bin/python tools/math_compare.py [FORMULAS_FILE] [--out DIR]

``FORMULAS_FILE`` has one formula per line; a leading ``$$ `` makes it display
math; blank lines and lines starting with ``#`` are skipped. Without it, the
built-in list (``DEFAULT_FORMULAS``) plus every formula of the seed post is used.

Writes ``DIR/index.html`` (default ``test-artifacts/math-compare/``) with the
MathJax SVGs inline, ``DIR/compare-1280.png`` (the full page) and
``DIR/rows/row-NN.png`` (one per formula, at twice the pixel density, for
detail). Needs ``node`` (for ``tools/mathjax_svg.mjs``) and ``/usr/bin/chromium``.
"""

from __future__ import annotations

import argparse
import functools
import html
import json
import re
import shutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script: the tests' browser plumbing is shared

from tests.browser import CHROMIUM, CHROMIUM_ARGS, serve_directory  # noqa: E402

DEFAULT_OUT = ROOT / "test-artifacts" / "math-compare"
MATHJAX_SCRIPT = ROOT / "tools" / "mathjax_svg.mjs"
SEED_POST = ROOT / "content" / "posts" / "attention-from-the-softmax-up.md"
SEED_TEXT = ROOT.parent / "shared" / "seed" / "attention-from-the-softmax-up.txt"
WIDTH = 1280
# The page's metrics, told to MathJax so its line widths (multline, tags) fit the column:
# site.css sets the body at 1.125rem (18 px) and display math at the same size; PAGE_CSS makes a
# column 38rem wide with 0.75rem of padding on the MathJax side.
BODY_PX = 18.0
DISPLAY_SCALE = 1.0
REF_COLUMN_PX = (38 - 0.75) * 16
ROW_SCALE = 2  # row PNGs are for close inspection of spacing, so twice the density


@dataclass(frozen=True)
class Formula:
    """One TeX formula to compare, and where it came from (shown on its row)."""

    tex: str
    display: bool
    origin: str = "default"


def _d(tex: str) -> Formula:
    return Formula(tex, True)


def _i(tex: str) -> Formula:
    return Formula(tex, False)


# Constructs a machine-learning blog uses, and ones LaTeX-to-MathML converters
# commonly get wrong (primes, operator spacing, fences, array rules, tags, environments
# that only exist in display mode). Environments are given as display math, as in LaTeX.
DEFAULT_FORMULAS: tuple[Formula, ...] = (
    _i(r"f'(x)"),
    _i(r"f''(x)"),
    _i(r"\boldsymbol{\theta}"),
    _i(r"\mathrm{d}x"),
    _i(r"x \sim p"),
    _d(r"\operatorname*{arg\,max}_{x} f(x)"),
    _i(r"\lVert x\rVert"),
    _i(r"\lvert x\rvert"),
    _d(r"\begin{array}{cc|c} 1 & 2 & 3 \\ 4 & 5 & 6 \end{array}"),
    _d(r"\begin{pmatrix} a & b \\ c & d \end{pmatrix}^{-1}"),
    _i(r"\mathbb{1}"),
    _i(r"\Gamma \Delta \Theta"),
    _d(r"\begin{aligned} a &= b + c \\[6pt] d &= e \end{aligned}"),
    _d(r"\begin{pmatrix} a & b \\ c & \end{pmatrix}"),
    _d(r"x = 1 \tag{1}"),
    _i(r"\arg\max_x"),
    _d(r"\begin{equation} E = mc^2 \end{equation}"),
    _d(r"\begin{equation*} E = mc^2 \end{equation*}"),
    _d(r"\begin{aligned} \color{red} a &= b \end{aligned}"),
    _i(r"\big\{ x \big\}"),
    _i(r"\text{<script>alert(1)</script>}"),
    _d(r"\begin{align} a &= b \\ c &= d \end{align}"),
    _d(r"\begin{cases} 1 & x > 0 \\ 0 & \text{otherwise}\end{cases}"),
    _d(r"\sum_{\substack{i<j \\ i,j \in S}} x_{ij}"),
    _d(r"\begin{gather} a \\ b \end{gather}"),
    _d(r"\begin{multline} a + b \\ + c \end{multline}"),
    _d(r"\mathcal{L}(\theta) = \mathbb{E}_{x \sim p}[\log q(x)]"),
    _i(r"\hat{x}\tilde{y}\bar{z}\vec{v}"),
    _i(r"\widehat{xy}"),
    _i(r"\mathbf{W}^\top \mathbf{x}"),
)

_FENCE = re.compile(r"^(```|~~~).*?^\1\s*$", re.DOTALL | re.MULTILINE)
# ``$$...$$`` first, so its dollars are not read as two empty inline formulas.
_MATH = re.compile(r"\$\$(?P<display>.+?)\$\$|(?<!\\)\$(?P<inline>[^$]+?)\$", re.DOTALL)


def seed_formulas(post: Path = SEED_POST, text: Path = SEED_TEXT) -> list[Formula]:
    """Every ``$...$`` and ``$$...$$`` of the seed post, in order, without repeats.

    The Markdown source is the reliable place to read them from; the seed text
    (the post as a reader copies it from a browser, each formula as symbols then
    its LaTeX) is used as a cross-check, so a formula that is in one and not the
    other is reported rather than silently compared or skipped.
    """
    source = _FENCE.sub("", post.read_text(encoding="utf-8"))
    found: list[Formula] = []
    for match in _MATH.finditer(source):
        if match["display"] is not None:
            found.append(Formula(match["display"].strip(), True, "seed post"))
        else:  # a soft line break inside inline math is a space
            found.append(Formula(" ".join(match["inline"].split()), False, "seed post"))
    unique = list(dict.fromkeys(found))
    if text.is_file():
        _cross_check(unique, text.read_text(encoding="utf-8"))
    else:
        print(f"note: {text} not found; seed formulas come from {post} only", file=sys.stderr)
    return unique


def _cross_check(formulas: Sequence[Formula], seed_text: str) -> None:
    """Warn about formulas missing from the seed text, and LaTeX in it no formula explains."""
    text = " ".join(seed_text.split())
    rest = text
    # Longest first, so "\tau \to 0" is taken out of the text before "\tau" is.
    for formula in sorted(formulas, key=lambda f: -len(f.tex)):
        tex = " ".join(formula.tex.split())
        if tex not in text:
            print(f"warning: seed text lacks the post's formula {tex!r}", file=sys.stderr)
        rest = rest.replace(tex, " ")
    leftover = sorted(set(re.findall(r"\\[A-Za-z]+", rest)))
    if leftover:
        print(f"warning: seed text has LaTeX not in the post: {leftover}", file=sys.stderr)


def read_formulas(path: Path) -> list[Formula]:
    """Formulas from a file: one a line, ``$$ `` first for display, ``#`` for comments."""
    formulas: list[Formula] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.startswith("$$ ") or stripped == "$$":
            formulas.append(Formula(stripped[2:].strip(), True, path.name))
        else:
            formulas.append(Formula(stripped, False, path.name))
    return formulas


def markdown_for(formula: Formula) -> str:
    """The Markdown a post would contain: a ``$$`` block, or ``$...$`` inside a sentence
    (so inline math is seen against text, on a baseline, as in a paragraph)."""
    if formula.display:
        return f"$$\n{formula.tex}\n$$\n"
    return f"Inline, ${formula.tex}$ in a sentence.\n"


def render_ours(formula: Formula) -> tuple[str, str | None]:
    """This project's HTML for ``formula``, or ``("", message)`` when the build rejects it.

    A rejected formula is a result worth seeing next to MathJax's, not a reason to stop.
    """
    from site_builder.errors import BuildErrors
    from site_builder.markdown import MarkdownContext, render

    try:
        return render(markdown_for(formula), MarkdownContext("compare.md")).html, None
    except BuildErrors as errors:
        return "", str(errors)


def render_mathjax(formulas: Sequence[Formula]) -> tuple[list[str | dict[str, str]], str]:
    """MathJax's SVG (or ``{"error": ...}``) for each formula, and MathJax's CSS for them."""
    x_height = _x_height(ROOT / "static" / "fonts" / "pagella-regular.woff2")
    items = []
    for formula in formulas:
        em = BODY_PX * (DISPLAY_SCALE if formula.display else 1)
        items.append(
            {
                "tex": formula.tex,
                "display": formula.display,
                "em": em,
                "ex": em * x_height,
                "containerWidth": REF_COLUMN_PX,
            }
        )
    payload = json.dumps(items)
    node = shutil.which("node") or "node"
    run = functools.partial(
        subprocess.run, capture_output=True, text=True, check=True, cwd=ROOT, timeout=300
    )
    svgs = json.loads(run([node, str(MATHJAX_SCRIPT)], input=payload).stdout)
    css = run([node, str(MATHJAX_SCRIPT), "--css"]).stdout
    if len(svgs) != len(formulas):
        raise RuntimeError(f"mathjax_svg.mjs returned {len(svgs)} results for {len(formulas)}")
    return svgs, css


def _x_height(font_file: Path) -> float:
    """The text face's x-height in em: MathJax's SVG is sized in the ex of the text around it."""
    from fontTools.ttLib import TTFont

    font = TTFont(font_file)
    return float(font["OS/2"].sxHeight / font["head"].unitsPerEm)


def copy_assets(out: Path) -> None:
    """The site's CSS and text faces, plus the full math font under the family the CSS
    asks for (``--math``), laid out as in a built site so ``site.css``'s URLs resolve."""
    from site_builder import fonts

    (out / "static" / "css").mkdir(parents=True, exist_ok=True)
    (out / "static" / "fonts").mkdir(parents=True, exist_ok=True)
    shutil.copy2(ROOT / "static" / "css" / "site.css", out / "static" / "css" / "site.css")
    for face in sorted((ROOT / "static" / "fonts").glob("*.woff2")):
        shutil.copy2(face, out / "static" / "fonts" / face.name)
    math_font = fonts.find_font(ROOT)
    if math_font is None:
        raise SystemExit(f"no {fonts.FONT_FILE} under {ROOT / 'fonts'}")
    shutil.copy2(math_font, out / "static" / "fonts" / math_font.name)
    (out / "static" / "css" / "fonts.css").write_text(
        f"/* {fonts.FAMILY}, not subset (see tools/math_compare.py). */\n"
        "@font-face {\n"
        f'  font-family: "{fonts.FAMILY}";\n'
        f'  src: url("../fonts/{math_font.name}") format("opentype");\n'
        "  font-display: block;\n"
        "}\n",
        encoding="utf-8",
    )


PAGE_CSS = """
/* The comparison frame. Each rendering column is the post's reading measure (38rem),
   so wide formulas overflow and numbered equations sit as they do in a post. */
body { margin: 0; padding: 0.75rem; }
.intro { font-family: var(--sans); font-size: 0.85rem; color: var(--muted); margin: 0 0 0.5rem; }
.heads, .row {
  display: grid; grid-template-columns: 38rem 38rem; column-gap: 0.75rem;
}
.heads { font-family: var(--sans); font-size: 0.8rem; font-weight: 600; color: var(--muted);
  border-bottom: 1.5px solid var(--fg); padding-bottom: 0.25rem; }
.row { grid-template-areas: "src src" "ours ref"; border-bottom: 1px solid var(--rule);
  padding: 0.4rem 0 0.6rem; background: var(--bg); }
.src { grid-area: src; font-family: var(--mono); font-size: 0.75rem; line-height: 1.4;
  color: var(--fg); white-space: pre-wrap; overflow-wrap: anywhere; }
.src .meta { color: var(--muted); margin-right: 0.6em; }
.ours { grid-area: ours; min-width: 0; }
.ref { grid-area: ref; min-width: 0; border-left: 1px dashed var(--rule); padding-left: 0.75rem;
  overflow-x: auto; }
.ours .post-body > :first-child, .ref > :first-child { margin-top: 0.4rem; }
.ours .post-body > :last-child, .ref > :last-child { margin-bottom: 0.4rem; }
.ours p, .ref p { margin: 0.4rem 0; }
/* As .math-display math: display formulas are set a size up from the text. */
.ref mjx-container[display="true"] { font-size: 1.1em; margin: 1.4rem 0; }
.error { color: #c00; font-family: var(--mono); font-size: 0.75rem; white-space: pre-wrap;
  overflow-wrap: anywhere; margin: 0.4rem 0; }
"""


def build_page(
    formulas: Sequence[Formula],
    ours: Sequence[tuple[str, str | None]],
    mathjax: Sequence[str | dict[str, str]],
    mathjax_css: str,
) -> str:
    """The comparison page: a header, then one ``section.row`` per formula."""
    rows: list[str] = []
    for number, (formula, (ours_html, ours_error), reference) in enumerate(
        zip(formulas, ours, mathjax, strict=True), start=1
    ):
        kind = "display" if formula.display else "inline"
        source = (
            f'<div class="src"><span class="meta">#{number:02d} {kind} · {formula.origin}</span>'
            f"{html.escape(formula.tex)}</div>"
        )
        if ours_error is not None:
            left = f'<pre class="error">{html.escape(ours_error)}</pre>'
        else:
            left = f'<article class="post"><div class="post-body">\n{ours_html}</div></article>'
            if _UNSAFE.search(ours_html):  # kept as the site would serve it, but called out
                left += '<p class="error">Unsafe: the site\'s HTML has a raw element here.</p>'
        if isinstance(reference, dict):
            right = f'<pre class="error">MathJax: {html.escape(reference["error"])}</pre>'
        elif formula.display:
            right = reference
        else:
            right = f"<p>Inline, {reference} in a sentence.</p>"
        rows.append(
            f'<section class="row" id="row-{number:02d}">\n{source}\n'
            f'<div class="ours">{left}</div>\n<div class="ref">{right}</div>\n</section>'
        )
    return (
        "<!doctype html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="color-scheme" content="light">\n'
        "<title>Math comparison: site MathML vs MathJax SVG</title>\n"
        '<link rel="stylesheet" href="static/css/site.css">\n'
        '<link rel="stylesheet" href="static/css/fonts.css">\n'
        f"<style>\n{mathjax_css}\n{PAGE_CSS}</style>\n"
        "</head>\n<body>\n"
        '<p class="intro">Left: this site (Markdown stage → MathML, site.css, '
        "TeX Gyre Pagella Math). Right: MathJax 3.2.2 SVG (TeX fonts), the reference.</p>\n"
        '<div class="heads"><div>Ours (MathML)</div><div>MathJax (SVG)</div></div>\n'
        + "\n".join(rows)
        + "\n</body>\n</html>\n"
    )


# Markup that must never come out of a formula: TeX's \text{} is text, not HTML.
_UNSAFE = re.compile(r"<(script|iframe|object|embed|style)\b|\son[a-z]+\s*=", re.IGNORECASE)


def screenshot(out: Path, count: int) -> None:
    """The full page at 1280 px, and each row on its own, once every font has loaded."""
    from playwright.sync_api import sync_playwright

    rows_dir = out / "rows"
    if rows_dir.exists():
        shutil.rmtree(rows_dir)
    rows_dir.mkdir()
    with serve_directory(out) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for scale in (1, ROW_SCALE):
                context = browser.new_context(
                    viewport={"width": WIDTH, "height": 900},
                    device_scale_factor=scale,
                    color_scheme="light",
                )
                page = context.new_page()
                if scale == 1:  # a dialog means the site's HTML ran script (see _UNSAFE)
                    page.on("dialog", lambda dialog: _report_dialog(dialog))
                page.goto(url + "index.html", wait_until="load")
                page.evaluate("document.fonts.ready.then(() => document.fonts.status)")
                if scale == 1:
                    _check_fonts(page)
                    page.screenshot(path=str(out / f"compare-{WIDTH}.png"), full_page=True)
                else:
                    for number in range(1, count + 1):
                        page.locator(f"#row-{number:02d}").screenshot(
                            path=str(rows_dir / f"row-{number:02d}.png")
                        )
                context.close()
        finally:
            browser.close()


def _report_dialog(dialog: object) -> None:
    """Warn, then dismiss, so a formula whose HTML runs script neither hangs nor hides."""
    message = dialog.message  # type: ignore[attr-defined]
    print(f"warning: the page opened a dialog ({message!r}): script ran", file=sys.stderr)
    dialog.dismiss()  # type: ignore[attr-defined]


def _check_fonts(page: object) -> None:
    """Say so if the math or text font did not load: the screenshot would then show a
    fallback font, and every difference in it would be a false alarm."""
    loaded = page.evaluate(  # type: ignore[attr-defined]
        "[...document.fonts].filter(f => f.status === 'loaded').map(f => f.family)"
    )
    for family in ('"TeX Gyre Pagella Math"', '"TeX Gyre Pagella"'):
        if family not in loaded and family.strip('"') not in loaded:
            print(f"warning: font {family} did not load", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("formulas", nargs="?", type=Path, help="one formula a line")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output directory")
    args = parser.parse_args(argv)

    if args.formulas is not None:
        formulas = read_formulas(args.formulas)
    else:
        formulas = list(DEFAULT_FORMULAS) + seed_formulas()
    if not formulas:
        parser.error("no formulas to compare")
    out: Path = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)

    ours = [render_ours(formula) for formula in formulas]
    mathjax, mathjax_css = render_mathjax(formulas)
    copy_assets(out)
    (out / "index.html").write_text(
        build_page(formulas, ours, mathjax, mathjax_css), encoding="utf-8"
    )
    screenshot(out, len(formulas))

    failed = sum(error is not None for _, error in ours)
    print(f"{len(formulas)} formulas ({failed} rejected by the site) -> {out / 'index.html'}")
    print(f"screenshot: {out / f'compare-{WIDTH}.png'}, rows: {out / 'rows'}/")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
