"""The ``macros`` object of a MathJax or KaTeX configuration, read from the page's script.

MathJax 2 (``TeX: {Macros: {...}}``), MathJax 3 (``tex: {macros: {...}}``) and KaTeX
(``renderMathInElement(..., {macros: {...}})``) take one JavaScript object literal:
each key a name (``R``, ``"\\\\R"``), each value a string or ``[body, nargs]`` (MathJax;
a third item is a default for the first argument). The values are JavaScript strings,
so ``"\\\\mathbb{R}"`` is ``\\mathbb{R}``; this reads them as the browser did, and says
which entries it could not (a variable, a function call, a string escape such as
``"\\frac"`` that JavaScript turned into a form feed).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# ``macros: {``, or a module's own object (``export const katexMacros: Record<...> = {``),
# or a global one a configuration names later (``MathJax_macros = {``).
START = re.compile(
    r"""(?<![\w$])(["']?)(?:Macros|macros)\1\s*:\s*\{"""
    r"""|(?:\b(?:const|let|var)\s+|(?m:^)[ \t]*(?:window\.)?)[\w$]*[Mm]acros[\w$]*"""
    r"""\s*(?::[^={};]*)?=\s*\{"""
)
KEY = re.compile(r"""\s*(?:"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|([A-Za-z_$][\w$]*))\s*:""")
STRING = re.compile(r""""((?:[^"\\\n]|\\.|\\\n)*)"|'((?:[^'\\\n]|\\.|\\\n)*)'|`([^`]*)`""")
NUMBER = re.compile(r"\s*(\d+)\s*")
COMMENT = re.compile(r"\s*(?://[^\n]*|/\*.*?\*/)", re.S)
ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}
ESCAPE = re.compile(r"\\(u\{[0-9A-Fa-f]+\}|u[0-9A-Fa-f]{4}|x[0-9A-Fa-f]{2}|\n|.)", re.S)


@dataclass(frozen=True)
class Entry:
    """One macro as the configuration gave it; ``problem`` says why it cannot be used."""

    name: str
    body: str
    nargs: int
    offset: int  # where its key is, in the text searched
    problem: str = ""
    default: str | None = None  # MathJax's ``[body, nargs, default]``: #1 is optional


def find(text: str) -> list[Entry]:
    """Every entry of every ``macros: {...}`` object in ``text``, in order."""
    entries: list[Entry] = []
    for match in START.finditer(text):
        entries.extend(_object(text, match.end()))
    return entries


def decode(raw: str) -> tuple[str, str]:
    """A JavaScript string literal's content as the browser read it, and what went wrong."""
    lost: list[str] = []

    def one(match: re.Match[str]) -> str:
        code = match.group(1)
        if code.startswith("u{"):
            return chr(int(code[2:-1], 16))
        if code[0] in "ux" and len(code) > 1:
            return chr(int(code[1:], 16))
        if code == "\n":
            return ""  # a line continuation
        if code in ESCAPES:
            lost.append("\\" + code)
            return ESCAPES[code]
        if code.isalpha():
            lost.append("\\" + code)
        return code

    value = ESCAPE.sub(one, raw)
    if lost:
        shown = ", ".join(dict.fromkeys(lost))
        return value, f"JavaScript read {shown} as an escape, not a backslash (write \\\\)"
    return value, ""


def _object(text: str, pos: int) -> list[Entry]:
    entries: list[Entry] = []
    while True:
        pos = _skip(text, pos)
        if pos >= len(text) or text[pos] == "}":
            return entries
        key = KEY.match(text, pos)
        if key is None:
            return entries  # not an object literal we can read (a spread, a computed key)
        name = key.group(3) or decode(key.group(1) or key.group(2) or "")[0]
        start = key.start() + len(key.group(0)) - len(key.group(0).lstrip())
        pos = _skip(text, key.end())
        entry, pos = _value(text, pos, name.removeprefix("\\"), start)
        entries.append(entry)
        pos = _skip(text, pos)
        if text.startswith(",", pos):
            pos += 1


def _value(text: str, pos: int, name: str, start: int) -> tuple[Entry, int]:
    string = STRING.match(text, pos)
    if string:
        body, problem = _string(string)
        return Entry(name, body, 0, start, problem), string.end()
    if text.startswith("[", pos):
        items: list[str] = []
        nargs, problem, pos = 0, "", pos + 1
        while pos < len(text):
            pos = _skip(text, pos)
            string, number = STRING.match(text, pos), NUMBER.match(text, pos)
            if string:
                body, why = _string(string)
                items.append(body)
                problem, pos = problem or why, string.end()
            elif number and items:
                nargs, pos = int(number.group(1)), number.end()
            elif text.startswith("]", pos):
                pos += 1
                break
            else:
                return Entry(name, "", 0, start, "its value is not a string"), _past(text, pos)
            pos = _skip(text, pos)
            if text.startswith(",", pos):
                pos += 1
        if not items:
            return Entry(name, "", 0, start, "its value is not a string"), pos
        default = items[1] if len(items) > 1 else None
        return Entry(name, items[0], nargs, start, problem, default), pos
    return Entry(name, "", 0, start, "its value is not a string"), _past(text, pos)


def _string(match: re.Match[str]) -> tuple[str, str]:
    if match.group(3) is not None:  # a template literal: ${...} would be code
        if "${" in match.group(3):
            return "", "its value is a template with ${...} in it"
        return decode(match.group(3))
    return decode(match.group(1) if match.group(1) is not None else match.group(2))


def _skip(text: str, pos: int) -> int:
    while True:
        comment = COMMENT.match(text, pos)
        if comment is None:
            return len(text) - len(text[pos:].lstrip()) if pos < len(text) else pos
        pos = comment.end()


def _past(text: str, pos: int) -> int:
    """Past a value we cannot read: to the ``,`` or ``}`` that ends it, at its depth."""
    depth = 0
    while pos < len(text):
        char = text[pos]
        if char in "([{":
            depth += 1
        elif char in ")]}":
            if depth == 0:
                return pos
            depth -= 1
        elif char == "," and depth == 0:
            return pos
        elif char in "\"'`":
            string = STRING.match(text, pos)
            pos = string.end() - 1 if string else pos
        pos += 1
    return pos
