"""Conversions every source format needs: code kept verbatim, math normalised.

The order matters and is the same for every format: hide code (nothing inside
it is converted), normalise math to this site's forms, hide math (so ``{{a,
b}}`` in a formula is never taken for Liquid), then the format's own markup,
then put everything back.
"""

from __future__ import annotations

import re
from re import Match

from site_builder.importer import dollars
from site_builder.importer.report import PostNotes
from site_builder.importer.text import Text
from site_builder.importer.tidy import tidy_formula
from site_builder.markdown.math.inline import brace_aware_close

FENCE = re.compile(r"(?ms)^([ \t>]*)(`{3,}|~{3,})([^\n]*)\n(.*?)^[ \t>]*\2[`~]*[ \t]*$")
INLINE_CODE = re.compile(r"(?<![`\\])(`+)(?!`)([^\n]*?[^`\n])\1(?!`)")
VERBATIM_HTML = re.compile(r"(?is)<(pre|script|style|textarea)\b[^>]*>.*?</\1\s*>")
HTML_COMMENT = re.compile(r"(?s)<!--.*?-->")

# kramdown: ``$$...$$`` is display math when it fills its lines, inline math otherwise.
# Quarto's ``$$ ... $$ {#eq-x}`` names the equation for ``@eq-x``.
DOUBLE_DOLLAR = re.compile(
    r"(?s)(?<![\\$])\$\$(?!\$)(.+?)(?<!\$)(?<!(?<!\\)\\)\$\$(?!\$)(?:[ \t]*(\{#eq-[\w:-]+\}))?"
)
SINGLE_DOLLAR = re.compile(
    r"(?<![\\$])\$(?![\s$])((?:[^$\n\\\x0b]|\\.|\n(?![ \t]*\n))+?)(?<![\s\\])\$"
)
# ``$$x = y`` with no closing ``$$`` before the paragraph ends: MathJax left it as text (it
# looks within a paragraph), this site's build would stop; the author meant a formula.
UNCLOSED_DISPLAY = re.compile(
    r"(?m)^([ \t>]*\$\$[ \t]*(?!\{#)[^\s$][^\n$]*(?:\n(?![ \t>]*$)[^\n$]*)*)$(?=\n[ \t>]*$|\n?\Z)"
)
DOLLARS = re.compile(r"(?<![\\$])\$\$(?!\$)")
NESTED_DOLLAR = re.compile(r"(?<!\\)\$")
ESCAPED_DISPLAY = re.compile(r"(?s)\\\\\[(.+?)\\\\\]")
ESCAPED_INLINE = re.compile(r"(?s)\\\\\((.+?)\\\\\\?\)")  # kramdown: ``\\)`` or ``\\\)``
BARE_DISPLAY = re.compile(r"(?s)(?<!\\)\\\[(.+?)(?<!\\)\\\]")
BARE_INLINE = re.compile(r"(?<!\\)\\\(([^\n]+?)(?<!\\)\\\)")
# What MathJax's processEnvironments typeset wherever it found it in the page's text.
MATH_ENVS = (
    "equation|align|gather|multline|eqnarray|flalign|alignat|displaymath|math|split|gathered"
    "|aligned|cases|dcases|array|[pbBvV]?matrix"
)
BARE_ENV = re.compile(rf"(?s)\\begin\{{({MATH_ENVS})(\*?)\}}.*?\\end\{{\1\2\}}")
DISPLAY_BLOCK = re.compile(
    r"(?ms)^([ \t>]*)\$\$[ \t]*\n(.*?)\n[ \t>]*\$\$[ \t]*(\{#eq-[\w:-]+\}[ \t]*)?$"
)


def mask_code(text: Text) -> None:
    """Fenced code, inline code, ``<pre>``/``<script>``/``<style>`` and comments: verbatim.

    A line of an indented fence (in a list item, a definition) indented less than its
    fence would end the item in CommonMark, the rest of the code shown as text; Pandoc
    kept it in. Padded to the fence's indentation, which CommonMark strips, it is the
    same code, kept in."""
    _comment_blocks(text)
    text.mask(FENCE, _pad_fence)
    text.mask(VERBATIM_HTML)
    text.mask(HTML_COMMENT)
    text.mask(INLINE_CODE)


COMMENT_BLOCK = re.compile(r"(?ms)^[ ]{0,3}<!--.*?-->")


def _comment_blocks(text: Text) -> None:
    """An HTML comment that opens a line outside code hides all up to its ``-->``, as
    CommonMark reads it: ``<!-- ```{tikz}`` ... ``` -->`` comments out a cell, and its last
    line is no fence that opens code to the end of the post."""
    found, pos, fence = [], 0, FENCE.search(text.text)  # the first fence at ``pos`` or after
    while (comment := COMMENT_BLOCK.search(text.text, pos)) is not None:
        if fence is not None and fence.start() < pos:
            fence = FENCE.search(text.text, pos)
        if fence is not None and fence.start() <= comment.start():
            pos = fence.end()  # a fence first: a comment in it is code
            continue
        found.append(comment)
        pos = comment.end()
    text.splice([(m.start(), m.end(), text.hide(m.group(0))) for m in found])


def _pad_fence(match: Match[str]) -> str:
    width = len(match.group(1).expandtabs(4))
    if not width or match.group(1).strip():  # not indented, or in a quote
        return match.group(0)
    short = re.compile(rf"(?m)^[ ]{{0,{width - 1}}}(?=\S)")  # CommonMark strips that much
    body = short.sub(" " * width, match.group(4))
    start, end = match.start(4) - match.start(), match.end(4) - match.start()
    return match.group(0)[:start] + body + match.group(0)[end:]


def display(body: str, indent: str = "", ident: str = "") -> str:
    """A display formula on lines of its own, set off by blank lines from the text around it.

    A blank line would end the formula here (as in LaTeX); MathJax let a macro preamble
    hold them, so they go. Quarto's ``{#eq-x}`` (``ident``) stays on the closing line.
    """
    blank = indent.rstrip()
    if ">" in indent:  # in a quote: the body's lines carry its markers, which ``indent`` adds
        body = QUOTE_MARKERS.sub("", body)
    lines = [indent + line for line in tidy_formula(body).strip().split("\n") if line.strip()]
    inner = "\n".join(lines)
    close = f"$$ {ident}" if ident else "$$"
    before = f"{blank}\n" if blank else "\n\n"  # an empty line would end a quote
    return f"{before}{indent}$$\n{inner}\n{indent}{close}\n{blank}\n"


QUOTE_MARKERS = re.compile(r"(?m)^[ \t]*(?:>[ \t]?)+")


def _inline(match: Match[str]) -> str:
    """An inline formula on one line, without a control space (``\\ ``) that would end it."""
    body = " ".join(tidy_formula(match.group(0)[1:-1]).split())
    return "$" + re.sub(r"(?<!\\)((?:\\\\)*)\\$", r"\1", body) + "$"


def _display_block(match: Match[str]) -> str:
    indent, body = match.group(1), match.group(2)
    return display(body, indent, (match.group(3) or "").strip()).strip("\n")


def normalise_math(text: Text, notes: PostNotes, kramdown: bool, backslash: bool) -> None:
    """Rewrite the source's math delimiters to this site's ``$...$`` and ``$$`` lines.

    ``kramdown``: a ``$$...$$`` with text beside it on its line is inline (it would be
    display math in Pandoc). ``backslash``: ``\\(...\\)`` and ``\\[...\\]`` written with one
    backslash are math (Hugo's passthrough), not escaped brackets.
    """

    def double(match: Match[str], _line: int) -> str:
        body = match.group(1)
        if not body.strip():
            return match.group(0)
        old = text.text  # still the text being matched: ``sub`` assigns when done
        before = old[old.rfind("\n", 0, match.start()) + 1 : match.start()]
        end = old.find("\n", match.end())
        after = old[match.end() : len(old) if end < 0 else end]
        alone = not before.strip(" \t>") and not after.strip()
        if alone or not kramdown or match.group(2):
            return _display_here(body, match.group(2) or "")
        if NESTED_DOLLAR.search(body):  # ``\text{if $m = 2$}``: only ``$$`` can hold it
            return text.hide("$$" + " ".join(tidy_formula(body).split()) + "$$")
        inline = "$" + " ".join(tidy_formula(body).split()) + "$"
        # Paired: its dollars never pair again (``$60K ... ($$\sigma^2$$) of $10K``), unless
        # it opens on a space: ``$x$$ the value of $$y$$`` paired a typo's dollars there.
        return inline if body[:1].isspace() else text.hide(inline)

    def unclosed(match: Match[str], line: int) -> str:
        before = len(DOLLARS.findall(text.text, 0, match.start()))
        if before % 2 or len(DOLLARS.findall(text.text, match.end())) % 2:
            return match.group(0)  # a closing $$ (``$$.``), or one further on closes it
        notes.add(line, "display math $$ never closed: closed at the end of its paragraph")
        return match.group(1).rstrip() + " $$"

    dollars.empty_displays(text)
    text.sub(UNCLOSED_DISPLAY, unclosed)
    text.sub(DOUBLE_DOLLAR, double)
    # ``\\[...\\]`` is Markdown's text until MathJax reads it: kramdown made ``\[`` ``[``.
    seen = unescape_markdown if kramdown else str
    text.sub(ESCAPED_DISPLAY, lambda m, _l: _display_here(seen(m.group(1))))
    text.sub(ESCAPED_INLINE, lambda m, _l: "$" + " ".join(seen(m.group(1)).split()) + "$")
    if backslash:
        text.sub(BARE_DISPLAY, lambda m, _l: _display_here(m.group(1)))
        text.sub(BARE_INLINE, lambda m, _l: "$" + m.group(1).strip() + "$")
    _fix_display_lines(text)


def _display_here(body: str, ident: str = "") -> str:
    """A display block to be laid out on lines of its own by ``_fix_display_lines``."""
    return "\x01" + body.strip() + "\x02" + ident


def _fix_display_lines(text: Text) -> None:
    """Put each display formula on lines of its own, indented like the line it was on."""
    marked = re.compile(r"(?ms)^([ \t>]*)([^\n\x01]*?)\x01(.*?)\x02(\{#eq-[\w:-]+\})?[ \t]*")
    item = re.compile(r"[ \t]*(?:[-*+]|\d+[.)])[ \t]+")

    def layout(match: Match[str], _line: int) -> str:
        indent, lead, body = match.group(1), match.group(2), match.group(3)
        head = f"{indent}{lead.rstrip()}\n" if lead.strip() else ""
        marker = item.match(indent + lead)
        if marker:  # a list item's continuation is indented: keep the formula inside it
            indent = " " * len(marker.group(0))
        return head + display(body, indent, match.group(4) or "")

    while "\x01" in text.text:  # two formulas on one line: the second waits a pass
        before = text.text
        text.sub(marked, layout)
        if text.text == before:
            break


# MathJax's ``$ h_t^* $``: spaces inside, even a line break (never a blank line).
_IN_PARAGRAPH = r"(?:[^$\n\x00\x0b]|\n(?![ \t]*\n))"
SPACED_DOLLAR = re.compile(
    rf"(?<![\\$])\$[ \t]*({_IN_PARAGRAPH}*?[\\^_{{]{_IN_PARAGRAPH}*?)\s*\$(?!\$)"
)
# MathJax's ``$`` at a line's end and its partner at a later line's start, the formula on
# the lines between (``$\n\\begin{pmatrix}...\\end{pmatrix}\n$``), within a paragraph.
LINE_SPANNING = re.compile(
    r"(?m)(?<![\\$])\$[ \t]*\n((?:[ \t]*[^\s$\x00\x0b][^\n$\x00\x0b]*\n)+?)[ \t]*\$(?!\$)"
)
# ``$k < m $``: a space before the closing ``$`` only (a price has one after the opening
# one, or a digit), on one line, short, then no Latin word (Chinese has no spaces to
# wait for): MathJax's formula too.
SPACE_BEFORE_CLOSE = re.compile(
    r"(?<![\\$A-Za-z0-9])\$(?=[^\s\d$\x00])([^$\n\x00\x0b]{1,60}?)[ \t]+\$(?![A-Za-z0-9$])"
)
# ``初始化$ n $个``: spaces inside, a CJK character against the outside of either ``$``
# (Chinese sets no space around a formula; a price starts with a digit).
_CJK = r"\u3000-\u30ff\u3400-\u9fff\uac00-\ud7af\uff00-\uffef"
CJK_SPACED = re.compile(
    rf"(?:(?<=[{_CJK}])\$[ \t]*(?=[^\s\d$\x00])([^$\n\x00\x0b{_CJK}]{{1,60}}?)[ \t]*\$(?!\$)"
    rf"|(?<![\\$])\$[ \t]*(?=[^\s\d$\x00])([^$\n\x00\x0b{_CJK}]{{1,60}}?)[ \t]*\$(?=[{_CJK}]))"
)
# kramdown read ``$...$`` as Markdown: ``\\{`` reached MathJax as ``\{``, ``\[`` as ``[``.
MARKDOWN_ESCAPE = re.compile(r"\\\\\\\\|\\\\([{}|,;:!])|\\([_*[\]])")


def unescape_markdown(formula: str) -> str:
    """The formula MathJax saw once Markdown had taken its escapes out of it."""

    def one(match: Match[str]) -> str:
        if match.group(1):
            return "\\" + match.group(1)
        return match.group(2) or "\\\\"

    return MARKDOWN_ESCAPE.sub(one, formula)


LONE_DOLLAR = re.compile(r"(?<![\\$\x00])\$")
# A pipe table: rows between pipes, one of them the ``|---|:-:|`` row under the head (a
# ``| x |`` line alone is a formula's absolute value, a display's line).
_ROW = r"[ \t>]*\|[^\n]*\|[ \t]*"
TABLE = re.compile(rf"(?m)^(?:{_ROW}\n)*[ \t>]*\|[ \t:|-]*-[ \t:|-]*\|[ \t]*(?:\n{_ROW}(?=\n|\Z))*")


# WordPress's ``$\displaystyle \begin{aligned} ... \\ ... \end{aligned}$``, a paragraph
# of its own: a display formula (inline, its lines would be stacked in the text).
ALONE_INLINE = re.compile(
    r"(?:\A|(?<=\n\n))[ \t]*\$(?![\s$])((?:[^$\n\\]|\\.|\n(?![ \t]*\n))+?)\$[ \t]*"
    r"(?=\n[ \t]*\n|\n?\Z)"
)


def _alone(match: Match[str]) -> str:
    body = match.group(1)
    if not re.search(r"\\displaystyle|\\\\|\\begin\{", body):
        return match.group(0)
    return display(re.sub(r"^\s*\\displaystyle\b", "", body)).strip("\n") + "\n"


def mask_text_dollars(text: Text, kramdown: bool) -> None:
    """``$E = \\{\\text{the $i$th flip}\\}$``: MathJax matches braces before it looks for
    the closing ``$`` (``markdown.math.inline``), so the formula is whole; hidden here,
    kramdown's escapes undone, before the ``$`` rules would pair its inner dollars. The
    ``$`` are read from the left, each formula's closing one never taken for an opening."""
    edits: list[tuple[int, int, str]] = []
    body, at = text.text, 0
    while (match := LONE_DOLLAR.search(body, at)) is not None:
        start, at = match.start(), match.end()
        if body[at : at + 1] == "$":
            at += 1  # ``$$``: not ours
            continue
        close = brace_aware_close(body, start)
        if close is not None:
            formula = body[start : close + 1]
            edits.append(
                (start, close + 1, text.hide(unescape_markdown(formula) if kramdown else formula))
            )
            at = close + 1
        elif (plain := SINGLE_DOLLAR.match(body, start)) is not None:
            at = plain.end()  # an ordinary formula: its closing ``$`` opens nothing
    text.splice(edits)


BLANK_LINE = re.compile(r"\n[ \t]*\n")  # a line of spaces is blank too


def mask_math(text: Text, notes: PostNotes, mathjax: bool) -> None:
    """Hide every formula from the conversions that follow.

    A ``\\begin{equation}`` left in the text once the delimited formulas are hidden is
    one MathJax found by itself: it becomes a display formula. MathJax (``mathjax``)
    also reads ``$h_t^* $`` as math, where a space inside the ``$`` makes text here:
    such formulas are trimmed once the well-formed ones are out of the way. A ``$``
    left after all that is a dollar sign, and is escaped so it never opens math.
    """
    mask_text_dollars(text, kramdown=False)
    if mathjax:  # before any pairing: its closing ``$`` would open the next formula
        spaced = lambda m, _l: text.hide("$" + (m.group(1) or m.group(2)).strip() + "$")  # noqa: E731
        text.sub(CJK_SPACED, spaced)
        text.sub(LINE_SPANNING, lambda m, _l: text.hide("$" + m.group(1).strip() + "$"))
        # ``($\\beta_c / 2 $), at ($\\beta$``: before the pairing, or the spaced formula's
        # closing ``$`` would open a formula reaching into the next one.
        dollars.sub_openings(text, SPACE_BEFORE_CLOSE, lambda m: text.hide(_inline(m)))
        dollars.spaced_plain(text, lambda m: text.hide(_inline(m)))  # ``$ (x', y') $``
    # A table's cells are apart (MathJax saw each alone): no formula spans a ``|``.
    text.sub(TABLE, lambda m, _l: re.sub(r"(?<!\\)\|", "\x0b", m.group(0)))
    text.sub(ALONE_INLINE, lambda m, _l: _alone(m))
    text.mask(DISPLAY_BLOCK, _display_block)
    # ``101$\\times$11``: a ``$`` before a digit closes no formula here (nor in Pandoc).
    text.sub(dollars.DIGITS_BESIDE, lambda m, _l: dollars.digits_inside(m, text.text))
    text.mask(SINGLE_DOLLAR, _inline)

    # MathJax typesets a bare environment as display math even inside a paragraph ("the
    # data\n\\begin{align}...\\end{align}\nwhere"): on lines of its own, it is one here too.
    def bare(match: Match[str], _line: int) -> str:
        before = text.text[: match.start()]
        paragraph = before[max((m.end() for m in BLANK_LINE.finditer(before)), default=0) :]
        if len(re.findall(r"(?<!\\)\$", paragraph)) % 2:
            return match.group(0)  # ``$ P = \n\\begin{pmatrix}...$``: a spaced formula's
        return _display_here(match.group(0))

    text.sub(BARE_ENV, bare)
    _fix_display_lines(text)
    text.mask(DISPLAY_BLOCK, _display_block)
    if mathjax:
        dollars.sub_openings(text, SPACED_DOLLAR, lambda m: text.hide(_inline(m)))
        dollars.sub_openings(text, SPACE_BEFORE_CLOSE, lambda m: text.hide(_inline(m)))

    def lone(match: Match[str], line: int) -> str:
        if text.text.rfind("<", 0, match.start()) > text.text.rfind(">", 0, match.start()):
            return "$"  # inside an HTML tag: an attribute's script, never math
        following = text.text[match.end() : match.end() + 1]
        if not following or following.isdigit() or following.isspace():
            return "$"  # currency, which the site already keeps as text
        notes.add(line, "a $ that opens no formula was kept as a dollar sign")
        return "\\$"

    text.sub(LONE_DOLLAR, lone)
    text.sub(re.compile("\x0b"), lambda m, _l: "|")
