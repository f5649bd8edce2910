"""LaTeX -> MathML Core with math-core: the structure of each construct real posts use,
errors, safety, and the math font.

The HTML fixtures (tests/fixtures/math.md) pin whole outputs; these tests pin one
construct each, so a failure names what broke. Each construct here was wrong or
refused with the first engine (see issue 12) and is checked by eye against MathJax
with ``tools/math_compare.py``.
"""

from __future__ import annotations

import html
import io
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from site_builder import fonts
from site_builder.errors import BuildErrors
from site_builder.markdown import MarkdownContext, render
from site_builder.markdown.math import MathError, convert, render_formula

ROOT = Path(__file__).resolve().parent.parent
NS = "{http://www.w3.org/1998/Math/MathML}"

FORMULAS = [
    r"\operatorname{Attention}(Q, K, V) = "
    r"\operatorname{softmax}\!\left(\frac{QK^\top}{\sqrt{d}} + M\right) V,",
    r"\operatorname{Var}(q^\top k) = \sum_{t=1}^{d} \operatorname{Var}(q_t k_t) = d,",
    r"Q \in \mathbb{R}^{n \times d}",
    r"M_{ij} = -\infty",
    r"\log_2 7 \approx 2.81",
    r"a < b \quad \text{and} \quad c > d \& e",
    r"\begin{aligned} a &= b \\ &= c \end{aligned}",
    r"\begin{cases} 1 & x > 0 \\ 0 & \text{else} \end{cases}",
    r"\begin{pmatrix} a & b \\ c & d \end{pmatrix}",
    r"\operatorname{arg\,max}_x f(x) + \max_i x_i + \lim_{n \to \infty} a_n",
    r"\sqrt[3]{x} + \hat{x} + \bar{y} + \vec{z} + \int_0^1 f(x)\,dx",
    r"\left[ x \middle| y \right] + \left\{ z \right.",
    r"\alpha \beta \gamma \Gamma \partial \nabla \ell \hbar",
    r"x' + f''(x) + \pm 1 \mp 2",
]


def tree(mathml: str) -> ET.Element:
    """Parse as XML: named HTML entities (math-core writes ``&ApplyFunction;``) decoded."""
    xml_names = {"lt", "gt", "amp", "quot", "apos"}
    text = re.sub(
        r"&([A-Za-z]+);",
        lambda m: m.group() if m.group(1) in xml_names else html.unescape(m.group()),
        mathml,
    )
    return ET.fromstring(text)


def body(mathml: str) -> ET.Element:
    """The presentation part of the ``<semantics>`` (its first child)."""
    return tree(mathml).find(f"{NS}semantics")[0]  # type: ignore[index]


def elements(mathml: str, tag: str) -> list[ET.Element]:
    return list(body(mathml).iter(f"{NS}{tag}"))


def texts(mathml: str, tag: str) -> list[str]:
    return [e.text or "" for e in elements(mathml, tag)]


@pytest.mark.parametrize("latex", FORMULAS)
@pytest.mark.parametrize("display", [True, False])
def test_output_is_well_formed_mathml_with_the_source(latex: str, display: bool) -> None:
    out = convert(latex, display)
    root = tree(out)
    assert root.tag == f"{NS}math"
    assert (root.get("display") == "block") is display
    semantics = root.find(f"{NS}semantics")
    assert semantics is not None and len(semantics) == 2
    annotation = semantics[1]
    assert annotation.get("encoding") == "application/x-tex"
    assert annotation.text == latex


# --- each construct of issue 12, as LaTeX sets it -------------------------------------------


def test_prime_follows_its_base_instead_of_shrinking_in_a_superscript() -> None:
    """Chromium draws U+2032 in a superscript at script size and raised twice: a speck."""
    out = convert("f'(x) + g''", False)
    assert not any("′" in "".join(e.itertext()) for e in elements(out, "msup"))
    rows = [list(r) for r in elements(out, "mrow") if len(r) == 2]
    pairs = [(a.text, b.tag.removeprefix(NS), b.text) for a, b in rows]
    assert ("f", "mo", "′") in pairs and ("g", "mo", "″") in pairs
    sub = convert("x'_i", False)
    assert [e.tag.removeprefix(NS) for e in body(sub)] == ["mrow", "mi"]  # msub(mrow(x ′), i)
    assert body(sub).tag == f"{NS}msub"


def test_bold_upright_and_blackboard_variants() -> None:
    assert texts(convert(r"\boldsymbol{\theta}", False), "mi") == ["\U0001d73d"]  # bold italic θ
    assert texts(convert(r"\mathbf{x}", False), "mi") == ["\U0001d431"]
    assert texts(convert(r"\mathbb{1}", False), "mi") == ["\U0001d7d9"]  # 𝟙, not a plain 1
    (d,) = [e for e in elements(convert(r"\mathrm{d}x", False), "mi") if e.text == "d"]
    assert d.get("mathvariant") == "normal"
    greek = elements(convert(r"\Gamma \Delta \Theta", False), "mi")
    assert [(e.text, e.get("mathvariant")) for e in greek] == [
        ("Γ", "normal"),
        ("Δ", "normal"),
        ("Θ", "normal"),
    ]


def test_relations_and_operator_names() -> None:
    assert "∼" in texts(convert(r"x \sim p", False), "mo")
    out = convert(r"\operatorname*{arg\,max}_{x} f(x)", True)
    assert "*" not in "".join(body(out).itertext())
    (under,) = elements(out, "munder")
    assert "arg" in "".join(under[0].itertext()) and under[1].text == "x"
    assert "arg" in texts(convert(r"\arg\max_x f", False), "mi")


def test_norms_have_equal_bars() -> None:
    assert texts(convert(r"\lVert x\rVert", False), "mo") == ["‖", "‖"]
    assert texts(convert(r"\lvert x\rvert", False), "mo") == ["|", "|"]


def test_angle_brackets_after_left_and_right_stand_apart_from_the_next_letter() -> None:
    """``\\left <m \\right >`` was rewritten to ``\\left\\langlem``: an unknown command."""
    out = convert_md(r"$\left <m \right >$")
    assert texts(out, "mo") == ["⟨", "⟩"] and texts(out, "mi") == ["m"]


def test_a_colour_or_size_switched_inside_text_colours_the_rest_of_it() -> None:
    """``\\color`` inside ``\\text{}`` (issue 25, item 5) and KaTeX's ``\\text{\\small x}``
    stopped with "Not valid in text mode"; MathJax colours the rest of the text."""
    out = convert_md(r"$\text{The dog \color{#699C52}chased \color{black}another dog}$")
    words = [" ".join(t.split()) for t in texts(out, "mtext")]  # spaces are no-break here
    assert words == ["The dog", "chased", "another dog"]
    assert 'style="color:#699C52;"><mtext>chased' in out
    small = convert_md(r"$\text{\small (F.L.1)}$")
    assert '<mrow style="font-size:0.9em"><mtext>\xa0(F.L.1)' in small


def test_dollars_inside_text_inside_inline_math_are_one_formula() -> None:
    """``$\\text{distance($x_0, t$)}$`` (issue 25, item 6): MathJax matches braces before
    the closing ``$``; dollarmath closed at ``($`` and the subscript showed as ``_``."""
    out = convert_md(r"$\text{distance($x_0, t$)}$ and")
    assert texts(out, "mtext") == ["distance(", ")"] and "<msub><mi>x</mi><mn>0</mn>" in out


def test_plain_tex_matrices_are_environments() -> None:
    """``\\matrix{a & b \\cr c & d}``, ``\\pmatrix{...}``, ``\\cases{...}``: plain TeX that
    MathJax reads; "unknown LaTeX command \\matrix" here."""
    out = convert_md(r"$$\left(\matrix{1 & 0 \cr 0 & 1}\right) = \pmatrix{a \cr b}$$")
    assert len(elements(out, "mtr")) == 4 and texts(out, "mo")[0] == "("
    assert "{" in texts(convert_md(r"$x = \cases{1 & x>0 \cr 0 & x \le 0}$"), "mo")


def test_a_font_switch_as_a_scripts_argument_is_the_script() -> None:
    """``x_\\rm d``: MathJax sets ``x_{\\rm d}``; math-core refused ("Switch-like commands
    cannot be used as arguments")."""
    for tex in (r"$x_\rm d$", r"$x_\rm{d}$", r"$p^\bf T$"):
        assert "<msub>" in convert_md(tex) or "<msup>" in convert_md(tex)


def test_array_rules_are_kept() -> None:
    out = convert(r"\begin{array}{cc|c} 1 & 2 & 3 \\ 4 & 5 & 6 \end{array}", True)
    for row in elements(out, "mtr"):
        styles = [cell.get("style") or "" for cell in row]
        assert "border-right" in styles[1] and "border-right" not in styles[0] + styles[2]


def test_matrix_under_a_script_keeps_its_size_and_rows() -> None:
    out = convert(r"\begin{pmatrix} a & b \\ c & d \end{pmatrix}^{-1}", True)
    (sup,) = elements(out, "msup")
    assert len(sup) == 2 and sup[1].tag == f"{NS}mrow"  # base and script, nothing else
    # Table cells at text size (as TeX sets them), said so that the validator accepts.
    (level,) = [e for e in sup[0] if e.tag == f"{NS}mstyle"]
    assert level.get("scriptlevel") == "0" and level[0].tag == f"{NS}mtable"
    assert not [e for e in elements(out, "mtable") if e.get("scriptlevel")]
    ragged = convert(r"\begin{pmatrix} a & b \\ c & \end{pmatrix}", True)
    assert [len(row) for row in elements(ragged, "mtr")] == [2, 2]  # the last row stays


def test_row_spacing_option_is_not_printed() -> None:
    out = convert_md("$$\n\\begin{aligned} a &= b \\\\[6pt] c &= d \\end{aligned}\n$$")
    assert "6" not in "".join(body(out).itertext()) and len(elements(out, "mtr")) == 2


def test_tag_sits_in_its_own_column_at_the_margin() -> None:
    out = convert_md("$$\nx = 1 \\tag{1}\n$$")
    (table,) = elements(out, "mtable")
    assert table.get("style") == "width: 100%"
    cells = list(table[0])
    assert "".join(cells[1].itertext()) == "x=1" and cells[-1][0].text == "(1)"


@pytest.mark.parametrize(
    "latex",
    [
        r"\begin{equation} E = mc^2 \end{equation}",
        r"\begin{equation*} E = mc^2 \end{equation*}",
        r"\begin{aligned} \color{red} a &= b \end{aligned}",
        r"\big\{ x \big\}",
        r"\begin{align} a &= b \\ c &= d \end{align}",
        r"\begin{gather} a \\ b \end{gather}",
        r"\begin{multline} a + b \\ + c \end{multline}",
        r"\begin{split} a &= b \\ &= c \end{split}",
        r"\begin{eqnarray} a &=& b \\ c &=& d \end{eqnarray}",
        r"\sum_{\substack{i < j \\ i, j \in S}} x_{ij}",
        r"\begin{smallmatrix} a & b \\ c & d \end{smallmatrix}",
        r"\begin{alignat}{2} a &= b & c &= d \end{alignat}",
        r"\mbox{if } x \intop_0^1 \pmb{x}",
        r"\widehat{xy} \widetilde{xy}",
    ],
)
def test_constructs_real_posts_use_convert(latex: str) -> None:
    out = convert_md(f"$$\n{latex}\n$$")
    assert "<math" in out and "merror" not in out


def convert_md(markdown: str) -> str:
    """A formula through the whole Markdown stage (rewrites and numbering included)."""
    result = render(markdown, MarkdownContext("post.md"))
    match = re.search(r"<math.*</math>", result.html, re.DOTALL)
    assert match is not None, result.html
    return match.group()


# --- safety --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "latex",
    [
        r"\text{<script>alert(1)</script>}",
        "\\text{a\t<img src=x onerror=alert(1)>}",
        r"\text{</math><script>alert(1)</script>}",
        r"\mathrm{<b>x</b>}",
        r"\operatorname{<i>x</i>}",
    ],
)
def test_text_is_escaped(latex: str) -> None:
    out = convert(latex, False)
    presentation = out.split("<annotation")[0]
    assert "<script" not in out and "<img" not in out and "</math><" not in out
    assert "&lt;" in presentation


@pytest.mark.parametrize(
    "latex",
    [
        r"\href{javascript:alert(1)}{x}",
        r"\url{javascript:alert(1)}",
        r"\color{red;background:url(javascript:alert(1))}x",
        r"\hspace{1em;color:red}x",
        r"\begin{equation}x\label{a\"><script>}\end{equation}",
    ],
)
def test_no_link_or_style_injection(latex: str) -> None:
    try:
        out = convert(latex, True)
    except MathError:
        return
    assert "javascript:" not in out.split("<annotation")[0]
    assert "<script" not in out


def test_colours_mathjax_took_render_and_an_unknown_one_is_left_out_with_a_warning() -> None:
    """xcolor's ``red!80`` is a mix; MathJax handed ``myblue`` to CSS, which ignored it."""
    result = render(
        "One $\\color{red!80}x$.\n\nTwo $\\textcolor{myblue}{y} z$.", MarkdownContext("post.md")
    )
    assert 'style="color:#FF3333;"' in result.html and "<mi>y</mi>" in result.html
    warnings = [str(w) for w in result.warnings]
    assert warnings == [
        "post.md:3: warning: math: unknown colour 'myblue' left out (MathJax ignored it too)"
    ]


def test_an_equation_label_used_again_is_a_warning_and_ids_stay_unique() -> None:
    text = "$$\nx \\label{eq:a}\n$$\n\nSee \\eqref{eq:a}.\n\n$$\ny \\label{eq:a}\n$$"
    result = render(text, MarkdownContext("post.md"))
    ids = re.findall(r'id="(eq-a[^"]*)"', result.html)
    assert len(ids) == len(set(ids)) == 2 and ids[0] == "eq-a"
    assert "(2)" in result.html and 'href="#eq-a"' in result.html
    (warning,) = [str(w) for w in result.warnings]
    assert warning.startswith("post.md:7: warning: math: equation label eq-a used again")


def test_a_label_used_again_in_its_own_formula_keeps_the_first_id() -> None:
    text = (
        "$$\n\\begin{align}\nx \\label{x} \\\\\ny \\label{x}\n\\end{align}\n$$\n\nSee \\eqref{x}."
    )
    result = render(text, MarkdownContext("post.md"))
    ids = re.findall(r'id="(eq-x[^"]*)"', result.html)
    assert ids[0] == "eq-x" and len(ids) == len(set(ids)) == 2
    assert 'href="#eq-x"' in result.html and len(result.warnings) == 1


def test_a_colour_as_a_script_is_a_group() -> None:
    """MathJax 2's ``x^\\color{red}{y}`` (two arguments) where LaTeX wants a group."""
    out = convert_md("$x^\\color{red}{y}$")
    assert re.search(
        r"<msup><mi>x</mi><mrow style=\"color:#FF0000;\"><mi>y</mi></mrow></msup>", out
    )


# --- errors --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("latex", "message", "offset"),
    [
        (r"\tetha", r"unknown LaTeX command \tetha (did you mean \theta?)", 0),
        (r"a + \alpah", r"unknown LaTeX command \alpah (did you mean \alpha?)", 4),
        (r"\begin{pmatrx} a \end{pmatrx}", "unknown environment {pmatrx} (did you mean", None),
        (r"\frac{1}{2", "unbalanced braces: a '{' is never closed", None),
        (r"x}", "unbalanced braces: '}' without a matching '{'", 1),
        (r"\left( x", r"\left without a matching \right", None),
        (r"a & b", "'&' outside an alignment", 2),
        (r"\begin{pmatrix} a \end{bmatrix}", r"\begin{pmatrix} ended by \end{bmatrix}", None),
    ],
)
def test_errors_are_plain_words_with_a_place(latex: str, message: str, offset: int | None) -> None:
    with pytest.raises(MathError) as excinfo:
        convert(latex, False)
    assert excinfo.value.message.startswith(message)
    assert "Error" not in excinfo.value.message and "StopIteration" not in excinfo.value.message
    if offset is not None:
        assert excinfo.value.offset == offset


def errors_of(markdown: str, **ctx: object) -> list[str]:
    with pytest.raises(BuildErrors) as excinfo:
        render(markdown, MarkdownContext("post.md", **ctx))  # type: ignore[arg-type]
    return [str(e) for e in excinfo.value.errors]


def test_error_column_points_into_the_line_past_rewrites() -> None:
    text = "Intro.\n\n$$\n\\begin{split} a &= b \\\\[4pt] &= \\foo \\end{split}\n$$\n"
    (error,) = errors_of(text)
    assert error.startswith("post.md:4:33: math: unknown LaTeX command \\foo")


def test_unclosed_dollars_are_errors_at_their_line() -> None:
    assert errors_of("One.\n\nThen $x + y and more.\n") == [
        "post.md:3:6: math: unclosed $ (write \\$ for a literal dollar sign)"
    ]
    swallowed = errors_of("$$\nx = 1\n\nMore text.\n\n$$\ny\n$$\n")
    assert swallowed[0].startswith("post.md:1:1: math: unclosed $$")


# --- macros --------------------------------------------------------------------------------


def test_macros_from_site_post_and_formulas() -> None:
    text = (
        "$$\n\\newcommand{\\norm}[1]{\\lVert #1 \\rVert}\n"
        "\\DeclareMathOperator*{\\argmax}{arg\\,max}\n\\def\\E{\\mathbb{E}}\n$$\n\n"
        "Then $\\norm{x} + \\R + \\argmax_y \\E$.\n"
    )
    result = render(text, MarkdownContext("post.md", macros=(("R", r"\mathbb{R}"),)))
    assert result.html.startswith("<p>Then <math")  # the block of definitions shows nothing
    out = re.search(r"<math.*</math>", result.html).group()  # type: ignore[union-attr]
    assert texts(out, "mo").count("‖") == 2 and "ℝ" in texts(out, "mi")
    assert "𝔼" in texts(out, "mi")


def test_a_control_symbol_macro_in_site_yaml_is_expanded() -> None:
    """``\\def\\|{|}`` site-wide (issue 25, item 5): site.yaml said "letters only"."""
    from site_builder.config import math_macros

    macros = math_macros({"macros": {"\\|": "|", "E": r"\mathbb{E}"}}, site=True)
    assert not isinstance(macros, str)
    result = render("Norm $\\| x \\| + \\E$.\n", MarkdownContext("post.md", macros=macros))
    out = re.search(r"<math.*</math>", result.html).group()  # type: ignore[union-attr]
    assert texts(out, "mo")[0] == "|" and "𝔼" in texts(out, "mi")
    assert "must be letters, as in R or norm, or one symbol" in str(
        math_macros({"macros": {"ab1": "x"}})
    )


def test_site_macros_in_mathjaxs_list_form_with_an_optional_argument() -> None:
    """``given: ["#1 \\\\mid #2", 2, "x"]`` (MathJax's form, the first argument optional):
    site.yaml refused it, and the importer could not write it there."""
    from site_builder.config import math_macros

    macros = math_macros({"macros": {"given": ["#1 \\mid #2", 2, "x"], "v": ["\\mathbf{#1}", 1]}})
    assert not isinstance(macros, str)
    result = render(
        "$\\given{y}$, $\\given[a]{b}$, $\\v{u}$\n", MarkdownContext("p.md", macros=macros)
    )
    first, second, third = re.findall(r"<math.*?</math>", result.html, re.S)
    assert texts(first, "mi") == ["x", "y"] and texts(second, "mi") == ["a", "b"]
    assert texts(third, "mi") == ["\N{MATHEMATICAL BOLD SMALL U}"]
    assert "[body, arguments, default]" in str(math_macros({"macros": {"g": ["x", "2"]}}))


def test_what_mathjax_took_and_math_core_refused() -> None:
    """From a blind set: ``\\color\\red{x}`` (a colour's name as a command token), a
    dollar sign left in a formula (``\\mu = $60K`` on a site whose math was ``$$`` only),
    and an apostrophe in a tag (``\\tag{Jensen's inequality}``)."""
    red, _ = render_formula("\\color\\red{x} + y", False)
    assert 'style="color:#FF0000;"' in red
    dollar, _ = render_formula("\\mu = $60K \\text{ or } \\text{costs $5}", False)
    assert texts(dollar, "mi")[1] == "$" and "costs\N{NO-BREAK SPACE}$5" in texts(dollar, "mtext")
    tagged, _ = render_formula(
        "\\begin{align} a &= b \\tag{Jensen's inequality} \\end{align}", True
    )
    assert any("Jensen" in t for t in texts(tagged, "mtext"))


def test_the_physics_packages_commands_of_varying_arguments() -> None:
    """``\\dv``, ``\\pdv`` and ``\\qty`` (MathJax's physics package, loaded by a blind set's
    site) were unknown commands: a macro cannot take one argument or two."""
    ops = lambda tex: texts(render_formula(tex, False)[0], "mo")  # noqa: E731
    names = lambda tex: texts(render_formula(tex, False)[0], "mi")  # noqa: E731
    assert names("\\dv{f}{x}") == ["d", "f", "d", "x"]
    d = "\N{PARTIAL DIFFERENTIAL}"
    assert names("\\pdv{f}{x}{y}") == [d, "f", d, "x", d, "y"]
    second, _ = render_formula("\\dv[2]{f}{x}", False)
    assert second.count("<msup>") == 2 and "<mfrac>" in second
    assert ops("\\qty(\\frac{a}{b}) + \\qty|z|")[:2] == ["(", ")"]
    nested, _ = render_formula("E = \\qty(\\pdv{\\psi}{t})^2", False)
    # \\left( ... \\right) around the fraction, squared: sized to it, as the package draws it
    assert (
        "<msup><mrow><mo>(</mo><mfrac>" in nested
        and "</mfrac><mo>)</mo></mrow><mn>2</mn>" in nested
    )


def test_a_tag_holding_math_inline_or_from_a_macro() -> None:
    """``\\qed`` defined site-wide as ``\\tag*{$\\square$}`` (a proof's end): inline it
    stopped on math-core's "Expected non-special ASCII characters in string literal", and
    from the macro, inline or display, on "Switch-like commands cannot be used as arguments"."""
    from site_builder.config import math_macros

    macros = math_macros({"macros": {"qed": "\\tag*{$\\square$}"}}, site=True)
    assert not isinstance(macros, str)
    result = render(
        "Done. $\\qed$\n\n$$\nx = 1 \\qed\n$$\n", MarkdownContext("p.md", macros=macros)
    )
    inline, display = re.findall(r"<math.*?</math>", result.html, re.S)
    assert texts(inline, "mi") == ["\N{WHITE SQUARE}"] and elements(inline, "mspace")
    assert texts(display, "mi")[-1] == "\N{WHITE SQUARE}" and "mtable" in display
    out, _ = render_formula("a \\tag{$\\star$ 2}", False)
    assert texts(out, "mo") == ["\N{STAR OPERATOR}"] and texts(out, "mtext")[-1] == ")"


def test_macros_a_formula_leaves_in_force_carry_to_the_next_unchanged() -> None:
    """``render_formula``'s macros after a definition (``\\nl`` sets its argument as text,
    so it is expanded here) fed to the next formula were rewritten again, double-wrapped:
    ``unknown LaTeX command \\nl``. The corpus measure chains formulas this way."""
    from site_builder.markdown.math.coverage import converts, preamble_macros

    macros = preamble_macros("\\newcommand{\\nl}[1]{\\textsf{#1}}\n\\def\\|{\\Vert}")
    assert converts("\\nl{the} \\| x \\|", True, macros) is None


def test_a_post_may_redefine_a_builtin_and_errors_name_the_macro() -> None:
    out = convert_md("$$\\renewcommand{\\R}{\\mathcal{R}} \\newcommand{\\R}{x} \\R$$")
    assert "x" in texts(out, "mi")
    (error,) = errors_of("$\\bad$", macros=(("bad", r"\frac{"),))
    assert error == "post.md:1:2: math: unbalanced braces: a '{' is never closed (in a macro)"


def test_a_site_macro_math_core_refuses_fails_only_the_formulas_that_use_it() -> None:
    r"""Issue 25: one bad body in site.yaml (``\vcenter`` was unknown, here ``\nosuch``)
    failed every formula of every post, ``x+y`` included."""
    macros = (("coloneqq", r"\mathrel{\vcenter{:}}="), ("bad", r"\nosuch"), ("worse", r"\bad x"))
    text = "Plain $x+y$, then $x \\coloneqq y$.\n\nNow $a + \\bad$ and\n$\\worse$.\n"
    assert errors_of(text, macros=macros) == [
        "post.md:3:10: math: in the definition of \\bad: unknown LaTeX command \\nosuch"
        " (did you mean \\nsucc?)",
        "post.md:4:2: math: in the definition of \\bad: unknown LaTeX command \\nosuch"
        " (did you mean \\nsucc?)",
    ]
    good = render("Plain $x+y$, then $x \\coloneqq y$.\n", MarkdownContext("p.md", macros=macros))
    assert good.html.count("<math") == 2 and ">:</mo>" in good.html


def test_a_definition_without_its_backslash_is_read_with_a_warning_at_its_column() -> None:
    text = "Say\n$\\newcommand{iid}{\\text{iid}} x \\sim \\iid$.\n"
    result = render(text, MarkdownContext("p.md"))
    assert "<mtext>iid</mtext>" in result.html
    assert [str(w) for w in result.warnings] == [
        "p.md:2:13: warning: math: \\newcommand{iid}: write \\iid, with a backslash"
    ]


def test_errors_show_builds_with_a_warning_and_strict_fails_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``math: {errors: show}``: the build succeeds, the formula is its TeX in a box, the
    warning names path:line:column, and ``--strict`` turns it into a failure."""
    from site_builder.cli import main
    from tests.conftest import make_site

    site = make_site(tmp_path / "site")
    yaml = (site / "site.yaml").read_text(encoding="utf-8")
    (site / "site.yaml").write_text(yaml + "math: {errors: show}\n", encoding="utf-8")
    post = "---\ntitle: Bad math\ndate: 2024-01-02\n---\n\nSee $\\foo + 1$ and $x$.\n"
    (site / "content" / "posts" / "bad.md").write_text(post, encoding="utf-8")
    assert main(["-C", str(site), "build", "--quiet"]) == 0
    err = capsys.readouterr().err
    assert "content/posts/bad.md:6:6: warning: math: unknown LaTeX command \\foo" in err
    page = (site / "public" / "posts" / "bad" / "index.html").read_text(encoding="utf-8")
    assert '<code class="math-error" title="unknown LaTeX command \\foo">' in page
    assert main(["-C", str(site), "build", "--quiet", "--strict"]) == 1


@pytest.mark.parametrize(
    ("math", "message"),
    [
        ("math:\n  errors: shw\n", "site.yaml:5: math errors must be 'show' or 'stop', got 'shw'"
         " (did you mean 'show'?)"),
        ("math: {errors: true}\n", "site.yaml:4: math errors must be 'show' or 'stop', got True"),
        ("math: {error: show}\n", "site.yaml:4: 'math' takes macros"),
    ],
)  # fmt: skip
def test_math_errors_setting_is_checked_at_its_line(
    tmp_path: Path, math: str, message: str
) -> None:
    from site_builder.config import load_config
    from site_builder.errors import BuildError

    (tmp_path / "site.yaml").write_text(
        f"title: T\nauthor: A\nbase_url: https://x.org/\n{math}", encoding="utf-8"
    )
    with pytest.raises(BuildError) as excinfo:
        load_config(tmp_path)
    assert str(excinfo.value).startswith(message)


# --- the math font -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def site_math() -> frozenset[str]:
    html_text = "".join(convert(latex, True) for latex in FORMULAS[:6])
    return fonts.math_characters([html_text])


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
    fonts._subset.cache_clear()
    second = fonts.subset_woff2(source, frozenset(sorted(site_math, reverse=True)))
    assert first == second
    assert TTFont(io.BytesIO(first))["head"].modified == TTFont(source)["head"].modified


def test_font_face_rule() -> None:
    css = fonts.font_face_css("../fonts/math.woff2")
    assert 'font-family: "TeX Gyre Pagella Math"' in css
    assert 'src: url("../fonts/math.woff2") format("woff2")' in css
    assert "font-display: swap" in css


def test_optional_argument_macros_are_expanded() -> None:
    """``\\newcommand{\\x}[n][default]`` (math-core has no optional arguments): ICLR posts
    define ``\\given`` through one, and used to fail on every formula."""
    text = (
        "$$\n\\newcommand{\\MidSymbol}[1][]{\\:#1\\:}\n\\newcommand{\\given}{\\MidSymbol[\\vert]}\n"
        "\\newcommand{\\E}[2][\\mathbb{E}]{#1\\left[#2\\right]}\n$$\n\n"
        "Then $p(x \\given y)$, $\\E{x}$ and $\\E[\\mathrm{Var}]{y}$.\n"
    )
    html = render(text, MarkdownContext("post.md")).html
    given, plain, var = re.findall(r"<math.*?</math>", html)
    assert "|" in texts(given, "mo") and len(elements(given, "mspace")) == 2
    assert "𝔼" in texts(plain, "mi") and "Var" in texts(var, "mi")


def test_an_operator_made_of_math_is_declared_too() -> None:
    out = convert_md("$$\\DeclareMathOperator{\\opmus}{\\mu^*} \\opmus(A)$$")
    assert "μ" in texts(out, "mi")


def test_a_macro_that_opens_what_another_closes_is_expanded_where_it_is_used() -> None:
    """A theme's KaTeX macros ``\\bmatrix`` = ``\\left[\\begin{array}`` and ``\\endbmatrix``
    = ``\\end{array}\\right]`` (the column spec follows at the use, as MathJax and KaTeX
    allow): rewriting each alone raised, and the import and build ended in a traceback."""
    from site_builder.markdown.math.formula import rewrite_macros

    macros = rewrite_macros(
        (("bmatrix", "\\left[\\begin{array}"), ("endbmatrix", "\\end{array}\\right]"))
    )
    mathml, _ = render_formula("\\bmatrix{cc} a & b \\\\ c & d \\endbmatrix", True, macros)
    assert mathml.count("<mtd>") == 4 and "<mo>[</mo>" in mathml


def test_a_commented_out_definition_defines_nothing() -> None:
    """TeX (and KaTeX) skip a comment: ``% \\newcommand`` is a definition the author took out."""
    _, macros = render_formula("a % \\newcommand{\\x}{y}\n+ b", True)
    assert macros == ()
    with pytest.raises(MathError, match="unknown LaTeX command \\\\x"):
        render_formula("\\x", False, macros)


def test_the_near_miss_of_an_unknown_command_is_looked_up_once() -> None:
    """A post using a macro its site's MathJax config defined (``\\vect``) names it in
    hundreds of formulas; measuring it against every command each time cost ~10 ms each."""
    from site_builder.markdown.math.engine import _closest_command

    messages = []
    for tex in ("\\vect{x}", "\\vect{y} + 1", "a = \\vect{z}"):
        with pytest.raises(MathError) as error:
            render_formula(tex, False)
        messages.append(error.value.message)
    assert messages == ["unknown LaTeX command \\vect (did you mean \\vert?)"] * 3
    assert _closest_command.cache_info().hits >= 2


def test_fraktur_capital_i_is_not_a_double_struck_h() -> None:
    """math-core set ``\\mathfrak{I}`` as U+210D (``\\mathbb{H}``); it is U+2111, as ``\\Im``."""
    for tex in ("\\mathfrak{I}", "\\mathfrak I", "{\\frak I}", "\\mathfrak{AI}_I"):
        out, _ = render_formula(tex, False)
        assert "\u2111" in out and "\u210d" not in out, (tex, out)
    assert "\u210d" in render_formula("\\mathbb{H}", False)[0]
    assert "\u2111" not in render_formula("\\mathfrak{\\mathcal{I}}", False)[0]  # inner font wins


def test_a_post_macro_that_opens_what_another_closes_is_expanded_where_it_is_used() -> None:
    """A post's own preamble ``\\newcommand{\\lv}{\\left[\\begin{matrix}}`` and ``\\rv`` =
    ``\\end{matrix}\\right]`` (a Hexo post's, MathJax drew it): each body was rewritten
    alone, and every formula that used them stopped the build."""
    out = convert_md(
        "$$\n\\newcommand{\\lv}{\\left[\\begin{matrix}}\n"
        "\\newcommand{\\rv}{\\end{matrix}\\right]}\n$$\n\n"
        "$$\nx = \\lv a & b \\rv\n$$\n\nand $y = \\lv c & d\\rv$.\n"
    )
    assert out.count("<mtd>") == 4
