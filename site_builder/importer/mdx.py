"""MDX posts (Gatsby, Astro, Docusaurus, Next.js): Markdown with JavaScript in it.

What MDX adds to Markdown, and what it becomes here:

- ``import``/``export`` statements at the start of a line load components and data for
  the page: they are dropped, and reported once.
- ``{/* ... */}`` is a comment: dropped.
- A component (a tag whose name starts with a capital, ``<Figure ...>``, ``<Callout>``)
  has no meaning here: an image component with a literal ``src`` becomes a Markdown
  image, any other loses its tags and keeps what it wraps; each name is reported once.
- JSX spellings in HTML tags: ``className=`` is ``class=``; a ``style={{...}}`` object
  is dropped (the theme styles the page).

It runs after the format's converter, so code and math are hidden: a ``<T>`` in a code
block or ``{x}`` in a formula is never touched.
"""

from __future__ import annotations

import re
from re import Match

from site_builder.importer.report import PostNotes
from site_builder.importer.text import Text

# MDX reads a block that starts a line with ``import``/``export`` as JavaScript, up to the
# next blank line.
ESM = re.compile(
    r"(?m)^(?:import[ \t]+[\w{*'\"]|export[ \t]+(?:const|let|var|function|async|class|default)\b"
    r"|export[ \t]*[{*])[^\n]*(?:\n(?![ \t]*$)[^\n]*)*"
)
JSX_COMMENT = re.compile(r"(?s)\{/\*.*?\*/\}")
# An attribute's value: a string, or a {...} expression holding at most one level of {}.
_VALUE = r"(?:\"[^\"]*\"|'[^']*'|\{(?:[^{}]|\{[^{}]*\})*\})"
COMPONENT = re.compile(rf"<(/?)([A-Z][\w.]*)((?:[^<>{{}}\"']|{_VALUE})*?)(/?)>")
CLASS_NAME = re.compile(r"(<[a-z][\w-]*\b[^<>]*?\s)className=")
STYLE_OBJECT = re.compile(r"\s+style=\{\{(?:[^{}]|\{[^{}]*\})*\}\}")
_ATTRIBUTE = re.compile(r"""\b(src|alt|caption|title)\s*=\s*(?:"([^"]*)"|'([^']*)')""")


def convert(text: Text, notes: PostNotes) -> None:
    """Rewrite what only MDX reads, each kind reported at its first line."""
    first: dict[str, int] = {}

    def esm(match: Match[str], line: int) -> str:
        first.setdefault("statements", line)
        return ""

    text.sub(ESM, esm)
    if "statements" in first:
        notes.add(first["statements"], "MDX import/export statements dropped")
    text.sub(JSX_COMMENT, lambda m, _l: "")
    named: dict[str, int] = {}

    def component(match: Match[str], line: int) -> str:
        closing, name, attrs, alone = match.groups()
        found = {m.group(1): m.group(2) or m.group(3) or "" for m in _ATTRIBUTE.finditer(attrs)}
        if not closing and alone and found.get("src"):
            words = found.get("alt") or found.get("caption") or found.get("title") or ""
            return f"![{words}]({found['src']})"
        named.setdefault(name, line)
        return ""

    text.sub(COMPONENT, component)
    for name, line in named.items():
        notes.add(line, f"MDX component <{name}> not converted: its tags dropped, its text kept")
    text.sub(STYLE_OBJECT, lambda m, _l: "")
    text.sub(CLASS_NAME, lambda m, _l: m.group(1) + "class=")
