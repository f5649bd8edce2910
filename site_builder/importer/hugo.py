"""Hugo posts: shortcodes (figure, highlight, ref, youtube, tweet) and passthrough math.

Hugo's own shortcodes have a meaning here and are converted; a theme's or the
site's own (``{{< box >}}``) do not, and are left to the report. ``\\(...\\)``
and ``\\[...\\]`` are math in Hugo (its passthrough extension), not escapes.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from re import Match

import yaml
from markdown_it import MarkdownIt

from site_builder.importer import divs, dollars, hugo_themes, markup, shortcodes
from site_builder.importer.common import DELIMITERS, HUGO_CONFIGS, PostContext, citation
from site_builder.importer.jekyll import _bracket_safe, _fence, _params
from site_builder.importer.text import Text
from site_builder.slug import slugify

HIGHLIGHT = re.compile(
    r"(?s)\{\{[<%]\s*highlight\s+([\w+#.-]+)[^>%]*[>%]\}\}\n?(.*?)\{\{[<%]\s*/highlight\s*[>%]\}\}"
)
FIGURE = re.compile(r"(?s)\{\{[<%]\s*figure\s+(.*?)\s*/?[>%]\}\}")
REF = re.compile(r"""\{\{[<%]\s*(?:rel)?ref\s+["']?([^"'>%\s]+)["']?\s*[>%]\}\}""")
YOUTUBE = re.compile(r"""\{\{[<%]\s*youtube\s+(?:id=)?["']?([\w-]+)["']?[^>%]*[>%]\}\}""")
TWEET = re.compile(r"""\{\{[<%]\s*tweet\s+(.*?)\s*[>%]\}\}""")
CITE = re.compile(r"\{\{[<%]\s*cite[pt]?\s+(.*?)\s*/?[>%]\}\}")
BIBLIOGRAPHY = re.compile(r"\{\{[<%]\s*(?:bibliography|references)\b[^>%]*[>%]\}\}")
TOC = re.compile(r"\{\{[<%]\s*toc\s*/?[>%]\}\}")
UNWRAP = re.compile(r"\{\{[<%]\s*/?(?:rawhtml|katex|math|raw)\s*[>%]\}\}")


def convert(text: Text, ctx: PostContext) -> None:
    text.sub(HIGHLIGHT, lambda m, _l: text.hide(_fence(m.group(1), m.group(2))))
    markup.mask_code(text)
    hugo_themes.convert(text, ctx.notes)
    text.sub(UNWRAP, lambda m, _l: "")
    dollars.entity_delimiters(text)
    dollars.escape_lone_doubles(text, ctx.notes)
    raw = _raw_html_lines(text)  # before math is laid out on lines of its own
    markup.normalise_math(text, ctx.notes, kramdown=False, backslash=ctx.passthrough)
    read = {"$", "$$"} - ctx.passed  # what Goldmark read as Markdown, not passed through
    if read and _escaped_for_markdown(text, read, raw):
        # Markdown took one backslash from ``\\\\`` and ``\\_`` (and ``\\,``) before MathJax
        # saw the formula; undo that here, where math is raw. Not in raw HTML: Goldmark
        # passed that on as it was.
        def unescape(match: Match[str], line: int) -> str:
            return match.group(0) if line in raw else _unescape(match.group(0))

        text.sub(
            ESCAPED_ENV, lambda m, line: m.group(0) if line in raw else _unescape_bare(text.text, m)
        )
        for pattern in _dollar_forms(read):
            text.sub(pattern, unescape)
    _escaped_anyway(text, ctx, {"$", "$$"} & ctx.passed, raw)
    markup.mask_math(text, ctx.notes, mathjax=True)

    def figure_of(src: str, caption: str, alt: str = "") -> str:
        local = ctx.assets.local(src) or src
        if caption:  # a figure stands alone in its paragraph, whatever line it was on
            return f"\n\n![{_bracket_safe(caption)}]({local}){{#{ctx.figure_id(local)}}}\n\n"
        return f"![{_bracket_safe(alt)}]({local})"

    def figure(match: Match[str], line: int) -> str:
        params = _shortcode_params(match.group(1))
        caption = _caption(params.get("caption") or params.get("title") or "")
        return figure_of(params.get("src", ""), caption, params.get("alt", ""))

    text.sub(FIGURE, figure)
    divs.hugo_callouts(text, ctx.notes)
    text.sub(REF, lambda m, _l: _post_link(m.group(1)))
    if ctx.bib_keys is not None:  # hugo-cite's, with the site's bibliography
        text.sub(CITE, lambda m, _l: _cited(m.group(1)))
        text.sub(BIBLIOGRAPHY, lambda m, _l: "")  # the build lists the references itself
    if TOC.search(text.text):  # a table of contents where it stood: this site's goes on top
        ctx.front["toc"] = True
        text.sub(TOC, lambda m, _l: "")
    shortcodes.expand(text, ctx.site.get("shortcodes", {}))
    shortcodes.blocks(text, ctx.site.get("shortcode_blocks", {}), ctx.notes, figure_of)
    local = lambda src: ctx.assets.local(src) or src  # noqa: E731
    shortcodes.media(text, ctx.site.get("shortcode_media", {}), ctx.notes, figure_of, local)

    def youtube(match: Match[str], line: int) -> str:
        ctx.notes.add(line, "YouTube video embedded as a link")
        return f"<https://www.youtube.com/watch?v={match.group(1)}>"

    def tweet(match: Match[str], line: int) -> str:
        ctx.notes.add(line, "tweet embedded as a link")
        params = _params(match.group(1))
        user = params.get("user", "i")
        ident = params.get("id") or match.group(1).split()[-1].strip("\"'")
        return f"<https://twitter.com/{user}/status/{ident}>"

    text.sub(YOUTUBE, youtube)
    text.sub(TWEET, tweet)


# ox-hugo's ``\\begin{align\\*}``: MathJax's processEnvironments found it once Goldmark
# had taken the backslashes out of ``\\*`` and ``\\\\``.
ESCAPED_ENV = re.compile(rf"(?s)\\begin\{{({markup.MATH_ENVS})(\\?\*?)\}}.*?\\end\{{\1\2\}}")
ESCAPE_EVIDENCE = re.compile(r"\\_|\\\\\\\\|\\\\[{},;:!]")


def _raw_html_lines(text: Text) -> set[int]:
    """The source lines of raw HTML blocks (``<div>`` up to a blank line): Goldmark passes
    them on as they are, so their formulas reached MathJax with every backslash."""
    lines: set[int] = set()
    for token in MarkdownIt("commonmark").parse(text.text):
        if token.type == "html_block" and token.map:
            lines.update(text.origin[i] for i in range(*token.map) if i < len(text.origin))
    return lines


def _escaped_for_markdown(text: Text, read: set[str], raw: set[int]) -> bool:
    """Did the author escape their formulas for Markdown (``a\\_1``, ``\\\\\\\\``)?

    A site whose theme hands MathJax the source untouched (a converted WordPress blog,
    a render hook) has ``\\{`` and ``\\\\`` as LaTeX means them: unescaping those
    would break every set and matrix.
    """
    found = list(ESCAPED_ENV.finditer(text.text))
    for pattern in _dollar_forms(read):
        found += pattern.finditer(text.text)
    formulas = [m.group(0) for m in found if text.line(m.start()) not in raw]
    return any(ESCAPE_EVIDENCE.search(f) for f in formulas)


# ``\\\\,`` (a row break, then a comma) or ``\\left\\\\{``: TeX no one writes, Markdown's
# escapes of ``\\,`` and ``\\{`` for a site that once read its formulas as Markdown.
WRITTEN_FOR_MARKDOWN = re.compile(r"(?<!\\)\\\\[,;:!{}]|\\\\\\\\")


def _escaped_anyway(text: Text, ctx: PostContext, passed: set[str], raw: set[int]) -> None:
    """A formula in a delimiter Hugo passes through, escaped for Markdown all the same
    (written before the site turned passthrough on): unescaped, as Goldmark once did."""
    found: list[int] = []

    def formula(match: Match[str], line: int) -> str:
        if line in raw or not WRITTEN_FOR_MARKDOWN.search(match.group(0)):
            return match.group(0)
        found.append(line)
        return _unescape(match.group(0))

    for pattern in _dollar_forms(passed):
        text.sub(pattern, formula)
    if found:
        why = "escaped for Markdown (\\\\, for \\,), though Hugo passes it through"
        ctx.notes.add(found[0], f"{len(found)} formula(s) {why}: unescaped")


def _cited(raw: str) -> str:
    """hugo-cite's ``"a" "b"`` (or ``"a, b"``) as ``[@a; @b]``."""
    values = ("".join(v) for v in re.findall(r'"([^"]*)"|(\S+)', raw))
    return citation([k for value in values for k in re.split(r"[,\s]+", value)])


def _dollar_forms(delimiters: set[str]) -> list[re.Pattern[str]]:
    """The formulas among ``delimiters`` that are dollar-delimited: ``$$`` blocks, then ``$``."""
    forms = (("$$", markup.DISPLAY_BLOCK), ("$", markup.LINE_SPANNING), ("$", markup.SINGLE_DOLLAR))
    return [pattern for opener, pattern in forms if opener in delimiters]


def _unescape(formula: str) -> str:
    """The formula once Goldmark took its escapes out; ``\\|`` (a literal bar even in a
    table's cell) is ``\\vert``, which no table reads as a cell's edge."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", lambda m: "\\vert " if m[1] == "|" else m[1], formula)


def _unescape_bare(text: str, match: Match[str]) -> str:
    """An environment outside any ``$`` (one inside is unescaped with its formula)."""
    before = text[text.rfind("\n\n", 0, match.start()) + 1 : match.start()]
    dollars = re.findall(r"(?<!\\)\$\$|(?<![\\$])\$(?!\$)", before)
    if dollars.count("$$") % 2 or dollars.count("$") % 2:
        return match.group(0)
    return _unescape(match.group(0))


# A shortcode's parameter: Go's string syntax, so ``\"`` is a quote inside one.
SHORTCODE_PARAM = re.compile(r"""([\w-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|`([^`]*)`|([^\s"`]+))""")
FIGURE_NUMBER = re.compile(r"(?is)<span class=[\"']figure-number[\"']>.*?</span>")
PAGE_ANCHOR = re.compile(r"""(?is)<a\s[^>]*?href=["']#[^"']*["'][^>]*>(.*?)</a\s*>""")
ANCHOR = re.compile(r"""(?is)<a\s[^>]*?href=["']([^"']+)["'][^>]*>(.*?)</a\s*>""")


def _shortcode_params(raw: str) -> dict[str, str]:
    found = {}
    for match in SHORTCODE_PARAM.finditer(raw):
        quoted, raw_string, bare = match.group(2, 3, 4)
        value = re.sub(r"\\(.)", r"\1", quoted) if quoted is not None else raw_string or bare
        found[match.group(1)] = value or ""
    return found


def _caption(caption: str) -> str:
    """ox-hugo's caption HTML as Markdown text: the site numbers figures itself, and a
    link to the old page's own bibliography (``#citeproc_bib_item_1``) leads nowhere."""
    caption = FIGURE_NUMBER.sub("", caption)
    caption = PAGE_ANCHOR.sub(r"\1", caption)
    caption = ANCHOR.sub(r"[\2](\1)", caption)
    return " ".join(re.sub(r"<[^>]+>", "", caption).split())


def _post_link(target: str) -> str:
    """``{{< relref "posts/x.md#part" >}}``: the post's page here, the heading's fragment
    kept (slugified with the post's name, the link went to ``../xpart/``)."""
    target, _, fragment = target.partition("#")
    name = target.rstrip("/").rsplit("/", 1)[-1].removesuffix(".md")
    if name in ("index", "_index"):
        name = target.rstrip("/").rsplit("/", 2)[-2]
    page = f"../{slugify(name)}/" if name else ""  # ``relref "#part"``: this page
    return page + (f"#{fragment}" if fragment else "")


def passed_delimiters(source: Path) -> frozenset[str]:
    """The math delimiters Goldmark's passthrough hands MathJax untouched (none without
    it): a formula in any other went through Markdown, which ate its escapes."""
    for name in (*HUGO_CONFIGS, "config/_default"):
        config = source / name
        files = sorted(config.rglob("*")) if config.is_dir() else [config]
        for file in files:
            if not file.is_file():
                continue
            text = file.read_text(errors="replace")
            if "passthrough" in text:
                found = _delimiters(_settings(file, text))
                return DELIMITERS if found is None else found  # unreadable: as if all
    return frozenset()


def _settings(file: Path, text: str) -> object:
    try:
        if file.suffix == ".toml":
            return tomllib.loads(text)
        return json.loads(text) if file.suffix == ".json" else yaml.safe_load(text)
    except (tomllib.TOMLDecodeError, ValueError, yaml.YAMLError):
        return None


def _delimiters(settings: object) -> frozenset[str] | None:
    """The openers under ``passthrough: {delimiters: {block: [[a, b]], inline: [...]}}``
    (none when it is not enabled); None when no such setting is found."""
    if not isinstance(settings, dict):
        return None
    passthrough = settings.get("passthrough")
    if isinstance(passthrough, dict):
        lists = passthrough.get("delimiters")
        if passthrough.get("enable") is False:
            return frozenset()
        if not isinstance(lists, dict):
            return None
        pairs = [p for kind in lists.values() if isinstance(kind, list) for p in kind]
        return frozenset(p[0] for p in pairs if isinstance(p, list) and p and isinstance(p[0], str))
    for value in settings.values():
        found = _delimiters(value)
        if found is not None:
            return found
    return None
