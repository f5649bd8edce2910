"""Citations, Pandoc/Quarto syntax: ``[@key]``, ``[see @a; @b, p. 3]``, ``[-@key]``, ``@key``.

Two inline rules turn the syntax into ``cite`` tokens; ``crossrefs`` claims the
ones that name an equation, figure or table (``@eq-x``), and this module's core
rule resolves the rest against the post's bibliography (``ctx.bibliography``,
parsed outside the Markdown stage). Numbers follow the order of first citation;
the References list holds only the entries the post cites.

Each cited key links to its entry in the References section and carries the
full reference in a tooltip shown by CSS on hover and keyboard focus
(``aria-describedby`` gives it to assistive technology): no JavaScript.

A bare ``@word`` in a post without a bibliography stays text, so a post that
mentions a handle does not need one; a bracketed citation does.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from markdown_it.utils import OptionsDict

from site_builder.bibliography import Entry
from site_builder.markdown.crossrefs import is_crossref, text_token
from site_builder.markdown.state import extension_state, inline_lines, needs, report

# Pandoc's citation keys: a letter, digit or _ first, then internal punctuation, which
# Pandoc takes only before a letter or digit: ``<a>@handle</a>`` is ``@handle``, its
# ``</a>`` the HTML it was (taken into the key, it showed as text).
# Any other key is written in braces, as Pandoc reads it: ``@{2003LNP...622..233H}`` (an
# ADS bibcode), ``@{li_ease--teaching_2019}`` (Zotero), ``@{salimans2017pixelcnn++}``.
_KEY = r"(?:\{[^\s{}]+\}|[\w](?:\w|[:.#$%&+?<>~/-](?=\w))*?)"
_KEY_END = r"(?=[.:;,?!)\]\s]*(?:[\s,;\])]|$))"
_ITEM = re.compile(
    rf"^(?P<prefix>(?:.*[\s(])?)(?P<suppress>-?)@(?P<key>{_KEY}){_KEY_END}(?P<suffix>.*)$", re.S
)
_BARE = re.compile(rf"@(?P<key>{_KEY})(?=[.:;,?!)]*(?:[^\w:.#$%&+?<>~/-]|$))")
NO_BIBLIOGRAPHY = (
    "add 'bibliography: file.bib' to the front matter or create content/references.bib"
)


@dataclass
class CitationState:
    count: int = 0  # citations rendered so far: each pop-up's id
    references_html: str = ""  # the References list of the entries cited, in order


def citations_plugin(md: MarkdownIt) -> None:
    md.inline.ruler.before("link", "citation_group", _parse_group)
    md.inline.ruler.before("link", "citation_bare", _parse_bare)
    md.core.ruler.before("text_join", "citations", _resolve)
    md.add_render_rule("cite", _render_cite)


# --- parse ------------------------------------------------------------------------------


def _parse_group(state: StateInline, silent: bool) -> bool:
    """``[prefix @key suffix; ...]``, not followed by ``(``, ``[`` or ``{`` (a link or span)."""
    src, start = state.src, state.pos
    if src[start] != "[" or "@" not in src[start : start + 200]:
        return False
    end = src.find("]", start + 1)
    if end < 0 or "[" in src[start + 1 : end] or src[end + 1 : end + 2] in ("(", "[", "{"):
        return False
    items = []
    for part in src[start + 1 : end].split(";"):
        match = _ITEM.match(part.strip())
        if match is None:
            return False
        items.append(_item(match, bracketed=True))
    if not silent:
        token = state.push("cite", "", 0)
        token.content = src[start : end + 1]
        token.meta = {"items": items, "bracketed": True}
    state.pos = end + 1
    return True


def _parse_bare(state: StateInline, silent: bool) -> bool:
    """``@key`` in running text; ``me@example.org`` is no citation (a word character before)."""
    src, start = state.src, state.pos
    if src[start] != "@" or (start > 0 and (src[start - 1].isalnum() or src[start - 1] in "_@")):
        return False
    match = _BARE.match(src, start)
    if match is None:
        return False
    if not silent:
        token = state.push("cite", "", 0)
        token.content = match.group(0)
        item = {"prefix": "", "suppress": False, "key": _unbraced(match.group("key")), "suffix": ""}
        token.meta = {"items": [item], "bracketed": False}
    state.pos = match.end()
    return True


def _item(match: re.Match[str], bracketed: bool) -> dict[str, Any]:
    return {
        "prefix": match.group("prefix"),
        "suppress": bool(match.group("suppress")),
        "key": _unbraced(match.group("key")),
        "suffix": match.group("suffix"),
    }


def _written(key: str) -> str:
    """``key`` as a post cites it: ``@key``, or ``@{key}`` when it needs the braces."""
    return f"@{key}" if re.fullmatch(_KEY, key) and not key.startswith("{") else f"@{{{key}}}"


def _unbraced(key: str) -> str:
    """``{key}``, Pandoc's form for a key with any characters, as the key itself."""
    return key[1:-1] if key.startswith("{") else key


# --- core rule: resolve, number, build the References list ------------------------------


def _resolve(state: StateCore) -> None:
    env = cast(dict[str, Any], state.env)
    ctx = env["ctx"]
    bibliography = ctx.bibliography
    order: dict[str, int] = {}
    for token in state.tokens:
        if token.type != "inline" or not token.children:
            continue
        if not any(c.type == "cite" for c in token.children):
            continue
        children = []
        for child, line in inline_lines(env, token):
            if child.type == "cite" and not _cite(env, child, line, bibliography, order):
                child = text_token(child.content)
            children.append(child)
        token.children = children
    if order and bibliography is not None:
        entries = [bibliography[k] for k in order]
        cited = extension_state(env, "citations", CitationState)
        cited.references_html = _references(entries, ctx.citation_style)
        if any("<math" in entry.html for entry in entries):  # a title's $...$ (bibliography)
            needs(env, "math")


def _cite(
    env: dict[str, Any], token: Token, line: int | None, bib: Any, order: dict[str, int]
) -> bool:
    """Resolve one citation in place; False when it should stay plain text."""
    items = token.meta["items"]
    keys = [item["key"] for item in items]
    if any(is_crossref(k) for k in keys):
        report(env, None, f"{token.content}: cite references and papers separately", line=line)
        return True
    if bib is None:
        if token.meta["bracketed"]:
            report(
                env,
                None,
                f"{token.content} cites a paper, but the post has no "
                f"bibliography: {NO_BIBLIOGRAPHY}",
                line=line,
            )
            return True
        return False
    known = True
    for key in keys:
        if key not in bib:
            close = difflib.get_close_matches(key, sorted(bib), n=1, cutoff=0.6)
            hint = f" (did you mean {_written(close[0])}?)" if close else ""
            report(env, None, f"unknown citation key {_written(key)}{hint}", line=line)
            known = False
    if not known:
        return True
    for key in keys:
        order.setdefault(key, len(order) + 1)
    token.meta["entries"] = [bib[key] for key in keys]
    token.meta["numbers"] = [order[key] for key in keys]
    return True


def _references(entries: list[Entry], style: str) -> str:
    # Entries come in order of first citation, so an entry's number is its position.
    if style == "numeric":
        items = "".join(
            f'<li id="ref-{escapeHtml(e.key)}" value="{number}">{e.html}</li>\n'
            for number, e in enumerate(entries, start=1)
        )
        return f'<ol class="references references-numeric">\n{items}</ol>\n'
    ordered = sorted(entries, key=lambda e: (e.authors.lower(), e.year, e.key))
    items = "".join(f'<li id="ref-{escapeHtml(e.key)}">{e.html}</li>\n' for e in ordered)
    return f'<ul class="references references-author-year">\n{items}</ul>\n'


# --- render -----------------------------------------------------------------------------


def _render_cite(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    meta = tokens[idx].meta
    numeric = env["ctx"].citation_style == "numeric"
    bracketed = meta["bracketed"]
    parts = []
    for item, entry, number in zip(meta["items"], meta["entries"], meta["numbers"], strict=True):
        if numeric:
            label = str(number)
        elif item["suppress"] or not bracketed:
            label = entry.year
        else:
            label = f"{entry.authors}, {entry.year}"
        # Numbered as rendered, not as parsed: a footnote's text is rendered twice (as a
        # sidenote and in the Notes list) and each copy needs ids of its own.
        cited = extension_state(env, "citations", CitationState)
        cited.count += 1
        tip = f"cite-{cited.count}"
        link = (
            f'<a href="#ref-{escapeHtml(entry.key)}" aria-describedby="{tip}">'
            f"{escapeHtml(label)}</a>"
            f'<span class="cite-tip" role="tooltip" id="{tip}">{escapeHtml(entry.text)}</span>'
        )
        prefix = escapeHtml(item["prefix"])
        suffix = escapeHtml(item["suffix"])
        parts.append(f'{prefix}<span class="cite">{link}</span>{suffix}')
    inner = "; ".join(parts)
    if not bracketed:  # in running text the author is part of the sentence
        entry = meta["entries"][0]
        open_, close = ("[", "]") if numeric else ("(", ")")
        return f'<span class="citation">{escapeHtml(entry.authors)} {open_}{inner}{close}</span>'
    if numeric:
        return f'<span class="citation">[{inner}]</span>'
    return f'<span class="citation">({inner})</span>'
