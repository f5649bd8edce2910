"""What real posts write, measured in Chromium: each construct of issue 12 looks typeset.

A post with the constructs is built with the site's own templates, CSS and
subset font, then measured: display formulas centred on the column, numbers at
its right edge, a prime beside its base (not a speck above it), rules and rows
kept. ``tools/math_compare.py`` shows the same constructs beside MathJax.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import ARTIFACTS, chromium, serve_directory
from tests.conftest import ROOT, build_site, make_site

pytestmark = pytest.mark.browser

POST = r"""---
title: Constructs, and $\sqrt{d_k}$ in a title
date: 2026-01-01
---

A prime $f'(x)$, bold $\boldsymbol{\theta}$, upright $\mathrm{d}x$ and $x \sim p$,
boxed $\boxed{x + 1}$ and cancelled $\cancel{a + b}$.

$$
\operatorname*{arg\,max}_{x} f(x)
$$

$$
\begin{equation}
E = mc^2 \label{eq:energy}
\end{equation}
$$

$$
\begin{align}
a &= b \\
c &= d \notag
\end{align}
$$

$$
\begin{array}{cc|c} 1 & 2 & 3 \\ 4 & 5 & 6 \end{array}
$$

$$
x = 1 \tag{A}
$$

See \eqref{eq:energy}.
"""

MEASURE = """() => {
  const box = e => { const r = e.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width,
            height: r.height}; };
  const column = box(document.querySelector('.post-body p'));
  const displays = [...document.querySelectorAll('.math-display')];
  const ink = el => {  // the drawn formula: the first cell of a numbered table, else <math>
    const cells = el.querySelectorAll('mtr:first-child > mtd');
    return box(cells.length === 3 ? cells[1] : el.querySelector('semantics > :first-child'));
  };
  const inline = document.querySelector('.post-body p math');
  const f = [...inline.querySelectorAll('mi')].find(e => e.textContent === 'f');
  const prime = [...inline.querySelectorAll('mo')].find(e => e.textContent === '\\u2032');
  const numbers = displays.map(d => [...d.querySelectorAll('mtd > mtext')]
    .filter(t => /^\\(.*\\)$/.test(t.textContent)).map(t => ({text: t.textContent, ...box(t)})));
  const rule = [...displays[3].querySelectorAll('mtd')]
    .map(td => getComputedStyle(td).borderRightStyle);
  const enclosed = notation => {
    const e = document.querySelector(`menclose[notation="${notation}"]`);
    const strike = e.querySelector('[class^="menclose-"]');
    return {...box(e), border: getComputedStyle(e).borderTopWidth,
            strike: strike && {...box(strike), image: getComputedStyle(strike).backgroundImage}};
  };
  const heading = document.querySelector('h1.post-title');
  const words = document.createRange();  // "Constructs, and", the text before the formula
  words.selectNodeContents(heading.firstChild);
  const title = {...box(heading.querySelector('math')), words: box(words),
                 family: getComputedStyle(heading.querySelector('math')).fontFamily};
  return {boxed: enclosed('box'), cancelled: enclosed('updiagonalstrike'), title,
          column, argmax: ink(displays[0]), equation: ink(displays[1]), numbers,
          f: box(f), prime: box(prime), rule, target: !!document.getElementById('eq-energy')};
}"""


@pytest.fixture(scope="module")
def measured(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    site = make_site(tmp_path_factory.mktemp("constructs"), ROOT)
    (site / "content" / "posts" / "constructs.md").write_text(POST, encoding="utf-8")
    build_site(site)
    with (
        serve_directory(site / "public") as base,
        chromium(viewport={"width": 1280, "height": 900}) as context,
    ):
        page = context.new_page()
        page.goto(base + "posts/constructs/")
        page.evaluate("document.fonts.ready.then(() => true)")
        result: dict[str, Any] = page.evaluate(MEASURE)
        ARTIFACTS.mkdir(exist_ok=True)
        page.locator("article").screenshot(path=str(ARTIFACTS / "math-constructs.png"))
    return result


def centre(box: dict[str, float]) -> float:
    return (box["left"] + box["right"]) / 2


def test_display_formulas_are_centred_on_the_column(measured: dict[str, Any]) -> None:
    column = measured["column"]
    for name in ("argmax", "equation"):
        assert abs(centre(measured[name]) - centre(column)) < 4, name


def test_numbers_sit_at_the_right_edge_of_the_column(measured: dict[str, Any]) -> None:
    column, numbers = measured["column"], measured["numbers"]
    assert [[n["text"] for n in row] for row in numbers] == [[], ["(1)"], ["(2)"], [], ["(A)"]]
    for row in numbers:
        for number in row:
            assert abs(number["right"] - column["right"]) < 4, number
    assert measured["target"], "the label's id is on the page for #eq-energy"


def test_prime_is_beside_its_base_at_a_readable_size(measured: dict[str, Any]) -> None:
    f, prime = measured["f"], measured["prime"]
    assert prime["left"] >= f["right"] - 3 and prime["left"] - f["right"] < 3
    # In a superscript Chromium shrinks U+2032 to script size and raises it over the f.
    assert prime["height"] > 0.4 * f["height"], "a prime, not a speck"
    assert f["top"] - 2 <= prime["top"] < f["top"] + f["height"] / 2, "level with the f's top"


def test_array_rule_is_drawn(measured: dict[str, Any]) -> None:
    assert measured["rule"] == ["none", "solid", "none"] * 2


def test_math_in_the_title_is_typeset_on_the_heading_line(measured: dict[str, Any]) -> None:
    """``titles``: the heading's formula in the math font, on the line of the words."""
    title = measured["title"]
    assert title["family"].startswith('"TeX Gyre Pagella Math"'), title
    assert title["width"] > 20 and title["height"] > 20, title
    words = title["words"]
    middle = (title["top"] + title["bottom"]) / 2
    assert words["top"] < middle < words["bottom"], (words, title)
    assert abs(title["left"] - words["right"]) < 12, "after the words, with a space"


def test_boxed_and_cancelled_are_drawn(measured: dict[str, Any]) -> None:
    """math-core's <menclose> is not MathML Core: the site's CSS draws the box and strike."""
    boxed, cancelled = measured["boxed"], measured["cancelled"]
    assert float(boxed["border"].removesuffix("px")) >= 1, boxed
    strike = cancelled["strike"]
    assert "linear-gradient" in strike["image"], strike
    for edge in ("left", "right", "top", "bottom"):  # the strike covers what it cancels
        assert abs(strike[edge] - cancelled[edge]) < 1, (edge, strike, cancelled)
