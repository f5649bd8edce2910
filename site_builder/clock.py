"""The build's reference time: which posts are due, and what "today" is for ``new``.

Only the *selection* of posts depends on it, never the bytes of a page, so two
builds of the same input stay identical. ``SOURCE_DATE_EPOCH`` (the
reproducible-builds convention) pins it, e.g. to rebuild an old release exactly.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # a type only: the no-op check (``snapshot``) imports this module
    from site_builder.frontmatter import SourcePost


def reference_seconds() -> float | None:
    """Now, or ``SOURCE_DATE_EPOCH`` when set, in seconds; None when that is malformed."""
    pinned = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if not pinned:
        return time.time()
    try:
        return float(int(pinned))
    except (ValueError, OverflowError):
        return None


def reference_time() -> datetime:
    """:func:`reference_seconds` as an aware (UTC) datetime; malformed is a BuildError."""
    seconds = reference_seconds()
    if seconds is not None:
        try:
            return datetime.fromtimestamp(seconds, UTC)
        except (ValueError, OverflowError, OSError):
            pass
    from site_builder.errors import BuildError

    pinned = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    raise BuildError(
        "SOURCE_DATE_EPOCH", None, f"must be seconds since 1970 as an integer, got {pinned!r}"
    )


def due_posts(
    posts: Iterable[SourcePost], now: datetime, *, include_future: bool
) -> tuple[SourcePost, ...]:
    """Leave out posts dated after ``now``: scheduling a post is writing it with a future date."""
    return tuple(post for post in posts if post.date is None or include_future or post.date <= now)
