"""Render posts: a post's Markdown through the Markdown stage, then its page through
``post.html``. Pure functions of their arguments: the incremental layer decides
which posts need them, runs them on workers and keeps their results.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING

from site_builder import bibliography, pages, plots, widgets
from site_builder.config import SiteConfig
from site_builder.content import SourcePost
from site_builder.errors import BuildError
from site_builder.markdown import MarkdownContext, Rendered
from site_builder.model import make_post
from site_builder.routes import SourceRoute

if TYPE_CHECKING:
    import jinja2

    from site_builder.markdown import PlotOutput, WidgetOutput

# The widgets by name, and the post's plot maker (None: a post without a folder).
Runners = tuple[
    dict[str, Callable[[Mapping[str, str]], "WidgetOutput"]],
    Callable[[str, Mapping[str, str]], "PlotOutput"] | None,
]


def render_markdown(
    source: SourcePost,
    config: SiteConfig,
    memo: dict[tuple[str, ...], str] | None = None,
    runners: Runners | None = None,
) -> Rendered:
    """The post's body as a :class:`Rendered` record. ``memo`` holds the fragments of an
    earlier render of the same post (an edit converts only the formulas that changed);
    ``runners`` run the site's widgets and the post's plots (by default uncached: the
    incremental layer passes ones that keep their results)."""
    if runners is None:
        runners = widgets.runners(config.widgets, config.root), plots.runner(source, config.root)
    from site_builder.markdown import render  # imports the Markdown libraries on first use

    ctx = MarkdownContext(
        path=source.path,
        line_offset=source.body_line - 1,
        raw_html=config.raw_html,
        resource_dir=source.bundle_dir,
        memo=memo,
        bibliography=load_bibliography(source, config),
        citation_style=config.citation_style,
        macros=tuple({**dict(config.math_macros), **dict(source.math_macros)}.items()),
        widgets=runners[0],
        plot=runners[1],
    )
    return render(source.body, ctx)


def load_bibliography(source: SourcePost, config: SiteConfig) -> bibliography.Bibliography | None:
    """The post's references: the file its front matter names, else content/references.bib."""
    path = bibliography.file_for(source.bibliography, config.root)
    if path is None:
        return None
    if not (config.root / path).is_file():
        message = f"bibliography {path.as_posix()} not found (paths are relative to the post)"
        raise BuildError(source.path, source.bibliography_line, message)
    return bibliography.load(config.root / path, path)


# Per-post output files besides the page: each function returns (name, bytes) pairs that
# are written in the post's folder and reused with its page. Empty on this site; add one
# here (see README, "Architecture"): the incremental layer needs no change.
PostFiles = Callable[[SiteConfig, SourceRoute, Rendered], Iterable[tuple[str, bytes]]]
POST_FILES: list[PostFiles] = []


def post_files(
    config: SiteConfig, route: SourceRoute, rendered: Rendered
) -> list[tuple[str, bytes]]:
    """Every extra file of one post, from ``POST_FILES``."""
    return [file for make in POST_FILES for file in make(config, route, rendered)]


def render_page(
    env: jinja2.Environment, config: SiteConfig, route: SourceRoute, rendered: Rendered
) -> str:
    """The source's page through its kind's template: its body, neighbours, the menu and
    the site's chrome."""
    post = make_post(route.source, rendered, config)
    return pages.render_source_page(env, config, route, post)
