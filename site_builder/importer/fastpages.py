"""fastpages' Liquid in a notebook's Markdown cells: what its notebook converter expanded.

``{% fn 1 %}`` and ``{{ 'text' | fndetail: 1 }}`` are footnotes; ``> Note: ...`` and
``{% include tip.html content="..." %}`` boxes are callouts; ``> youtube: URL`` and
``> twitter: URL`` embeds are links, reported.
"""

from __future__ import annotations

import re
from re import Match

from site_builder.importer import jekyll
from site_builder.importer.assets import untemplate
from site_builder.importer.report import PostNotes
from site_builder.importer.text import Text

FOOTNOTE = re.compile(r"\{%-?\s*fn\s+(\w+)\s*-?%\}")
FOOTNOTE_TEXT = re.compile(
    r"""(?s)\{\{-?\s*(["'])(.*?)\1\s*\|\s*fndetail:\s*["']?(\w+)["']?\s*-?\}\}"""
)
BOX_KINDS = {"note": "note", "info": "note", "tip": "tip", "important": "important"}
BOX_KINDS |= {"warning": "warning", "alert": "warning"}
QUOTE_BOX = re.compile(r"(?im)^>[ \t]*(note|tip|important|warning):[ \t]*(.+)$")
INCLUDE_BOX = re.compile(
    r"""(?is)\{%-?\s*include\s+(note|info|tip|important|warning|alert)\.html\s+"""
    r"""(?:content|text)\s*=\s*(["'])(.*?)\2\s*-?%\}"""
)
EMBED = re.compile(r"(?im)^>[ \t]*(youtube|twitter):[ \t]*(\S+)[ \t]*$")


def convert(text: Text, notes: PostNotes) -> None:
    """fastpages' footnotes, boxes and embeds, which its notebook converter expanded."""
    text.sub(jekyll.LIQUID_PATH, lambda m, _l: untemplate(m.group(0)))
    text.sub(FOOTNOTE, lambda m, _l: f"[^{m.group(1)}]")
    text.sub(FOOTNOTE_TEXT, _footnote_text)
    text.sub(QUOTE_BOX, lambda m, _l: _box(m.group(1), m.group(2)))
    text.sub(INCLUDE_BOX, lambda m, _l: _box(m.group(1), m.group(3)))

    def embed(match: Match[str], line: int) -> str:
        notes.add(line, f"{match.group(1)} embed kept as a link")
        return f"<{match.group(2)}>"

    text.sub(EMBED, embed)


def _footnote_text(match: Match[str], _line: int) -> str:
    """fastpages' ``{{ 'text' | fndetail: 1 }}``: a footnote's text, on a line of its own."""
    start = "" if match.start() == 0 or match.string[match.start() - 1] == "\n" else "\n\n"
    return f"{start}[^{match.group(3)}]: {' '.join(match.group(2).split())}"


def _box(kind: str, body: str) -> str:
    return f"::: {{.callout-{BOX_KINDS[kind.lower()]}}}\n{body.strip()}\n:::"
