"""Equation numbers: LaTeX's environments, ``\\tag``, ``\\label`` and Quarto's ``{#eq-...}``.

Numbers come from the post's one counter (``crossrefs.register``), so
``@eq-x``, ``\\eqref{x}`` and ``\\ref{x}`` agree with what the formula shows
whichever way it was labelled. Each numbered line gets an explicit
``\\tag{N}`` and ``\\label{eq-x}`` and every other line of a numbered
environment a ``\\notag``; math-core then sets the number at the right margin
with the formula centred, as LaTeX does, and puts the id on the number. A
plain display formula that is numbered becomes an ``equation*`` with its tag.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from site_builder.markdown.crossrefs import equation_id
from site_builder.markdown.math.engine import MathError
from site_builder.markdown.math.source import Edit, Source, rows_of

# (label id or None, the author's \tag text or None) -> the tag to show, None if refused
Register = Callable[[str | None, str | None], int | str | None]

_ENVIRONMENT = re.compile(
    r"\s*\\begin\s*\{(equation|align|gather|multline)(\*?)\}(.*)\\end\s*\{\1\2\}\s*", re.DOTALL
)
_LABEL = re.compile(r"\\label\s*\{([^{}]*)\}")
_TAG = re.compile(r"\\tag(\*?)\s*\{([^{}]*)\}")
_NOTAG = re.compile(r"\\(?:notag|nonumber)(?![A-Za-z])")
# What math-core takes as a tag; anything else (``\tag{$\star$}``) is set as math in its place.
_PLAIN_TAG = re.compile(r"[A-Za-z0-9 .,:;*+/()-]*")  # no "'": math-core refuses it
PLACEHOLDER = "sbtag{}"
LABEL = "sbid{}"


def tag_latex(tag: str, starred: bool) -> str:
    """An author's tag as math: ``$...$`` parts as formulas, the rest as text, in parentheses
    unless ``\\tag*``."""
    parts = re.split(r"\$([^$]*)\$", tag)
    latex = "".join(p if i % 2 else (f"\\text{{{p}}}" if p else "") for i, p in enumerate(parts))
    return latex if starred else f"\\text{{(}}{latex}\\text{{)}}"


def number(
    source: Source,
    ident: str | None,
    register: Register,
    tags: dict[str, str],
    ids: dict[str, str],
) -> bool:
    """Tag and label the numbered lines of a display formula; True if any line is numbered.

    A tag math-core cannot take as text goes into ``tags`` (placeholder -> LaTeX to set
    in its place), and the formula carries the placeholder as its tag. Labels go to
    math-core as ASCII placeholders too (it takes no ``_`` or ``é``), mapped to the
    page's ids in ``ids``.
    """
    text = source.text
    env = _ENVIRONMENT.fullmatch(text)
    if env is None:
        spans, numbered_env = [(0, len(text))], False
    elif env.group(1) in ("equation", "multline"):  # one number for the whole environment
        spans, numbered_env = [env.span(3)], not env.group(2)
    else:
        start = env.start(3)
        spans = [(start + s, start + e) for s, e in rows_of(env.group(3))]
        numbered_env = not env.group(2)
    edits: list[Edit] = []
    rows = [_Row(text, span, edits) for span in spans]
    wanted = [
        bool(row.label or row.tag is not None or (numbered_env and not row.notag and row.filled))
        for row in rows
    ]
    if ident is not None:  # {#eq-x}: the first numbered line without a label of its own
        free = [i for i, row in enumerate(rows) if wanted[i] and not row.label]
        chosen = free[0] if free else len(rows) - 1
        if rows[chosen].label:
            raise MathError(f"this equation has both {{#{ident}}} and \\label")
        rows[chosen].label, wanted[chosen] = ident, True
    for row, numbered in zip(rows, wanted, strict=True):
        end = row.span[1]
        if not numbered:
            if numbered_env:
                edits.append((end, end, "\\notag "))
            continue
        shown = register(row.label, row.tag)
        if shown is None:
            continue
        tag = row.written_tag if row.tag is not None else f"\\tag{{{shown}}}"
        if row.tag is not None and not _PLAIN_TAG.fullmatch(row.tag):
            placeholder = PLACEHOLDER.format(len(tags))
            tags[placeholder] = tag_latex(row.tag, row.written_tag.startswith("\\tag*"))
            tag = f"\\tag*{{{placeholder}}}"
        label = ""
        if row.label:
            marker = LABEL.format(len(ids))
            ids[marker] = row.label
            label = f"\\label{{{marker}}}"
        edits.append((end, end, f"{tag}{label}"))
    if env is None and any(wanted):
        edits.append((0, 0, "\\begin{equation*}"))
        edits.append((len(text), len(text), "\\end{equation*}"))
    source.edit(sorted(edits, key=lambda e: (e[0], e[1])))
    return any(wanted)


class _Row:
    """One line of a display formula: its label, tag and ``\\notag``, taken out of the text."""

    def __init__(self, text: str, span: tuple[int, int], edits: list[Edit]) -> None:
        self.span = span
        row = text[span[0] : span[1]]
        labels = list(_LABEL.finditer(row))
        tags = list(_TAG.finditer(row))
        if len(labels) > 1:
            raise MathError("a numbered line takes one \\label", span[0] + labels[1].start())
        if len(tags) > 1:
            raise MathError("a numbered line takes one \\tag", span[0] + tags[1].start())
        self.label = equation_id(labels[0].group(1)) if labels else None
        self.tag = tags[0].group(2).strip() if tags else None
        self.written_tag = tags[0].group() if tags else ""
        self.notag = bool(_NOTAG.search(row))
        removed = [*labels, *tags, *_NOTAG.finditer(row)]
        for match in sorted(removed, key=lambda m: m.start()):
            edits.append((span[0] + match.start(), span[0] + match.end(), ""))
        self.filled = bool(_NOTAG.sub("", _LABEL.sub("", row)).strip())
