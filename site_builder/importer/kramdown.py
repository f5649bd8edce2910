"""kramdown's own syntax that CommonMark reads differently: hard line breaks, and ``$$``
in a raw HTML paragraph.

kramdown ends a line with ``\\\\`` to break it; CommonMark reads ``\\\\`` as an escaped
backslash, which would show. CommonMark's own hard break is one backslash before the
line's end; at the end of a paragraph it breaks nothing (and a lone ``\\`` would
show), so there it goes.

kramdown's attribute lists (``{: .class}``) styled the old theme; a margin or callout
class has a meaning here (``drop_ials``).

kramdown leaves a raw ``<p>`` alone, so MathJax found ``$$...$$`` in it and set it as
display math; kramdown's own rule (``$$`` beside text is inline) never saw it.
"""

from __future__ import annotations

import re
from re import Match

from site_builder.importer.divs import callout_kind
from site_builder.importer.report import PostNotes
from site_builder.importer.text import Text

# ``{: .class}`` on its own line, or ``{:target="_blank"}`` right after a link or image.
# A hard-wrapped post may break one over two lines (never over a blank one).
_IAL_BODY = r"(?:[^}\n]|\n(?![ \t]*\n))*"
BLOCK_IAL = re.compile(rf"(?m)^[ \t>]*\{{:(?!=){_IAL_BODY}\}}[ \t]*\n?")
SPAN_IAL = re.compile(rf"(?<=[)\]*_`])\{{:(?!=){_IAL_BODY}\}}")
_PARAGRAPH = r"[^\n](?:[^\n]|\n(?![ \t]*\n))*?"  # lines up to a blank one
MARGIN_CLASSES = ("aside", "marginnote", "sidenote", "l-gutter", "column-margin")

# Two backslashes (not four: an escaped backslash, then one more) ending a line.
HARD_BREAK = re.compile(r"(?m)(?<!\\)\\\\[ \t]*$(\n[ \t>]*(?=\S))?")
# ``<p>$$...$$</p>``: a paragraph holding only a display formula, on one line or several.
HTML_DISPLAY = re.compile(
    r"(?im)^([ \t]*)<p(?:\s[^>]*)?>\s*(\$\$(?!\$).+?\$\$)\s*</p\s*>[ \t]*$", re.S
)


def hard_breaks(text: Text) -> None:
    """``line\\\\`` as CommonMark's hard break ``line\\``; none at a paragraph's end.

    Run once code and math are masked: ``\\\\`` ending a line of a formula is its row end.
    """

    def hard_break(match: Match[str], _line: int) -> str:
        return "\\" + match.group(1) if match.group(1) else ""

    text.sub(HARD_BREAK, hard_break)


def html_display(text: Text) -> None:
    """A raw ``<p>`` holding only ``$$...$$`` as the formula on lines of its own: display
    math (what MathJax drew), which the kramdown rule that follows keeps display."""
    text.sub(HTML_DISPLAY, lambda m, _l: f"\n{m.group(1)}{m.group(2)}\n")


# kramdown's inline math at a paragraph's start: ``\\$$ x $$`` (its docs: escape the first
# dollar, else ``$$`` there opens a display block), ``\\$\\$ x $$`` in Chirpy's template.
ESCAPED_INLINE = re.compile(r"(?<!\\)\\\$\\?\$(?!\$)([^$\n]+?)(?<![\\$])\$\$(?!\$)")


def escaped_inline(text: Text) -> None:
    """``\\$$ x $$``: the formula kramdown read, before the ``\\$`` is read as a dollar sign
    (its ``$`` then paired with the next formula's, and the lines between became math)."""
    text.sub(ESCAPED_INLINE, lambda m, _l: f"$${m.group(1)}$$")


# ``$$$$``: an empty formula, which MathJax set as nothing. Pandoc export leaves one on each
# side of a ``\begin{equation}``, which MathJax found and set by itself.
EMPTY_MATH = re.compile(r"(?<![\\$])\$\$\$\$(?!\$)")


def empty_math(text: Text) -> None:
    """Drop ``$$$$`` before kramdown's ``$$`` rule pairs its dollars with the wrong ones."""
    text.sub(EMPTY_MATH, lambda m, _l: " ")


# kramdown's table of contents: a one-item list (``* TOC``) marked ``{:toc}``, which the
# old page replaced by the list of its headings.
TOC = re.compile(
    r"(?m)^[ \t]*(?:[*+-]|\d+\.)[ \t]+[^\n]*\n[ \t]*\{:\s*(?:\.no_)?toc\s*\}[ \t]*(?:\n|$)"
)


def take_toc(text: Text) -> bool:
    """Drop kramdown's ``{:toc}`` list; whether there was one (the post then sets ``toc``)."""
    found = TOC.search(text.text) is not None
    text.sub(TOC, lambda m, _l: "")
    return found


def drop_ials(text: Text, notes: PostNotes) -> None:
    """kramdown attribute lists: a margin class makes a margin note, a callout class (al-folio's
    ``block-tip``, Chirpy's ``prompt-tip``, Minimal Mistakes' ``notice--info``) a callout of
    its quote or paragraph; others styled the old theme."""

    def block(match: Match[str], line: int) -> str:
        classes = re.findall(r"\.([\w-]+)", match.group(0))
        if any(c in MARGIN_CLASSES for c in classes):
            return "\x03margin\x03\n"
        kinds = [k for c in classes if (k := _callout_class(c))]
        if kinds:
            return f"\x03callout-{kinds[0]}\x03\n"
        return ""

    text.sub(BLOCK_IAL, block)
    # al-folio's ``> ##### TIP`` quote with ``{: .block-tip}`` under it is a callout.
    quote = re.compile(r"(?m)((?:^[ \t]*>.*\n)+)\x03(callout-\w+)\x03\n")

    def callout(match: Match[str], _line: int) -> str:
        body = re.sub(r"(?m)^[ \t]*> ?", "", match.group(1)).strip("\n")
        return f"::: {{.{match.group(2)}}}\n{body}\n:::\n"

    text.sub(quote, callout)
    boxed = re.compile(rf"((?:^|\n\n))({_PARAGRAPH})\n\x03(callout-\w+)\x03\n")
    text.sub(boxed, lambda m, _l: f"{m.group(1)}::: {{.{m.group(3)}}}\n{m.group(2)}\n:::\n")
    text.sub(re.compile("\x03callout-\\w+\x03\n?"), lambda m, _l: "")
    text.sub(SPAN_IAL, lambda m, _l: "")
    # A margin IAL follows its paragraph: wrap that paragraph in a margin block.
    para = re.compile(rf"((?:^|\n\n))({_PARAGRAPH})\n\x03margin\x03\n")
    text.sub(para, lambda m, _l: f"{m.group(1)}::: {{.column-margin}}\n{m.group(2)}\n:::\n")
    text.sub(re.compile("\x03margin\x03\n?"), lambda m, _l: "")


def _callout_class(name: str) -> str | None:
    """This site's callout kind for a theme's callout class, None for any other class."""
    for prefix in ("block-", "prompt-", "notice--"):
        if name.startswith(prefix):
            return callout_kind(name[len(prefix) :]) or "note"  # notice--primary
    return "note" if name == "notice" else None
