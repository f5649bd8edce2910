"""Page quality a reader feels, measured by real tools on a freshly built site.

The site is built for the loopback address it is served from (canonical URLs,
robots.txt and the sitemap then point where the audits look) and checked with:

- Lighthouse (``tests/test_lighthouse.py``, on its own worker under ``make test``);
- axe-core injected with Playwright: index, a tag page and the post, light and dark,
  wide and narrow, with every note toggle open;
- the post's weight as transferred, and no request to another host;
- layout at six widths, sidenotes in the margin from 1100 px and behind a
  toggle below it, keyboard focus order, focus rings and accessible names,
  reduced motion, and WCAG AA contrast of text, links and every code token.

Screenshots go to ``test-artifacts/quality/``. ``npm ci`` installs axe-core; without
it the axe tests skip.
"""

from __future__ import annotations

import gzip
import json
import re
import weakref
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.browser import ARTIFACTS, chromium, load, load_quietly, require_chromium
from tests.conftest import ROOT, SITES, Sites

pytestmark = pytest.mark.browser

POST = "posts/attention-from-the-softmax-up/"
PAGES = {"index": "", "post": POST, "about": "about/"}  # a post, a listing and a page
WIDTHS = (320, 375, 768, 1024, 1280, 1600)
SIDENOTE_BREAKPOINT = 1100  # static/css/site.css
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
SHOTS = ARTIFACTS / "quality"
MAX_WEIGHT = 120 * 1024  # the post, everything but fonts, uncompressed
FIRST_ROUND_TRIP = 14 * 1024  # all render-blocking CSS, gzipped, fits the first TCP window
AA = 4.5


# --------------------------------------------------------------------------- fixtures


class Site:
    def __init__(self, public: Path, url: str) -> None:
        self.public = public
        self.url = url

    def tag_page(self) -> str:
        tags = sorted(p.parent.name for p in (self.public / "tags").glob("*/index.html"))
        assert tags, "the site has no tag pages"
        return f"tags/{tags[0]}/"


@pytest.fixture(scope="module")
def site(sites: Sites) -> Site:
    require_chromium()
    # Built for the address the audits load, so the canonical URL, robots.txt and
    # sitemap describe this very server (not the production domain).
    url = sites.served(ROOT)
    return Site(sites.built(ROOT, url), url)


def open_page(
    context: Any, url: str, *, network_idle: bool = False
) -> tuple[Any, list[str], list[Any]]:
    """Open ``url``; returns (page, console errors and failed requests, responses).

    The context's page is navigated when it has one: a new page costs Chromium about
    0.3 s of CPU, a navigation a third of that. The lists are this URL's alone (the
    page's listeners from an earlier URL are removed). Ready to measure once loaded
    (``browser.load``); ``network_idle`` waits for the network to go quiet instead: for
    the favicon, asked for after the load, and in a context without JavaScript."""
    errors: list[str] = []
    responses: list[Any] = []
    page = context.pages[0] if context.pages else context.new_page()
    for event, listener in _LISTENERS.pop(page, []):
        page.remove_listener(event, listener)
    # A request the last URL left unfinished (its favicon, say) fails when this one
    # replaces it: only this URL's own requests count.
    requests: set[Any] = set()
    _LISTENERS[page] = [
        ("console", lambda m: errors.append(m.text) if m.type == "error" else None),
        ("pageerror", lambda exc: errors.append(str(exc))),
        ("request", lambda r: requests.add(r)),
        (
            "requestfailed",
            lambda r: errors.append(f"failed: {r.url}") if _counts(r, requests) else None,
        ),
        ("response", lambda r: responses.append(r)),
    ]
    for event, listener in _LISTENERS[page]:
        page.on(event, listener)
    if network_idle:
        load_quietly(page, url)
    else:
        load(page, url)
    return page, errors, responses


def _counts(request: Any, requests: set[Any]) -> bool:
    """Whether a failed request is this URL's error. Chromium asks for the favicon after
    the load and cancels it (``net::ERR_ABORTED``) when the next navigation starts; its
    request event can arrive after this URL's listeners are on (a busy machine's run failed
    on it). A missing favicon is a 404, which ``test_no_console_errors_and_a_favicon`` sees."""
    aborted = request.failure == "net::ERR_ABORTED" and request.url.endswith("/favicon.svg")
    return request in requests and not aborted


_LISTENERS: weakref.WeakKeyDictionary[Any, list[tuple[str, Any]]] = weakref.WeakKeyDictionary()


# --------------------------------------------------------------------------- axe-core


def open_all_notes(page: Any) -> int:
    toggles = page.locator(".footnote-ref > a[aria-expanded='false']")
    count: int = toggles.count()
    for _ in range(count):
        toggles.nth(0).click()  # the locator shrinks as each opens
    return count


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_violations(site: Site, scheme: str) -> None:
    if not AXE.exists():
        pytest.skip("axe-core is not installed: run `npm ci`")
    found = {}
    for width in (375, 1280):
        options = {"viewport": {"width": width, "height": 900}, "color_scheme": scheme}
        with chromium(**options) as context:
            for path in ("", site.tag_page(), POST, "about/"):
                page, errors, _ = open_page(context, site.url + path)
                if width < SIDENOTE_BREAKPOINT:
                    open_all_notes(page)  # the notes, opened in the flow, are checked too
                page.add_script_tag(path=str(AXE))
                violations = page.evaluate(
                    """async () => (await axe.run(document, {resultTypes: ['violations']}))
                        .violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                            nodes: v.nodes.map(n => n.target.join(' ') + ': '
                                                    + n.failureSummary)}))"""
                )
                if violations:
                    found[f"{path or 'index'} @{width}"] = violations
                assert errors == [], (path, errors)
    assert not found, json.dumps(found, indent=1, ensure_ascii=False)


def test_axe_on_a_researchers_pages_and_a_notebook(sites: Sites) -> None:
    """The profile, the selected papers and the publications page (tests/sites/researcher),
    and a notebook post's cells and outputs (tests/sites/notebooks), every disclosure
    opened: narrow and dark, wide and light (the post's test above covers all four)."""
    if not AXE.exists():
        pytest.skip("axe-core is not installed: run `npm ci`")
    researcher = sites.served(SITES / "researcher")
    notebook = sites.served(SITES / "notebooks") + "posts/kaggle-titanic/"
    found = {}
    for width, scheme in ((375, "dark"), (1280, "light")):
        options = {"viewport": {"width": width, "height": 900}, "color_scheme": scheme}
        with chromium(**options) as context:
            for url in (researcher, researcher + "publications/", notebook):
                page, errors, _ = open_page(context, url)
                page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
                page.add_script_tag(path=str(AXE))
                violations = page.evaluate(
                    """async () => (await axe.run(document, {resultTypes: ['violations']}))
                        .violations.map(v => ({id: v.id, help: v.help,
                            nodes: v.nodes.map(n => n.target.join(' '))}))"""
                )
                if violations:
                    found[f"{url} @{width} {scheme}"] = violations
                assert errors == [], (url, errors)
    assert not found, json.dumps(found, indent=1, ensure_ascii=False)


# --------------------------------------------------------------------------- weight


def test_post_weight_and_requests(site: Site) -> None:
    with chromium(viewport={"width": 1280, "height": 900}) as context:
        page, errors, responses = open_page(context, site.url + POST, network_idle=True)
        page.mouse.wheel(0, 20000)  # anything lazy would load now
        page.wait_for_load_state("networkidle")
        rows = []
        for response in responses:
            body = response.body()
            kind = response.request.resource_type
            rows.append((response.url, kind, response.status, len(body), body))
        blocking = page.evaluate(
            """() => [...document.scripts]
                .filter(s => !(s.defer || s.async || s.type === 'module'
                              || s.type === 'application/ld+json'))
                .map(s => s.src || s.textContent.slice(0, 60))"""
        )
    origin = urlsplit(site.url).netloc
    assert all(urlsplit(url).netloc == origin for url, *_ in rows), [r[0] for r in rows]
    assert all(status < 400 for _, _, status, _, _ in rows), [(r[0], r[2]) for r in rows]
    assert errors == []
    assert blocking == [], f"render-blocking scripts: {blocking}"

    total = sum(size for _, kind, _, size, _ in rows if kind != "font")
    fonts = sum(size for _, kind, _, size, _ in rows if kind == "font")
    css = [body for _, kind, _, _, body in rows if kind == "stylesheet"]
    css_gz = len(gzip.compress(b"".join(css), 9))
    lines = [
        f"{size:>8} B  {kind:<11} {url.removeprefix(site.url)}" for url, kind, _, size, _ in rows
    ]
    lines += [
        f"{total:>8} B  total without fonts (limit {MAX_WEIGHT} B), {len(rows)} requests",
        f"{fonts:>8} B  fonts",
        f"{sum(map(len, css)):>8} B  CSS in {len(css)} files; {css_gz} B gzipped",
    ]
    SHOTS.mkdir(parents=True, exist_ok=True)
    (SHOTS / "post-weight.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n" + "\n".join(lines))
    assert total <= MAX_WEIGHT
    # Render-blocking CSS: few files, and together small enough to inline.
    assert len(css) <= 3 and css_gz <= FIRST_ROUND_TRIP


# --------------------------------------------------------------------------- layout

OVERFLOW_JS = """() => {
    const vw = window.innerWidth;
    const out = [];
    for (const el of document.querySelectorAll(
            'main img, main figure, main pre, main table, .table-wrap, .math-display, '
            + '.sidenote, .marginnote, .post-body > *')) {
        const box = el.getBoundingClientRect();
        if (box.width === 0 && box.height === 0) continue;
        if (box.left < -0.5 || box.right > vw + 0.5) {
            out.push(`${el.tagName.toLowerCase()}.${el.className} ${box.left}..${box.right}`);
        }
    }
    return {scroll: document.scrollingElement.scrollWidth, inner: vw, boxes: out};
}"""

SIDENOTE_JS = """() => [...document.querySelectorAll('.sidenote')].map(note => {
    const ref = note.previousElementSibling.querySelector('a');
    const text = note.closest('p').getBoundingClientRect();
    const box = note.getBoundingClientRect();
    return {display: getComputedStyle(note).display, left: box.left, right: box.right,
            textRight: text.right, top: box.top, refTop: ref.getBoundingClientRect().top,
            expanded: ref.getAttribute('aria-expanded'),
            controls: ref.getAttribute('aria-controls')};
})"""


@pytest.mark.parametrize("width", WIDTHS)
def test_layout_never_scrolls_sideways(site: Site, width: int) -> None:
    with chromium(viewport={"width": width, "height": 900}) as context:
        for path in ("", site.tag_page(), POST):
            page, errors, _ = open_page(context, site.url + path)
            result = page.evaluate(OVERFLOW_JS)
            assert result["scroll"] <= result["inner"], (path, width, result)
            assert result["boxes"] == [], (path, width, result)
            assert errors == []
            if path != POST:
                continue
            notes = page.evaluate(SIDENOTE_JS)
            assert notes, "the post has sidenotes"
            for note in notes:
                if width >= SIDENOTE_BREAKPOINT:
                    # In the margin: right of the text column, level with its number.
                    assert note["display"] == "block" and note["left"] >= note["textRight"], note
                    assert note["right"] <= width and abs(note["top"] - note["refTop"]) < 40, note
                    assert note["expanded"] is None, note
                else:
                    assert note["display"] == "none", note
                    assert note["expanded"] == "false" and note["controls"], note
            # The reading column stays a readable measure at every width.
            measure = page.evaluate(
                "document.querySelector('.post-body > p').getBoundingClientRect().width"
            )
            assert measure <= 40 * 18, measure


def test_breakpoint_is_the_same_in_css_and_script() -> None:
    css = (ROOT / "static/css/site.css").read_text(encoding="utf-8")
    script = (ROOT / "static/js/post.js").read_text(encoding="utf-8")
    query = f"(min-width: {SIDENOTE_BREAKPOINT}px)"
    # The sidenotes' breakpoint, and the wider one where the table of contents moves into
    # the left margin (CSS alone: static/js/toc.js only marks the current section).
    assert set(re.findall(r"\(min-width: \d+px\)", css)) == {query, "(min-width: 1400px)"}
    assert f'matchMedia("{query}")' in script


def test_note_toggle_from_the_keyboard(site: Site) -> None:
    with chromium(viewport={"width": 375, "height": 800}) as context:
        page, errors, _ = open_page(context, site.url + POST)
        ref = page.locator(".footnote-ref > a").first
        note = page.locator("#sn1")
        assert ref.get_attribute("aria-controls") == "sn1"
        for _ in range(60):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.getAttribute('aria-controls')") == "sn1":
                break
        else:
            pytest.fail("Tab never reached the first note's toggle")
        assert (
            page.get_by_role("link", name="Note 1").first.get_attribute("aria-expanded") == "false"
        )
        page.keyboard.press("Enter")
        assert note.is_visible() and ref.get_attribute("aria-expanded") == "true"
        assert note.get_attribute("aria-hidden") is None
        assert page.evaluate("location.hash") == ""  # opened in place, no jump
        box = note.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 375
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.locator("p", has=note).screenshot(path=str(SHOTS / "note-open-375.png"))
        page.keyboard.press("Enter")
        assert not note.is_visible() and ref.get_attribute("aria-expanded") == "false"
        assert note.get_attribute("aria-hidden") == "true"
        assert errors == []


def test_note_number_links_to_the_notes_without_javascript(site: Site) -> None:
    options = {"viewport": {"width": 375, "height": 800}, "java_script_enabled": False}
    with chromium(**options) as context:
        page, _, _ = open_page(context, site.url + POST, network_idle=True)
        ref = page.locator(".footnote-ref > a").first
        assert ref.get_attribute("aria-expanded") is None
        assert not page.locator("#sn1").is_visible()
        ref.click()
        assert page.evaluate("location.hash") == "#fn1"
        assert page.locator("#fn1").is_visible()


# --------------------------------------------------------------------------- keyboard

FOCUSABLE_JS = """() => [...document.querySelectorAll(
        'a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])')]
    .filter(el => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden')
    .map(el => [...document.querySelectorAll('*')].indexOf(el) + ' ' + el.outerHTML.slice(0, 80))"""

ACTIVE_JS = """() => {
    const el = document.activeElement;
    if (!el || el === document.body) return null;
    const style = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    return {html: [...document.querySelectorAll('*')].indexOf(el) + ' ' + el.outerHTML.slice(0, 80),
            tag: el.tagName.toLowerCase(), controls: el.getAttribute('aria-controls'),
            role: el.getAttribute('role'), focusVisible: el.matches(':focus-visible'),
            outline: style.outlineStyle, outlineWidth: parseFloat(style.outlineWidth),
            outlineColor: style.outlineColor, width: box.width, height: box.height};
}"""

INTERACTIVE = {"a", "button", "input", "select", "textarea"}


def rgb(css: str) -> str:
    r, g, b = (int(float(x)) for x in re.findall(r"[\d.]+", css)[:3])
    return f"#{r:02x}{g:02x}{b:02x}"


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [375, 1280])
def test_keyboard_reaches_everything_with_a_visible_ring(
    site: Site, width: int, scheme: str
) -> None:
    options = {"viewport": {"width": width, "height": 900}, "color_scheme": scheme}
    with chromium(**options) as context:
        page, _, _ = open_page(context, site.url + POST)
        page.get_by_role("slider", name="Temperature").wait_for()
        expected = page.evaluate(FOCUSABLE_JS)
        background = rgb(page.evaluate("getComputedStyle(document.body).backgroundColor"))
        reached: list[str] = []
        toggles = 0
        for _ in range(len(expected) + 40):
            page.keyboard.press("Tab")
            active = page.evaluate(ACTIVE_JS)
            if active is None or active["html"] in reached:
                break
            reached.append(active["html"])
            toggles += bool(active["controls"])
            what = f"{active['html']} at {width}px {scheme}"
            assert active["focusVisible"], what
            assert active["outline"] != "none" and active["outlineWidth"] >= 2, what
            assert contrast(rgb(active["outlineColor"]), background) >= 3, what  # WCAG 1.4.11
            if active["tag"] in INTERACTIVE or active["role"]:
                snapshot = page.locator(":focus").aria_snapshot()
                name = re.match(r"""- '?\w+(?: "(.*?)")?""", snapshot)
                assert name and name.group(1), f"no accessible name: {what}: {snapshot}"
        missing = [html for html in expected if html not in reached]
        assert not missing, f"not reachable with Tab at {width}px: {missing}"
        kinds = " ".join(reached)
        for needle in ("temp-slider", "copy-button", "heading-anchor", "footnote-backref"):
            assert needle in kinds, needle
        if width < SIDENOTE_BREAKPOINT:
            assert toggles == page.locator(".sidenote").count()  # every note's toggle


def test_reduced_motion_is_respected(site: Site) -> None:
    probe = """() => getComputedStyle(document.querySelector('.temp-fill')).transitionDuration"""
    durations = {}
    for motion in ("no-preference", "reduce"):
        with chromium(reduced_motion=motion) as context:
            page, _, _ = open_page(context, site.url + POST)
            page.get_by_role("slider", name="Temperature").wait_for()
            durations[motion] = page.evaluate(probe)
            assert page.evaluate("getComputedStyle(document.documentElement).scrollBehavior") == (
                "auto"
            )
    assert durations["no-preference"] != "0s" and durations["reduce"] == "0s", durations


def test_no_console_errors_and_a_favicon(site: Site) -> None:
    with chromium() as context:
        for path in ("", site.tag_page(), POST, "tags/", "archive/"):
            page, errors, responses = open_page(context, site.url + path, network_idle=True)
            assert errors == [], (path, errors)
            assert all(r.status < 400 for r in responses), [(r.url, r.status) for r in responses]
            icon = page.evaluate("document.querySelector('link[rel=icon]').href")
            assert icon == site.url + "static/favicon.svg"
    assert (site.public / "static/favicon.svg").read_text(encoding="utf-8").startswith("<svg")


# --------------------------------------------------------------------------- contrast


def luminance(hex_colour: str) -> float:
    value = hex_colour.lstrip("#")
    if len(value) == 3:
        value = "".join(c * 2 for c in value)
    channels = [int(value[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def css_variables(css: str) -> tuple[dict[str, str], dict[str, str]]:
    """The light and dark ``:root`` custom properties of site.css."""
    light_block = re.search(r":root\s*\{(.*?)\}", css, re.S)
    dark_block = re.search(r"prefers-color-scheme:\s*dark\)\s*\{\s*:root\s*\{(.*?)\}", css, re.S)
    assert light_block and dark_block

    def parse(block: str) -> dict[str, str]:
        return dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{3,6})\b", block))

    light = parse(light_block.group(1))
    return light, {**light, **parse(dark_block.group(1))}


def token_colours(css: str) -> list[tuple[str, str, str | None]]:
    """(selector, colour, own background) of every Pygments rule that sets a colour."""
    out = []
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    for selector, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css):
        colour = re.search(r"(?<![-\w])color:\s*(#[0-9a-fA-F]{3,6})", body)
        background = re.search(r"background(?:-color)?:\s*(#[0-9a-fA-F]{3,6})", body)
        selector = selector.strip()
        if colour and selector.startswith(".highlight"):
            out.append((selector, colour.group(1), background.group(1) if background else None))
    return out


def test_colour_contrast_meets_wcag_aa(site: Site) -> None:
    site_css = (site.public / "static/css/site.css").read_text(encoding="utf-8")
    code_css = (site.public / "static/css/code.css").read_text(encoding="utf-8")
    light_code, _, dark_code = code_css.partition("@media (prefers-color-scheme: dark)")
    failures = []
    report = []
    light, dark = css_variables(site_css)
    for scheme, colours, code in (("light", light, light_code), ("dark", dark, dark_code)):
        pairs = [(fg, "bg") for fg in ("fg", "muted", "link", "accent", "note-fg")]
        pairs += [(fg, "code-bg") for fg in ("fg", "muted", "link")]
        for fg, bg in pairs:
            ratio = contrast(colours[fg], colours[bg])
            report.append(f"{scheme:<5} --{fg} on --{bg}: {ratio:.2f}")
            if ratio < AA:
                failures.append(report[-1])
        tokens = token_colours(code)
        assert len(tokens) > 20, f"no token colours parsed for {scheme}"
        worst = min(
            (contrast(colour, own or colours["code-bg"]), selector)
            for selector, colour, own in tokens
            # Whitespace tokens draw no glyphs; .hll marks lines, linenos are unused.
            if not selector.endswith((" .w", ".hll")) and "linenos" not in selector
        )
        report.append(f"{scheme:<5} worst code token {worst[1]}: {worst[0]:.2f}")
        for selector, colour, own in tokens:
            if selector.endswith((" .w", ".hll")):
                continue
            ratio = contrast(colour, own or colours["code-bg"])
            if ratio < AA:
                failures.append(
                    f"{scheme} {selector} {colour} on {own or '--code-bg'}: {ratio:.2f}"
                )
    SHOTS.mkdir(parents=True, exist_ok=True)
    (SHOTS / "contrast.txt").write_text("\n".join(report) + "\n", encoding="utf-8")
    print("\n" + "\n".join(report))
    assert not failures, failures


# --------------------------------------------------------------------------- screenshots


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [375, 1280])
def test_screenshots(site: Site, width: int, scheme: str) -> None:
    """Full pages to look at: ``test-artifacts/quality/<page>-<width>-<scheme>.png``."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    options = {"viewport": {"width": width, "height": 900}, "color_scheme": scheme}
    with chromium(**options) as context:
        for name, path in PAGES.items():
            page, errors, _ = open_page(context, site.url + path)
            if name == "post":
                page.get_by_role("slider", name="Temperature").wait_for()
            page.evaluate("document.fonts.ready")
            shot = SHOTS / f"{name}-{width}-{scheme}.png"
            page.screenshot(path=str(shot), full_page=True)
            assert shot.stat().st_size > 10_000
            assert errors == []
