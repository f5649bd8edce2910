"""Helpers shared by the syntax extensions: source lines, error reporting, typed state.

Only block tokens carry ``map`` (source lines). Extensions report problems into
the document's errors instead of raising, so one run lists every mistake.

``env`` holds ``ctx`` (the :class:`MarkdownContext`), one :class:`Document` (what
the whole render collects for ``Rendered``), one dataclass per extension
(``extension_state``) and mdit-py-plugins' own ``footnotes`` record.
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from markdown_it.token import Token

from site_builder.errors import BuildError, BuildWarning, Location

T = TypeVar("T")


def extension_state(env: MutableMapping[str, Any], key: str, kind: type[T]) -> T:
    """An extension's document-wide state: one typed record under its own ``env`` key (as
    mdit-py-plugins keeps ``_FootnoteData``), made on first use. ``pipeline.render`` reads
    the records into :class:`Rendered`: the one contract between Markdown and pages."""
    found = env.get(key)
    if not isinstance(found, kind):
        found = kind()
        env[key] = found
    return found


@dataclass
class Document:
    """What every extension adds to as the document renders, read into ``Rendered`` by
    ``pipeline.render``."""

    errors: list[BuildError] = field(default_factory=list)
    warnings: list[BuildWarning] = field(default_factory=list)  # see ``warn``
    fragments: dict[tuple[str, ...], str] = field(default_factory=dict)  # see ``memoised``
    needs: dict[str, dict[str, None]] = field(default_factory=dict)  # see ``needs``
    files: dict[str, bytes] = field(default_factory=dict)  # written beside the page
    inline_svgs: int = 0  # drawings inlined so far: ids for those without a figure's


def document(env: MutableMapping[str, Any]) -> Document:
    return extension_state(env, "document", Document)


def source_line(env: MutableMapping[str, Any], token: Token | None) -> int | None:
    """The file line of a block token, or None when the token has no map."""
    if token is None or token.map is None:
        return None
    offset: int = env["ctx"].line_offset
    return offset + token.map[0] + 1


def report(
    env: MutableMapping[str, Any],
    token: Token | None,
    message: str,
    line: int | None = None,
    column: int | None = None,
) -> None:
    """Record a problem at a token's (or an explicit) source line."""
    path: Path | str = env["ctx"].path
    document(env).errors.append(BuildError(path, line or source_line(env, token), message, column))


def warn(
    env: MutableMapping[str, Any], message: str, line: int | None, column: int | None = None
) -> None:
    """Record a likely mistake that does not stop the build, at a source line (and column)."""
    location = Location(env["ctx"].path, line, column)
    document(env).warnings.append(BuildWarning(location, message))


def inline_lines(env: MutableMapping[str, Any], block: Token) -> list[tuple[Token, int | None]]:
    """Each child of an inline token with its file line, counting the line breaks before it."""
    line = source_line(env, block)
    out: list[tuple[Token, int | None]] = []
    for child in block.children or []:
        out.append((child, line))
        if child.type in ("softbreak", "hardbreak") and line is not None:
            line += 1
    return out


def memoised(
    env: MutableMapping[str, Any], key: tuple[str, ...], compute: Callable[[], str]
) -> str:
    """A fragment (a formula's MathML, a code block's highlighting) from the document's memo.

    The memo holds the fragments of the previous render of the same document, so
    re-rendering an edited post converts only what changed, and a process that
    needs nothing new never imports math-core or compiles a Pygments lexer.
    Errors are not memoised: ``compute`` raises again next time.
    """
    memo: dict[tuple[str, ...], str] | None = env["ctx"].memo
    used = document(env).fragments
    value = memo.get(key) if memo is not None else None
    if value is None:
        value = compute()
    used[key] = value
    return value


def needs(env: MutableMapping[str, Any], kind: str, url: str = "") -> None:
    """Note what the page needs (``"math"``, ``"code"``, or a ``"script"``/``"stylesheet"``
    URL) as it is rendered: ``pipeline`` makes ``Rendered.assets`` from it."""
    document(env).needs.setdefault(kind, {})[url] = None
