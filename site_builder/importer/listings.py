"""Front matter a site keeps beside its posts, in one listing file.

Hugging Face's blog dates its posts in ``_blog.yml`` (``- local: intro-rl`` with
``date: May 4, 2022``, ``tags`` and ``title``), not in the posts: without it every
post would be undated. What a post's own front matter says wins.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

LISTING_KEYS = ("title", "date", "tags", "author")


def read(source: Path) -> dict[str, dict[str, Any]]:
    """Per file stem, the keys the site's listing gives it (none when it has no listing)."""
    listing = source / "_blog.yml"
    if not listing.is_file():
        return {}
    try:
        entries = yaml.safe_load(listing.read_text(encoding="utf-8"))
    except (yaml.YAMLError, UnicodeDecodeError):
        return {}
    found: dict[str, dict[str, Any]] = {}
    for entry in entries if isinstance(entries, list) else []:
        if isinstance(entry, dict) and isinstance(entry.get("local"), str):
            found[entry["local"]] = {k: entry[k] for k in LISTING_KEYS if k in entry}
    return found
