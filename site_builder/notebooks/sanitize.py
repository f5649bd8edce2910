"""A notebook's ``text/html`` output, made safe for the page by an allow-list (PyPI ``nh3``).

Output HTML was made by whatever library the author ran: a pandas DataFrame's
table, a progress bar, or a chart whose whole content is a ``<script>``. nh3
(Rust's Ammonia) parses it as a browser would and keeps only the tags and
attributes listed here, so scripts, ``<style>``, event handlers, an ``<iframe>``
other than a video player, and ``javascript:`` links do not survive, whatever the markup's tricks. A
table keeps its structure and its classes (``dataframe``), so the theme styles
it. Links leave the page with ``rel="noopener noreferrer"``.

An output that is nothing once cleaned (a chart drawn by JavaScript) is
reported as empty, and the caller falls back to the next representation
(``text/plain``), as Jupyter does when it cannot show one.
"""

from __future__ import annotations

import re
from functools import lru_cache

_TAGS = {
    "a", "abbr", "b", "blockquote", "br", "caption", "cite", "code", "col", "colgroup",
    "dd", "del", "details", "div", "dl", "dt", "em", "figcaption", "figure", "h1", "h2",
    "h3", "h4", "h5", "h6", "hr", "i", "img", "ins", "kbd", "li", "mark", "ol", "p", "pre",
    "q", "s", "samp", "small", "span", "strong", "sub", "summary", "sup", "table", "tbody",
    "td", "tfoot", "th", "thead", "tr", "u", "ul", "var", "video", "source", "iframe",
}  # fmt: skip
_GENERIC = {"class", "title", "lang", "dir"}
_ATTRIBUTES = {
    "a": {"href"},
    "img": {"src", "alt", "width", "height"},
    "td": {"colspan", "rowspan", "align"},
    "th": {"colspan", "rowspan", "align", "scope"},
    "col": {"span"},
    "colgroup": {"span"},
    "ol": {"start"},
    "details": {"open"},
    # Matplotlib's ``to_html5_video()``; its ``autoplay`` goes: a page must not start moving
    # on its own, and ``controls`` is always set so that the reader can start it
    "video": {"src", "width", "height", "loop", "muted", "playsinline", "poster"},
    "source": {"src", "type"},
    "iframe": {"src", "width", "height", "allow", "allowfullscreen"},
}
# IPython's ``YouTubeVideo`` and ``VimeoVideo``: an iframe stays only as one of these
# players (``_player``); any other (``IFrame("chart.html")``, an advert) goes whole.
_PLAYERS = (
    "https://www.youtube.com/embed/",
    "https://www.youtube-nocookie.com/embed/",
    "https://player.vimeo.com/video/",
)
_NO_PLAYER = re.compile(r"<iframe\b(?![^>]*\ssrc=)[^>]*>.*?</iframe>", re.DOTALL)
_VISIBLE = re.compile(
    r"<(?:img|table|svg|hr|video|iframe)\b|>[^<]*[^<\s]|^[^<]*[^<\s]", re.IGNORECASE
)
# A DataFrame's top-left corner is an empty header cell, which heads nothing: a screen
# reader announces an unnamed header. It is an ordinary (empty) cell.
_EMPTY_HEADER = re.compile(r"<th((?:\s[^>]*)?)>\s*</th>")
_DATA_URL = re.compile(r"""\ssrc="data:[^"]*\"""")


@lru_cache(maxsize=1)
def _cleaner() -> object:
    import nh3

    return nh3.Cleaner(
        tags=_TAGS,
        clean_content_tags={"script", "style", "template", "textarea", "title"},
        attributes={"*": _GENERIC, **_ATTRIBUTES},
        url_schemes={"http", "https", "mailto"},
        link_rel="noopener noreferrer",
        attribute_filter=_player,
        # a frame's title names it to a screen reader (IPython's players set none). One
        # attribute a tag: nh3 adds several in a different order from run to run
        set_tag_attribute_values={"video": {"controls": ""}, "iframe": {"title": "Video"}},
        strip_comments=True,
    )


def _player(element: str, attribute: str, value: str) -> str | None:
    """An iframe's source only when it is a video player's (``_PLAYERS``)."""
    if element == "iframe" and attribute == "src" and not value.startswith(_PLAYERS):
        return None
    return value


def sanitize_html(html: str) -> str:
    """The HTML with only safe tags, attributes and URLs left. An ``<img>`` with a
    ``data:`` URL loses its source (the page has no base64), keeping its ``alt``."""
    cleaned: str = _cleaner().clean(html)  # type: ignore[attr-defined]
    if "<iframe" in cleaned:  # a player loads only when the reader scrolls near it
        cleaned = _NO_PLAYER.sub("", cleaned).replace("<iframe ", '<iframe loading="lazy" ')
    return _EMPTY_HEADER.sub(r"<td\1></td>", _DATA_URL.sub("", cleaned)).strip()


def is_visible(html: str) -> bool:
    """Does the cleaned HTML show anything: text, a table or an image?"""
    return bool(_VISIBLE.search(html))
