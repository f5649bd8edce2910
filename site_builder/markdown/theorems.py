"""Theorem-like blocks, numbered per kind, and proofs ending with ∎.

Quarto's syntax, so posts move between tools: the id's prefix names the kind
(``#thm-`` theorem, ``#lem-`` lemma, ``#cor-`` corollary, ``#prp-``
proposition, ``#def-`` definition, ``#exm-`` example, ``#exr-`` exercise),
``name="..."`` the optional name::

    ::: {#thm-conv name="Convergence"}
    Gradient descent with step $\\eta < 2/L$ converges.
    :::

    ::: {.proof}
    By the descent lemma, @lem-descent.
    :::

Each kind counts on its own through ``crossrefs`` (``@thm-conv`` reads
"Theorem 1", like equations and figures). The label opens the block's first
paragraph, as LaTeX sets it ("**Theorem 1** (Convergence). Gradient...");
the proof's ∎ closes its last paragraph, at the right margin.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, cast

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from markdown_it.utils import OptionsDict
from mdit_py_plugins.container import container_plugin

from site_builder.markdown.attributes import braced_match, parse_attributes
from site_builder.markdown.crossrefs import KINDS, register
from site_builder.markdown.state import report

# The kinds this module numbers, as ``crossrefs.KINDS`` names them.
THEOREM_KINDS = ("thm", "lem", "cor", "prp", "def", "exm", "exr")
# LaTeX's ``plain`` style (italic body) for statements; ``definition`` style for the rest.
_STATEMENTS = {"thm", "lem", "cor", "prp"}
_THEOREM = re.compile(r"(?:^|\s)#(?:" + "|".join(THEOREM_KINDS) + r")-")
_PROOF = re.compile(r"^\s*(?:\{\s*\.proof(?:\s[^}]*)?\}|\.?proof)\s*$")


def theorems_plugin(md: MarkdownIt) -> None:
    """Use before ``crossrefs``, which resolves ``@thm-`` references."""
    container_plugin(md, "theorem", validate=_validate_theorem, render=_render_theorem)
    container_plugin(md, "proof", validate=_validate_proof, render=_render_proof)
    # Right after inline parsing, so that a name's ``$x$`` is converted with the rest.
    md.core.ruler.after("inline", "theorem_names", _parse_names)
    md.core.ruler.before("text_join", "theorems", _prepare)
    md.add_render_rule("theorem_label", _render_label)
    md.add_render_rule("theorem_name_open", lambda *a: " (")
    md.add_render_rule("theorem_name_close", _render_name_close)
    md.add_render_rule("proof_end", _render_end)


def _validate_theorem(params: str, markup: str) -> bool:
    return braced_match(params, _THEOREM)


def _validate_proof(params: str, markup: str) -> bool:
    return bool(_PROOF.match(params))


# --- core rule: number, label, end proofs ---------------------------------------------------


def _parse_names(state: StateCore) -> None:
    """A ``name="Cauchy-Schwarz in $L^2$"`` is Markdown, math included, as Quarto reads it:
    parsed into the block's first paragraph, after the label ``_prepare`` puts there."""
    tokens = state.tokens
    for idx, token in enumerate(tokens):
        if token.type not in ("container_theorem_open", "container_proof_open"):
            continue
        parsed = parse_attributes(token.info) if "{" in token.info else None
        name = parsed[2].get("name") if parsed else None
        if not name or idx + 2 >= len(tokens) or tokens[idx + 1].type != "paragraph_open":
            continue  # no name, or no paragraph to hold it: the label names it as text
        children: list[Token] = []
        state.md.inline.parse(name, state.md, state.env, children)
        inline = tokens[idx + 2]
        opening, closing = Token("theorem_name_open", "", 0), Token("theorem_name_close", "", 0)
        inline.children = [opening, *children, closing, *(inline.children or [])]


def _prepare(state: StateCore) -> None:
    env = cast(dict[str, Any], state.env)
    tokens = state.tokens
    for idx, token in enumerate(tokens):
        if token.type == "container_theorem_open":
            _prepare_theorem(env, tokens, idx)
        elif token.type == "container_proof_open":
            parsed = parse_attributes(token.info) if "{" in token.info else None
            name = parsed[2].get("name") if parsed else None
            _label(tokens, idx, {"html": "Proof", "name": name, "proof": True})
            _end_proof(tokens, idx)


def _prepare_theorem(env: dict[str, Any], tokens: list[Token], idx: int) -> None:
    token = tokens[idx]
    parsed = parse_attributes(token.info)
    if parsed is None:
        report(env, token, f"cannot read theorem attributes {token.info.strip()}")
        return
    ident, classes, attrs = parsed
    assert ident is not None  # _validate_theorem saw the #kind- id
    number = register(env, ident, token)
    if number is None:
        return
    kind = ident.split("-", 1)[0]
    title = KINDS[kind][0]
    style = "theorem-plain" if kind in _STATEMENTS else "theorem-definition"
    css = " ".join(dict.fromkeys(["theorem", KINDS[kind][1], style, *classes]))
    token.meta = {"id": ident, "class": css}
    _label(tokens, idx, {"html": f"{title} {number}", "name": attrs.get("name")})


def _body(tokens: list[Token], idx: int) -> tuple[int, int]:
    """The indexes of the block's first body token and of its closing token."""
    level = tokens[idx].level
    close = next(i for i in range(idx + 1, len(tokens)) if tokens[i].level == level)
    return idx + 1, close


def _label(tokens: list[Token], idx: int, label: dict[str, Any]) -> None:
    """Start the first paragraph with the label; with none first, the block opens with it."""
    first, close = _body(tokens, idx)
    if first < close and tokens[first].type == "paragraph_open":
        inline = tokens[first + 1]
        children = inline.children or []
        if children and children[0].type == "theorem_name_open":  # ``_parse_names``'
            label = {**label, "name": None, "open": True}
            closing = next(c for c in children if c.type == "theorem_name_close")
            closing.meta = {"proof": bool(label.get("proof"))}
        inline.children = [Token("theorem_label", "", 0, meta=label), *children]
    else:
        tokens[idx].meta["label"] = label


def _end_proof(tokens: list[Token], idx: int) -> None:
    first, close = _body(tokens, idx)
    if close - 1 > first and tokens[close - 1].type == "paragraph_close":
        inline = tokens[close - 2]
        inline.children = [*(inline.children or []), Token("proof_end", "", 0)]
    else:
        tokens[close].meta["end"] = True


# --- render -------------------------------------------------------------------------------


def _label_html(label: dict[str, Any]) -> str:
    """The label; left open (``open``) when the name's own tokens follow it."""
    name = f" ({escapeHtml(label['name'])})" if label.get("name") else ""
    if label.get("proof"):
        head = f'<span class="theorem-label"><em>{label["html"]}'
        return head if label.get("open") else f"{head}{name}.</em></span> "
    head = f'<span class="theorem-label"><strong>{label["html"]}</strong>'
    return head if label.get("open") else f"{head}{name}.</span> "


def _render_name_close(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    return ").</em></span> " if tokens[idx].meta.get("proof") else ").</span> "


def _render_label(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    return _label_html(tokens[idx].meta)


_QED = '<span class="qed" role="img" aria-label="End of proof">∎</span>'


def _render_end(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    return _QED


def _render_theorem(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    token = tokens[idx]
    if token.nesting == -1:
        return "</div>\n"
    meta = token.meta
    if "id" not in meta:  # reported as an error: the build stops before the page is written
        return "<div>\n"
    opening = f'<div id="{escapeHtml(meta["id"])}" class="{escapeHtml(meta["class"])}">\n'
    if "label" in meta:
        opening += f"<p>{_label_html(meta['label']).rstrip()}</p>\n"
    return opening


def _render_proof(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    token = tokens[idx]
    if token.nesting == -1:
        end = f'<p class="qed-line">{_QED}</p>\n' if token.meta.get("end") else ""
        return f"{end}</div>\n"
    opening = '<div class="proof">\n'
    if "label" in token.meta:
        opening += f"<p>{_label_html(token.meta['label']).rstrip()}</p>\n"
    return opening
