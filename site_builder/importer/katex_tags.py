"""jekyll-katex's Liquid tags: the math they delimit, in this site's delimiters.

- ``{% katex %}a^2{% endkatex %}`` is inline math, ``{% katex display %}...`` display math;
- ``{% katexmm %}...{% endkatexmm %}`` lets ``$...$`` and ``$$...$$`` be math inside it,
  which they are everywhere here: the tags go.
"""

from __future__ import annotations

import re
from re import Match

from site_builder.importer.text import Text

KATEX = re.compile(r"(?s)\{%-?\s*katex\b([^%]*?)-?%\}(.*?)\{%-?\s*endkatex\s*-?%\}")
KATEXMM = re.compile(r"\{%-?\s*(?:end)?katexmm\s*-?%\}")


def convert(text: Text) -> None:
    """Every jekyll-katex tag, once code is masked (before the ``$`` rules read the math)."""
    text.sub(KATEX, _katex)
    text.sub(KATEXMM, lambda m, _l: "")


def _katex(match: Match[str], _line: int) -> str:
    body = match.group(2).strip()
    if "display" in match.group(1).split():
        return f"\n\n$$\n{body}\n$$\n\n"
    return "$" + " ".join(body.split()) + "$"
