"""The steps after a format's own conversions: assets, citations, references, leftovers.

Whatever a converter could not turn into this site's syntax is hidden in an
HTML comment (so the page shows nothing broken) and named in the report with
its source line (so the author knows what to redo). A page that builds and
reads cleanly, with a to-do list, beats a faithful copy of markup that no
longer means anything.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from re import Match
from typing import Any

from site_builder.importer.assets import Assets, untemplate
from site_builder.importer.markup import FENCE, HTML_COMMENT
from site_builder.importer.report import PostNotes
from site_builder.importer.text import Text
from site_builder.markdown.crossrefs import KINDS as REF_KINDS
from site_builder.slug import slugify
from site_builder.sources import CONTROL

# The destination bare, or in ``<...>`` (which may hold spaces: ``<GD 0.1.svg>``); the
# alt text may hold brackets two deep (a footnote ``^[...]`` with a link in it).
MD_IMAGE = re.compile(
    r"!\[((?:[^\[\]]|\[(?:[^\[\]]|\[[^\[\]]*\])*\])*)\]"
    r"\(\s*(?:<([^>\n]+)>|([^)\s>]+))(\s+\"[^\"]*\")?\s*\)"
    r"(\{[^{}\n]*\})?"
)
# Pandoc takes ``![](GD 0.1.svg)``, spaces and all; CommonMark reads it as text.
SPACED_IMAGE = re.compile(r"(!\[[^\]\n]*\]\()\s*([^)<>\"\n]*?[^)<>\"\s][ ]+[^)<>\"\n]*?)\s*\)")
# ``[![](x.svg)](clip.mp4){width=60%}``: Pandoc's attributes on a link, which CommonMark
# shows as text; a class or an id is this site's too, a key=value is not.
LINK_KEYS = re.compile(r"(?<=\))\{(?:\s*[\w-]+=(?:\"[^\"]*\"|[^\s}]+))+\s*\}")
MD_LINK = re.compile(
    r"(?<!!)\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\(\s*<?([^)\s>]+)>?(\s+\"[^\"]*\")?\s*\)"
)
HTML_REF = re.compile(r"""(?i)\b(src|href|poster|data)\s*=\s*(["'])(.*?)\2""")
# Not ``[@handle](https://x.com/handle)``: a link, whose text only starts with an ``@``.
CITATION = re.compile(r"\[((?:-?@[\w:./+-]+(?:,[^;\]]*)?;?\s*)+)\](?![(\[])")
CITE_KEY = re.compile(r"-?@([\w:./+-]*[\w])")
# Quarto's cross-reference prefixes that the build numbers (``crossrefs.KINDS``: figures,
# equations, tables, theorem-like blocks, exercises...) and sections.
REF_WORDS = {kind: word for kind, (word, _) in REF_KINDS.items()} | {"sec": "Section"}
_PREFIXES = "|".join(sorted(REF_WORDS))
CROSSREF = re.compile(rf"(?<![\w@\\])(\[-?)?@((?:{_PREFIXES})-[\w-]+)\]?")
DEFINED_ID = re.compile(rf"\{{#((?:{_PREFIXES})-[\w-]+)[\s.}}]|\\label\{{([\w:-]+)\}}")

DELIMITERS = frozenset({"$", "$$", "\\(", "\\["})  # every math delimiter MathJax reads

LEFTOVERS = (
    (re.compile(r"\{\{<.*?>\}\}|\{\{%.*?%\}\}", re.S), "Hugo shortcode"),  # not ``{% %}``
    (re.compile(r"\{%-?.*?-?%\}", re.S), "Liquid tag"),
    (re.compile(r"\{\{-?[^{}\n]*?-?\}\}"), "Liquid expression"),
    (re.compile(r"</?[a-z][a-z0-9]*-[a-z0-9-]*\b[^>]*>", re.I), "custom element"),
)


@dataclass
class PostContext:
    """What the converters of one post share: its notes, its assets and its bibliography."""

    notes: PostNotes
    assets: Assets
    bib_keys: frozenset[str] | None = None  # None: the post has no bibliography
    slug: str = ""
    figures: int = 0
    missing_keys: set[str] = field(default_factory=set)
    # Hugo: math in these delimiters reached MathJax untouched by Markdown escapes.
    passed: frozenset[str] = DELIMITERS
    site: dict[str, Any] = field(default_factory=dict)  # the old site's: Hugo's shortcodes
    front: dict[str, Any] = field(default_factory=dict)  # keys the body set: ``{:toc}``

    @property
    def passthrough(self) -> bool:
        """Did any formula reach MathJax untouched by Markdown escapes?"""
        return bool(self.passed)

    def figure_id(self, path: str) -> str:
        self.figures += 1
        return f"fig-{self.slug or 'post'}-{self.figures}"


# Hugo's site configuration, each name it reads (``config/_default/`` may hold it too).
HUGO_CONFIGS = (
    "hugo.toml", "hugo.yaml", "hugo.yml", "hugo.json",
    "config.toml", "config.yaml", "config.yml", "config.json",
)  # fmt: skip


# A terminal's colour codes (a notebook's traceback, pasted ``docker pull`` output), then
# any other control character the site refuses (``content.CONTROL``: XML 1.0 forbids them;
# a form feed from a PDF).
ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[@-_]")


def strip_controls(raw: str, notes: PostNotes) -> str:
    """The post without control characters, which would stop the build; reported once."""
    found = ANSI.search(raw) or CONTROL.search(raw)
    if found is None:
        return raw
    line = raw.count("\n", 0, found.start()) + 1
    notes.add(line, "terminal colour codes and control characters removed")
    return CONTROL.sub("", ANSI.sub("", raw))


def comment_out(snippet: str) -> str:
    """Keep what could not be converted in the file, but out of the page."""
    return "<!-- not imported: " + snippet.replace("--", "- -").replace("\n", " ") + " -->"


# Comments of what was left out, opening a line that goes on with text.
LEADING_COMMENTS = re.compile(
    r"(?m)^([ \t]*)((?:<!-- not imported: (?:(?! -->).)*+ -->[ \t]*)++)(\S.*)$"
)


def comments_last(text: Text) -> None:
    """``<!-- not imported: \\paragraph{A} --> Text $x$``: a comment opening a line opens
    an HTML block, which would swallow the rest of the line, its formulas shown as
    ``$`` text. The comment goes to the line's end, where it is inline."""
    text.sub(LEADING_COMMENTS, lambda m, _l: f"{m.group(1)}{m.group(3)} {m.group(2).rstrip()}")


def rewrite_references(text: Text, ctx: PostContext) -> None:
    """Point images, links to files and HTML ``src`` attributes at copies beside the post."""

    def image(match: Match[str], line: int) -> str:
        alt, src, title = match.group(1), match.group(2) or match.group(3), match.group(4) or ""
        attrs = match.group(5) or ""  # ``{#fig-x}``: goes with its image, if that goes
        local = ctx.assets.local(src)
        if local is not None:
            # ``<a b.png>``, hidden so that the leftovers' check takes it for no HTML tag
            local = text.hide(f"<{local}>") if " " in local else local
            return f"![{alt}]({local}{title}){attrs}"
        if ctx.assets.find(src) is None and _is_local(src):
            ctx.notes.add(line, f"image {untemplate(src)} not found: left out of the post")
            return comment_out(match.group(0))
        return f"![{alt}]({untemplate(src)}{title}){attrs}"

    def link(match: Match[str], line: int) -> str:
        label, href, title = match.group(1), match.group(2), match.group(3) or ""
        path, _, anchor = href.partition("#")
        if _is_local(href) and path.endswith(SOURCES):  # another page of the old site
            return f"[{label}]({page_link(path)}{'#' + anchor if anchor else ''}{title})"
        local = ctx.assets.local(href) if not path.endswith((".html", "/")) else None
        return f"[{label}]({local}{title})" if local else match.group(0)

    def attribute(match: Match[str], line: int) -> str:
        name, quote, value = match.groups()
        local = ctx.assets.local(value)
        if local is not None:
            return f"{name}={quote}{local}{quote}"
        if name.lower() != "href" and _is_local(untemplate(value)):
            ctx.notes.add(line, f"{untemplate(value)} not found: the {name} was left as it was")
        return f"{name}={quote}{untemplate(value)}{quote}"

    text.sub(SPACED_IMAGE, lambda m, _l: f"{m.group(1)}<{m.group(2)}>)")
    text.sub(MD_IMAGE, image)
    text.sub(MD_LINK, link)
    text.sub(LINK_KEYS, lambda m, _l: "" if _after_link(text.text, m.start()) else m.group(0))
    text.sub(HTML_REF, attribute)


def _after_link(body: str, at: int) -> bool:
    """Whether the ``)`` before ``at`` closes a link (not an image, whose keys are kept)."""
    line = body[body.rfind("\n", 0, at) + 1 : at]
    opened = line.rfind("](")
    start = line.rfind("[", 0, opened)
    return opened > 0 and not (
        start > 0 and line[start - 1] == "!" and "](" not in line[start:opened]
    )


# A link to one of these is a link to the page made from it (``./6_memory.md#cache``).
SOURCES = (".md", ".markdown", ".qmd", ".Rmd", ".ipynb", ".mdx")
DATE_PREFIX = re.compile(r"^\d{4}-\d{1,2}-\d{1,2}[_-]")  # as frontmatter._dated_name reads it


def page_link(path: str) -> str:
    """The link here to the page made from the source file ``path`` (a bundle's ``index.md``
    is its folder; Jekyll's date prefix is not in the slug)."""
    parts = [p for p in path.split("/") if p not in ("", ".")]
    stem = parts[-1].rsplit(".", 1)[0] if parts else ""
    if stem in ("index", "_index") and len(parts) > 1:
        stem = parts[-2]
    return f"../{slugify(DATE_PREFIX.sub('', stem))}/"


def _is_local(src: str) -> bool:
    return not re.match(r"^[a-z][a-z0-9+.-]*:|^//|^#", src, re.I) and bool(src.strip())


def check_citations(text: Text, ctx: PostContext) -> None:
    """A key the bibliography lacks would stop the build: show it as text and report it.
    Brackets around references to the post's own labels (Quarto's ``[@eq-energy]``) go:
    each is a reference."""
    labels = defined_ids(text.text)

    def citation(match: Match[str], line: int) -> str:
        keys = CITE_KEY.findall(match.group(1))
        if keys and all(k in labels for k in keys):
            return "; ".join("@" + k for k in keys)
        missing = [k for k in keys if ctx.bib_keys is None or k not in ctx.bib_keys]
        if not missing:
            return match.group(0)
        where = "the post has no bibliography" if ctx.bib_keys is None else "not in its .bib"
        ctx.notes.add(
            line, f"citation {', '.join('@' + k for k in missing)}: {where}; kept as text"
        )
        return "[" + "; ".join(keys) + "]"

    text.sub(CITATION, citation)


BARE_CITE = re.compile(r"(?<![\w\\@\[;-])@([A-Za-z][\w:./+-]*[\w])")


def escape_bare_at(text: Text, ctx: PostContext) -> None:
    """``@torch.no_grad`` in prose would be a citation here: escape what the .bib lacks."""
    if ctx.bib_keys is None:
        return  # without a bibliography a bare @word stays text
    keys = ctx.bib_keys
    text.sub(BARE_CITE, lambda m, _l: m.group(0) if m.group(1) in keys else "\\" + m.group(0))


def defined_ids(text: str) -> set[str]:
    """The cross-reference targets ``text`` defines (``{#fig-x}``, ``\\label{eq:x}``)."""
    shown = HTML_COMMENT.sub("", FENCE.sub("", text))  # in code or left out: none
    return {a or b.replace(":", "-") for a, b in DEFINED_ID.findall(shown)}


def check_crossrefs(text: Text, ctx: PostContext, defined: set[str] | None = None) -> None:
    """``@fig-x`` to a figure that only an executed cell would make, or ``@exr-x`` to an
    exercise in another chapter of a Quarto book, stops the build: unlink it. ``defined``:
    the targets of the whole document, when ``text`` is one of its notebook's cells."""
    defined = defined_ids(text.text) if defined is None else defined

    def reference(match: Match[str], line: int) -> str:
        ident = match.group(2)
        if ident in defined:
            return match.group(0)
        ctx.notes.add(line, f"@{ident} refers to nothing that came across; kept as text")
        kind, name = ident.split("-", 1)
        return f"{REF_WORDS[kind]} {name}"

    text.sub(CROSSREF, reference)


LABEL = re.compile(r"\\label\s*\{([^{}]*_[^{}]*)\}")


def label_underscores(text: Text) -> None:
    """``\\label{eq:chain_rule}``: this site's math engine reads ``_`` in a label as a
    subscript; the label and every reference to it take ``-`` instead."""
    for label in set(LABEL.findall(text.text)):
        new = label.replace("_", "-")
        pattern = re.compile(r"\\(label|ref|eqref)\s*\{" + re.escape(label) + r"\}")

        def relabel(match: Match[str], _line: int, new: str = new) -> str:
            return f"\\{match.group(1)}{{{new}}}"

        text.sub(pattern, relabel)


TEXT_REF = re.compile(r"(?<![\\$])\\{1,2}(eqref|ref)\\?\{([^{}\\]+)\\?\}")


def citation(keys: list[str]) -> str:
    """Keys as this site's citation, ``[@a; @b]`` (nothing for none)."""
    keys = [k.strip() for k in keys if k.strip()]
    return "[" + "; ".join("@" + k for k in keys) + "]" if keys else ""


def text_refs(text: Text) -> None:
    """``\\ref{eq:x}`` in prose (MathJax read it there) as the formula ``$\\ref{eq:x}$``,
    which this site resolves wherever it stands. ``\\\\eqref{..}``, the backslash escaped
    as Pandoc and kramdown authors write it, is the same text once Markdown has run, and
    so is ``\\eqref\\{x}``, its brace escaped."""
    text.sub(TEXT_REF, lambda m, _l: text.hide(f"$\\{m.group(1)}{{{m.group(2)}}}$"))


TEX_IN_PROSE = re.compile(r"(?<![\\\w])\\(?!begin\b|end\b)(?:[a-z]{2,}|[A-Z][a-z]+)(?=[\s{_^(])")


def hide_leftovers(text: Text, ctx: PostContext) -> None:
    """Report every construct no converter took, and keep it out of the page.

    One a converter already commented out (a figure include whose file is missing) is
    reported; commenting it out again would leave `` -->`` in the page."""
    text.mask(HTML_COMMENT)
    for pattern, kind in LEFTOVERS:

        def leftover(match: Match[str], line: int, kind: str = kind) -> str:
            snippet = " ".join(match.group(0).split())
            if len(snippet) > 80:
                snippet = snippet[:77] + "..."
            ctx.notes.add(line, f"{kind} not converted: {snippet}")
            if kind == "custom element":
                return ""  # the tag goes, its content stays
            return text.hide(comment_out(match.group(0)))  # reported once, not per pattern

        text.sub(pattern, leftover)
    bare = re.compile(r"\\begin\{([\w*]+)\}")
    for match in bare.finditer(text.text):
        ctx.notes.add(text.line(match.start()), f"LaTeX \\begin{{{match.group(1)}}} outside math")
    # TeX in prose that no delimiter made math: the old page showed it as text too.
    lines: dict[int, str] = {}
    for match in TEX_IN_PROSE.finditer(text.text):
        lines.setdefault(text.line(match.start()), match.group(0))
    for line, command in lines.items():
        ctx.notes.add(line, f"LaTeX {command} outside math: shown as text, as it was")
