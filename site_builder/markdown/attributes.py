"""Pandoc attribute blocks, ``{#id .class key="value"}``, as the ``:::`` extensions read them.

Figures, callouts and theorems all open with one; reading it in one place keeps
their quoting rules (double, single or no quotes) the same.
"""

from __future__ import annotations

import re

# A quoted value may escape its quote as Pandoc reads it: ``title="The \\"FM\\" case"``.
_ATTR = re.compile(
    r"""\s*(?:#([\w-]+)|\.([\w-]+)|([\w-]+)=(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|([^\s"'}]+)))"""
)
_ESCAPED = re.compile(r"\\([!-/:-@[-`{-~])")  # a backslash before ASCII punctuation

Attributes = tuple[str | None, list[str], dict[str, str]]


def parse_attributes(params: str) -> Attributes | None:
    """``{#id .class key="value"}`` as (id, classes, attributes); None if it does not parse."""
    text = params.strip()
    if not (text.startswith("{") and text.endswith("}")):
        return None
    text = text[1:-1].strip()
    ident: str | None = None
    classes: list[str] = []
    attrs: dict[str, str] = {}
    pos = 0
    while pos < len(text):
        match = _ATTR.match(text, pos)
        if not match or match.end() == pos:
            return None
        pos = match.end()
        hash_id, cls, key = match.group(1), match.group(2), match.group(3)
        if hash_id:
            ident = hash_id
        elif cls:
            classes.append(cls)
        elif key:
            quoted = match.group(4) if match.group(4) is not None else match.group(5)
            attrs[key] = _ESCAPED.sub(r"\1", quoted) if quoted is not None else match.group(6)
        pos += len(text[pos:]) - len(text[pos:].lstrip())
    return ident, classes, attrs


def braced_match(params: str, pattern: re.Pattern[str]) -> bool:
    """A ``:::`` container's validator: ``{...}`` whose inside ``pattern`` finds (an id or
    class that says which extension owns the block)."""
    text = params.strip()
    return text.startswith("{") and text.endswith("}") and bool(pattern.search(text[1:-1]))
