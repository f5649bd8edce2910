"""Jekyll, al-folio and Distill posts: Liquid tags, Distill elements, kramdown math and IALs.

What al-folio's Distill layout writes, and what it becomes here:

- ``{% highlight python %}...{% endhighlight %}``: a fenced code block;
- ``{% include figure.liquid path=... caption=... %}`` (and a ``<div class="caption">``
  after it): an image figure ``![caption](file){#fig-...}`` with the file copied;
- ``{% cite a b %}`` and ``<d-cite key="a,b">``: ``[@a; @b]``;
- ``<d-footnote>``: a footnote ``^[...]``; ``<d-math>``: ``$...$`` or a display block;
- ``{% post_url %}``/``{% link %}``: a relative link to the other post.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from re import Match
from typing import Any

import yaml

from site_builder.importer import dollars, katex_tags, kramdown, markup, tufte
from site_builder.importer.assets import untemplate
from site_builder.importer.common import PostContext, citation, comment_out
from site_builder.importer.frontmatter import JEKYLL_NAME, padded_day
from site_builder.importer.html import (
    CAPTION,
    boxes,
    caption_text,
    captions_to_paragraphs,
    pictures,
    unwrap_layout,
)
from site_builder.importer.text import Text
from site_builder.slug import slugify

COMMENT = re.compile(r"(?s)\{%-?\s*comment\s*-?%\}(.*?)\{%-?\s*endcomment\s*-?%\}")
CAPTURE = re.compile(r"(?s)\{%-?\s*capture\s+([\w-]+)\s*-?%\}(.*?)\{%-?\s*endcapture\s*-?%\}")
RAW_TAG = re.compile(r"\{%-?\s*(?:end)?raw\s*-?%\}")
HIGHLIGHT = re.compile(
    r"(?ms)^([ \t]*)\{%-?\s*highlight\s+([\w+#.-]+)[^%]*-?%\}[ \t]*\n?"
    r"(.*?)\{%-?\s*endhighlight\s*-?%\}"
)
MERMAID = re.compile(r"(?s)\{%-?\s*mermaid\s*-?%\}\n?(.*?)\{%-?\s*endmermaid\s*-?%\}")
# Not one quoted as code (al-folio's example post writes `<d-code>` in its prose).
# Octopress's and Pelican's (liquid_tags) image tag: ``{% img [class] src [width [height]]
# [title ["alt"]] %}``.
IMG_TAG = re.compile(r"\{%-?\s*img\s+(.*?)\s*-?%\}")
_IMG_PARTS = re.compile(
    r"(?:(?P<cls>[^\s/]+(?:\s+[^\s/]+)*)\s+)??(?P<src>(?:https?://|/)\S+|\S+/\S+|\S+\.\w{3,4})"
    r"(?:\s+\d+(?:\s+\d+)?)?(?:\s+(?P<title>.+))?$"
)


def _img_tag(params: str) -> str | None:
    """The Markdown image an ``{% img %}`` tag showed; None if it names no image."""
    found = _IMG_PARTS.match(params.strip())
    if found is None:
        return None
    words = re.findall(r'"([^"]*)"', found.group("title") or "")
    alt = words[-1] if words else (found.group("title") or "").strip().strip("[]'")
    return f"![{_bracket_safe(alt)}]({found.group('src')})"


D_CODE = re.compile(r'(?s)(?<!`)<d-code\b(?:[^>]*?\blanguage="([\w+-]+)")?[^>]*>\n?(.*?)</d-code>')
D_MATH_BLOCK = re.compile(r"(?s)<d-math\s+block[^>]*>(.*?)</d-math>")
D_MATH = re.compile(r"(?s)<d-math>(.*?)</d-math>")
D_CITE = re.compile(
    r"""(?s)<d-cite\s+key\s*=\s*(?:"([^"]+)"|'([^']+)'|([^\s>]+))[^>]*>(?:[^<]*</d-cite>)?"""
)
D_FOOTNOTE = re.compile(r"(?s)<d-footnote>(.*?)</d-footnote>")
D_WRAPPERS = re.compile(
    r"(?s)<d-bibliography\b[^>]*>\s*(?:</d-bibliography>)?|<d-byline>\s*</d-byline>"
    r"|</?d-(?:article|appendix|figure|title|byline)\b[^>]*>"
)
CITE_TAG = re.compile(r"\{%-?\s*cite\s+([^%]+?)\s*-?%\}")
# jekyll-scholar's ``{% bibliography %}``: the build lists the works a post cites under it.
CITED_LIST = re.compile(r"\{%-?\s*bibliography\b[^%]*-?%\}")
FIGURE = re.compile(r"\{%-?\s*include\s+figure(?:\.liquid|\.html)?\s+(.*?)\s*-?%\}", re.S)
VIDEO = re.compile(r"\{%-?\s*include\s+video(?:\.liquid|\.html)?\s+(.*?)\s*-?%\}", re.S)
PARAM = re.compile(r"""([\w-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|\{\{\s*(.*?)\s*\}\}|([^\s"']+))""")
POST_LINK = re.compile(
    r"(?:\{\{-?\s*site\.baseurl\s*-?\}\})?\{%-?\s*(?:post_url\s+(\S+)|link\s+(\S+))\s*-?%\}"
)
TWITTER = re.compile(r"\{%-?\s*twitter\s+(\S+)[^%]*-?%\}")
# ``{{ "/assets/x.png" | relative_url }}``, even inside a double-quoted HTML attribute.
LIQUID_PATH = re.compile(
    r"""\{\{-?\s*(?:['"][^'"{}]*['"]\s*\|\s*(?:relative_url|absolute_url|prepend:\s*site\.baseurl)"""
    r"""|site\.(?:baseurl|base_url|url))\s*-?\}\}"""
)
IMAGE_ROW = re.compile(
    r"(?s)((?:\x04[^\x04]*\x04\s*)+)" + CAPTION.pattern.removeprefix("(?is)"), re.I
)


GIST = re.compile(r"\{%-?\s*gist\s+([\w/-]+)[^%]*-?%\}")
LIQUID_TAB = re.compile(r"\{%-?\s*tab\s+\S+\s+(.+?)\s*-?%\}[ \t]*\n?")
LIQUID_TABS = re.compile(r"[ \t]*\{%-?\s*(?:tabs\s[^%]*|endtabs?\s*)-?%\}[ \t]*")


def convert(text: Text, ctx: PostContext) -> None:
    """Rewrite a Jekyll body in place; masks stay until ``text.unmask()``."""
    # Liquid runs before Markdown in Jekyll, so {% raw %} is invisible even in code.
    text.sub(RAW_TAG, lambda m, _l: "")
    text.sub(HIGHLIGHT, lambda m, _l: text.hide(_fence(m.group(2), m.group(3), m.group(1))))
    text.sub(D_CODE, lambda m, _l: text.hide(_fence(m.group(1) or "", html.unescape(m.group(2)))))
    text.sub(IMG_TAG, lambda m, _l: _img_tag(m.group(1)) or m.group(0))
    markup.mask_code(text)
    if ctx.site.get("dollar_is_text"):  # before tags below write ``$x$`` for their math
        dollars.singles_as_text(text, ctx.notes)
    tufte.convert(text, ctx)
    katex_tags.convert(text)
    # jekyll-tabs (al-folio's): ``{% tab group Proof %}``: each tab's name in bold over it.
    text.sub(LIQUID_TAB, lambda m, _l: f"\n\n**{m.group(1).strip(chr(34) + chr(39))}**\n\n")
    text.sub(LIQUID_TABS, lambda m, _l: "\n\n")

    def gist(match: Match[str], line: int) -> str:  # jekyll-gist's, as Hugo's ``gist`` goes
        ctx.notes.add(line, "gist embedded as a link")
        return f"<https://gist.github.com/{match.group(1)}>"

    text.sub(GIST, gist)
    text.sub(COMMENT, lambda m, _l: text.hide(comment_out(m.group(1).strip())))
    captured: dict[str, str] = {}

    def capture(match: Match[str], _line: int) -> str:
        captured[match.group(1)] = " ".join(match.group(2).split())
        return ""

    text.sub(CAPTURE, capture)
    if captured:  # ``caption=caption`` in an include, ``{{ caption }}`` in the text
        names = "|".join(re.escape(n) for n in captured)
        text.sub(
            re.compile(rf"(\b[\w-]+\s*=\s*)({names})(?=[\s%])|\{{\{{-?\s*({names})\s*-?\}}\}}"),
            lambda m, _l: (
                m.group(1) + _quoted(captured[m.group(2)]) if m.group(1) else captured[m.group(3)]
            ),
        )

    def mermaid(match: Match[str], line: int) -> str:
        ctx.notes.add(line, "mermaid diagram kept as its source in a code block")
        return text.hide(_fence("mermaid", match.group(1)))

    text.sub(MERMAID, mermaid)
    text.sub(D_MATH_BLOCK, lambda m, _l: "\n$$" + m.group(1) + "$$\n")
    text.sub(D_MATH, lambda m, _l: "$" + " ".join(m.group(1).split()) + "$")
    text.sub(D_CITE, lambda m, _l: citation(re.split(r"[,\s]+", next(g for g in m.groups() if g))))
    text.sub(CITE_TAG, lambda m, _l: citation(_cite_keys(m.group(1))))
    text.sub(CITED_LIST, lambda m, _l: "")
    text.sub(D_FOOTNOTE, lambda m, _l: "^[" + " ".join(m.group(1).split()) + "]")
    text.sub(D_WRAPPERS, lambda m, _l: "")
    text.sub(LIQUID_PATH, lambda m, _l: untemplate(m.group(0)))
    pictures(text)
    boxes(text)
    unwrap_layout(text)
    kramdown.html_display(text)
    kramdown.escaped_inline(text)
    kramdown.empty_math(text)
    markup.mask_text_dollars(text, kramdown=True)  # ``$\\text{the $i$th}$``: one formula
    for single in (markup.SINGLE_DOLLAR, markup.SPACED_DOLLAR):  # before $$x$$ becomes $x$
        text.sub(single, lambda m, _l: markup.unescape_markdown(m.group(0)))
    dollars.entity_delimiters(text)
    dollars.escape_lone_doubles(text, ctx.notes)
    markup.normalise_math(text, ctx.notes, kramdown=True, backslash=True)
    markup.mask_math(text, ctx.notes, mathjax=True)
    kramdown.hard_breaks(text)
    _figures(text, ctx)
    captions_to_paragraphs(text)
    text.sub(VIDEO, lambda m, line: _video(m, line, ctx))
    text.sub(POST_LINK, lambda m, _l: _post_link(m.group(1) or m.group(2)))

    def tweet(match: Match[str], line: int) -> str:
        ctx.notes.add(line, "tweet embedded as a link")
        return f"<{match.group(1)}>"

    text.sub(TWITTER, tweet)
    if kramdown.take_toc(text):
        ctx.front["toc"] = True
    kramdown.drop_ials(text, ctx.notes)


def site_config(source: Path, name: str = "_config.yml") -> dict[str, Any]:
    """The site's ``_config.yml`` (or Distill's ``_site.yml``: ``name``); empty when there
    is none or it is no mapping."""
    try:
        config = yaml.safe_load((source / name).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return {}
    return config if isinstance(config, dict) else {}


def collections(source: Path) -> list[Path]:
    """The folders of the collections ``_config.yml`` publishes (``output: true``): a
    ``_notes/`` of dated notes is posts as much as ``_posts/`` is."""
    config = site_config(source)
    found = config.get("collections")
    base = source / str(config.get("collections_dir") or "")
    if not isinstance(found, dict):
        return []
    return [
        base / f"_{name}"
        for name, options in found.items()
        if name != "posts"
        and isinstance(options, dict)
        and options.get("output") is True
        and (base / f"_{name}").is_dir()
    ]


def neighbours(files: list[Path]) -> dict[Path, dict[str, Any]]:
    """Liquid's ``page.previous`` and ``page.next`` for each post of ``_posts/``: the one
    before and after it by date, at its address here (``[earlier]({{ page.previous.url }})``)."""
    dated = sorted(
        (padded_day(match.group(1)), file.stem, file)
        for file in files
        if "_posts" in file.parts and (match := JEKYLL_NAME.match(file.stem))
    )
    found: dict[Path, dict[str, Any]] = {}
    for index, (_, _, file) in enumerate(dated):
        around = {"previous": dated[index - 1] if index else None}
        around["next"] = dated[index + 1] if index + 1 < len(dated) else None
        found[file] = {k: {"url": _post_link(v[1])} for k, v in around.items() if v}
    return found


def _fence(lang: str, code: str, indent: str = "") -> str:
    code = code.strip("\n")
    ticks = "````" if "```" in code else "```"
    return f"{indent}{ticks}{lang}\n{code}\n{indent}{ticks}"


def _quoted(value: str) -> str:
    """A parameter value in the quotes it does not hold."""
    if '"' not in value:
        return f'"{value}"'
    return f"'{value}'" if "'" not in value else '"' + value.replace('"', "\u201d") + '"'


CITE_TOKEN = re.compile(r""""[^"]*"|'[^']*'|\S+""")


def _cite_keys(raw: str) -> list[str]:
    """jekyll-scholar's ``{% cite a b --file refs --locator "p. 3" %}``: every option takes
    the value after it; the keys are what is left."""
    keys: list[str] = []
    option = False
    for token in CITE_TOKEN.findall(raw):
        if token.startswith("-"):
            option = True
        elif option:
            option = False
        else:
            keys.append(token)
    return keys


def _params(raw: str) -> dict[str, str]:
    found = {}
    for match in PARAM.finditer(raw):
        value = next(v for v in match.group(2, 3, 4, 5) if v is not None)
        found[match.group(1)] = value
    return found


def _figures(text: Text, ctx: PostContext) -> None:
    """Figure includes become images; a caption div right after them becomes the caption."""

    def include(match: Match[str], line: int) -> str:
        params = _params(match.group(1))
        path = params.get("path", "")
        if match.group(1).count("{{") and not path:
            path = match.group(1)
        local = ctx.assets.local(path) if path else None
        if local is None:
            ctx.notes.add(line, f"figure {path or match.group(1)!r}: file not found; left out")
            return comment_out(match.group(0))
        caption = params.get("caption") or params.get("title") or ""
        alt = params.get("alt", "")
        return f"\x04{local}\x05{caption}\x05{alt}\x04"

    text.sub(FIGURE, include)

    def row(match: Match[str], _line: int) -> str:
        images = re.findall("\x04([^\x04]*)\x04", match.group(1))
        caption = caption_text(match.group(2))
        if len(images) == 1:
            local, own, alt = images[0].split("\x05")
            return f"\x04{local}\x05{own or caption}\x05{alt}\x04\n"
        rows = "\n\n".join(f"\x04{image}\x04" for image in images)
        return f"{rows}\n\n{caption}\n"

    text.sub(IMAGE_ROW, row)

    def emit(match: Match[str], _line: int) -> str:
        local, caption, alt = match.group(1).split("\x05")
        caption = re.sub(r"^\s*(?:Figure|Fig\.?)\s*\d+[.:]\s*", "", caption).strip()
        if caption:
            return f"\n\n![{_bracket_safe(caption)}]({local}){{#{ctx.figure_id(local)}}}\n\n"
        return f"\n\n![{_bracket_safe(alt)}]({local})\n\n"

    text.sub(re.compile("\x04([^\x04]*)\x04"), emit)


def _bracket_safe(caption: str) -> str:
    """Brackets in a caption must balance to stay inside ``![...]``."""
    return caption if caption.count("[") == caption.count("]") else caption.replace("[", "(")


def _video(match: Match[str], line: int, ctx: PostContext) -> str:
    params = _params(match.group(1))
    local = ctx.assets.local(params.get("path", ""))
    if local is None:
        ctx.notes.add(line, f"video {params.get('path', '')!r}: file not found; left out")
        return comment_out(match.group(0))
    return f'<video src="{local}" controls muted playsinline></video>'


def _post_link(target: str) -> str:
    name = target.rsplit("/", 1)[-1].removesuffix(".md").removesuffix(".markdown")
    name = re.sub(r"^\d{4}-\d{1,2}-\d{1,2}-", "", name)
    return f"../{slugify(name)}/"
