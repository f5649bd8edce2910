"""The seed post's display math, measured in Chromium: does it look typeset?

A regression in the math engine, its rewrites or the font subset (a dropped MATH
table, a missing size variant) does not fail any text comparison; the page
just quietly falls back to small parentheses and a tiny sum. These measure it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser import ARTIFACTS, chromium, serve_directory

pytestmark = pytest.mark.browser

POST = "posts/attention-from-the-softmax-up/"

MEASURE = """() => {
  const box = e => { const r = e.getBoundingClientRect();
                     return {left: r.left, right: r.right, top: r.top, height: r.height}; };
  const [attention, variance] = document.querySelectorAll('.math-display math');
  // left( ... right): the row that holds the fraction, opened by its fence.
  const fence = attention.querySelector('mfrac').parentElement.querySelector(':scope > mo');
  const softmax = [...attention.querySelectorAll('mi')].find(e => e.textContent === 'softmax');
  const sum = variance.querySelector('munderover > mo');
  const lower = variance.querySelector('munderover > :nth-child(2)');
  const varName = variance.querySelector('mi');
  const family = 'TeX Gyre Pagella Math';
  const faces = [...document.fonts].filter(f => f.family.replace(/"/g, '') === family);
  return {
    fence: box(fence),
    numerator: box(attention.querySelector('mfrac > :first-child')),
    softmax: box(softmax),
    sum: box(sum),
    lower: box(lower),
    varName: box(varName),
    fontStatus: faces.map(f => f.status),
    fontCheck: document.fonts.check('20px "TeX Gyre Pagella Math"'),
    family: getComputedStyle(attention).fontFamily,
    softmaxStyle: getComputedStyle(softmax).fontStyle,
  };
}"""


@pytest.fixture(scope="module")
def measured(built_site: Path) -> dict[str, Any]:
    fonts: list[tuple[str, int]] = []
    with (
        serve_directory(built_site) as base,
        chromium(viewport={"width": 1280, "height": 900}) as context,
    ):
        page = context.new_page()
        page.on(
            "response",
            lambda r: fonts.append((r.url, r.status)) if r.url.endswith(".woff2") else None,
        )
        page.goto(base + POST)
        page.evaluate("document.fonts.ready.then(() => true)")
        result: dict[str, Any] = page.evaluate(MEASURE)
        ARTIFACTS.mkdir(exist_ok=True)
        for index, element in enumerate(page.query_selector_all(".math-display")):
            element.screenshot(path=str(ARTIFACTS / f"math-display-{index}.png"))
    result["fonts"] = fonts
    return result


def test_math_font_is_downloaded_and_used(measured: dict[str, Any]) -> None:
    assert [status for url, status in measured["fonts"] if "math.woff2" in url] == [200]
    assert measured["fontStatus"] == ["loaded"]
    assert measured["fontCheck"] is True
    assert measured["family"].startswith('"TeX Gyre Pagella Math"')


def test_parentheses_stretch_around_the_fraction(measured: dict[str, Any]) -> None:
    fence, numerator = measured["fence"], measured["numerator"]
    assert fence["height"] > 1.5 * numerator["height"]
    assert fence["top"] <= numerator["top"]


def test_softmax_is_upright_and_tight_against_its_parenthesis(measured: dict[str, Any]) -> None:
    # \operatorname{softmax}\!\left( : TeX's thin space after the name, cancelled by \!.
    assert measured["softmaxStyle"] == "normal"
    gap = measured["fence"]["left"] - measured["softmax"]["right"]
    assert abs(gap) < 1.5, f"gap between softmax and ( is {gap:.1f}px"


def test_display_sum_is_large_with_limits_underneath(measured: dict[str, Any]) -> None:
    sum_, lower, name = measured["sum"], measured["lower"], measured["varName"]
    assert sum_["height"] > 1.6 * name["height"], "display sum should be the large variant"
    assert lower["top"] >= sum_["top"] + sum_["height"] - 1, "lower limit should sit below"
