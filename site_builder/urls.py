"""The ``url()`` templates call: links follow the base path, assets are relative to the page.

Why two kinds. A link or canonical address must be the one the site is served
at (``/repo/posts/x/`` on a project site), so links keep ``base_url``'s path.
An asset (``static/...``: stylesheets, scripts, fonts, the icon) is written
relative to the page instead (``../../static/css/site.css``): it resolves to
the same file under any base path, and also when a page is opened straight from
disk (``file://``), where a root-relative ``/static/...`` points at the root of
the file system and the page shows unstyled.

The 404 page is the exception: a host serves it for *any* missing address, at
any depth, so only root-relative asset URLs load there.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from site_builder.config import SiteConfig

if TYPE_CHECKING:
    from jinja2.runtime import Context

ASSETS = "static/"
ANYWHERE = frozenset({"404.html"})  # pages a host may serve at any address


def relative_to_page(page_path: str, path: str) -> str:
    """``path`` (site-relative) as seen from the page at ``page_path`` (``posts/x/``, ``''``)."""
    depth = page_path.count("/")  # "posts/x/" -> 2, "tags/" -> 1, "" or "404.html" -> 0
    return "../" * depth + path


def page_url(config: SiteConfig) -> Callable[..., str]:
    """The template global ``url(path)``; reads ``page_path`` from the render's context."""
    import jinja2  # only a build that renders pages gets here

    @jinja2.pass_context
    def url(context: Context, path: str) -> str:
        page: Any = context.get("page_path")
        if isinstance(page, str) and page not in ANYWHERE and path.startswith(ASSETS):
            return relative_to_page(page, path)
        return config.url(path)

    return url
