"""Tags as the site shows them: spellings of one tag merged, tags that would share a page
reported. Runs on the loaded posts, before any route is planned (``content.load_posts``).

``Information Theory`` in one post and ``information-theory`` in another are one tag, as
Hugo makes them one term: they differ only in case, spaces, ``-`` or ``_``. Every post then
shows one spelling, the one most posts write (the first seen, in file order, on a tie), and
one warning names where the others are written. Two tags that differ otherwise but would
share a folder (``a/b`` and ``a-b``, both ``tags/a-b/``) are an error: which is meant is a
choice only the author can make.
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from typing import TYPE_CHECKING

from site_builder.errors import BuildError, BuildWarning, Location
from site_builder.slug import tag_slug

if TYPE_CHECKING:
    from site_builder.frontmatter import SourcePost

SHOWN = 10  # other spellings' places listed in the warning; more are counted


def spelling_key(name: str) -> str:
    """What two spellings of one tag share: case folded, runs of spaces, ``-`` and ``_`` as one."""
    folded = unicodedata.normalize("NFC", name).casefold()
    return re.sub(r"[\s_-]+", "-", folded).strip("-")


def merge_tags(
    posts: list[SourcePost],
) -> tuple[list[SourcePost], list[BuildWarning], list[BuildError]]:
    """``posts`` (in file order) with one spelling per tag, a warning per merged tag, and an
    error per tag that would share another's page."""
    first: dict[str, tuple[str, SourcePost]] = {}  # slug -> the first tag on its page
    users: dict[str, dict[str, list[SourcePost]]] = {}  # slug -> spelling -> its posts
    errors = []
    for post in posts:
        for name in post.tags:
            slug = tag_slug(name)
            other, where = first.setdefault(slug, (name, post))
            if spelling_key(other) != spelling_key(name):
                message = (
                    f"tag '{name}' would share the page tags/{slug}/ with tag '{other}' "
                    f"({where.path}): rename one of them"
                )
                errors.append(BuildError(post.path, post.tags_line, message))
                continue
            using = users.setdefault(slug, {}).setdefault(name, [])
            if not using or using[-1] is not post:
                using.append(post)
    shown: dict[str, str] = {}
    warnings = []
    for slug, spellings in users.items():
        if len(spellings) > 1:
            best = max(spellings, key=lambda name: len(spellings[name]))  # first of the commonest
            shown.update(dict.fromkeys(spellings, best))
            warnings.append(_merged(slug, best, spellings))
    if shown:
        posts = [_respelled(post, shown) for post in posts]
    return posts, warnings, errors


def _merged(slug: str, best: str, spellings: dict[str, list[SourcePost]]) -> BuildWarning:
    """One warning for a merged tag, at the first place it is spelled otherwise."""
    others = [(post, name) for name, using in spellings.items() if name != best for post in using]
    (post, name), rest = others[0], others[1:]
    message = f"tag '{name}' is shown as '{best}', its commonest spelling (tags/{slug}/)"
    if rest:
        places = [f"{p.path}:{p.tags_line} ('{n}')" for p, n in rest[:SHOWN]]
        more = f" and {len(rest) - SHOWN} more" if len(rest) > SHOWN else ""
        message += f"; also spelled otherwise at {', '.join(places)}{more}"
    return BuildWarning(Location(post.path, post.tags_line), message)


def _respelled(post: SourcePost, shown: dict[str, str]) -> SourcePost:
    """The post with each tag in its shown spelling, once (``[ML, ml]`` is one tag)."""
    tags = tuple(dict.fromkeys(shown.get(name, name) for name in post.tags))
    return post if tags == post.tags else dataclasses.replace(post, tags=tags)
