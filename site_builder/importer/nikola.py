"""Nikola's metadata: ``.. key: value`` lines opening a post (in a reST comment, or in an
HTML comment ``<!-- ... -->`` atop a Markdown post), or a ``<name>.meta`` file beside it.
Read for reST posts (``rst``) and Markdown ones (``frontmatter.split``)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

NIKOLA_LINE = re.compile(r"^\.\.\s+([A-Za-z][\w-]*):[ \t]*(.*?)\s*$")
NIKOLA_ZONE = re.compile(r"\s*\bUTC([+-]\d{1,2}:?\d{2})?\s*$")
NIKOLA_KEYS = {"category": "categories", "updated": "lastmod"}


def header(lines: list[str]) -> dict[str, Any]:
    """Nikola's ``.. title: X`` lines opening the post (before any other text)."""
    meta: dict[str, Any] = {}
    for line in lines:
        found = NIKOLA_LINE.match(line)
        if found is None:
            if line.strip():
                break
            continue
        key, value = found.group(1).lower(), found.group(2)
        if value:
            meta[NIKOLA_KEYS.get(key, key)] = value
    return _meta(meta) if "title" in meta or "slug" in meta else {}


def meta_file(path: Path) -> dict[str, Any]:
    """Nikola's ``post.meta`` beside ``post.rst``: ``.. key: value`` lines, or its first
    form, the title, the slug and the date one a line."""
    meta_path = path.with_suffix(".meta")
    try:
        lines = meta_path.read_text(encoding="utf-8").split("\n")
    except (OSError, UnicodeDecodeError):
        return {}
    found = header(lines)
    if found:
        return found
    keys = ("title", "slug", "date", "tags", "link", "description")
    return _meta({k: v.strip() for k, v in zip(keys, lines, strict=False) if v.strip()})


def _meta(meta: dict[str, Any]) -> dict[str, Any]:
    """A ``draft`` tag (Nikola's older way) or ``status: draft`` as a draft; Nikola's
    ``2015-03-16 00:49:00 UTC+11:00`` as the offset it means."""
    if isinstance(meta.get("date"), str):
        meta["date"] = NIKOLA_ZONE.sub(lambda m: " " + (m.group(1) or "Z"), meta["date"])
    tags = [t.strip() for t in str(meta.get("tags", "")).split(",") if t.strip()]
    if "draft" in tags or str(meta.get("status", "")).lower() == "draft":
        meta["draft"] = True
    if tags:
        meta["tags"] = [t for t in tags if t != "draft"]
    return meta
