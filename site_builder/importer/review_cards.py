"""Review cards written as custom elements, which only a script on the old page drew.

Orbit's (Andy Matuschak's mnemonic medium) ``<orbit-prompt question="..." answer="...">``
keeps both sides in attributes: left to the leftovers, only its empty tags went, and the
question and answer with them. Here each is a ``<details>`` to open, the question its
summary (the formulas in both render: ``html.open_math_html`` reads the summary, the
answer is Markdown).
"""

from __future__ import annotations

import html
import re

from site_builder.importer.text import Text

# Orbit's review prompts (the mnemonic medium): ``<orbit-prompt question="..." answer="...">``.
PROMPT = re.compile(r"(?is)<([a-z]+-prompt)\b([^>]*)>\s*</\1\s*>")
_QA = re.compile(r"""(?is)\b(question|answer)\s*=\s*(?:"([^"]*)"|'([^']*)')""")


def convert(text: Text) -> None:
    """A review prompt whose question and answer are attributes (Orbit's): the reader saw
    a card to flip, here a ``<details>`` whose summary is the question. Left to the
    leftovers, only its empty tags went, and both were lost."""

    def prompt(match: re.Match[str], _line: int) -> str:
        found = {m.group(1).lower(): m.group(2) or m.group(3) or "" for m in _QA.finditer(match[2])}
        if not found.get("question"):
            return match.group(0)
        question = " ".join(html.unescape(found["question"]).split())
        answer = html.unescape(found.get("answer", ""))
        return f"\n\n<details>\n<summary>{question}</summary>\n\n{answer}\n\n</details>\n\n"

    text.sub(PROMPT, prompt)
