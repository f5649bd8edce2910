"""A source file's text, as every kind's reader returns it: Markdown with front matter, plus
what a converted source (a notebook) carries besides.

Also the checks every text a page shows goes through (UTF-8, newlines, control
characters), shared by the posts, their bibliographies and the importer.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from site_builder.errors import BuildError, BuildErrors, BuildWarning

# The keys a post's front matter may hold (``frontmatter`` checks them; a notebook's own
# metadata gives only these, ``notebooks.frontmatter``).
FRONT_MATTER_KEYS = {
    "title",
    "date",
    "author",
    "description",
    "tags",
    "draft",
    "slug",
    "updated",
    "bibliography",
    "pdf",
    "math",
    "toc",
    "toc-depth",
}


@dataclass(frozen=True)
class SourceText:
    """A source as the Markdown stage reads it. A ``.md`` file is its own text; a notebook is
    converted (``notebooks``) and brings the HTML of its outputs and its images."""

    text: str  # ``---`` YAML ``---`` then the Markdown body
    # HTML that the body's ```{=prerendered} fences stand for (``markdown.prerendered``).
    blocks: Mapping[str, str] = field(default_factory=dict)
    files: tuple[tuple[str, bytes], ...] = ()  # written beside the page (a notebook's images)
    # Everything that shapes the render besides ``text`` (outputs, images), hashed; "" when
    # the text is all (the body's hash is then the render's).
    fingerprint: str = ""
    # Moves a problem found at a line of ``text`` to where its author wrote it (a cell).
    relocate: Callable[[BuildError], BuildError] | None = None
    relocate_warning: Callable[[BuildWarning], BuildWarning] | None = None

    @contextlib.contextmanager
    def where_written(self) -> Iterator[None]:
        """Problems raised inside (parsing its front matter, rendering its body) are moved to
        where their author wrote them."""
        try:
            yield
        except BuildErrors as exc:
            if self.relocate is None:
                raise
            raise BuildErrors([self.relocate(e) for e in exc.errors], exc.warnings) from None
        except BuildError as exc:
            raise (self.relocate(exc) if self.relocate else exc) from None

    def warnings_where_written(self, warnings: Iterable[BuildWarning]) -> list[BuildWarning]:
        move = self.relocate_warning
        return [move(w) for w in warnings] if move is not None else list(warnings)


def read_source(file: Path, rel: Path) -> SourceText:
    """A Markdown file's text: UTF-8, newlines normalised, no control characters."""
    try:
        raw = file.read_bytes()
    except OSError as exc:  # unreadable (permissions), or gone since it was found
        raise BuildError(rel, None, f"cannot read: {exc.strerror}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise BuildError(rel, line, "file is not valid UTF-8") from None
    text = normalise_newlines(text)
    check_control_characters(text, rel)
    return SourceText(text)


# C0 controls but tab and newline, DEL, and the noncharacters U+FFFE and U+FFFF: XML 1.0
# forbids them (feed.xml would not parse) and HTML calls them parse errors. A form feed
# pasted from a PDF is the usual one in a post; in YAML, a double-quoted escape (``"\a"``,
# ``"\e"``, ``"\uffff"``) makes one that the file's own bytes do not show (``yamlload``).
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffe\uffff]")


def check_control_characters(text: str, rel: Path | str) -> None:
    """Stop at the first control character, naming it: it cannot appear in the site."""
    match = CONTROL.search(text)
    if match is None:
        return
    line = text.count("\n", 0, match.start()) + 1
    column = match.start() - (text.rfind("\n", 0, match.start()) + 1) + 1
    raise BuildError(rel, line, control_message(match.group()), column)


def control_message(char: str, escape: str = "") -> str:
    """What to tell the author about ``char``, one of :data:`CONTROL`'s; ``escape``: the
    YAML escape that wrote it (the only way into YAML, which refuses the raw byte)."""
    name = _CONTROL_NAMES.get(char, "a control character")
    written = f', the escape "{escape}",' if escape else ""
    return f"U+{ord(char):04X} ({name}){written} cannot appear in a page or the feed: delete it"


_CONTROL_NAMES = {"\x00": "NUL", "\x07": "bell", "\x08": "backspace", "\x0b": "vertical tab",
                  "\x0c": "form feed", "\x1b": "escape", "\x7f": "delete",
                  "\ufffe": "a noncharacter", "\uffff": "a noncharacter"}  # fmt: skip


def normalise_newlines(text: str) -> str:
    r"""``\r\n`` (Windows) and a lone ``\r`` (classic Mac OS) as ``\n``, as CommonMark reads them.

    Front matter is found by lines: a file with only ``\r`` was one long line, reported
    as "missing front matter" although it had some.
    """
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def author_line(value: list[Any]) -> str:
    """An author list as one line, ``A``, ``A and B`` or ``A, B and C``: Quarto's and
    Distill's ``{name: A}`` (a name may be ``{given, family}``), Hugging Face's ``{user: A}``
    and plain strings. Importers and notebooks bring such lists to the one ``author:``."""
    names = []
    for item in value:
        name = (item.get("name") or item.get("user")) if isinstance(item, dict) else item
        if isinstance(name, dict):
            name = " ".join(str(name.get(k, "")) for k in ("given", "family")).strip()
        if isinstance(name, str) and name.strip():
            names.append(name.strip())
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]
