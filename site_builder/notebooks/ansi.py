"""Terminal text as HTML: ANSI colours become styled spans, carriage returns overwrite.

A traceback from IPython and a progress bar from tqdm are written for a
terminal. Escape codes would be control characters in the page (and XML forbids
them in the feed), so SGR codes (``ESC[...m``) become ``<span class="ansi-red">``
with the 8 + 8 named colours as classes, styled by the theme in light and dark;
256-colour and true-colour codes map to the nearest of those, so the palette
stays the theme's. Every other escape sequence is dropped. ``\\r`` and
``\\b`` are applied as a terminal would (a progress bar shows its last state),
as Jupyter's own output area does.
"""

from __future__ import annotations

import re
from html import escape

_ESCAPE = re.compile(r"\x1b\[([0-9;]*)([A-Za-z])|\x1b[\]P^_].*?(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")
_NAMES = ("black", "red", "green", "yellow", "blue", "magenta", "cyan", "white")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def terminal_text(text: str) -> str:
    """``\\r`` and ``\\b`` applied line by line, as the terminal showed the text."""
    if "\r" not in text and "\b" not in text:
        return text
    text = text.replace("\r\n", "\n")
    lines = []
    for line in text.split("\n"):
        if "\r" in line:
            parts = [part for part in line.split("\r")]
            shown = ""
            for part in parts:  # each part overwrites the start of what was there
                shown = part + shown[len(part) :]
            line = shown
        while "\b" in line:
            at = line.index("\b")
            line = line[: max(at - 1, 0)] + line[at + 1 :]
        lines.append(line)
    return "\n".join(lines)


def ansi_to_html(text: str) -> str:
    """Escaped HTML for ``text``, colours as ``ansi-*`` spans, no control characters left."""
    text = terminal_text(text)
    out: list[str] = []
    state: dict[str, str] = {}
    pos = 0
    for match in _ESCAPE.finditer(text):
        out.append(_chunk(text[pos : match.start()], state))
        pos = match.end()
        if match.group(2) == "m":
            _sgr(match.group(1), state)
    out.append(_chunk(text[pos:], state))
    return "".join(out)


def _chunk(text: str, state: dict[str, str]) -> str:
    if not text:
        return ""
    body = escape(_CONTROL.sub("", text), quote=False)
    classes = [state[key] for key in ("fg", "bg", "bold", "italic", "underline") if key in state]
    return f'<span class="{" ".join(classes)}">{body}</span>' if classes else body


def _sgr(params: str, state: dict[str, str]) -> None:
    codes = [int(code) if code else 0 for code in params.split(";")] if params else [0]
    index = 0
    while index < len(codes):
        code = codes[index]
        index += 1
        if code == 0:
            state.clear()
        elif code == 1:
            state["bold"] = "ansi-bold"
        elif code == 3:
            state["italic"] = "ansi-italic"
        elif code == 4:
            state["underline"] = "ansi-underline"
        elif code in (22, 23, 24):
            state.pop({22: "bold", 23: "italic", 24: "underline"}[code], None)
        elif 30 <= code <= 37 or 90 <= code <= 97:
            state["fg"] = _name(code % 10, code >= 90)
        elif 40 <= code <= 47 or 100 <= code <= 107:
            state["bg"] = _name(code % 10, code >= 100) + "-bg"
        elif code == 39:
            state.pop("fg", None)
        elif code == 49:
            state.pop("bg", None)
        elif code in (38, 48) and index < len(codes):
            colour, index = _extended(codes, index)
            if colour is not None:
                state["fg" if code == 38 else "bg"] = colour + ("-bg" if code == 48 else "")


def _name(index: int, bright: bool) -> str:
    return f"ansi-{'bright-' if bright else ''}{_NAMES[index]}"


def _extended(codes: list[int], index: int) -> tuple[str | None, int]:
    """``38;5;n`` (256 colours) or ``38;2;r;g;b``, as the nearest of the 16 named ones."""
    kind = codes[index]
    if kind == 5 and index + 1 < len(codes):
        n = codes[index + 1]
        if n < 16:
            return _name(n % 8, n >= 8), index + 2
        if n >= 232:  # greys
            level = (n - 232) * 10 + 8
            return _nearest(level, level, level), index + 2
        n -= 16
        r, g, b = (0 if c == 0 else 55 + 40 * c for c in (n // 36, n // 6 % 6, n % 6))
        return _nearest(r, g, b), index + 2
    if kind == 2 and index + 3 < len(codes):
        return _nearest(*codes[index + 1 : index + 4]), index + 4
    return None, index + 1


def _nearest(r: int, g: int, b: int) -> str:
    bits = (r > 127) | (g > 127) << 1 | (b > 127) << 2
    bright = max(r, g, b) > 200
    return _name(bits, bright)
