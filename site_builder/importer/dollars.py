"""Math delimiters as the old page's text held them, where the source spells them otherwise.

A ``$$`` in a sentence that nothing closes: a dollar sign the old page showed as text.

MathJax looks for a formula's closing delimiter within one paragraph (one element of
the page); kramdown, Goldmark's passthrough and Pandoc look no further either. A ``$$``
with words on both sides and no other ``$$`` in its paragraph closed nothing there, and
the reader saw two dollar signs. Here it would pair with the next formula's ``$$``,
pages away, and turn the text between into math: it is escaped instead, and reported.
A ``$$`` at the start of a line is left alone: it opens a display formula, which may
hold blank lines (``markup.display`` removes them).

``&#92;(`` ... ``&#92;)``: a backslash written as an HTML character reference, so that
kramdown or Goldmark would not eat it. The browser decoded it, MathJax found ``\\(``
... ``\\)`` in the page's text and typeset a formula: it is one here too.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from site_builder.importer.report import PostNotes
from site_builder.importer.text import Text

DOUBLE = re.compile(r"(?<![\\$])\$\$(?!\$)")
_BACKSLASH = r"&(?:#0*92|#[xX]0*5[cC]|bsol);"
ENTITY_DELIMITED = re.compile(rf"(?s){_BACKSLASH}(\(|\[)(.+?){_BACKSLASH}(\)|\])")
_CLOSING = {"(": ")", "[": "]"}


def entity_delimiters(text: Text) -> None:
    """``&#92;(x&#92;)`` as the ``\\\\(x\\\\)`` that ``markup.normalise_math`` makes a
    formula of (``\\\\[...\\\\]`` a display one), in every source format."""

    def spelled(match: re.Match[str], _line: int) -> str:
        opening, body, closing = match.groups()
        if _CLOSING[opening] != closing:
            return match.group(0)
        return f"\\\\{opening}{body}\\\\{closing}"

    text.sub(ENTITY_DELIMITED, spelled)


def escape_lone_doubles(text: Text, notes: PostNotes) -> None:
    """Escape each ``$$`` that pairs with nothing, standing inside a line of text.

    ``$$`` pair from the left, as kramdown pairs them; a pair may hold a blank line only
    when it opens at a line's edge (a display formula, which ``markup.display`` tidies).
    One inside a line whose partner lies past a blank line closed nothing on the old page.
    """
    edits = []
    body = text.text
    opened: int | None = None
    for match in DOUBLE.finditer(body):
        at = match.start()
        if opened is None:
            opened = at
            continue
        if _inside_a_line(body, opened) and BLANK_LINE.search(body, opened, at):
            edits.append(opened)  # past a blank line: it closed nothing
            opened = at
            continue
        opened = None
    if opened is not None and _inside_a_line(body, opened):
        edits.append(opened)
    for where in edits:
        notes.add(text.line(where), "a $$ that closes nothing was kept as text")
    text.splice([(w, w + 2, "\\$\\$") for w in edits])  # the lines keep their numbers


BLANK_LINE = re.compile(r"\n[ \t>]*\n")


def _inside_a_line(body: str, at: int) -> bool:
    """Text on both sides of the ``$$`` at ``at``, on its line."""
    before = body[body.rfind("\n", 0, at) + 1 : at]
    end = body.find("\n", at)
    after = body[at + 2 : len(body) if end < 0 else end]
    return bool(before.strip(" \t>") and after.strip())


# ``$$`` on a line, ``$$`` on the next, blank lines around: remark-math's (and kramdown's)
# empty display formula, which showed nothing. Left, it pairs with the next formula's
# ``$$`` and turns the prose between into math.
EMPTY_DISPLAY = re.compile(
    r"(?m)(?:\A|(?<=\n\n))[ \t>]*\$\$[ \t]*\n[ \t>]*\$\$[ \t]*(?=\n[ \t>]*\n|\n?\Z)"
)


def empty_displays(text: Text) -> None:
    """Drop empty display formulas before ``$$`` lines are paired."""
    text.sub(EMPTY_DISPLAY, lambda m, _l: "")


SINGLE = re.compile(r"(?<![\\$])\$(?!\$)")


def singles_as_text(text: Text, notes: PostNotes) -> None:
    """Escape every lone ``$``: the old site's MathJax or KaTeX configuration listed
    inline openers without it (``scripts.inline_openers``), so the page showed each as a
    dollar sign, and kramdown's ``$$`` was its only dollar math. Code is masked by now."""
    found = [m.start() for m in SINGLE.finditer(text.text)]
    if found:
        why = "dollar sign(s) kept as text: the old site's math configuration reads no $...$"
        notes.add(text.line(found[0]), f"{len(found)} {why}")
    text.splice([(at, at + 1, "\\$") for at in found])


_SINGLE = re.compile(r"(?<![\\$])\$(?!\$)")
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")


def sub_openings(
    text: Text, pattern: re.Pattern[str], replace: Callable[[re.Match[str]], str]
) -> None:
    """``text.sub`` for a pattern whose match starts at a formula's opening ``$``: a match
    whose ``$`` closes a formula opened before it in its paragraph (an odd count of ``$``
    before it, as MathJax pairs them from the left) is passed over, and the search goes on
    from the next character. ``$ p_i $: label,  $ q $``: the ``$`` after ``p_i`` opened
    ``$: label,  $`` here, and the spaces between the formulas were lost."""
    edits: list[tuple[int, int, str]] = []
    body, at = text.text, 0
    while (match := pattern.search(body, at)) is not None:
        start = max((m.end() for m in _PARAGRAPH_BREAK.finditer(body, 0, match.start())), default=0)
        if len(_SINGLE.findall(body, start, match.start())) % 2:
            at = match.start() + 1
            continue
        edits.append((match.start(), match.end(), replace(match)))
        at = max(match.end(), match.start() + 1)
    text.splice(edits)


# MathJax's ``$ (x', y') $``, ``| $ x $ |``: spaces inside both ``$``, none of the marks
# (``\\``, ``^``, ``_``, ``{``) that tell a formula from prices, which ``markup`` waits for.
# A formula still: short, on one line, not opening with a digit (``$ 5 and $``), and
# with no word of prose in it (:func:`prose`).
SPACED_PLAIN = re.compile(
    r"(?<![\\$\w])\$[ \t]+([^\s$\d\x00\x0b][^$\n\x00\x0b]{0,58}?)[ \t]+\$(?![\w$])"
)
_WORD = re.compile(r"(?<![\\A-Za-z])[A-Za-z]{3,}")


def spaced_plain(text: Text, formula: Callable[[re.Match[str]], str]) -> None:
    """Each :data:`SPACED_PLAIN` formula as ``formula`` writes it; one with prose stays."""
    sub_openings(text, SPACED_PLAIN, lambda m: m.group(0) if prose(m.group(1)) else formula(m))


def prose(body: str) -> bool:
    """Whether the text between two ``$`` holds a word (``$ each and $``): a price's text."""
    return _WORD.search(body) is not None


# ``101$\\times$11``: a ``$`` before a digit closes no formula here (nor in Pandoc).
DIGITS_BESIDE = re.compile(r"(?<![\w\\$.,])(\d*)\$(?![\s$])([^$\n\x0b]*?[^\s\\$])\$(\d*)(?![\d$])")


def digits_inside(match: re.Match[str], text: str) -> str:
    """``101$\\times$11`` as one formula; not when the first ``$`` closes a formula
    (``$17\\times 28$`` then more text and a ``$``: an odd count of ``$`` before it)."""
    if not (match.group(1) or match.group(3)):
        return match.group(0)
    at = match.start(2) - 1
    before = text[text.rfind("\n\n", 0, at) + 1 : at]
    if len(re.findall(r"(?<!\\)\$", before)) % 2:
        return match.group(0)
    return "$" + " ".join(g for g in match.group(1, 2, 3) if g) + "$"
