"""LaTeX's text-formatting commands in prose, outside any formula: Markdown's emphasis.

Course notes written in LaTeX first keep a ``\\textbf{known}`` in a list item when
they move to Markdown. No formula holds it, so the old page showed the command as
text, which is surely not what the author meant: the bold, italic or monospace it
asks for is what Markdown has, and each one is reported at its line.
"""

from __future__ import annotations

import re
from re import Match

from site_builder.importer.report import PostNotes
from site_builder.importer.text import Text

# Only a plain argument: one with braces or commands of its own is left to the report.
TEXT_COMMAND = re.compile(
    r"(?<![\\\w])\\(textbf|textit|emph|textsl|texttt|underline)\{([^{}\\\n$]+)\}"
)
MARKDOWN = {
    "textbf": ("**", "**"),
    "textit": ("*", "*"),
    "emph": ("*", "*"),
    "textsl": ("*", "*"),
    "texttt": ("`", "`"),
    "underline": ("<u>", "</u>"),
}


def text_commands(text: Text, notes: PostNotes) -> None:
    """``\\textbf{x}`` as ``**x**`` (and the like), run once formulas and code are masked."""

    def markdown(match: Match[str], line: int) -> str:
        command, body = match.group(1), match.group(2).strip()
        if not body or (command == "texttt" and "`" in body):
            return match.group(0)
        notes.add(line, f"LaTeX \\{command}{{...}} outside math: set as Markdown here")
        before, after = MARKDOWN[command]
        return f"{before}{body}{after}"

    text.sub(TEXT_COMMAND, markdown)
