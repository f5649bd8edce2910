"""The build's reference time: which posts are due, and what "today" is for ``new``.

Only the *selection* of posts depends on it, never the bytes of a page, so two
builds of the same input stay identical. ``SOURCE_DATE_EPOCH`` (the
reproducible-builds convention) pins it, e.g. to rebuild an old release exactly.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from datetime import UTC, datetime

from site_builder.content import SourcePost
from site_builder.errors import BuildError


def reference_time() -> datetime:
    """Now, or ``SOURCE_DATE_EPOCH`` when set; always timezone-aware (UTC)."""
    pinned = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if not pinned:
        return datetime.now(UTC)
    try:
        return datetime.fromtimestamp(int(pinned), UTC)
    except (ValueError, OverflowError, OSError):
        raise BuildError(
            "SOURCE_DATE_EPOCH", None, f"must be seconds since 1970 as an integer, got {pinned!r}"
        ) from None


def due_posts(
    posts: Iterable[SourcePost], now: datetime, *, include_future: bool
) -> tuple[SourcePost, ...]:
    """Leave out posts dated after ``now``: scheduling a post is writing it with a future date."""
    return tuple(post for post in posts if include_future or post.date <= now)
