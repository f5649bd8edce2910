"""LaTeX -> MathML Core: well-formed output, each post-processing rule, and the math font.

The HTML fixtures (tests/fixtures/math.md) pin whole outputs; these tests pin
the rules one at a time, so a failure names the rule that broke.
"""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from site_builder import fonts
from site_builder.markdown.mathml import MathError, latex_to_mathml

ROOT = Path(__file__).resolve().parent.parent
NS = "{http://www.w3.org/1998/Math/MathML}"

FORMULAS = [
    r"\operatorname{Attention}(Q, K, V) = "
    r"\operatorname{softmax}\!\left(\frac{QK^\top}{\sqrt{d}} + M\right) V,",
    r"\operatorname{Var}(q^\top k) = \sum_{t=1}^{d} \operatorname{Var}(q_t k_t) = d,",
    r"Q \in \mathbb{R}^{n \times d}",
    r"M_{ij} = -\infty",
    r"\log_2 7 \approx 2.81",
    r"i - j > w",
    r"a < b \quad \text{and} \quad c > d \& e",
    r"\begin{aligned} a &= b \\ &= c \end{aligned}",
    r"\begin{cases} 1 & x > 0 \\ 0 & \text{else} \end{cases}",
    r"\begin{pmatrix} a & b \\ c & d \end{pmatrix}",
    r"\begin{bmatrix} 1 \\ 2 \end{bmatrix} + \begin{matrix} x \end{matrix}",
    r"\begin{array}{lcr} a & b & c \end{array}",
    r"\operatorname{arg\,max}_x f(x) + \max_i x_i + \lim_{n \to \infty} a_n",
    r"\sqrt[3]{x} + \hat{x} + \bar{y} + \vec{z} + \int_0^1 f(x)\,dx",
    r"\left[ x \middle| y \right] + \left\{ z \right.",
    r"\sin x \cos y \tan z \exp(x) \det A \Pr(x)",
    r"\alpha \beta \gamma \Gamma \partial \nabla \ell \hbar",
    r"x' + f''(x) + \pm 1 \mp 2",
]


def tree(mathml: str) -> ET.Element:
    return ET.fromstring(mathml.replace("&#x2061;", "\u2061").replace("&#xA0;", "\u00a0"))


def body(mathml: str) -> ET.Element:
    """The presentation part of the ``<semantics>`` (its first child)."""
    return tree(mathml).find(f"{NS}semantics")[0]  # type: ignore[index]


def tags(mathml: str) -> list[tuple[str, str]]:
    return [(e.tag.removeprefix(NS), (e.text or "")) for e in body(mathml).iter()]


@pytest.mark.parametrize("latex", FORMULAS)
@pytest.mark.parametrize("display", [True, False])
def test_output_is_well_formed_mathml_with_the_source(latex: str, display: bool) -> None:
    root = tree(latex_to_mathml(latex, display))
    assert root.tag == f"{NS}math"
    assert root.get("display") == ("block" if display else "inline")
    annotation = root.find(f"{NS}semantics/{NS}annotation")
    assert annotation is not None and annotation.text == latex
    for element in body(latex_to_mathml(latex, display)).iter():
        assert not (element.text or "").startswith("\\"), "a LaTeX command leaked"
        assert "mathspace" not in (element.get("width") or ""), "named space left"
        assert element.get("columnalign") is None and element.get("rowspacing") is None


def test_operator_names_are_identifiers_with_function_application() -> None:
    out = latex_to_mathml(r"\operatorname{softmax}\!\left(x\right)", True)
    assert "<mi>softmax</mi><mo rspace=" in out and "&#x2061;" in out
    assert "<mo>softmax</mo>" not in out
    # Before a plain parenthesis TeX adds no space after an operator name.
    assert "<mi>Var</mi><mo>&#x2061;</mo><mo" in latex_to_mathml(r"\operatorname{Var}(x)", False)
    assert ("mi", "log") in tags(latex_to_mathml(r"\log x", False))
    assert ("mi", "max") in tags(latex_to_mathml(r"\max_i x", False))


def test_limits_go_underneath_in_display_only() -> None:
    assert "<munder><mi>max</mi>" in latex_to_mathml(r"\max_i x_i", True)
    assert "<msub><mi>max</mi>" in latex_to_mathml(r"\max_i x_i", False)
    display = latex_to_mathml(r"\sum_{t=1}^{d} x", True)
    assert '<munderover><mo movablelimits="true">∑</mo>' in display
    assert "<msubsup><mo>∑</mo>" in latex_to_mathml(r"\sum_{t=1}^{d} x", False)


@pytest.mark.parametrize(
    ("latex", "prefix"),
    [
        (r"-\infty", True),
        (r"a = -b", True),
        (r"(-x)", True),
        (r"a - b", False),
        (r"f(x) - 1", False),
    ],
)
def test_unary_minus_is_prefix(latex: str, prefix: bool) -> None:
    out = latex_to_mathml(latex, False)
    assert ('<mo form="prefix">\u2212</mo>' in out) is prefix


def test_infinity_and_transpose_are_ordinary() -> None:
    assert "<mi>∞</mi>" in latex_to_mathml(r"-\infty", False)
    assert "<msup><mi>K</mi><mi>\u22a4</mi></msup>" in latex_to_mathml(r"K^\top", False)


@pytest.mark.parametrize(
    ("latex", "width"),
    [
        (r"a\!b", "-0.1667em"),
        (r"a\,b", "0.1667em"),
        (r"a\:b", "0.2222em"),
        (r"a\;b", "0.2778em"),
        (r"a\quad b", "1em"),
        (r"a\qquad b", "2em"),
    ],
)
def test_spaces_are_em_widths(latex: str, width: str) -> None:
    assert f'<mspace width="{width}"' in latex_to_mathml(latex, False)


def test_negative_space_also_pulls_with_a_margin() -> None:
    # Chromium clamps a negative mspace width to 0 (CSS width cannot be negative).
    assert 'style="margin-left: -0.1667em"' in latex_to_mathml(r"a\!b", False)


def test_left_right_fences_stretch_symmetrically_in_their_own_row() -> None:
    row = body(latex_to_mathml(r"\left(\frac{a}{b}\right)", True))
    fences = [e for e in row.iter(f"{NS}mo") if e.get("stretchy") == "true"]
    assert len(fences) == 2
    assert all(f.get("symmetric") == "true" for f in fences)
    group = next(e for e in row.iter(f"{NS}mrow") if fences[0] in list(e))
    assert fences[1] in list(group) and group.find(f"{NS}mfrac") is not None


def test_aligned_is_a_table_of_right_and_left_columns() -> None:
    out = latex_to_mathml(r"\begin{aligned} a &= b \\ c &= d \end{aligned}", True)
    root = body(out)
    rows = list(root.iter(f"{NS}mtr"))
    assert len(rows) == 2
    cells = list(rows[0].iter(f"{NS}mtd"))
    assert [c.get("style", "").split(";")[0] for c in cells] == [
        "text-align: right",
        "text-align: left",
    ]
    assert "&amp;" not in out.split("<annotation")[0]


def test_matrix_fences_group_with_their_table() -> None:
    out = latex_to_mathml(r"\begin{pmatrix} a \\ b \end{pmatrix} + \frac{1}{2}", True)
    assert "<mrow><mo>(</mo><mtable>" in out and "</mtable><mo>)</mo></mrow>" in out


@pytest.mark.parametrize(
    ("latex", "message"),
    [
        (r"\foo", r"unknown LaTeX command \foo"),
        (r"x_\foo", r"unknown LaTeX command \foo"),
        (r"x^{2\foo}", r"unknown LaTeX command \foo"),
        (r"\operatorname{\foo}", r"unknown LaTeX command \foo"),
        (r"\begin{pmatrix} \foo \end{pmatrix}", r"unknown LaTeX command \foo"),
        (r"\text{\foo}", r"unknown LaTeX command \foo"),
        (r"\frac{a}{b", "unbalanced braces: 1 '{' never closed"),
        (r"a}", "unbalanced braces: '}' without a matching '{'"),
        (r"\{a", None),
        (r"\begin{foo} a \end{foo}", "unknown environment {foo}"),
        (r"\begin{cases} a", r"\begin{cases} without \end{cases}"),
        (r"a \end{cases}", r"\end{cases} without \begin{cases}"),
        (r"\left( x", r"\left( without a matching \right"),
        (r"x \right)", r"\right) without a matching \left"),
        (r"\left\{ x \right.", None),
        (r"\leftarrow \rightarrow", None),
        ("a & b", "'&' outside an alignment"),
        (r"a \\ b", "line break"),
    ],
)
def test_errors(latex: str, message: str | None) -> None:
    latex_to_mathml.cache_clear()
    if message is None:
        latex_to_mathml(latex, True)
        return
    with pytest.raises(MathError) as excinfo:
        latex_to_mathml(latex, True)
    assert str(excinfo.value).startswith(message)


# --- the math font -------------------------------------------------------------


@pytest.fixture(scope="module")
def site_math() -> frozenset[str]:
    html = "".join(latex_to_mathml(latex, True) for latex in FORMULAS[:6])
    return fonts.math_characters([html])


def test_math_characters_skip_the_annotation_and_add_italics(site_math: frozenset[str]) -> None:
    assert "\\" not in site_math  # only in the TeX annotation
    # U+1D444 is MATHEMATICAL ITALIC CAPITAL Q, how <mi>Q</mi> renders.
    assert {"Q", "\U0001d444", "∑", "∞", "√", "\u22a4"} <= site_math
    assert fonts.italic("h") == "\u210e" and fonts.italic("\u03c4") == "\U0001d70f"


def test_subset_font_is_valid_woff2_with_math_table(site_math: frozenset[str]) -> None:
    source = fonts.find_font(ROOT)
    assert source is not None
    data = fonts.subset_woff2(source, site_math)
    assert data[:4] == b"wOF2"
    assert len(data) < 60_000, "the subset should be a small fraction of the 600 KB font"
    font = TTFont(io.BytesIO(data))
    cmap = font.getBestCmap()
    assert {ord(c) for c in site_math if ord(c) in TTFont(source).getBestCmap()} <= set(cmap)
    assert "MATH" in font
    variants = font["MATH"].table.MathVariants
    vertical = set(variants.VertGlyphCoverage.glyphs)
    assert {"parenleft", "parenright", "summation", "radical"} <= vertical
    glyphs = set(font.getGlyphOrder())
    for construction in variants.VertGlyphConstruction:  # every size variant is kept
        for record in construction.MathGlyphVariantRecord:
            assert record.VariantGlyph in glyphs
    assert font["name"].getDebugName(1) == fonts.SUBSET_NAME


def test_subset_font_is_deterministic(site_math: frozenset[str]) -> None:
    source = fonts.find_font(ROOT)
    assert source is not None
    first = fonts.subset_woff2(source, site_math)
    fonts.subset_woff2.cache_clear()
    second = fonts.subset_woff2(source, frozenset(sorted(site_math, reverse=True)))
    assert first == second
    assert TTFont(io.BytesIO(first))["head"].modified == TTFont(source)["head"].modified


def test_font_face_rule() -> None:
    css = fonts.font_face_css("../fonts/math.woff2")
    assert 'font-family: "TeX Gyre Pagella Math"' in css
    assert 'src: url("../fonts/math.woff2") format("woff2")' in css
    assert "font-display: swap" in css
