"""Slugs from text: heading ids, tag URLs and new post file names share one rule."""

from __future__ import annotations

import re
import unicodedata


def slugify(text: str) -> str:
    """Lowercase words joined by ``-``; accents folded, so ``Café`` gives ``cafe``."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    text = re.sub(r"[^\w\s-]", "", text.lower())
    return re.sub(r"[\s_-]+", "-", text).strip("-") or "section"
