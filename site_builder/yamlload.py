"""YAML parsing with the C loader when available and errors mapped to file lines."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

try:  # libyaml parses front matter ~8x faster than the pure-Python loader
    from yaml import CSafeLoader as _BaseLoader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader as _BaseLoader  # type: ignore[assignment]

from site_builder.errors import BuildError

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


def load_yaml(text: str, path: Path, line_offset: int = 0) -> Any:
    """Parse ``text``; a YAML error becomes a BuildError at the file's line (YAML's + offset)."""
    try:
        return yaml.load(text, Loader=_Loader)
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
