"""Images: a relative image must exist beside the post, or the build stops.

A broken image is invisible to the author in the Markdown and obvious to every
reader, so it is an error with the line, not a 404 after deploy. Images also get
``loading="lazy"`` and ``decoding="async"`` so they never hold up the text.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from markdown_it.utils import OptionsDict

from site_builder.markdown.state import inline_lines, report


def images_plugin(md: MarkdownIt) -> None:
    md.core.ruler.push("image_check", _check)
    md.add_render_rule("image", _render_image)


def is_local(src: str) -> bool:
    """A path relative to the page: no scheme, no host, not site-absolute, not a fragment."""
    parts = urlsplit(src)
    return not (parts.scheme or parts.netloc or src.startswith(("/", "#")) or not parts.path)


def _check(state: StateCore) -> None:
    resource_dir: Path | None = state.env["ctx"].resource_dir
    for token in state.tokens:
        if not token.children:
            continue
        if not any(c.type == "image" for c in token.children):
            continue
        for child, line in inline_lines(state.env, token):
            if child.type != "image":
                continue
            src = str(child.attrs.get("src", ""))
            if not is_local(src):
                continue
            relative = unquote(urlsplit(src).path)
            if resource_dir is None:
                report(
                    state.env,
                    None,
                    f"image '{relative}' not found: put the post in a folder "
                    "(content/posts/<slug>/index.md) with its images beside it",
                    line=line,
                )
            elif not (resource_dir / relative).is_file():
                report(
                    state.env,
                    None,
                    f"image '{relative}' not found in {resource_dir.name}/",
                    line=line,
                )


def _render_image(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    token = tokens[idx]
    token.attrSet("loading", "lazy")
    token.attrSet("decoding", "async")
    return str(self.image(tokens, idx, options, env))
