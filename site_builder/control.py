"""Characters a page or the feed cannot hold, wherever the site's text comes from.

C0 controls but tab and newline, DEL, and the noncharacters U+FFFE and U+FFFF: XML 1.0
forbids them (feed.xml would not parse) and HTML calls them parse errors. A form feed
pasted from a PDF is the usual one in a post; in YAML, a double-quoted escape (``"\\a"``,
``"\\e"``, ``"\\uffff"``) makes one that the file's own bytes do not show.
"""

from __future__ import annotations

import re

CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffe\uffff]")

_NAMES = {"\x00": "NUL", "\x07": "bell", "\x08": "backspace", "\x0b": "vertical tab",
          "\x0c": "form feed", "\x1b": "escape", "\x7f": "delete",
          "\ufffe": "a noncharacter", "\uffff": "a noncharacter"}  # fmt: skip


def control_message(char: str, escape: str = "") -> str:
    """What to tell the author about ``char``, one of :data:`CONTROL`'s; ``escape``: the
    YAML escape that wrote it (the only way into YAML, which refuses the raw byte)."""
    name = _NAMES.get(char, "a control character")
    written = f', the escape "{escape}",' if escape else ""
    return f"U+{ord(char):04X} ({name}){written} cannot appear in a page or the feed: delete it"
