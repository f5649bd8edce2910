"""Zola posts: Hugo's layout (``content/``, TOML front matter), CommonMark, and shortcodes
of its own syntax, which the site defines in ``templates/shortcodes/<name>.html``.

``{{ name(key="value") }}`` inserts a template; ``{% name(...) %}body{% end %}`` wraps a
body in one. What a template does decides what its uses become here:

- a body set between math delimiters (``${{ body }}$``, ``\\[{{ body }}\\]``, Zola's old
  ``katex`` shortcode, ``block=true`` making it a display) is a formula;
- a body in a ``<figcaption>`` is the caption of the image just before it (a figure), or
  a paragraph of its own;
- an image template (``<img src="{{ src }}">``) is a Markdown image;
- any other keeps its body and loses its tags, and is reported.

The rest is Hugo's conversion: pulldown-cmark, like Goldmark without passthrough, read
``$...$`` as Markdown text first.
"""

from __future__ import annotations

import re
from pathlib import Path
from re import Match

from site_builder.importer import hugo, markup
from site_builder.importer.common import PostContext, page_link
from site_builder.importer.jekyll import _bracket_safe
from site_builder.importer.text import Text

BODY = re.compile(r"(?s)\{%-?\s*([\w-]+)\s*\((.*?)\)\s*-?%\}(.*?)\{%-?\s*end\s*-?%\}")
INLINE = re.compile(r"\{\{-?\s*([\w-]+)\s*\(((?:[^()\"']|\"[^\"]*\"|'[^']*')*)\)\s*-?\}\}")
ARGUMENT = re.compile(r"""([\w-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([\w.-]+))""")


def is_zola(source: Path) -> bool:
    """Zola's ``config.toml`` names ``base_url`` (Hugo's ``baseURL``) beside ``templates/``
    or ``compile_sass``."""
    config = source / "config.toml"
    if not config.is_file():
        return False
    text = config.read_text(encoding="utf-8", errors="replace")
    return bool(re.search(r"(?m)^\s*base_url\s*=", text)) and (
        (source / "templates").is_dir() or "compile_sass" in text
    )


def kind_of(template: str) -> str:
    """What a shortcode's template makes: display or inline math, a caption, an image."""
    if re.search(r"\{\{-?\s*body", template):
        if re.search(r"\$\$\s*\{\{-?\s*body|\\\[\s*\{\{-?\s*body|display", template):
            return "display"
        if re.search(r"\$\s*\{\{-?\s*body|\\\(\s*\{\{-?\s*body|katex|class=[\"']math", template):
            return "inline"
        if "figcaption" in template or "caption" in template:
            return "caption"
    elif re.search(r"<img\b[^>]*src=[\"']?\{\{-?\s*src", template):
        return "image"
    return "other"


# ``[the other](@/blog/other.md#part)``: Zola's link to a page by its file in ``content/``.
INTERNAL_LINK = re.compile(r"\]\(\s*@/([^)\s#]+?)(#[^)\s]*)?\s*\)")


def convert(text: Text, ctx: PostContext) -> None:
    """Zola's shortcodes as this site's syntax, then Hugo's conversion."""
    kinds: dict[str, str] = ctx.site.get("zola_shortcodes", {})
    markup.mask_code(text)
    text.sub(INTERNAL_LINK, lambda m, _l: f"]({page_link(m.group(1))}{m.group(2) or ''})")

    def inline(match: Match[str], line: int) -> str:
        name, args = match.group(1), _arguments(match.group(2))
        if name == "katex" and "body" in args:
            return text.hide(f"${args['body']}$")
        if name == "toc":  # a table of contents where it stood: this site's goes on top
            ctx.front["toc"] = True
            return ""
        if kinds.get(name) == "image" and args.get("src"):
            caption = args.get("caption") or args.get("alt", "")  # a figure's caption
            return f"![{_bracket_safe(caption)}]({args['src']})"
        ctx.notes.add(line, f"Zola shortcode {name} not converted: {match.group(0)[:60]}")
        return ""

    text.sub(INLINE, inline)
    captions = [name for name, kind in kinds.items() if kind == "caption"]
    if captions:  # an image, then its caption: a figure
        figure = re.compile(
            r"(?m)^!\[[^\]\n]*\](\([^)\n]+\))[ \t]*\n(?:[ \t]*\n)?"
            rf"\{{%-?\s*(?:{'|'.join(map(re.escape, captions))})\s*\([^)]*\)\s*-?%\}}"
            r"(.*?)\{%-?\s*end\s*-?%\}"
        )
        text.sub(figure, lambda m, _l: f"![{_bracket_safe(' '.join(m[2].split()))}]{m[1]}")

    def body(match: Match[str], line: int) -> str:
        name, args, inner = match.group(1), _arguments(match.group(2)), match.group(3).strip()
        kind = kinds.get(name, "inline" if name == "katex" else "other")
        if name == "katex" and args.get("block") == "true":
            kind = "display"
        if kind == "display":
            return text.hide(f"\n\n$$\n{inner}\n$$\n\n")
        if kind == "inline":
            return text.hide(f"${' '.join(inner.split())}$")
        if kind != "caption":
            ctx.notes.add(line, f"Zola shortcode {name} not converted: its body kept")
        return f"\n\n{inner}\n\n" if kind == "caption" else inner

    text.sub(BODY, body)
    hugo.convert(text, ctx)


def shortcode_kinds(source: Path) -> dict[str, str]:
    """What each of the site's shortcodes makes, by name: read once an import. Its theme's
    (``theme = "serene"``: ``themes/serene/templates/shortcodes/``) first, which the
    site's own of the same name replace, as in Zola."""
    config = source / "config.toml"
    text = config.read_text(encoding="utf-8", errors="replace") if config.is_file() else ""
    theme = re.search(r"""(?m)^\s*theme\s*=\s*["']([^"'/]+)["']""", text)
    folders = [source / "themes" / theme.group(1)] if theme else []
    kinds: dict[str, str] = {}
    for folder in [*folders, source]:
        for path in sorted((folder / "templates" / "shortcodes").glob("*.html")):
            kinds[path.stem] = kind_of(path.read_text(encoding="utf-8", errors="replace"))
    return kinds


def _arguments(raw: str) -> dict[str, str]:
    found = {}
    for match in ARGUMENT.finditer(raw):
        found[match.group(1)] = next(g for g in match.groups()[1:] if g is not None)
    return found
