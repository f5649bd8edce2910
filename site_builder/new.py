"""``site-builder new "Title"``: start a post with valid front matter and today's date.

The post starts as a draft (``draft: true``), as ``hugo new`` makes them: the
deploy workflow builds every push to ``main``, so a post that was published from
the moment it existed would go live with "Write here." as its text. ``serve
--drafts`` previews it; deleting the line publishes it.

``--bundle`` makes the folder form, ``content/posts/<slug>/index.md``, which a
post needs for images or a ``bibliography:`` file beside it.

The date is "today" in the site's time zone (``site.yaml``), not the
machine's, so a post started late in the evening is not dated tomorrow; the
same clock as the build's (``SOURCE_DATE_EPOCH`` pins it), so it is due at once.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

from site_builder.clock import reference_time
from site_builder.config import SiteConfig
from site_builder.errors import BuildError
from site_builder.slug import slugify


def post_text(title: str, today: str) -> str:
    """Front matter plus a first line. JSON strings are YAML, so any title is quoted safely."""
    return (
        "---\n"
        f"title: {json.dumps(title, ensure_ascii=False)}\n"
        f"date: {today}\n"
        'description: ""\n'
        "tags: []\n"
        "draft: true  # left out of the build until this line is removed; serve --drafts shows it\n"
        "---\n\n"
        "Write here.\n"
    )


def new_post(
    config: SiteConfig, title: str, now: datetime | None = None, *, bundle: bool = False
) -> Path:
    """Create ``content/posts/<slug>.md`` (``<slug>/index.md`` with ``bundle``); refuse to
    overwrite a post with the same slug in either form."""
    title = title.strip()
    if not title:
        raise BuildError("new", None, "the title must not be empty")
    slug = slugify(title)
    posts = config.root / "content" / "posts"
    single, folder = posts / f"{slug}.md", posts / slug / "index.md"
    path = folder if bundle else single
    for existing in (single, folder):
        if existing.exists():
            raise BuildError(
                existing.relative_to(config.root),
                None,
                "already exists; choose another title or edit that file",
            )
    today = (now or reference_time()).astimezone(config.tz).date().isoformat()
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("x", encoding="utf-8") as file:  # "x": never clobber, even in a race
        file.write(post_text(title, today))
    return path
