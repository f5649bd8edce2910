"""A Jekyll post written in HTML (``_posts/2015-06-11-softmax.html``), as Markdown.

Jekyll publishes an ``.html`` post with front matter as it is, Liquid aside; MathJax then
typeset the ``$$...$$`` and ``\\(...\\)`` in its text. Notebook exports (nbconvert's
HTML) and hand-written posts are kept so. Here posts are Markdown: markdownify (on
BeautifulSoup) writes the HTML as Markdown (headings, emphasis, links, lists, tables,
code blocks with their language), and the formulas are hidden from it first, so that no
``_`` or ``*`` in them is escaped. What only an HTML page had goes: nbconvert's
``In [1]:`` prompts and its headings' ``¶`` anchors.

The post's lines are then those of the Markdown written, not of the HTML: a note names
the first line of the body.
"""

from __future__ import annotations

import html
import re

# Formulas, as MathJax found them in the page's text: hidden from markdownify.
FORMULA = re.compile(
    r"(?s)\$\$.+?\$\$|\\\[.+?\\\]|\\\(.+?\\\)|(?<![\\$])\$(?=\S)[^$\n]+?(?<=\S)\$"
    r"|\\begin\{([a-zA-Z*]+)\}.*?\\end\{\1\}"
)
# A page's scripts and styles (a plot library's loader), nbconvert's prompts (``In [1]:``)
# and its headings' anchors.
NOTEBOOK_CHROME = re.compile(
    r"(?is)<(script|style)\b.*?</\1\s*>|<div\s+class=\"prompt[^\"]*\">.*?</div>"
    r"|<a\s+class=\"anchor-link\"[^>]*>.*?</a>"
)
LANGUAGE = re.compile(r"(?:language|lang|highlight(?:-source)?|hl)-([\w+#-]+)")


def to_markdown(body: str) -> str:
    """The HTML body as Markdown, its formulas untouched."""
    from markdownify import markdownify

    formulas: list[str] = []

    def hide(match: re.Match[str]) -> str:
        formulas.append(match.group(0))
        return f"MATHPLACEHOLDER{len(formulas) - 1}X"

    body = NOTEBOOK_CHROME.sub("", body)
    body = FORMULA.sub(hide, body)
    markdown = markdownify(
        body,
        heading_style="ATX",
        bullets="-",
        escape_underscores=False,
        escape_asterisks=False,
        escape_misc=False,
        code_language_callback=_language,
    )
    markdown = re.sub(r"\n{3,}", "\n\n", markdown).strip() + "\n"
    # ``<a>link</a>\n.``: the line break the HTML had before punctuation is no space.
    parts = re.split(r"(?ms)(^```.*?^```)", markdown)
    markdown = "".join(
        part if part.startswith("```") else re.sub(r"[ \t]*\n[ \t]*(?=[.,;:!?)])", "", part)
        for part in parts
    )
    return re.sub(
        r"MATHPLACEHOLDER(\d+)X", lambda m: _unescaped(formulas[int(m.group(1))]), markdown
    )


def _unescaped(formula: str) -> str:
    """A formula as MathJax read it, the page's character references decoded; a display
    one (``$$``, ``\\[``, an environment) on lines of its own, as MathJax set it."""
    formula = html.unescape(formula)
    if formula.startswith(("$$", "\\[", "\\begin")):
        return f"\n\n{formula}\n\n"
    return formula


def _language(element: object) -> str | None:
    """A code block's language, from its class or its parent's (``highlight-python``)."""
    for node in (element, getattr(element, "parent", None)):
        classes = " ".join(getattr(node, "get", lambda *_: [])("class") or [])
        match = LANGUAGE.search(classes)
        if match:  # nbconvert's ``hl-ipython3``: Python
            return re.sub(r"^ipython\d*$", "python", match.group(1))
    return None
