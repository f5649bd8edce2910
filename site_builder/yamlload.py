"""YAML parsing with the C loader when available and errors mapped to file lines."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

try:  # libyaml parses front matter ~8x faster than the pure-Python loader
    from yaml import CSafeLoader as _BaseLoader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader as _BaseLoader  # type: ignore[assignment]

from site_builder.errors import BuildError
from site_builder.sources import CONTROL, control_message

_TIMESTAMP = "tag:yaml.org,2002:timestamp"


class _Loader(_BaseLoader):
    """Safe loader that keeps dates as text.

    PyYAML turns ``2026-02-30`` into a ValueError with no line, and ``2026-01-01``
    into a naive date; we parse dates ourselves so both get a line and a time zone.
    """


_Loader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != _TIMESTAMP]
    for first, resolvers in _BaseLoader.yaml_implicit_resolvers.items()
}


def loads(text: str) -> Any:
    """``text`` parsed as :func:`load_yaml` parses it (dates kept as text, for the post's
    own checks to read), PyYAML's errors raised as they are."""
    return yaml.load(text, Loader=_Loader)


def load_yaml(text: str, path: Path, line_offset: int = 0) -> Any:
    """Parse ``text``; a YAML error becomes a BuildError at the file's line (YAML's + offset)."""
    try:
        data = loads(text)
    except yaml.MarkedYAMLError as exc:
        # YAML notices a problem where it gives up; the construct it was reading
        # (an unclosed quote or bracket) started at the context mark, which is
        # usually where the typo is. Point there and mention the other line.
        problem_line = exc.problem_mark.line + 1 + line_offset if exc.problem_mark else None
        context_line = exc.context_mark.line + 1 + line_offset if exc.context_mark else None
        line = context_line or problem_line
        last_line = len(text.rstrip().split("\n")) + line_offset
        if line is not None and line > last_line:  # "end of stream": blame the last line
            line = last_line
        message = f"invalid YAML: {exc.problem or exc.context or 'syntax error'}"
        if exc.context and context_line and problem_line and context_line != problem_line:
            message += f" ({exc.context} started here; noticed on line {problem_line})"
        raise BuildError(path, line, message) from None
    except yaml.YAMLError as exc:
        raise BuildError(path, None, f"invalid YAML: {exc}") from None
    if _has_control(data):
        _stop_at_control(text, path, line_offset)
    return data


def _has_control(data: Any) -> bool:
    """Whether a key or text value holds a control character: an escape such as ``"\\a"``
    makes one that the file's bytes (checked before parsing) do not show. Each object is
    visited once: YAML's aliases share them, and the expanded tree of a few nested
    ``&a [*b, *b, ...]`` lines (the "billion laughs") is astronomically large."""
    pending, seen = [data], set()
    while pending:
        item = pending.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        if isinstance(item, str):
            if CONTROL.search(item) is not None:
                return True
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return False


def _stop_at_control(text: str, path: Path, line_offset: int) -> None:
    """Raise at the escape that makes the first control character (composed again, with
    marks: only a file that has one pays for it)."""
    pending = [yaml.compose(text, Loader=_Loader)]
    while pending:
        node = pending.pop(0)
        if isinstance(node, yaml.ScalarNode):
            match = CONTROL.search(node.value)
            if match:
                char, start, end = match.group(), node.start_mark.index, node.end_mark.index
                escapes = _ESCAPE.finditer(text, start, end)
                found = next((m for m in escapes if _unescape(m.group()) == char), None)
                at = found.start() if found else start
                line = text.count("\n", 0, at) + 1 + line_offset
                column = at - (text.rfind("\n", 0, at) + 1) + 1
                message = control_message(char, found.group() if found else "")
                raise BuildError(path, line, message, column)
        elif isinstance(node, yaml.MappingNode):
            pending[:0] = [part for pair in node.value for part in pair]
        elif isinstance(node, yaml.SequenceNode):
            pending[:0] = node.value


_ESCAPE = re.compile(r"\\(?:[0abvfe]|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8})")
_SHORT = {"0": "\x00", "a": "\x07", "b": "\x08", "v": "\x0b", "f": "\x0c", "e": "\x1b"}


def _unescape(escape: str) -> str:
    """The character a YAML double-quoted escape (one of ``_ESCAPE``'s) stands for."""
    return _SHORT.get(escape[1]) or chr(int(escape[2:], 16))
