"""Fenced code: Pygments highlighting with CSS classes and optional file-name captions.

The info string follows Quarto/Pandoc: ``python filename="attention.py"`` or
``{.python filename="attention.py"}``. An unknown language is plain text, not an
error: highlighting is a nicety and a typo in it should not stop a build.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml, unescapeAll
from markdown_it.token import Token
from markdown_it.utils import OptionsDict

from site_builder.markdown.state import memoised, needs

if TYPE_CHECKING:
    from pygments.formatters import HtmlFormatter
    from pygments.lexer import Lexer

_KEY_VALUE = re.compile(r"^([A-Za-z_][\w-]*)=(.*)$")


def code_plugin(md: MarkdownIt) -> None:
    md.add_render_rule("fence", _render_fence)


def parse_info(info: str) -> tuple[str, dict[str, str]]:
    """Split a fence info string into (language, attributes). Tolerates bad quoting."""
    text = info.strip()
    if text.startswith("{") and text.endswith("}"):
        text = text[1:-1]
    try:
        words = shlex.split(text)
    except ValueError:
        words = text.split()
    lang = ""
    attrs: dict[str, str] = {}
    for word in words:
        match = _KEY_VALUE.match(word)
        if match:
            attrs[match.group(1)] = match.group(2)
        elif not lang and not word.startswith("#"):
            lang = word.lstrip(".")
    return lang, attrs


@lru_cache(maxsize=1)
def _formatter() -> HtmlFormatter[str]:
    from pygments.formatters import HtmlFormatter

    return HtmlFormatter(nowrap=True)


@lru_cache(maxsize=64)
def _lexer(lang: str) -> Lexer | None:
    """Lexer lookup walks Pygments' registry and compiles ~200 regexes; once per language."""
    from pygments.lexers import get_lexer_by_name
    from pygments.util import ClassNotFound

    if not lang:
        return None
    try:
        return get_lexer_by_name(lang, stripnl=False, ensurenl=False)
    except ClassNotFound:
        return None


def highlight_code(code: str, lang: str) -> str:
    """HTML for the inside of ``<code>``: Pygments spans, or escaped text when unknown."""
    from pygments import highlight

    lexer = _lexer(lang.lower())
    if lexer is None:
        return escapeHtml(code)
    return str(highlight(code, lexer, _formatter()))


def _render_fence(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    token = tokens[idx]
    # CommonMark decodes entities and backslash escapes in the info string (spec example 34:
    # ``f&ouml;&ouml;`` is the language ``föö``), as markdown-it's own fence renderer does.
    lang, attrs = parse_info(unescapeAll(token.info))
    body = memoised(env, ("code", lang, token.content), lambda: highlight_code(token.content, lang))
    needs(env, "code")
    lang_class = f' class="language-{escapeHtml(lang)}"' if lang else ""
    pre = f'<pre class="highlight" tabindex="0"><code{lang_class}>{body}</code></pre>'
    filename = attrs.get("filename")
    if not filename:
        return f'<div class="code-block">{pre}</div>\n'
    return (
        f'<figure class="code-block">'
        f'<figcaption class="code-filename">{escapeHtml(filename)}</figcaption>'
        f"{pre}</figure>\n"
    )
