"""Figure 1 in a real browser: the temperature slider on Debian's Chromium.

The built site is served on loopback; every request must stay there. The
widget must reach both entropy limits from the keyboard, never weight a
masked token, and leave the build-time weights readable with JavaScript off.
Screenshots (light and dark, 375 and 1280 px) go to ``test-artifacts/``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser import ARTIFACTS, chromium, load_quietly, require_chromium, serve_directory

pytestmark = pytest.mark.browser

POST = "posts/attention-from-the-softmax-up/"
FIGURE = "#fig-temperature"
LOG2_7 = math.log2(7)


@pytest.fixture(scope="module")
def base_url(built_site: Path) -> Iterator[str]:
    require_chromium()
    with serve_directory(built_site) as url:
        yield url


def open_post(context: Any, base_url: str) -> tuple[Any, list[str], list[str]]:
    """Open the post; returns (page, console errors, requested URLs)."""
    errors: list[str] = []
    requests: list[str] = []
    context.on("request", lambda request: requests.append(request.url))
    page = context.new_page()

    def on_console(msg: Any) -> None:
        # Chromium asks for /favicon.ico by itself; the site has none, and that is not ours.
        if msg.type == "error" and not msg.location.get("url", "").endswith("/favicon.ico"):
            errors.append(f"{msg.text} ({msg.location.get('url')})")

    page.on("console", on_console)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    load_quietly(page, base_url + POST)
    return page, errors, requests


def bars(page: Any) -> list[dict[str, Any]]:
    """Each row as the reader sees it: token, the value text, the bar's drawn width."""
    rows: list[dict[str, Any]] = page.eval_on_selector_all(
        f"{FIGURE} .temp-row",
        """rows => rows.map(row => {
            const fill = row.querySelector('.temp-fill');
            return {
                token: row.querySelector('.temp-token').textContent,
                value: row.querySelector('.temp-value').textContent,
                kind: row.classList.contains('is-masked') ? 'masked'
                    : row.classList.contains('is-query') ? 'query' : 'visible',
                width: fill ? fill.getBoundingClientRect().width : 0,
                track: row.querySelector('.temp-bar').getBoundingClientRect().width,
            };
        })""",
    )
    return rows


def weights(rows: list[dict[str, Any]]) -> dict[str, float]:
    return {r["token"]: float(r["value"]) for r in rows if r["kind"] == "visible"}


def entropy(page: Any) -> float:
    text = page.locator(f"{FIGURE} .temp-entropy").inner_text()
    match = re.fullmatch(r"entropy (\d+\.\d\d) bits", text)
    assert match, text
    return float(match.group(1))


def assert_masked_never_weighted(rows: list[dict[str, Any]]) -> None:
    hidden = [r for r in rows if r["kind"] != "visible"]
    assert [r["token"] for r in hidden] == ["was", "tired", "after", "the", "long", "chase"]
    for row in hidden:
        assert row["value"] in ("masked", "query") and row["width"] == 0, row


def test_keyboard_reaches_both_limits(base_url: str) -> None:
    # Reduced motion turns off the bars' transition, so widths are final when measured.
    options = {"viewport": {"width": 1280, "height": 900}, "reduced_motion": "reduce"}
    with chromium(**options) as context:
        page, errors, requests = open_post(context, base_url)
        slider = page.get_by_role("slider", name="Temperature")
        slider.wait_for()
        assert slider.get_attribute("aria-valuetext") == "τ = 1.00"
        assert math.isclose(entropy(page), 2.06, abs_tol=0.01)
        seen_rows = [bars(page)]

        slider.focus()
        page.keyboard.press("Home")
        rows = bars(page)
        seen_rows.append(rows)
        assert slider.get_attribute("aria-valuetext") == "τ = 0.05"
        ARTIFACTS.mkdir(exist_ok=True)
        page.locator(FIGURE).screenshot(path=str(ARTIFACTS / "figure-home-1280.png"))
        assert entropy(page) < 0.02
        w = weights(rows)
        assert max(w, key=w.__getitem__) == "cat" and w["cat"] > 0.99
        cat = next(r for r in rows if r["token"] == "cat")
        assert cat["width"] > 0.98 * cat["track"]

        for _ in range(10):
            page.keyboard.press("ArrowRight")
            seen_rows.append(bars(page))
        assert 0 < entropy(page) < LOG2_7

        page.keyboard.press("End")
        rows = bars(page)
        seen_rows.append(rows)
        assert slider.get_attribute("aria-valuetext") == "τ = 50.1"
        page.locator(FIGURE).screenshot(path=str(ARTIFACTS / "figure-end-1280.png"))
        assert math.isclose(entropy(page), 2.81, abs_tol=0.005)
        assert all(abs(v - 1 / 7) < 0.01 for v in weights(rows).values())

        for rows in seen_rows:
            assert_masked_never_weighted(rows)
            assert math.isclose(sum(weights(rows).values()), 1.0, abs_tol=0.005)
        assert errors == []
        assert requests and all(u.startswith(base_url) for u in requests), requests
        assert any(u.endswith(POST + "attention-temperature.json") for u in requests)


def test_entropy_is_announced_politely(base_url: str) -> None:
    with chromium() as context:
        page, _, _ = open_post(context, base_url)
        page.get_by_role("slider", name="Temperature").wait_for()
        live = page.locator(f"{FIGURE} .temp-entropy")
        assert live.get_attribute("aria-live") == "polite"
        # The bars carry their values as text; the drawn bar itself is hidden from AT.
        assert page.locator(f"{FIGURE} .temp-bar[aria-hidden='true']").count() == 13


def test_weights_visible_without_javascript(base_url: str) -> None:
    with chromium(java_script_enabled=False, viewport={"width": 1280, "height": 900}) as context:
        page, _, requests = open_post(context, base_url)
        assert page.locator(f"{FIGURE} input[type=range]").count() == 0
        rows = bars(page)
        w = weights(rows)
        assert list(w) == ["The", "cat", "that", "chased", "the", "mouse", "yesterday"]
        assert max(w, key=w.__getitem__) == "cat"
        assert math.isclose(w["cat"], 0.530, abs_tol=0.001)
        assert all(r["width"] > 0 for r in rows if r["kind"] == "visible")
        assert page.locator(f"{FIGURE} .temp-bars").is_visible()
        assert "entropy 2.06 bits" in page.locator(FIGURE).inner_text()
        assert_masked_never_weighted(rows)
        assert not any(u.endswith(".json") for u in requests)
        ARTIFACTS.mkdir(exist_ok=True)
        page.locator(FIGURE).screenshot(path=str(ARTIFACTS / "figure-nojs-1280.png"))


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [375, 1280])
def test_layout_and_screenshots(base_url: str, scheme: str, width: int) -> None:
    options = {"viewport": {"width": width, "height": 800}, "color_scheme": scheme}
    with chromium(**options) as context:
        page, errors, _ = open_post(context, base_url)
        page.get_by_role("slider", name="Temperature").wait_for()
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, f"horizontal scroll of {overflow}px at {width}px"
        figure = page.locator(FIGURE)
        box = figure.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
        ARTIFACTS.mkdir(exist_ok=True)
        figure.scroll_into_view_if_needed()
        figure.screenshot(path=str(ARTIFACTS / f"figure-{scheme}-{width}.png"))
        page.screenshot(path=str(ARTIFACTS / f"figure-page-{scheme}-{width}.png"))
        assert errors == []
