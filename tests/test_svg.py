"""Inline SVG (``{.inline}``): whatever the file holds, nothing live reaches the page.

Hostile drawings are generated: scripts and foreign objects at any depth, event
attributes in any case, links with any scheme, ids referenced from ``url()``,
``href`` and styles. The cleaned element must parse, hold none of them, and
every id it keeps must carry the figure's prefix with its references following.
"""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from xml.sax.saxutils import quoteattr

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from site_builder.markdown.svg import SVG, XLINK, inline_svg

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "100"))
TAGS = ["g", "path", "rect", "text", "a", "use", "image", "script", "foreignObject", "style"]
ATTRS = ["id", "onload", "OnClick", "onmouseover", "href", "fill", "marker-end", "class"]
VALUES = [
    "a",
    "b",
    "#a",
    "url(#a)",
    "javascript:alert(1)",
    "JaVaScRiPt:x",
    "data:text/html,<b>",
    "https://example.org/",
    "red",
]


@st.composite
def element(draw: st.DrawFn, depth: int = 0) -> str:
    tag = draw(st.sampled_from(TAGS))
    attrs = draw(st.dictionaries(st.sampled_from(ATTRS), st.sampled_from(VALUES), max_size=4))
    text = " ".join(f"{k}={quoteattr(v)}" for k, v in attrs.items())
    if draw(st.booleans()):
        text += " xlink:href=" + quoteattr(draw(st.sampled_from(VALUES)))
    inner = ""
    if tag == "style":
        inner = draw(st.sampled_from(["* { fill: red }", "@import url(x.css); #a { fill: red }"]))
    elif depth < 3:
        inner = "".join(draw(st.lists(element(depth + 1), max_size=3)))
    return f"<{tag} {text}>{inner}</{tag}>"


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(element(), max_size=4))
def test_nothing_live_survives(children: list[str]) -> None:
    source = (
        f'<svg xmlns="{SVG}" xmlns:xlink="{XLINK}" viewBox="0 0 10 10">{"".join(children)}</svg>'
    )
    html = inline_svg(source.encode(), "fig-x", "label")
    ids = {el.get("id") for el in ET.fromstring(source).iter()} - {None}
    root = ET.fromstring(html)
    for el in root.iter():
        local = el.tag.rsplit("}", 1)[-1]
        assert local not in ("script", "foreignObject")
        for name, value in el.attrib.items():
            assert not name.rsplit("}", 1)[-1].lower().startswith("on"), (name, html)
            if name.rsplit("}", 1)[-1] == "href":
                assert not re.match(r"(?i)\s*(javascript|data|vbscript):", value), html
                assert not value.startswith("#") or value[1:] not in ids, html
                assert local == "a" or not re.match(r"(?i)\s*(https?:|//)", value), html
            if name == "id":
                assert value.startswith("fig-x-"), html
            elif not name.endswith("href"):  # an href is a link, never a url()
                assert not set(re.findall(r"url\(#([^)]*)\)", value)) & ids, html
        if local == "style":
            assert "@import" not in (el.text or "")
            for rule in filter(None, (el.text or "").split("\n")):
                assert rule.startswith('[data-svg="fig-x"] '), rule
