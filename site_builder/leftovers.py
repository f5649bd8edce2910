"""Markup from another blog tool that reached a page as text: what ``check`` warns about.

A post pasted in from Jekyll, Hugo or Distill builds without an error and still
looks broken: ``{% include ... %}`` printed verbatim, ``<d-cite>`` rendering as
nothing, ``$`` signs beside a formula, ``\\begin{equation}`` as raw LaTeX. The
build cannot tell these from prose, but the page can: they are in its text,
outside code and math. Each is reported with the page and the line of the post
that wrote it, found by searching the source for the leftover.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

SKIP = frozenset({"code", "pre", "script", "style", "math", "svg", "textarea", "kbd", "samp"})
TEXT_PATTERNS = (
    (re.compile(r"\{%-?.*?-?%\}"), "Liquid tag"),
    (re.compile(r"\{\{<.*?>\}\}|\{\{%.*?%\}\}"), "Hugo shortcode"),
    (re.compile(r"\{\{[^{}]*\}\}"), "Liquid expression"),
    (re.compile(r"\\begin\{[\w*]+\}"), "raw LaTeX"),
    # ``$\\mathbf{x} \\in X$`` the Markdown did not take for math (inside raw HTML, say).
    (re.compile(r"\$[^\s$\d][^$\n]*?[\\^_{][^$\n]*?[^\s\\]\$"), "formula shown as text"),
    (re.compile(r"(?m)^[ \t]*:::+[ \t]*(?:\{[^}\n]*\}|[\w-]+)?[ \t]*$"), "Pandoc ::: fence"),
)
# Custom elements the site's own templates may use would be listed here.
KNOWN_CUSTOM: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Leftover:
    page: str  # site-relative output file
    page_line: int
    kind: str
    snippet: str


class _TextScanner(HTMLParser):
    """Text a reader sees (code and math excluded), and unknown custom elements."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.skip = 0
        self.found: list[tuple[int, str, str]] = []
        self.after_math = False
        self.last_text: tuple[int, str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        line = self.getpos()[0]
        if "-" in tag and tag not in KNOWN_CUSTOM and not self.skip:
            self.found.append((line, "unknown custom element", f"<{tag}>"))
        if tag == "math" and not self.skip and self.last_text is not None:
            text_line, text = self.last_text
            if text.rstrip(" ").endswith("$"):
                self.found.append((text_line, "a visible $ next to math", text.strip()[-40:]))
        if tag in SKIP:
            self.skip += 1
        self.last_text = None

    def handle_endtag(self, tag: str) -> None:
        if tag in SKIP and self.skip:
            self.skip -= 1
            self.after_math = tag == "math" and not self.skip
        else:
            self.after_math = False
        self.last_text = None

    def handle_data(self, data: str) -> None:
        if self.skip:
            return
        line = self.getpos()[0]
        if self.after_math and data.lstrip(" ").startswith("$"):
            self.found.append((line, "a visible $ next to math", data.strip()[:40]))
        self.after_math = False
        self.last_text = (line, data)
        for pattern, kind in TEXT_PATTERNS:
            for match in pattern.finditer(data):
                offset = line + data.count("\n", 0, match.start())
                self.found.append((offset, kind, match.group(0)))


def scan_page(html: str) -> list[tuple[int, str, str]]:
    """(page line, kind, snippet) for each leftover in a page's body."""
    start = html.find("<main")
    scanner = _TextScanner()
    scanner.feed("\n" * html.count("\n", 0, max(start, 0)) + html[max(start, 0) :])
    scanner.close()
    return scanner.found


def source_line(source: str, snippet: str) -> int | None:
    """The line of the source that wrote ``snippet`` (its first, most telling part)."""
    probe = snippet.strip()[:30]
    if probe.startswith("<") and probe.endswith(">"):
        probe = probe[:-1]
    for candidate in (probe, probe.strip("$ "), probe[:12]):
        if candidate and candidate in source:
            return source.count("\n", 0, source.index(candidate)) + 1
    return None


def find_leftovers(public: Path, root: Path, sources: dict[str, Path]) -> list[str]:
    """One warning per leftover: ``source:line: warning: ... (page:line)``.

    ``sources`` maps a page (``posts/x/index.html``) to the post file that made it,
    relative to the site's ``root``.
    """
    warnings: list[str] = []
    for page, source in sorted(sources.items()):
        output = public / page
        if not output.is_file():
            continue
        found = scan_page(output.read_text(encoding="utf-8", errors="replace"))
        if not found:
            continue
        file = root / source
        text = file.read_text(encoding="utf-8", errors="replace") if file.is_file() else ""
        for page_line, kind, snippet in found:
            line = source_line(text, snippet)
            where = f"{source}:{line}" if line else f"{source}"
            short = " ".join(snippet.split())[:60]
            warnings.append(f"{where}: warning: {kind} left over: {short} ({page}:{page_line})")
    return warnings
