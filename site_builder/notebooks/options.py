"""What a code cell asks for: Quarto's ``#|`` options, Jupyter Book's tags, fastpages' flags.

Three tools, one meaning each, read into one :class:`CellOptions`:

- Quarto (and nbdev) write YAML options as the cell's first lines, ``#| echo: false``
  (``//|`` in languages whose comments start so). The lines never reach the page.
  nbdev's bare ``#| hide`` and ``#| default_exp`` hide the cell.
- Jupyter Book tags the cell: ``remove-cell``, ``remove-input``, ``remove-output``,
  ``hide-input`` (the code in a closed ``<details>``), ``hide-output``, ``hide-cell``.
- fastpages put a comment on the first line: ``#hide``, ``#hide_input``,
  ``#collapse`` / ``#collapse-hide`` (folded), ``#collapse-show`` (folded, open),
  ``#hide_output``. Real fastpages posts use them everywhere, so they are read too.

A document-wide default (the front matter's ``execute: {echo: false}``, or
``code-fold: true`` under ``format: html``) is applied first; the cell's own win.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

_OPTION = re.compile(r"^\s*(#|//|--|%)\|\s?(.*)$")
_FASTPAGES = re.compile(
    r"^\s*#\s*(hide|hide[_-]input|hide[_-]output|collapse(?:[_-](?:hide|show|output))?)\s*$"
)


@dataclass(frozen=True)
class CellOptions:
    echo: bool = True  # show the code
    output: bool = True  # show the outputs
    fold: bool = False  # the code in a <details>
    fold_open: bool = False
    fold_output: bool = False  # the outputs in a <details>
    summary: str = "Code"
    warning: bool = True  # show stderr
    label: str | None = None  # ``fig-...``: the cell's images are a numbered figure
    caption: str | None = None
    alt: str | None = None
    eval: bool = True

    @property
    def include(self) -> bool:
        return self.echo or self.output


HIDDEN = CellOptions(echo=False, output=False)


@dataclass(frozen=True)
class ParsedCell:
    """A code cell's source without its option lines, and what they asked for."""

    source: str
    first_line: int  # 1-based line in the cell of the source's first line
    options: CellOptions
    problem: str | None = None  # an option block that is not YAML (named, not fatal)


def document_defaults(front: dict[str, Any]) -> CellOptions:
    """``execute: {echo: false, output: false}`` and ``format: {html: {code-fold: true}}``."""
    merged: dict[str, Any] = {}
    execute = front.get("execute")
    if isinstance(execute, dict):
        merged.update(execute)
    fmt = front.get("format")
    html = fmt.get("html") if isinstance(fmt, dict) else None
    if isinstance(html, dict):
        merged.update({k: v for k, v in html.items() if k.startswith("code-")})
    for key in ("code-fold", "code-summary", "echo"):
        if key in front:
            merged[key] = front[key]
    return _apply(CellOptions(), merged)


def parse_cell(source: str, tags: list[str], defaults: CellOptions) -> ParsedCell:
    """Split the option lines off ``source`` and combine them with the cell's tags."""
    lines = source.split("\n")
    option_lines: list[str] = []
    flags: dict[str, Any] = {}
    index = 0
    while index < len(lines):
        match = _OPTION.match(lines[index])
        if match:
            option_lines.append(match.group(2))
        else:
            flag = _FASTPAGES.match(lines[index])
            if not flag:
                break
            flags.update(_fastpages(flag.group(1).replace("_", "-")))
        index += 1
    options, problem = _read_options(option_lines)
    options.update(flags)
    options.update(_tags(tags))
    rest = "\n".join(lines[index:]).strip("\n")
    first = index + 1 + _leading_blank_lines(lines[index:])
    return ParsedCell(rest, first, _apply(defaults, options), problem)


def _leading_blank_lines(lines: list[str]) -> int:
    count = 0
    for line in lines:
        if line.strip():
            break
        count += 1
    return count


def _read_options(lines: list[str]) -> tuple[dict[str, Any], str | None]:
    if not lines:
        return {}, None
    import yaml

    found: dict[str, Any] = {}
    yaml_lines = []
    for line in lines:
        word = line.strip()
        if word in ("hide", "default_exp") or word.startswith("default_exp "):
            found["include"] = False  # nbdev: a cell that only configures the export
        elif ":" in word:
            yaml_lines.append(line)
        # other bare words (nbdev's ``export``, ``exporti``) only steer nbdev itself
    try:
        data = (
            yaml.load("\n".join(yaml_lines), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
            if yaml_lines
            else {}
        )
    except yaml.YAMLError as exc:
        return found, f"cell options are not YAML ({str(exc).splitlines()[0]})"
    if isinstance(data, dict):
        found.update({str(k): v for k, v in data.items()})
    return found, None


def _fastpages(flag: str) -> dict[str, Any]:
    meanings: dict[str, dict[str, Any]] = {
        "hide": {"include": False},
        "hide-input": {"echo": False},
        "hide-output": {"output": False},
        "collapse": {"code-fold": True},
        "collapse-hide": {"code-fold": True},
        "collapse-show": {"code-fold": "show"},
        "collapse-output": {"fold-output": True},
    }
    return meanings.get(flag, {})


def _tags(tags: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for tag in tags:
        out.update(
            {
                "remove-cell": {"include": False},
                "remove-input": {"echo": False},
                "remove-output": {"output": False},
                "hide-input": {"code-fold": True},
                "hide-output": {"fold-output": True},
                "hide-cell": {"code-fold": True, "fold-output": True},
            }.get(tag, {})
        )
    return out


def _apply(base: CellOptions, options: dict[str, Any]) -> CellOptions:
    """Quarto's option names onto :class:`CellOptions`; unknown options are ignored, as
    Quarto ignores the ones another engine reads."""
    if options.get("include") is False:
        return replace(base, echo=False, output=False)
    changes: dict[str, Any] = {}
    if "echo" in options:
        changes["echo"] = options["echo"] is not False  # ``fenced`` still shows code
    if "output" in options:
        changes["output"] = options["output"] is not False
    if "eval" in options:
        changes["eval"] = options["eval"] is not False
    if "warning" in options:
        changes["warning"] = options["warning"] is not False
    fold = options.get("code-fold")
    if fold is not None:
        changes["fold"] = fold is True or fold == "show"
        changes["fold_open"] = fold == "show"
    if options.get("fold-output"):
        changes["fold_output"] = True
    for key, field in (
        ("code-summary", "summary"),
        ("label", "label"),
        ("fig-cap", "caption"),
        ("fig-alt", "alt"),
    ):
        value = options.get(key)
        if isinstance(value, str | int | float) and str(value).strip():
            changes[field] = " ".join(str(value).split())
    return replace(base, **changes)
