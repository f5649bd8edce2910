"""Footnotes: numbered, collected in a Notes list, and repeated as Tufte sidenotes.

Parsing is mdit-py-plugins' footnote plugin. A core rule after its
``footnote_tail`` gathers each note's inline tokens so the reference renderer
can set the same text beside the reference, in the margin, on wide screens.
The sidenote copy is ``aria-hidden``: assistive technology reads the Notes list
once, through the reference link, instead of hearing every note twice.

Below the margin breakpoint the sidenote is hidden and the reference is a
plain link to the Notes list; ``static/js/post.js`` turns it into a toggle
that opens the note in place (``aria-controls`` points at the sidenote's id),
so without JavaScript nothing is lost.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from markdown_it.utils import OptionsDict
from mdit_py_plugins.footnote import footnote_plugin

from site_builder.markdown.state import extension_state


@dataclass
class SidenoteState:
    notes: dict[int, list[Token]] = field(default_factory=dict)  # footnote id -> its inlines
    unused: list[str] = field(default_factory=list)  # labels defined but never referenced
    inside: bool = False  # rendering a sidenote's copy: a reference in it is plain text


def footnotes_plugin(md: MarkdownIt) -> None:
    footnote_plugin(md, inline=True, move_to_end=True)
    md.core.ruler.after("footnote_tail", "sidenote_collect", _collect)
    md.add_render_rule("footnote_ref", _render_ref)
    md.add_render_rule("footnote_block_open", _render_block_open)
    md.add_render_rule("footnote_block_close", _render_block_close)
    md.add_render_rule("footnote_open", _render_open)
    md.add_render_rule("footnote_close", _render_close)
    md.add_render_rule("footnote_anchor", _render_anchor)


def _collect(state: StateCore) -> None:
    """Map footnote id -> its inline tokens; flag definitions nobody references."""
    notes: dict[int, list[Token]] = {}
    current: int | None = None
    for token in state.tokens:
        if token.type == "footnote_open":
            current = int(token.meta["id"])
            notes[current] = []
        elif token.type == "footnote_close":
            current = None
        elif current is not None and token.type == "inline":
            notes[current].append(token)
    sidenotes = extension_state(state.env, "sidenotes", SidenoteState)
    sidenotes.notes = notes
    refs: dict[str, int] = state.env.get("footnotes", {}).get("refs", {})  # mdit's own state
    sidenotes.unused = [label[1:] for label, ident in refs.items() if ident < 0]


def _render_ref(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    token = tokens[idx]
    note_id = int(token.meta["id"])
    number = note_id + 1
    sub = int(token.meta.get("subId", 0))
    sidenotes = extension_state(env, "sidenotes", SidenoteState)
    if sidenotes.inside:
        # A note that cites a note (or itself), inside the margin copy: just the
        # number. A link would repeat the reference's id, and a nested sidenote
        # would never end.
        return f'<sup class="footnote-ref">{number}</sup>'
    ref_id = f"fnref{number}" + (f":{sub}" if sub else "")
    html = (
        f'<sup class="footnote-ref"><a href="#fn{number}" id="{ref_id}" '
        f'aria-label="Note {number}">{number}</a></sup>'
    )
    if sub == 0:
        sidenotes.inside = True
        inline = [
            self.renderInline(t.children or [], options, env)
            for t in sidenotes.notes.get(note_id, [])
        ]
        sidenotes.inside = False
        # The margin copy is aria-hidden (the Notes list is what assistive
        # technology reads), so its links must not take keyboard focus either.
        inline = [part.replace("<a ", '<a tabindex="-1" ') for part in inline]
        html += (
            f'<span class="sidenote" id="sn{number}" aria-hidden="true">'
            f'<span class="sidenote-number">{number}</span> {" ".join(inline)}</span>'
        )
    return html


def _render_block_open(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    return '<ol class="footnotes-list">\n'


def _render_block_close(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    return "</ol>\n"


def _render_open(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    return f'<li id="fn{int(tokens[idx].meta["id"]) + 1}" class="footnote-item">'


def _render_close(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    return "</li>\n"


def _render_anchor(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    token = tokens[idx]
    number = int(token.meta["id"]) + 1
    sub = int(token.meta.get("subId", 0))
    ref_id = f"fnref{number}" + (f":{sub}" if sub else "")
    return (
        f' <a href="#{ref_id}" class="footnote-backref" '
        f'aria-label="Back to reference {number}{f" ({sub + 1})" if sub else ""}">'
        # The arrow is decoration: the label names the link, and a screen
        # reader should not announce "leftwards arrow with hook" as well.
        '<span aria-hidden="true">\u21a9\ufe0e</span></a>'
    )
