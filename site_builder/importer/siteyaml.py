"""Macros added to ``site.yaml``'s ``math.macros`` (and a top-level key set, such as an
al-folio site's ``author:`` profile), leaving the rest of the file as it was.

``site.yaml`` is the author's: its comments, its key order and its other settings
stay. New entries go at the end of the ``macros`` mapping (made if missing); a macro
the site already defines keeps its definition there. Only a ``math:`` or ``macros:``
written inline (``math: {macros: {...}}``) is rewritten, as the block it means.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from site_builder.config import math_macros
from site_builder.importer import macros
from site_builder.importer.report import ImportReport, Note

TOP_MATH = re.compile(r"^math[ \t]*:[ \t]*(.*?)[ \t]*$")
CHILD_MACROS = re.compile(r"^([ \t]+)macros[ \t]*:[ \t]*(.*?)[ \t]*$")


def defined(path: Path) -> dict[str, Any]:
    """The macros ``site.yaml`` defines now (none if it has none, or cannot be read)."""
    return _table(top_level(path))


def _table(data: Any) -> dict[str, Any]:
    """``math.macros`` as written (a body, or MathJax's list), when config.py accepts them
    (other ``math`` settings are not ours)."""
    math = data.get("math") if isinstance(data, dict) else None
    raw = math.get("macros") if isinstance(math, dict) else None
    if not isinstance(raw, dict) or isinstance(math_macros({"macros": raw}), str):
        return {}
    return {str(name).removeprefix("\\"): value for name, value in raw.items()}


def add_macros(path: Path, new: dict[str, Any]) -> list[str]:
    """Write the macros of ``new`` that ``site.yaml`` lacks; the names written."""
    have = defined(path)
    adding = {name: body for name, body in new.items() if name not in have}
    if not adding:
        return []
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    updated = _insert(text, have, adding)
    if _table(yaml.safe_load(updated)) != {**have, **adding}:
        raise ValueError("site.yaml's math settings are in a form the importer cannot extend")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(updated, encoding="utf-8")
    return list(adding)


def bring_macros(
    found: macros.SiteMacros, site: Path | None, report: ImportReport
) -> dict[str, Any]:
    """The old site's macros (``macros.read``) into ``site.yaml``; the macros in force
    there after."""
    if site is None:
        return {}
    config = site / "site.yaml"
    report.site_notes.extend(found.notes)
    have = defined(config)
    for name, (body, where) in found.found.items():
        if name in have and have[name] != body:
            message = f"macro \\{name} is {have[name]} in site.yaml already: kept there"
            report.site_notes.append(Note(where.path, where.line, message))
    try:
        report.macros = add_macros(config, {n: b for n, (b, _) in found.found.items()})
    except (OSError, ValueError) as exc:
        why = exc.strerror if isinstance(exc, OSError) else str(exc)
        report.site_notes.append(Note(config, None, f"macros not written: {why}"))
    return defined(config)


def show_errors(config: Path, report: ImportReport) -> None:
    """Formulas failed: show them as MathJax did (``show_math_errors``), or say why not."""
    try:
        report.errors_shown = show_math_errors(config)
    except (OSError, ValueError) as exc:
        why = exc.strerror if isinstance(exc, OSError) else str(exc)
        report.site_notes.append(Note(config, None, f"math errors: show not written: {why}"))


def show_math_errors(path: Path) -> bool:
    """Set ``math.errors: show`` unless ``site.yaml`` chose already; whether it was set.

    The old site's MathJax or KaTeX showed a formula it could not read in red and went
    on; an imported site does the same, each such formula listed by ``import``."""
    math = top_level(path).get("math")
    if isinstance(math, dict) and "errors" in math:
        return False
    lines = (path.read_text(encoding="utf-8") if path.is_file() else "").splitlines()
    top = next((i for i, line in enumerate(lines) if TOP_MATH.match(line)), None)
    if top is None:
        updated = _join(
            lines, [*([""] if lines and lines[-1].strip() else []), "math:"], ["  errors: show"]
        )
    else:
        end = top + 1
        while end < len(lines) and (not lines[end].strip() or lines[end][:1] in " \t#"):
            end += 1
        inline = TOP_MATH.match(lines[top])
        if inline and inline.group(1) and not inline.group(1).startswith("#"):
            data = yaml.safe_load("\n".join(lines[top:end])) or {}
            block = dump({"math": {**(data.get("math") or {}), "errors": "show"}})
            updated = _join(lines[:top], block.splitlines(), lines[end:])
        else:
            indent = _indent(lines[top + 1 : end]) or "  "
            updated = _join(lines[: top + 1], [f"{indent}errors: show"], lines[top + 1 :])
    loaded = yaml.safe_load(updated)
    if not isinstance(loaded, dict) or (loaded.get("math") or {}).get("errors") != "show":
        raise ValueError("site.yaml's math settings are in a form the importer cannot extend")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(updated, encoding="utf-8")
    return True


def top_level(path: Path) -> dict[str, Any]:
    """``site.yaml`` as data (empty if missing or unreadable): what a key holds now."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) if path.is_file() else None
    except (yaml.YAMLError, OSError, UnicodeDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


def set_key(path: Path, key: str, value: Any) -> None:
    """Write ``key: value`` at the top level, in place of the key's block if it has one.

    The block is the key's line and the indented lines under it; a comment at the left
    margin after it belongs to the next key, so it stays."""
    text = path.read_text(encoding="utf-8") if path.is_file() else ""
    lines = text.splitlines()
    block = dump({key: value}).splitlines()
    found = re.compile(re.escape(key) + r"[ \t]*:")
    start = next((i for i, line in enumerate(lines) if found.match(line)), None)
    if start is None:
        updated = _join(lines, block)
    else:
        end = start + 1
        while end < len(lines) and (not lines[end].strip() or lines[end][:1] in " \t"):
            end += 1
        while end > start + 1 and not lines[end - 1].strip():
            end -= 1
        updated = _join(lines[:start], block, lines[end:])
    loaded = yaml.safe_load(updated)
    if not isinstance(loaded, dict) or loaded.get(key) != value:
        raise ValueError(f"site.yaml's '{key}' is in a form the importer cannot replace")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(updated, encoding="utf-8")


def _entries(macros: dict[str, Any], indent: str) -> list[str]:
    dumped = dump(macros)
    return [indent + line for line in dumped.splitlines()]


class _Dumper(yaml.SafeDumper):
    """Text of several lines (a profile's bio) as a ``|`` block, as a person writes it."""


def _text(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value and value == value.strip() else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _text)


def dump(data: Any) -> str:
    """YAML as the author would write it: keys in order, text as text."""
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=10**6)


def _insert(text: str, have: dict[str, Any], adding: dict[str, Any]) -> str:
    lines = text.splitlines()
    top = next((i for i, line in enumerate(lines) if TOP_MATH.match(line)), None)
    if top is None:  # no math settings yet: a block of its own at the end
        block = ["math:", "  macros:", *_entries(adding, "    ")]
        return "\n".join([*lines, *([""] if lines and lines[-1].strip() else []), *block]) + "\n"
    end = top + 1
    while end < len(lines) and (not lines[end].strip() or lines[end][:1] in " \t#"):
        end += 1
    while end > top + 1 and not lines[end - 1].strip():
        end -= 1
    inline = TOP_MATH.match(lines[top])
    if inline and inline.group(1) and not inline.group(1).startswith("#"):
        data = yaml.safe_load("\n".join(lines[top:end])) or {}
        math = data["math"] if isinstance(data.get("math"), dict) else {}
        math = {**math, "macros": {**have, **adding}}
        return _join(lines[:top], dump({"math": math}).splitlines(), lines[end:])
    child = next((i for i in range(top + 1, end) if CHILD_MACROS.match(lines[i])), None)
    if child is None:
        indent = _indent(lines[top + 1 : end]) or "  "
        block = [f"{indent}macros:", *_entries(adding, indent * 2)]
        return _join(lines[: top + 1], block, lines[top + 1 :])
    found = CHILD_MACROS.match(lines[child])
    assert found is not None
    indent = found.group(1)
    last = child + 1
    while last < end and (not lines[last].strip() or len(_indent([lines[last]])) > len(indent)):
        last += 1
    while last > child + 1 and not lines[last - 1].strip():
        last -= 1
    if found.group(2) and not found.group(2).startswith("#"):  # macros: {R: ...} inline
        block = [f"{indent}macros:", *_entries({**have, **adding}, indent + "  ")]
        return _join(lines[:child], block, lines[last:])
    inner = _indent(lines[child + 1 : last]) or indent + "  "
    return _join(lines[:last], _entries(adding, inner), lines[last:])


def _indent(lines: list[str]) -> str:
    """The indentation of the first line that holds something."""
    for line in lines:
        if line.strip() and not line.lstrip().startswith("#"):
            return line[: len(line) - len(line.lstrip())]
    return ""


def _join(*parts: list[str]) -> str:
    return "\n".join(line for part in parts for line in part) + "\n"
