"""The pipeline, readable on one screen.

load config -> load posts -> render Markdown -> build the site model ->
render templates -> write (atomically). Each stage is its own module; this
file only wires them together and collects errors and warnings.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from site_builder import assets, clock, content, pages
from site_builder.config import SiteConfig
from site_builder.errors import BuildError, BuildErrors, BuildWarning
from site_builder.markdown import MarkdownContext, render
from site_builder.model import Post, Site, build_site, make_post
from site_builder.writer import staged_output


@dataclass(frozen=True)
class BuildResult:
    pages: int
    posts: int
    seconds: float
    warnings: tuple[BuildWarning, ...]


def render_post(source: content.SourcePost, config: SiteConfig) -> Post:
    """Markdown stage for one post; errors come back anchored in the post's file."""
    ctx = MarkdownContext(
        path=source.path,
        line_offset=source.body_line - 1,
        raw_html=config.raw_html,
        resource_dir=source.bundle_dir,
    )
    return make_post(source, render(source.body, ctx), config)


def render_posts(
    sources: tuple[content.SourcePost, ...], config: SiteConfig
) -> tuple[list[Post], list[BuildError]]:
    """Render every post; a post that fails is reported, and the others still render."""
    posts: list[Post] = []
    errors: list[BuildError] = []
    for source in sources:
        try:
            posts.append(render_post(source, config))
        except BuildErrors as exc:
            errors.extend(exc.errors)
        except BuildError as exc:
            errors.append(exc)
    return posts, errors


def write_site(site: Site, out: Path) -> int:
    """Render every page into a staging directory and swap it in. Returns the page count."""
    page_count = 0
    with staged_output(out) as stage:
        for rel, html in pages.render_pages(site):
            stage.write(rel, html)
            page_count += rel.endswith(".html")
        for post in site.posts:
            for rel, data in post.rendered.files:
                stage.write(post.path + rel, data)
            bundle = post.source.bundle_dir
            if bundle is not None:
                for file in sorted(bundle.rglob("*")):
                    if file.is_file() and file.name != "index.md":
                        stage.copy(post.path + file.relative_to(bundle).as_posix(), file)
        # The math font is subset to the characters of every post's formulas.
        math_html = [post.rendered.html + post.rendered.notes_html for post in site.posts]
        assets.write_assets(site.config.root, stage, math_html)
        stage.write(".nojekyll", "")
    return page_count


def build(config: SiteConfig, out: Path, now: datetime | None = None) -> BuildResult:
    """Build the whole site into ``out``. Raises BuildErrors; ``out`` is untouched on failure.

    ``now`` only decides which posts are due (future-dated ones wait unless
    ``config.drafts``); it defaults to :func:`clock.reference_time`.
    """
    started = time.perf_counter()
    loaded = content.load_posts(config)
    now = now if now is not None else clock.reference_time()
    due = clock.due_posts(loaded.posts, now, include_future=config.drafts)
    posts, errors = render_posts(due, config)
    warnings = list(loaded.warnings)
    for post in posts:
        warnings.extend(post.rendered.warnings)
    if loaded.errors or errors:
        raise BuildErrors([*loaded.errors, *errors], tuple(warnings))
    site = build_site(config, posts)
    page_count = write_site(site, out)
    return BuildResult(
        pages=page_count,
        posts=len(posts),
        seconds=time.perf_counter() - started,
        warnings=tuple(warnings),
    )
