"""Raw HTML that only laid a page out for the old theme: unwrap it so its Markdown renders.

al-folio posts put images in Bootstrap grids (``<div class="row"><div
class="col-sm">``) and Distill layouts (``<div class="l-page">``), and kramdown
renders Markdown inside ``<div markdown="1">``. CommonMark renders nothing
inside an HTML block, so math and figures in those wrappers would stay raw
text. The wrappers carry no meaning here (the column is the column), so the
importer removes them and dedents what they held, which would otherwise be an
indented code block.
"""

from __future__ import annotations

import re
import textwrap

from site_builder.importer import div_blocks
from site_builder.importer.divs import callout_kind
from site_builder.importer.text import Text

_DIV_OPEN = re.compile(r"<div\b([^>]*)>", re.IGNORECASE)
_DIV_ANY = re.compile(r"<(/?)div\b[^>]*>", re.IGNORECASE)
# Bootstrap's grid, spacing and alignment utilities and Distill's column widths.
_LAYOUT_CLASS = re.compile(
    r"^(?:row(?:-cols(?:-\w+)*)?|col(?:-[\w]+)*|offset(?:-\w+)*|order(?:-\w+)*|l-[\w-]+"
    r"|[mp][tbxyse]?-(?:\w+-)?(?:\d|auto)|container(?:-fluid)?|clearfix"
    r"|justify-content(?:-\w+)+|align-(?:items|self|content)(?:-\w+)+|d(?:-\w+)?-(?:flex|block|inline|inline-block|none|grid)"
    r"|flex(?:-\w+)+|text-(?:center|left|right|start|end|justify)|mx-auto|my-auto|img-fluid"
    r"|rounded(?:-\w+)*|z-depth-\d|shadow(?:-\w+)?|w-\d+|h-\d+|figure|center|d-figure"
    r"|fake-img|g[xy]?-\d|float-\w+|border(?:-\w+)*|overflow-\w+|position-\w+)$"
)
_HIDDEN = re.compile(r"display\s*:\s*none", re.IGNORECASE)
_DEFINITIONS = re.compile(
    r"(?s)\s*(?:(?:\$\$|\\\[)\s*(?:\\(?:new|renew|provide)command|\\def|\\let|\\Declare"
    r"MathOperator|\\definecolor|\s)[^$]*(?:\$\$|\\\])\s*)+"
)
CAPTION = re.compile(
    r'(?is)<div\s+class="(?:[\w-]+\s+)*(?:caption|figcaption)\b[^"]*"\s*>(.*?)</div\s*>'
)


def _attributes(raw: str) -> dict[str, str]:
    return {
        k.lower(): v1 if v1 is not None else v2
        for k, v1, v2 in re.findall(r"""([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""", raw)
    }


def _unwrappable(raw_attrs: str, inner: str) -> bool:
    attrs = _attributes(raw_attrs)
    if "markdown" in attrs and _box_kind(attrs):
        return False  # a callout: ``boxes`` makes it one
    if "markdown" in attrs or (inner.strip() and _DEFINITIONS.fullmatch(inner)):
        return True
    if _HIDDEN.search(attrs.get("style", "")):
        return _DEFINITIONS.fullmatch(inner) is not None  # a hidden macro preamble
    if set(attrs) - {"class", "style", "align"}:
        return False
    classes = attrs.get("class", "").split()
    return all(_LAYOUT_CLASS.match(c) for c in classes)


def _closing(text: str, start: int) -> tuple[int, int] | None:
    """The span of the ``</div>`` that closes the ``<div>`` ending at ``start``."""
    depth = 1
    for match in _DIV_ANY.finditer(text, start):
        depth += -1 if match.group(1) else 1
        if depth == 0:
            return match.start(), match.end()
    return None


def unwrap_layout(text: Text) -> None:
    """Remove layout-only ``<div>`` wrappers (innermost first), keeping what they hold."""
    for _ in range(20):  # each pass removes one level of nesting
        edits: list[tuple[int, int, str]] = []
        taken_until = -1
        for match in _DIV_OPEN.finditer(text.text):
            if match.start() < taken_until:
                continue
            close = _closing(text.text, match.end())
            if close is None:
                continue
            inner = text.text[match.end() : close[0]]
            if not _unwrappable(match.group(1), inner):
                continue
            if _DIV_OPEN.search(inner):  # unwrap from the inside out, so dedent sees it all
                nested = [m for m in _DIV_OPEN.finditer(inner) if _closing(inner, m.end())]
                if any(_unwrappable(m.group(1), "") for m in nested):
                    continue
            body = textwrap.dedent(inner.strip("\n")).strip()
            edits.append((match.start(), close[1], f"\n\n{body}\n\n"))
            taken_until = close[1]
        if not edits:
            return
        text.splice(edits)


_BOX = re.compile(
    r"(?is)[ \t]*<(aside|section|figure|figcaption|p|details|blockquote|article|center)\b"
    r"([^>]*\bmarkdown\s*=\s*[\"']?(?:1|block)[^>]*)>(.*?)</\1\s*>"
)
_SUMMARY = re.compile(r"(?is)\s*<summary\b[^>]*>.*?</summary\s*>")
# Distill's ``<aside>`` is a margin note.
_ASIDE = re.compile(r"(?is)^[ \t]*<aside\b([^>]*)>(.*?)</aside\s*>", re.M)


def _box_kind(attrs: dict[str, str]) -> str | None:
    for name in attrs.get("class", "").split():
        if name.startswith(("box-", "block-", "callout-", "alert-")):
            return callout_kind(name.split("-", 1)[1])
    return None


def boxes(text: Text) -> None:
    """al-folio's ``<aside class="box-important" markdown="1">`` (or any kramdown
    ``markdown="1"`` element that is not a ``<div>``) holds Markdown: a box is a callout,
    anything else is unwrapped so its Markdown renders."""

    def box(match: re.Match[str], _line: int) -> str:
        body = textwrap.dedent(match.group(3).strip("\n")).strip()
        kind = _box_kind(_attributes(match.group(2)))
        summary = _SUMMARY.match(body) if match.group(1).lower() == "details" else None
        if summary:  # still a disclosure: its summary stays, its body is Markdown
            rest = body[summary.end() :].strip()
            return f"\n\n<details>\n{summary.group().strip()}\n\n{rest}\n\n</details>\n\n"
        if kind is None:
            return f"\n\n{body}\n\n"
        return f"\n\n::: {{.callout-{kind}}}\n{body}\n:::\n\n"

    for _ in range(5):  # a markdown="1" figcaption inside a markdown="1" figure
        before = text.text
        text.sub(_BOX, box)
        if text.text == before:
            break

    def aside(match: re.Match[str], _line: int) -> str:
        body = textwrap.dedent(match.group(2).strip("\n")).strip()
        kind = _box_kind(_attributes(match.group(1)))
        fence = f"callout-{kind}" if kind else "column-margin"
        return f"\n\n::: {{.{fence}}}\n{body}\n:::\n\n"

    text.sub(_ASIDE, aside)


_INLINE_TAGS = "span|em|strong|b|i|u|a|code|sub|sup|ins|del|mark|small|abbr|font"
_BREAK_LINE = re.compile(
    r"(?im)^([ \t]*(?:<(?:br|hr)\s*/?>|</br\s*>|<p\b[^>]*>(?:(?!</?p[\s>]).)*</p\s*>"
    r"|</(?:blockquote|div|center|details|figure|table|ul|ol|dl|section|aside|article)\s*>"
    r"|<(?:div|span|a|p|section)\b[^<>]*></(?:div|span|a|p|section)\s*>)"
    r"[ \t]*)\n"
    r"(?=[ \t]*(?:[^\s<]|<(?:" + _INLINE_TAGS + r")\b))"
)

# A line holding only an inline element's opening tag, text under it.
_INLINE_OPEN = re.compile(
    r"(?im)^([ \t]*<(?:" + _INLINE_TAGS + r")\b[^<>\n]*>)[ \t]*\n"
    r"(?=[ \t]*(?:[^\s<]|<(?:" + _INLINE_TAGS + r")\b))"
)

# A line holding only an image, a caption under it: kramdown's one paragraph.
_IMAGE_LINE = re.compile(
    r"(?im)^([ \t]*<img\b[^<>\n]*>)[ \t]*\n"
    r"(?=[ \t]*(?:[^\s<]|<(?:" + _INLINE_TAGS + r")\b))"
)

# A Pandoc fence right under a line of HTML (``<details><summary>Proof</summary>``): the
# HTML block would run on over it, and the fence would show as text.
# A code fence there likewise (masked by now: a placeholder opening the line).
_FENCE_UNDER_HTML = re.compile(r"(?m)^([ \t]*<[^\n]*)\n(?=[ \t]*(:{3,}|\x00\d+\x00))")


# ``<div id="obs:score" />``: an anchor written self-closed, which HTML does not allow (a
# browser opens a div) and CommonMark reads as the start of a block that swallows the
# paragraph under it; kramdown closed it and rendered that paragraph.
SELF_CLOSED = re.compile(r"(?im)^([ \t]*)<(div|span|a|p|section)\b([^<>]*?)\s*/>[ \t]*$")


def break_lines(text: Text) -> None:
    """A line holding only ``<br>`` (or ``</br>``, which browsers read as one), a whole
    ``<p>...</p>`` (a ``<p></p>`` spacer) or the closing tag of a block (``</blockquote>``)
    is part of an HTML block that swallows the paragraph under it (kramdown rendered that
    paragraph): a blank line after it lets it render; so does a ``:::`` or a code fence
    under a line of HTML. A line holding only ``<span ...>`` or ``<img ...>`` (for
    kramdown the start of a paragraph) joins the line under it, which makes the two a
    paragraph here too. A self-closed anchor (``<div id="x" />``) is closed, and stands
    apart as well."""
    text.sub(SELF_CLOSED, lambda m, _l: f"{m.group(1)}<{m.group(2)}{m.group(3)}></{m.group(2)}>")
    text.sub(_BREAK_LINE, lambda m, _l: m.group(1) + "\n\n")

    def fence(match: re.Match[str], _line: int) -> str:
        under = match.group(2)
        fenced = under[0] == ":" or text.masked(under).lstrip().startswith(("```", "~~~"))
        return match.group(1) + ("\n\n" if fenced else "\n")

    text.sub(_FENCE_UNDER_HTML, fence)
    text.sub(_INLINE_OPEN, lambda m, _l: m.group(1))
    text.sub(_IMAGE_LINE, lambda m, _l: m.group(1) + " ")


_PICTURE = re.compile(r"(?is)<picture\b[^>]*>.*?(<img\b[^>]*>).*?</picture\s*>")
_ONERROR = re.compile(r"""(?i)\s+onerror\s*=\s*(?:"[^"]*"|'[^']*')""")


def pictures(text: Text) -> None:
    """al-folio's figure include, pasted as the HTML it renders to: a ``<picture>`` of
    resized ``.webp`` sources (made by a Jekyll plugin, not in the repository) around the
    ``<img>``, whose ``onerror`` script removes them. The ``<img>`` is what remains."""
    text.sub(_PICTURE, lambda m, _l: _ONERROR.sub("", m.group(1)))


def caption_text(raw: str) -> str:
    """A caption div's content on one line, as Markdown (simple inline HTML kept)."""
    raw = re.sub(r"(?i)<br\s*/?>", " ", raw)
    return " ".join(raw.split())


# Text after the closing tag (``</p>.``, a typo) stays, after the paragraph, as the page showed it.
_PARAGRAPH = re.compile(r"(?is)^([ \t]*)<p(?:\s[^>]*)?>((?:(?!<p[\s>]).)*?)</p\s*>([^<\n]*)$", re.M)
# Text on the lines right after a closing ``</table>`` (no blank line between): still the
# HTML block in CommonMark, so its formulas stayed ``$`` text; set apart, it is Markdown.
_AFTER_BLOCK = re.compile(
    r"(?im)^([ \t]*</(?:table|div|ul|ol|dl|figure|blockquote|center)\s*>[ \t]*\n)"
    r"(?=([ \t]*[^\s<][^\n]*(?:\n[ \t]*[^\s<][^\n]*)*))"
)
_DETAILS_BODY = re.compile(r"(?is)(</summary\s*>)(.*?)(</details\s*>)")
_PLACEHOLDER = re.compile("\x00\\d+\x00")
# A table cell or list item in raw HTML (anywhere on its line, ``<tr><td>``): its content,
# set off by blank lines, is Markdown.
_CELL = re.compile(
    r"(?ims)(^[ \t]*|)(<(td|th|li|dd|dt)\b[^>]*>)((?:(?!<\3[\s>]|</\3\s*>).)*?)(</\3\s*>)"
)
# A block element with no other of its kind inside (``<center>``, a ``<div>`` a theme styled),
# at the start of its line or after the tags that open it (``<div class="box"><div>``).
_CONTAINER = re.compile(
    r"(?ims)(^[ \t]*|(?<=>))(<(center|div|blockquote|section|article)\b[^>]*>)"
    r"((?:(?!<\3[\s>]|</\3\s*>).)*?)(</\3\s*>)"
)
# A figure whose caption is loose text, no ``<figcaption>`` (``<i>Fig. 1</i>. With $m$``).
_LOOSE_FIGURE = re.compile(
    r"(?ims)(^[ \t]*)(<(figure)\b[^>]*>)"
    r"((?:(?!<figure[\s>]|</figure\s*>|<figcaption|\n[ \t]*\n).)*?)"
    r"(</figure\s*>)"
)
# A caption (a figure's or a table's) or a ``<details>`` summary, wherever its tag is.
_PHRASE = re.compile(
    r"(?is)()(<(summary|figcaption|caption)\b[^>]*>)((?:(?!<\3[\s>]).)*?)(</\3\s*>)"
)
_CITATION = re.compile(r"\[-?@[\w:.-]+")
# A list item's text before the list nested in it (``<li>Recurrence: $s$ ...<ul>``).
_LEAD = re.compile(
    r"(?ims)(^[ \t]*|)(<(li|dd)\b[^>]*>)((?:(?!<(?:li|dd|ul|ol|/li|/dd)[\s>]).)*?)"
    r"[ \t]*()(?=<(?:ul|ol)\b)"
)
# ``<p/>`` on a line of its own, an old spacer: it would make the lines under it raw HTML.
_SPACER = re.compile(r"(?im)^[ \t]*(?:<p\s*/>|<p>\s*</p>)[ \t]*\n?")
# A formula that opens a line, indented with the HTML: at the margin, never code.
_INDENTED_FORMULA = re.compile(r"(?m)^[ \t]+(?=\x00|\$\$)")


def open_math_html(text: Text) -> None:
    """Let Markdown render the formulas that raw HTML holds (MathJax found them anywhere).

    CommonMark passes an HTML block through untouched up to the next blank line, so
    ``<p>... $x$ ...</p>`` or the body of a ``<details>`` showed its formulas as ``$``
    text. A ``<p>`` holding math becomes a Markdown paragraph; a ``<details>`` body, a
    table cell, a list item, a ``<summary>``, a ``<figcaption>`` or a ``<center>`` or
    ``<div>`` with no other inside is set off by blank lines, which makes it Markdown, and
    so are the lines of text right after a closing ``</table>`` (or ``</div>``...).
    A citation (``[@key]``) needs Markdown as much. Run once formulas are masked.
    """

    def holds_math(fragment: str) -> bool:  # or a citation: Markdown too
        if _CITATION.search(fragment):
            return True
        return any(text.masked(p).startswith("$") for p in _PLACEHOLDER.findall(fragment))

    def paragraph(match: re.Match[str], _line: int) -> str:
        if not holds_math(match.group(2)):
            return match.group(0)
        after = match.group(3).strip()
        return f"\n\n{_dedent(text, match.group(2)).strip()}\n\n" + (
            f"{after}\n\n" if after else ""
        )

    def details(match: re.Match[str], _line: int) -> str:
        if not holds_math(match.group(2)):
            return match.group(0)
        body = _dedent(text, match.group(2).strip("\n")).strip()
        return f"{match.group(1)}\n\n{body}\n\n{match.group(3)}"

    def cell(match: re.Match[str], _line: int) -> str:
        if not holds_math(match.group(4)):
            return match.group(0)
        body = _dedent(text, match.group(4).strip("\n")).strip()
        body = _INDENTED_FORMULA.sub("", _SPACER.sub("", body))
        for placeholder in _PLACEHOLDER.findall(body):  # a display hidden with its indent
            text.rehide(placeholder, lambda hidden: _INDENTED_FORMULA.sub("", hidden))
        # The closing tag at the margin: indented by four after a blank line, it is code.
        return f"{match.group(1)}{match.group(2)}\n\n{body}\n\n{match.group(5)}"

    div_blocks.open_boxes(text, holds_math)
    text.sub(_PARAGRAPH, paragraph)
    text.sub(
        _AFTER_BLOCK, lambda m, _l: m.group(1) + "\n" if holds_math(m.group(2)) else m.group(0)
    )
    text.sub(_DETAILS_BODY, details)
    text.sub(_CELL, cell)
    text.sub(_LEAD, cell)
    text.sub(_PHRASE, cell)
    text.sub(_CONTAINER, cell)
    text.sub(_LOOSE_FIGURE, cell)
    text.sub(_INLINE_OPEN, lambda m, _l: m.group(1))  # a body set off may start with one
    text.sub(_PARAGRAPH, paragraph)  # a <p> a cell held (``<li><p>$x$</p></li>``)


def _dedent(text: Text, fragment: str) -> str:
    """``textwrap.dedent`` that sees through masked formulas: a display formula hidden at
    the start of a line is indented like the lines around it, and loses that indent too
    (else it would stay indented by four, which is code)."""
    shown = _PLACEHOLDER.sub(lambda m: text.masked(m.group()), fragment)
    lines = [line for line in shown.split("\n") if line.strip()]
    indents = [line[: len(line) - len(line.lstrip(" \t"))] for line in lines]
    margin = min(indents, key=len, default="")
    while margin and not all(indent.startswith(margin) for indent in indents):
        margin = margin[:-1]
    if not margin:
        return fragment
    at_margin = re.compile(rf"(?m)^{re.escape(margin)}")
    for placeholder in _PLACEHOLDER.findall(fragment):
        text.rehide(placeholder, lambda hidden: at_margin.sub("", hidden))
    return at_margin.sub("", fragment)


def captions_to_paragraphs(text: Text) -> None:
    """A caption no figure took (under a table, a video, an HTML figure) is a paragraph."""
    text.sub(CAPTION, lambda m, _l: f"\n\n{caption_text(m.group(1))}\n\n")
