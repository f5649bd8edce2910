"""The old site's own LaTeX macros, wherever its theme defined them, for ``site.yaml``.

Most math blogs define ``\\R`` or ``\\E`` once for the whole site, not in each post:
in the MathJax or KaTeX configuration a layout or partial loads (``_layouts``,
``_includes``, Hugo's ``layouts/``), as ``\\newcommand``/``\\gdef`` lines in a hidden
block of a layout, under a ``macros`` key of the site's configuration (``_config.yml``,
Hugo's params), or in the files Quarto's ``include-in-header`` names. A post that used
one would stop the build here, so each is read into ``site.yaml``'s ``math.macros``;
one that cannot be written there is reported at its file and line.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from site_builder.config import control_symbol
from site_builder.importer import common, jsobject, physics, scripts
from site_builder.importer.report import Note
from site_builder.importer.text import Text

NAME = re.compile(r"[A-Za-z]+")
SCRIPT = re.compile(r"(?is)<script\b[^>]*>(.*?)</script\s*>")
# ``<script src="{{ '/assets/js/katex.js' | relative_url }}">``: a configuration kept in a
# file of the site's own, which the page loads (pgm-style KaTeX options, Quarto's header).
# \newcommand{\R}[1][default]{body}, \def\R#1{body}, \DeclareMathOperator*{\argmax}{arg max}
NEWCOMMAND = re.compile(
    r"\\(?:re|provide)?newcommand\*?\s*(?:\{\s*\\([^{}\s]+)\s*\}|\\([A-Za-z]+|.))"
    r"\s*(?:\[\s*(\d)\s*\])?\s*(\[[^\]]*\])?\s*\{"
)
DEF = re.compile(r"\\[gex]?def\s*\\([A-Za-z]+|.)\s*((?:#\d)*)\s*\{")
OPERATOR = re.compile(r"\\DeclareMathOperator(\*?)\s*\{\s*\\([^{}\s]+)\s*\}\s*\{")
ARGUMENT = re.compile(r"#(\d)")
# Templates too: Hexo's .ejs/.swig, Eleventy's .njk, Pelican's Jinja, Ghost's .hbs.
TEXT_FILES = (
    ".html", ".htm", ".liquid", ".js", ".tex", ".md", ".txt", ".ejs", ".njk", ".swig", ".j2", ".hbs"
)  # fmt: skip


@dataclass
class SiteMacros:
    """Macros read from the old site, in the order met, with where each came from."""

    # name -> (body, where); the body is MathJax's [body, nargs, default] when #1 is optional
    found: dict[str, tuple[Any, Note]] = field(default_factory=dict)
    notes: list[Note] = field(default_factory=list)
    # The openers of inline formulas its MathJax or KaTeX configurations list (``$``,
    # ``\\(``); empty when none lists any.
    inline: set[str] = field(default_factory=set)

    def add(
        self,
        name: str,
        body: Any,
        nargs: int | None,
        where: Note,
        problem: str,
        default: str | None = None,
    ) -> None:
        if isinstance(body, list):  # already MathJax's form (a macro read twice)
            body, nargs, default = body[0], body[1], body[2]
        # ``argmin: "\\newcommand\\argmin[1]{...}"``, run at the first use: its definition.
        inner = NEWCOMMAND.match(body.strip()) if isinstance(body, str) else None
        if inner is not None and (inner.group(1) or inner.group(2)) == name:
            defined = _group(body.strip(), inner.end() - 1)
            if inner.end() + len(defined) + 1 == len(body.strip()):  # nothing after it
                nargs, body = (int(inner.group(3)) if inner.group(3) else None), defined
        used = max((int(n) for n in ARGUMENT.findall(body)), default=0)
        if not problem and not (NAME.fullmatch(name) or control_symbol(name)):
            problem = "site.yaml's macro names are letters, or one symbol (\\|)"
        if not problem and nargs is not None and nargs != used:
            problem = f"it takes {nargs} argument(s) but its body uses #{used} at most"
        if problem:
            self.notes.append(Note(where.path, where.line, f"macro \\{name} not read: {problem}"))
            return
        value = body if default is None else [body, nargs if nargs is not None else used, default]
        if name in self.found and self.found[name][0] != value:
            first = self.found[name][1]
            at = f"{first.path}:{first.line}" if first.line else str(first.path)
            message = f"macro \\{name} defined again differently; the one at {at} is kept"
            self.notes.append(Note(where.path, where.line, message))
            return
        self.found.setdefault(name, (value, where))


def read(source: Path, fmt: str, shown: Path) -> SiteMacros:
    """The macros of the site at ``source``; notes name files relative to ``shown``."""
    macros = SiteMacros()
    if not source.is_dir():
        return macros
    configs = _configs(source, fmt)
    files: list[Path] = []
    if fmt == "jekyll":
        generators = [source / n for n in scripts.GENERATOR_CONFIGS if (source / n).is_file()]
        themes = [p for p in sorted(source.glob("themes/*")) if p.is_dir()]
        files = _under(source, *TEMPLATES) + _under(source, *_theme_folders(themes)) + generators
    elif fmt in ("hugo", "zola"):
        files = _under(source, "layouts") + sorted(source.glob("themes/*/layouts/**/*.html"))
    else:
        files = _quarto_headers(source, configs, macros, shown)
    for config in configs:
        _from_config(config, macros, _shown(config, shown))
    done: set[Path] = set()
    fallback = True  # then every math configuration script of the site's own
    while files or fallback:
        if not files:  # the layouts named none (or there are none): look further
            fallback = False
            files = [f for f in scripts.math_scripts(source) if f not in done]
            continue
        file = files.pop(0)
        if file in done:
            continue
        done.add(file)
        try:
            text = file.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        _from_text(text, macros, _shown(file, shown))
        files += scripts.loaded(text, file, source)
        if file.suffix in scripts.SCRIPTS:
            files += scripts.imported(text, file, source)
    return macros


# Where the engines read as Jekyll keep the templates that configure math: Jekyll's and
# Eleventy's layouts and includes, Pelican's ``templates/`` (its own or a theme's under
# ``themes/``), Hexo's theme ``layout/``, MkDocs' ``overrides/`` (``theme.custom_dir``).
TEMPLATES = ("_layouts", "_includes", "templates", "overrides")


def _theme_folders(themes: list[Path]) -> list[str]:
    return [
        f"{t.relative_to(t.parent.parent)}/{n}" for t in themes for n in ("templates", "layout")
    ]


def _shown(path: Path, base: Path) -> Path:
    return path.relative_to(base) if base in path.parents else path


def _under(source: Path, *folders: str) -> list[Path]:
    """Layouts before the includes they load; each folder in name order."""
    return [
        p
        for name in folders
        for p in sorted((source / name).rglob("*"))
        if p.suffix in TEXT_FILES and p.is_file()
    ]


def _configs(source: Path, fmt: str) -> list[Path]:
    names = {
        "jekyll": ["_config.yml", "_config.yaml"],
        "hugo": list(common.HUGO_CONFIGS),
        "zola": ["config.toml"],
        "quarto": ["_quarto.yml", "_quarto.yaml"],
        "distill": ["_site.yml"],
    }[fmt]
    found = [source / n for n in names if (source / n).is_file()]
    if fmt == "quarto":  # a folder's ``_metadata.yml`` sets its posts' options, headers too
        skip = {"_site", "_freeze", "node_modules"}
        found += sorted(
            p for p in source.rglob("_metadata.y*ml") if not skip & set(p.relative_to(source).parts)
        )
    if fmt == "hugo":
        found += sorted(
            p for p in (source / "config").glob("*/*") if p.suffix in (".toml", ".yaml", ".yml")
        )
    return found


def _load(path: Path) -> tuple[Any, str]:
    text = path.read_text(encoding="utf-8", errors="replace")
    try:
        data = tomllib.loads(text) if path.suffix == ".toml" else yaml.safe_load(text)
    except (tomllib.TOMLDecodeError, yaml.YAMLError):
        return None, text
    return data, text


def _from_config(path: Path, macros: SiteMacros, shown: Path) -> None:
    """Every ``macros`` mapping in the configuration (``params.math.macros``, ``katex:
    macros:``): a value is a body, or ``[body, nargs]`` as MathJax's."""
    data, text = _load(path)
    for table in _keyed(data, "macros"):
        if not isinstance(table, dict):
            continue
        for key, value in table.items():
            name = str(key).removeprefix("\\")
            where = Note(shown, _line(text, str(key)), "")
            if isinstance(value, str | int | float) and not isinstance(value, bool):
                macros.add(name, str(value), None, where, "")
            elif isinstance(value, list) and value and isinstance(value[0], str):
                nargs = value[1] if len(value) > 1 and isinstance(value[1], int) else None
                default = str(value[2]) if len(value) > 2 else None
                macros.add(name, value[0], nargs, where, "", default)
            else:
                macros.add(name, "", None, where, "its value is not LaTeX text")


def _keyed(data: Any, key: str, depth: int = 0, seen: set[int] | None = None) -> list[Any]:
    """The values of ``key`` at any depth of parsed configuration, each container once and
    none deeper than 64: YAML's aliases share them (a "billion laughs" config hung)."""
    seen = set() if seen is None else seen
    if depth > 64 or id(data) in seen or not isinstance(data, dict | list):
        return []
    seen.add(id(data))
    if isinstance(data, list):
        return [v for item in data for v in _keyed(item, key, depth + 1, seen)]
    found: list[Any] = []
    for k, v in data.items():
        found.extend([v] if str(k).lower() == key else _keyed(v, key, depth + 1, seen))
    return found


def _line(text: str, key: str) -> int | None:
    match = re.search(rf"""(?m)^[ \t]*["']?{re.escape(key)}["']?[ \t]*[:=]""", text)
    return text.count("\n", 0, match.start()) + 1 if match else None


def _from_text(text: str, macros: SiteMacros, shown: Path) -> None:
    """A layout, a partial or an included header: its scripts' ``macros`` objects, and the
    TeX definitions outside its scripts."""
    for script in SCRIPT.finditer(text) if "<script" in text.lower() else [text]:
        body = script.group(1) if isinstance(script, re.Match) else script
        start = script.start(1) if isinstance(script, re.Match) else 0
        entries = jsobject.find(body)
        last = {entry.name: entry for entry in entries}  # a key given twice: JavaScript's last
        for entry in (e for e in entries if last[e.name] is e):
            where = Note(shown, text.count("\n", 0, start + entry.offset) + 1, "")
            nargs = entry.nargs if entry.nargs else None
            macros.add(entry.name, entry.body, nargs, where, entry.problem, entry.default)
        macros.inline |= scripts.inline_openers(body)
        if (at := physics.loads_physics(body)) is not None:
            _physics(macros, Note(shown, text.count("\n", 0, start + at) + 1, ""))
    outside = SCRIPT.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    _tex_definitions(outside, macros, shown)


def _physics(macros: SiteMacros, where: Note) -> None:
    """MathJax's physics package, loaded here: its fixed-argument commands as macros (the
    site's own definitions, read first, win), and a note for the rest."""
    for name, body in physics.MACROS.items():
        if name not in macros.found:
            macros.add(name, body, None, where, "")
    macros.notes.append(Note(where.path, where.line, physics.NOTE))


def _tex_definitions(text: str, macros: SiteMacros, shown: Path) -> None:
    found: list[tuple[int, str, str, int, str | None]] = []
    for match in NEWCOMMAND.finditer(text):
        body = _group(text, match.end() - 1)
        default = match.group(4)[1:-1] if match.group(4) else None  # ``[default]``
        nargs = int(match.group(3)) if match.group(3) else 0
        found.append((match.start(), match.group(1) or match.group(2), body, nargs, default))
    for match in DEF.finditer(text):
        body = _group(text, match.end() - 1)
        nargs = len(ARGUMENT.findall(match.group(2)))
        found.append((match.start(), match.group(1), body, nargs, None))
    for match in OPERATOR.finditer(text):
        body = _group(text, match.end() - 1)
        operator = f"\\operatorname{match.group(1)}{{{body}}}"
        found.append((match.start(), match.group(2), operator, 0, None))
    for start, name, body, nargs, default in sorted(found, key=lambda item: item[0]):
        where = Note(shown, text.count("\n", 0, start) + 1, "")
        macros.add(name.removeprefix("\\"), body.strip(), nargs, where, "", default)


def _group(text: str, brace: int) -> str:
    """The text of the brace group opening at ``brace`` (to the end if never closed)."""
    depth, index = 0, brace
    while index < len(text):
        char = text[index]
        if char == "\\":  # \{ and \} are characters, not groups
            index += 2
            continue
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth == 0:
            return text[brace + 1 : index]
        index += 1
    return text[brace + 1 :]


def of_post(meta: dict[str, Any], raw: str, path: Path) -> SiteMacros:
    """A post's own MathJax macros: a Quarto post's ``include-in-header`` (or
    ``header-includes``) in its front matter configures MathJax for that page only."""
    macros = SiteMacros()
    for value in _keyed(meta, "include-in-header") + _keyed(meta, "header-includes"):
        for item in value if isinstance(value, list) else [value]:
            text = item.get("text") if isinstance(item, dict) else item
            if not isinstance(text, str) or not text.strip():
                continue
            first = text.strip().splitlines()[0].strip()
            at = raw.find(first)
            found = SiteMacros()
            _from_text(text, found, path)
            lead = text[: text.find(first)].count("\n")
            shift = (raw.count("\n", 0, at) - lead) if at >= 0 else 0
            for name, (body, where) in found.found.items():
                macros.add(name, body, None, Note(path, (where.line or 1) + shift, ""), "")
            for note in found.notes:
                macros.notes.append(Note(path, (note.line or 1) + shift, note.message))
    return macros


def in_body(text: Text, path: Path) -> SiteMacros:
    """A MathJax or KaTeX configuration in a ``<script>`` of the post itself (pasted in,
    or from a file Quarto's ``include`` brought in): its macros are the post's own, and
    the script goes, since this site configures no MathJax."""
    macros = SiteMacros()

    def script(match: re.Match[str], line: int) -> str:
        if not scripts.MATH_CONFIG.search(match.group(1)):
            return match.group(0)
        found = SiteMacros()
        _from_text(match.group(0), found, path)
        for name, (body, where) in found.found.items():
            macros.add(name, body, None, Note(path, line + (where.line or 1) - 1, ""), "")
        macros.notes += [Note(path, line + (n.line or 1) - 1, n.message) for n in found.notes]
        return ""

    text.sub(SCRIPT, script)
    return macros


def _quarto_headers(
    source: Path, configs: list[Path], macros: SiteMacros, shown: Path
) -> list[Path]:
    """The files ``include-in-header`` names; its inline ``text:`` is read here."""
    files: list[Path] = []
    for config in configs:
        data, _ = _load(config)
        for value in _keyed(data, "include-in-header") + _keyed(data, "header-includes"):
            for item in value if isinstance(value, list) else [value]:
                name = item.get("file") if isinstance(item, dict) else item
                text = item.get("text") if isinstance(item, dict) else None
                if isinstance(text, str):
                    _from_text(text, macros, _shown(config, shown))
                    files += scripts.loaded(text, config, source)
                elif isinstance(name, str) and (config.parent / name).is_file():
                    files.append(config.parent / name)
                elif isinstance(name, str) and "\\" in name:  # header-includes: raw text
                    _from_text(name, macros, _shown(config, shown))
    return files
