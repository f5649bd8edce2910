"""Jekyll's Liquid control flow in a post, run on import as Jekyll ran it before Markdown.

A post that loops over its own front matter (``{% assign ppls = page.ppls | split: ',' %}``
then ``{% for ppl in ppls %}``) or over ``site.data`` (a ``_data/*.csv`` drawn as a
table) has no page without those loops run: left alone, every tag in them shows as
text. Each top-level ``for``/``if``/``unless``/``case``/``tablerow`` block is rendered
here by python-liquid, with ``page`` (the front matter) and ``site`` (``_config.yml`` and
``_data/``), and the ``assign`` tags before it. Jekyll's own tags inside a block
(``{% highlight %}``, ``{% include_relative %}``) are not Liquid's: they pass through as
text, with any ``{{ variable }}`` in them filled in, for the converters after this one.
A block that cannot run (an undefined variable, a filter only Jekyll has) stays as it
was and is reported at its line. ``{% include_relative file %}`` then becomes the
file's text, as Jekyll inserted it.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import yaml
from liquid import Environment, StrictUndefined
from liquid.exceptions import LiquidError

from site_builder.importer.common import comment_out
from site_builder.importer.jekyll import site_config
from site_builder.importer.report import PostNotes
from site_builder.importer.text import Text

TAG = re.compile(r"(?s)\{%-?\s*(\w+)(.*?)-?%\}")
BLOCKS = frozenset({"for", "if", "unless", "case", "tablerow"})
# Liquid's own tags; any other (``highlight``, Jekyll's ``include``) is Jekyll's.
LIQUID = BLOCKS | {
    "assign", "capture", "when", "cycle", "decrement", "increment", "echo", "break",
    "continue", "elsif", "else", "comment", "ifchanged",
}  # fmt: skip
# Code Jekyll's Liquid did not run (``{% raw %}``), or that the importer keeps verbatim.
PROTECTED = re.compile(
    r"(?s)\{%-?\s*raw\s*-?%\}.*?\{%-?\s*endraw\s*-?%\}"
    r"|(?m:^[ \t>]*(`{3,}|~{3,})[^\n]*\n.*?^[ \t>]*\1[`~]*[ \t]*$)"
)
INCLUDE_RELATIVE = re.compile(r"\{%-?\s*include_relative\s+([^\s%{}]+)\s*-?%\}")
HIDDEN_OPEN, HIDDEN_CLOSE = "\x06", "\x07"


def site_variables(source: Path) -> dict[str, Any]:
    """``site`` as a post's Liquid saw it: ``_config.yml``, and ``_data/`` as ``site.data``.

    ``baseurl`` and ``url`` are empty: a path a block writes stays root-relative, where
    the importer finds the file it names."""
    return {**site_config(source), "baseurl": "", "url": "", "data": _data(source / "_data")}


def _data(folder: Path) -> dict[str, Any]:
    """``_data/a/b.csv`` as ``data["a"]["b"]``: a list of rows (dicts) or parsed YAML/JSON."""
    found: dict[str, Any] = {}
    if not folder.is_dir():
        return found
    for file in sorted(folder.rglob("*")):
        if not file.is_file():
            continue
        try:
            value = _read_data(file)
        except (OSError, UnicodeDecodeError, ValueError, yaml.YAMLError, csv.Error):
            continue
        if value is None:
            continue
        parts = file.relative_to(folder).with_suffix("").parts
        node = found
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = value
    return found


def _read_data(file: Path) -> Any:
    suffix = file.suffix.lower()
    if suffix in (".csv", ".tsv"):
        text = file.read_text(encoding="utf-8")
        return list(csv.DictReader(text.splitlines(), delimiter="\t" if suffix == ".tsv" else ","))
    if suffix in (".yml", ".yaml"):
        return yaml.safe_load(file.read_text(encoding="utf-8"))
    if suffix == ".json":
        return json.loads(file.read_text(encoding="utf-8"))
    return None


class _Bounded(Environment):
    """Liquid with limits: ``{% for i in (1..1000000000) %}`` in an old post ran unbounded
    (an import that never ended). Past one, the tag stays as written and is reported."""

    loop_iteration_limit = 100_000
    output_stream_limit = 10_000_000


def _environment() -> Environment:
    env = _Bounded(undefined=StrictUndefined)
    for name in ("relative_url", "absolute_url"):  # Jekyll's, with an empty baseurl
        env.filters[name] = lambda value: "" if value is None else str(value)
    return env


def _protected(text: str) -> Callable[[int], bool]:
    """Is an offset of ``text`` in code Liquid does not run (``PROTECTED``)?"""
    spans = [m.span() for m in PROTECTED.finditer(text)]
    return lambda at: any(a <= at < b for a, b in spans)


def _tags(text: str) -> list[re.Match[str]]:
    protected = _protected(text)
    return [m for m in TAG.finditer(text) if not protected(m.start())]


# ``{{ page.title }}``, ``{{ page.previous.url }}``: a page variable, through filters
# (Liquid's own) or none.
PAGE_VALUE = re.compile(r"\{\{-?\s*page\.([\w-]+)(?:\.[\w-]+)*\s*(\|[^{}]*?)?-?\}\}")


def run(
    text: Text,
    page: Mapping[str, Any],
    site: Mapping[str, Any],
    notes: PostNotes,
    folders: tuple[Path, Path],
) -> None:
    """Jekyll's Liquid in a post: its blocks, its front matter's values, its includes
    (``folders``: the post's own and the site's root)."""
    expand(text, page, site, notes)
    page_values(text, page)
    include_relative(text, *folders, notes)
    loader_includes(text, folders[1], notes)


def page_values(text: Text, page: Mapping[str, Any]) -> None:
    """``{{ page.title }}`` outside a block: the front matter's value, as Jekyll wrote it."""
    env = _environment()
    protected = _protected(text.text)

    def value(match: re.Match[str], _line: int) -> str:
        if protected(match.start()) or match.group(1) not in page:
            return match.group(0)
        rendered, _ = _render(env, match.group(0), {"page": dict(page)})
        return match.group(0) if rendered is None else rendered

    text.sub(PAGE_VALUE, value)


def expand(text: Text, page: Mapping[str, Any], site: Mapping[str, Any], notes: PostNotes) -> None:
    """Run every top-level Liquid block, with the ``assign`` tags before it."""
    if "{%" not in text.text:
        return
    env = _environment()
    context = {"page": dict(page), "site": dict(site)}
    assigns: list[str] = []
    edits: list[tuple[int, int, str]] = []
    stack: list[str] = []
    start = 0
    for tag in _tags(text.text):
        name = tag.group(1)
        if not stack and name == "assign":
            if _render(env, "".join(assigns) + tag.group(0), context)[0] is not None:
                assigns.append(tag.group(0))  # one that fails is left to the report
                edits.append((*tag.span(), ""))  # an assign writes nothing
            continue
        if name in BLOCKS:
            if not stack:  # from the start of its line when only spaces come before it
                start = tag.start()
                line_start = text.text.rfind("\n", 0, start) + 1
                start = line_start if not text.text[line_start:start].strip() else start
            stack.append(name)
        elif name.startswith("end") and name[3:] in BLOCKS and stack and stack[-1] == name[3:]:
            stack.pop()
            if not stack:
                block = text.text[start : tag.end()]
                result, why = _render(env, "".join(assigns) + _hide_foreign(block), context)
                if result is not None:
                    around = _neighbours(text.text, start, tag.end())
                    edits.append((start, tag.end(), tidy(_unhide(result), *around)))
                else:
                    line = text.line(start)
                    notes.add(line, f"Liquid {{% {block_name(block)} %}} block kept: {why}")
    text.splice(edits)


def block_name(block: str) -> str:
    match = TAG.match(block)
    return " ".join((match.group(1) + match.group(2)).split()) if match else "block"


def _render(env: Environment, source: str, context: dict[str, Any]) -> tuple[str | None, str]:
    """The rendered text, or None and the first line of what stopped it."""
    try:
        return env.from_string(source).render(**context), ""
    except LiquidError as exc:
        return None, (str(exc).splitlines() or ["it cannot run here"])[0]
    except (TypeError, ValueError, ArithmeticError) as exc:  # a filter given the wrong type
        return None, str(exc) or type(exc).__name__


def _hide_foreign(block: str) -> str:
    """Jekyll's tags as text for Liquid, so that it fills in the ``{{ }}`` inside them."""

    def hide(match: re.Match[str]) -> str:
        name = match.group(1)
        if name in LIQUID or (name.startswith("end") and name[3:] in LIQUID | BLOCKS):
            return match.group(0)
        return HIDDEN_OPEN + match.group(0)[2:-2] + HIDDEN_CLOSE

    return TAG.sub(hide, block)


def _unhide(rendered: str) -> str:
    return rendered.replace(HIDDEN_OPEN, "{%").replace(HIDDEN_CLOSE, "%}")


HIGHLIGHT_LINE = re.compile(r"^\{%-?\s*highlight\b.*\{%-?\s*endhighlight\s*-?%\}$", re.S)


def _first_filled(lines: Iterable[str], default: str = "") -> str:
    """The first line of ``lines`` that is not blank, stripped."""
    return next((s.strip() for s in lines if s.strip()), default)


def _neighbours(text: str, start: int, end: int) -> tuple[str, str]:
    """The nearest non-blank lines before and after ``text[start:end]``."""
    return _first_filled(reversed(text[:start].split("\n"))), _first_filled(text[end:].split("\n"))


def tidy(rendered: str, before: str = "", after: str = "") -> str:
    """The rendered block as Markdown reads it as kramdown did.

    The tags' own lines leave blank and indented lines behind: between two HTML lines
    a blank line would end the HTML block, and an indented tag after a blank line would
    be code, so HTML lines lose their indentation and the blank lines between them go. A
    ``{% highlight %}`` (a code block once converted) is set off by blank lines, as it
    must be to be code inside a ``<div>``."""
    lines = [line.rstrip() for line in rendered.split("\n")]
    out: list[str] = []
    for index, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith("{%") and HIGHLIGHT_LINE.match(stripped):
            out.extend(["", stripped, ""])
            continue
        if not stripped:
            above = _first_filled(reversed(lines[:index]), before)
            below = _first_filled(lines[index + 1 :], after)
            if above.startswith("<") and below.startswith("<"):
                continue
            out.append("")
            continue
        out.append(stripped if stripped.startswith("<") else line)
    return "\n".join(out)


def include_relative(text: Text, post_dir: Path, root: Path, notes: PostNotes) -> None:
    """``{% include_relative file %}``: the file's text, as Jekyll inserted it (Jekyll too
    refuses a file outside the site)."""
    protected = _protected(text.text)

    def include(match: re.Match[str], line: int) -> str:
        if protected(match.start()):
            return match.group(0)
        target = (post_dir / match.group(1)).resolve()
        if root.resolve() in target.parents and target.is_file():
            try:
                return target.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                pass
        notes.add(
            line, f"include_relative {match.group(1)}: no such text file in the site; left out"
        )
        return text.hide(comment_out(match.group(0)))

    text.sub(INCLUDE_RELATIVE, include)


INCLUDE = re.compile(r"\{%-?\s*include\s+([\w./-]+)[^%]*-?%\}")
# What a page loads and does not show: scripts, styles, links, metadata, comments, Liquid
# tags (its ``{{ values }}`` show).
UNSEEN = re.compile(
    r"(?is)<(script|style)\b.*?</\1\s*>|<(?:link|meta|base)\b[^>]*>|<!--.*?-->|\{%.*?%\}"
)


def loader_includes(text: Text, root: Path, notes: PostNotes) -> None:
    """``{% include katex.html %}`` in a post: an ``_includes`` file that only loads
    scripts and styles (KaTeX's, MathJax's) showed nothing, and the build does that
    work here; it goes, reported once, rather than as a construct to fix by hand."""
    found: list[int] = []

    def include(match: re.Match[str], line: int) -> str:
        target = root / "_includes" / match.group(1)
        try:
            shown = UNSEEN.sub("", target.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError):
            return match.group(0)
        if re.sub(r"<[^>]*>", "", shown).strip():
            return match.group(0)
        found.append(line)
        return ""

    text.sub(INCLUDE, include)
    if found:
        why = "only loads scripts or styles, which the build does without"
        notes.add(found[0], f"{len(found)} include(s) of a file that {why}: left out")
