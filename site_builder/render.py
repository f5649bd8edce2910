"""Render posts: a post's Markdown through the Markdown stage, then its page through
``post.html``. Pure functions of their arguments: the incremental layer decides
which posts need them, runs them on workers and keeps their results.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from site_builder import bibliography, pages, plots, widgets
from site_builder.config import SiteConfig
from site_builder.errors import BuildError
from site_builder.frontmatter import SourcePost
from site_builder.markdown import MarkdownContext, Rendered
from site_builder.model import make_post
from site_builder.routes import SourceRoute
from site_builder.sources import SourceText

if TYPE_CHECKING:
    import jinja2

    from site_builder.markdown import PlotOutput, WidgetOutput

# The widgets by name, and the post's plot maker (None: a post without a folder).
Runners = tuple[
    dict[str, Callable[[Mapping[str, str]], "WidgetOutput"]],
    Callable[[str, Mapping[str, str]], "PlotOutput"] | None,
]


@dataclass(frozen=True)
class RenderInputs:
    """Everything a source's Markdown render reads besides its body and the site's place on
    disk. ``render_markdown`` reads its settings from here alone, and the render key is
    a hash of every field (``key``): an input the renderer can read is in the key, with
    no list kept by hand beside it."""

    path: Path  # the source, relative to the site: messages, and the body's checksum below
    body_line: int
    body_hash: str
    raw_html: bool
    citation_style: str
    macros: tuple[tuple[str, str], ...]  # site.yaml's, then the front matter's
    math_errors: str  # site.yaml's ``math: {errors: ...}``: "stop" or "show"
    bibliography: Path | None  # the file, relative to the site (``bibliography.file_for``)
    bibliography_line: int
    bibliography_hash: str  # of the file's bytes; "" when there is none
    resource_dir: Path | None  # the source's folder, relative to the site
    bundle: tuple[str, ...]  # its folder's files; images and Python with size and time
    widgets: tuple[str, ...]  # "name=fingerprint" of each widget the body names

    def key(self) -> str:
        from site_builder.incremental.keys import code_version, hash_parts

        fields = dataclasses.fields(self)
        return hash_parts(code_version(), *(repr(getattr(self, f.name)) for f in fields))


def render_inputs(
    route: SourceRoute,
    config: SiteConfig,
    bibliography_of: Callable[[Path | None], tuple[Path | None, str]],
) -> RenderInputs:
    """The render's inputs for ``route``. ``bibliography_of`` resolves a post's ``.bib``
    (``bibliography.file_for``) and hashes it, once for the many posts that share it."""
    source = route.source
    named, bib_hash = bibliography_of(source.bibliography)
    fingerprints = {spec.name: spec.fingerprint for spec in config.widgets}
    return RenderInputs(
        path=source.path,
        body_line=source.body_line,
        body_hash=source.body_hash,
        raw_html=config.raw_html,
        citation_style=config.citation_style,
        macros=tuple({**dict(config.math_macros), **dict(source.math_macros)}.items()),
        math_errors=config.math_errors,
        bibliography=named,
        bibliography_line=source.bibliography_line,
        bibliography_hash=bib_hash,
        resource_dir=source.bundle_dir.relative_to(config.root) if source.bundle_dir else None,
        bundle=tuple(_bundle_stamp(rel, file) for rel, file in route.bundle),
        widgets=tuple(f"{name}={fingerprints.get(name)}" for name in source.widgets),
    )


def render_markdown(
    body: str,
    inputs: RenderInputs,
    root: Path,
    memo: dict[tuple[str, ...], str] | None,
    runners: Runners,
    text: SourceText,
) -> Rendered:
    """A source's body as a :class:`Rendered` record. ``memo`` holds the fragments of an
    earlier render of the same source (an edit converts only the formulas that changed);
    ``runners`` run the site's widgets and the source's plots (the incremental layer
    passes ones that keep their results)."""
    from site_builder.markdown import render  # imports the Markdown libraries on first use

    resource_dir = root / inputs.resource_dir if inputs.resource_dir is not None else None
    ctx = MarkdownContext(
        path=inputs.path,
        line_offset=inputs.body_line - 1,
        raw_html=inputs.raw_html,
        resource_dir=resource_dir,
        memo=memo,
        bibliography=load_bibliography(inputs, root),
        citation_style=inputs.citation_style,
        macros=inputs.macros,
        math_errors=inputs.math_errors,
        widgets=runners[0],
        plot=runners[1],
        prerendered=text.blocks,
        files=dict(text.files),
    )
    with text.where_written():
        rendered = render(body, ctx)
    warnings = rendered.warnings
    if text.relocate_warning is not None:
        warnings = tuple(text.warnings_where_written(rendered.warnings))
    # A repeated entry or field in the .bib, at its own line (the build reports it once).
    warnings = (*bibliography.warnings_of(ctx.bibliography), *warnings)
    return dataclasses.replace(rendered, warnings=warnings) if warnings else rendered


def uncached_runners(source: SourcePost, config: SiteConfig) -> Runners:
    """The site's widgets and the source's plots, run afresh (no cache: ``check``, tests)."""
    return widgets.runners(config.widgets, config.root), plots.runner(source, config.root)


def load_bibliography(inputs: RenderInputs, root: Path) -> bibliography.Bibliography | None:
    """The source's references: the file its front matter names, else
    content/references.bib."""
    path = inputs.bibliography
    if path is None:
        return None
    if not (root / path).is_file():
        message = f"bibliography {path.as_posix()} not found (paths are relative to the post)"
        raise BuildError(inputs.path, inputs.bibliography_line, message)
    return bibliography.load(root / path, path)


# Images (the page carries their width and height) and Python (a plot's source).
_SIZED = frozenset({".png", ".jpg", ".jpeg", ".gif", ".webp", ".avif", ".svg", ".py"})


def _bundle_stamp(rel: str, file: Path) -> str:
    """A bundle file's name, and for an image or a plot's Python its size and time: a
    replaced image or an edited plot must re-render the source."""
    if file.suffix.lower() not in _SIZED:
        return rel
    stat = file.stat()
    return f"{rel}:{stat.st_size}:{stat.st_mtime_ns}"


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
