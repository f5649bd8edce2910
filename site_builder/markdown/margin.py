"""Margin notes, unnumbered: inline ``[text]{.aside}`` and block ``::: {.column-margin}``.

Both follow Quarto's syntax so posts move between tools. Spans come from
mdit-py-plugins' attrs plugin, blocks from its container plugin with a
``validate`` that accepts the Pandoc attribute form.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token
from markdown_it.utils import OptionsDict
from mdit_py_plugins.attrs import attrs_plugin
from mdit_py_plugins.container import container_plugin

from site_builder.markdown.images import IMAGE_ATTRS

_MARGIN_INFO = re.compile(r"^\s*(?:\{\s*\.column-margin\s*\}|\.?column-margin)\s*$")


def margin_plugin(md: MarkdownIt) -> None:
    # One attrs plugin serves every ``{...}`` after inline elements: the image keys are
    # images' (``images.IMAGE_ATTRS``), which drops them from everything else.
    attrs_plugin(md, spans=True, allowed=["id", "class", *IMAGE_ATTRS])
    container_plugin(md, "column-margin", validate=_validate, render=_render_container)
    md.add_render_rule("span_open", _render_span_open)


def _validate(params: str, markup: str) -> bool:
    return bool(_MARGIN_INFO.match(params))


def _render_container(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    if tokens[idx].nesting == 1:
        return '<div class="column-margin marginnote" role="note">\n'
    return "</div>\n"


def _render_span_open(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    token = tokens[idx]
    classes = str(token.attrs.get("class", "")).split()
    if "aside" in classes:
        token.attrSet("class", " ".join([*classes, "marginnote"]))
        token.attrSet("role", "note")
    return str(self.renderToken(tokens, idx, options, env))
