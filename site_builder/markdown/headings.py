"""Headings get stable, unique ids and a visible anchor link.

Ids come from the heading text (not a counter) so links survive edits
elsewhere in the post; repeats get ``-1``, ``-2``. Ids the page template uses
itself are reserved so a heading called "Notes" cannot collide with them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from markdown_it.utils import OptionsDict

from site_builder.markdown import Heading
from site_builder.markdown.crossrefs import KINDS, register
from site_builder.markdown.state import extension_state
from site_builder.slug import slugify

# Ids the page template or the other extensions use: a heading called "APA", "BibTeX",
# "fn1" or "Fig temperature" must not take them (``check`` fails a page with an id twice,
# and a link to the note or figure would land on the heading).
RESERVED_IDS = frozenset(
    {
        "notes",
        "cite",
        "main",
        "top",
        "title",
        "references",
        "apa",
        "bibtex",
        "cite-format-apa",
        "cite-format-bibtex",
        "toc-title",
    }
)
# Families of generated ids (footnotes, sidenotes, citation tooltips, references,
# equations, figures, tables, theorems): a heading slug like these is prefixed.
RESERVED_PATTERN = re.compile(r"(?:fn|sn|fnref|cite-)\d+|(?:ref|" + "|".join(KINDS) + r")-.*")


def headings_plugin(md: MarkdownIt) -> None:
    # Before cross-references resolve: ``@sec-x`` needs its heading's number.
    md.core.ruler.before("text_join", "heading_attributes", _take_attributes)
    md.core.ruler.push("heading_ids", _assign_ids)
    md.add_render_rule("heading_close", _render_close)


def _plain_text(inline: Token) -> str:
    return "".join(c.content for c in inline.children or [] if c.type in ("text", "code_inline"))


# Pandoc's attributes after a heading's text: ``{#sec-method}``, ``{.unnumbered}``, ``{-}``.
_ATTRIBUTES = re.compile(r"\s*\{((?:\s*(?:#[\w:.-]+|\.[\w-]+|-|[\w-]+=\S+))+)\s*\}\s*$")


def _take_attributes(state: StateCore) -> None:
    """Each heading's Pandoc attributes off its text; its id kept for ``_assign_ids``, and
    a ``#sec-`` one numbered for ``@sec-x``."""
    tokens = state.tokens
    for index, token in enumerate(tokens):
        if token.type == "heading_open" and (chosen := _attributes(tokens[index + 1])):
            token.meta["id"] = chosen
            if chosen.startswith("sec-"):
                register(cast(dict[str, Any], state.env), chosen, token)


def _attributes(inline: Token) -> str | None:
    """Take Pandoc's trailing ``{#id .class}`` off a heading (it showed as text); its id."""
    last = inline.children[-1] if inline.children else None
    if last is None or last.type != "text" or not (match := _ATTRIBUTES.search(last.content)):
        return None
    last.content = last.content[: match.start()]
    inline.content = _ATTRIBUTES.sub("", inline.content)
    ident = re.search(r"#([\w:.-]+)", match.group(1))
    return ident.group(1) if ident else None


@dataclass
class HeadingState:
    found: list[Heading] = field(default_factory=list)  # in document order: the TOC's


def _assign_ids(state: StateCore) -> None:
    """Ids in document order. Each text's counter resumes where it stopped, so 10,000
    equal headings cost 10,000 steps, not 50 million (the search restarted at ``-1``)."""
    used = set(RESERVED_IDS)
    children = (c for t in state.tokens if t.type == "inline" for c in t.children or ())
    if not any(c.type == "cite" for c in children):  # no References list on this page:
        used.discard("references")  # the author's ``## References`` is ``#references``
    counters: dict[str, int] = {}
    found = extension_state(state.env, "headings", HeadingState).found
    tokens = state.tokens
    for index, token in enumerate(tokens):
        if token.type != "heading_open":
            continue
        chosen = token.meta.get("id")
        text = _plain_text(tokens[index + 1])
        if chosen and chosen not in used:  # ``## Method {#sec-method}``: the author's id
            used.add(chosen)
            token.attrSet("id", chosen)
            tokens[index + 2].meta["anchor"] = (chosen, text)
            found.append(Heading(int(token.tag[1]), chosen, text))
            continue
        base = slugify(text)
        if RESERVED_PATTERN.fullmatch(base):
            base = f"section-{base}"
        n = counters.get(base, 0)
        ident = f"{base}-{n}" if n else base
        while ident in used:
            n += 1
            ident = f"{base}-{n}"
        counters[base] = n
        used.add(ident)
        token.attrSet("id", ident)
        tokens[index + 2].meta["anchor"] = (ident, text)
        found.append(Heading(int(token.tag[1]), ident, text))


def _render_close(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    token = tokens[idx]
    ident, text = token.meta.get("anchor", (None, ""))
    if not ident:
        return f"</{token.tag}>\n"
    return (
        f' <a class="heading-anchor" href="#{ident}" '
        f'aria-label="Link to section: {escapeHtml(text)}">#</a></{token.tag}>\n'
    )
