"""What a page says about itself to search engines, feed readers and link previews.

Computed in Python rather than in templates so every page gets the same set of
tags (title, description, canonical URL, OpenGraph, Twitter card, JSON-LD) and
so the JSON-LD is escaped by code that can be tested, not by hand in Jinja.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from site_builder.config import SiteConfig
from site_builder.feeds import post_updated
from site_builder.model import Post
from site_builder.titles import title_text

# Inside <script> the HTML parser ends the element at "</script" whatever JSON
# thinks; escaping these keeps any string data inert (and the JSON equivalent).
_SCRIPT_ESCAPES = {
    "<": "\\u003c",
    ">": "\\u003e",
    "&": "\\u0026",
    "\u2028": "\\u2028",
    "\u2029": "\\u2029",
}


@dataclass(frozen=True)
class PageMeta:
    """Everything ``base.html`` puts in ``<head>`` about one page."""

    title: str  # the <title>: "Post · Site", or the site title on the home page
    headline: str  # og:title / twitter:title: the page's own name, without the site
    description: str
    path: str  # site-relative, for the canonical URL and og:url
    og_type: str = "website"
    published: datetime | None = None
    modified: datetime | None = None
    tags: tuple[str, ...] = ()
    json_ld: str = ""
    # Google Scholar / Highwire Press tags, (name, content), in the order Scholar documents.
    scholar: tuple[tuple[str, str], ...] = ()


def script_json(data: Any) -> str:
    """JSON that is safe to place verbatim inside ``<script type="application/ld+json">``."""
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    for char, escape in _SCRIPT_ESCAPES.items():
        text = text.replace(char, escape)
    return text


def page_meta(
    config: SiteConfig, path: str, name: str | None = None, description: str = ""
) -> PageMeta:
    """Meta for a listing page (home, tag, archive); ``name`` None means the home page."""
    return PageMeta(
        title=f"{name} · {config.title}" if name else config.title,
        headline=name or config.title,
        description=description or config.description,
        path=path,
    )


def home_meta(config: SiteConfig) -> PageMeta:
    """Meta for the home page: with a profile (``author:`` as a mapping), a schema.org
    ``Person`` for the site's author (site_builder/profile.py)."""
    meta = page_meta(config, "")
    if config.profile is None:
        return meta
    from site_builder.profile import person_ld  # only a site with a profile imports it

    ld = person_ld(config.profile, config.absolute_url(""), config.absolute_url)
    return dataclasses.replace(meta, json_ld=script_json(ld))


def post_meta(config: SiteConfig, post: Post) -> PageMeta:
    """Meta for a post: an OpenGraph article plus a schema.org ``BlogPosting``."""
    source = post.source
    title = title_text(source.title)
    description = title_text(source.description or "") or config.description
    modified = post_updated(post)
    url = post.url
    ld = {
        "@context": "https://schema.org",
        "@type": "BlogPosting",
        "headline": title,
        "description": description,
        "author": {"@type": "Person", "name": source.author},
        "datePublished": post.date.isoformat(),
        "dateModified": modified.isoformat(),
        "url": url,
        "mainEntityOfPage": {"@type": "WebPage", "@id": url},
        "publisher": {"@type": "Person", "name": config.author},
        "inLanguage": config.language,
    }
    if source.tags:
        ld["keywords"] = list(source.tags)
    return PageMeta(
        title=f"{title} · {config.title}",
        headline=title,
        description=description,
        path=post.path,
        og_type="article",
        published=post.date,
        modified=modified,
        tags=source.tags,
        json_ld=script_json(ld),
        scholar=scholar_tags(config, post),
    )


def scholar_tags(config: SiteConfig, post: Post) -> tuple[tuple[str, str], ...]:
    """What Google Scholar reads to index a post as a paper (its "Inclusion guidelines")."""
    source = post.source
    tags = [("citation_title", title_text(source.title)), ("citation_author", source.author)]
    tags.append(("citation_publication_date", post.date.strftime("%Y/%m/%d")))
    if source.pdf:
        pdf = source.pdf
        if "://" not in pdf:  # a path beside the page, or site-relative with a leading /
            pdf = config.absolute_url(pdf if pdf.startswith("/") else post.path + pdf)
        tags.append(("citation_pdf_url", pdf))
    return tuple(tags)
