"""Measure how well ``site-builder import`` migrates whole real blogs, as an author would run it.

Why: ``tools/import_corpus.py`` imports posts one at a time into scratch sites; an author
imports a whole blog at once (its config, layouts, macros and every post together) and
then builds. This script does exactly that for each blog of a set, and counts what the
author would get: posts that build, posts whose pages show nothing unconverted, posts
that did not build although ``import`` never named them at a line, and how many of the
blog's formulas the build converts compared with MathJax 3 given the same macros.

    .venv/bin/python tools/measure_sites.py SET_DIR [--only NAME] [--verbose]
        [--json OUT] [--mathjax-cached] [--mathjax-autoload]

``SET_DIR`` holds ``sites/<name>/`` (each a blog's source root) and, optionally, a
``SOURCES.md`` naming each blog's engine. For each blog, in ``SET_DIR/work/``:

1. ``<name>/`` is a fresh site (``site.yaml`` and symbolic links to this repository's
   ``templates`` and ``static``) where ``site-builder import SET_DIR/sites/<name>`` runs,
   plain (no ``--from``); its output and exit code go to ``<name>.import.log``.
2. ``site-builder build`` runs there; while it fails, each post its errors name is moved
   to ``<name>.failed/`` and the build runs again (``<name>.build.log``).
3. Each post the import found gets one outcome: ``skipped`` (the import skipped it),
   ``draft`` (imported as a draft: not built), ``build`` (did not build), ``leftovers``
   (built, but its page shows unconverted material) or ``clean``.
4. Every formula of every imported post is collected as the build's Markdown stage
   converts it (the site's and the post's macros, the post's labels), in this process.
5. The same formulas go through MathJax 3 (``tools/mathjax_verdicts.mjs``), with the same
   macros and the TeX packages the old site loaded; its verdicts are cached in
   ``SET_DIR/mathjax_cache.json`` (used with ``--mathjax-cached``).

The numbers, per blog and in total:

- posts: the posts the import found, written or skipped (the old site's posts); beside
  it, ``src``, a count of post-like source files made without the importer, as a check;
- built: posts whose page the build wrote (``clean`` + ``leftovers``);
- clean: built, and nothing unconverted visible on the page;
- draft: posts imported as drafts (the old site did not publish them either); they count
  as not built, and the totals also give the shares without them;
- unnamed: posts not built (``build``, ``draft``, ``skipped``) whose source or written file
  the import log never names with a line number (``path:line``, or a notebook's ``path:
  cell N, line M``); any note at a line counts, not only one about what stopped the
  build. A skipped post counts as named by its ``skipped:`` line;
- formulas: unique (TeX, display) formulas per blog; the share each engine converts. A
  formula that appears several times converts only if every use converts. An
  ``\\eqref{x}`` in the text, outside math, is a formula too (MathJax read it as one);
- display: the same, for display formulas alone.

MathJax's verdict: each post is one MathJax document (its ``\\newcommand`` and labels
hold for it alone, a label defined twice is an error, as on the old page), ``tags:
'ams'``; a formula fails on a TeX error or on a command no package or macro defines
(``noundefined`` drew it in red). ``--mathjax-autoload`` adds the packages MathJax 3's
usual components load on first use (``\\textcolor``, ``\\cancel``, ``\\ce``...).
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from import_corpus import VISIBLE, _Text, visible_leftovers  # noqa: E402

SITE_BUILDER = ROOT / ".venv" / "bin" / "site-builder"
MATHJAX = ROOT / "tools" / "mathjax_verdicts.mjs"
TIMEOUT = 3600  # seconds for one import or one build: a hung step is a finding, not a hang
MAX_ROUNDS = 12  # builds per site: each failed one moves the posts it names out
BUILD_JOBS = "1"  # the machine's two cores are shared: one worker
SITE_YAML = "title: Measure\nauthor: Measure\nbase_url: https://example.org/\nsearch: false\n"
TRACEBACK = "Traceback (most recent call last)"
IMPORTER_CRASH = "the importer failed on it"

# The subprocess import runs the unchanged ``site-builder`` command; this module, put on
# its PYTHONPATH as ``sitecustomize``, only writes down the report ``import_posts``
# returns (which source became which file), which the command prints only in summary.
OBSERVER = """
import json, os

def _observe():
    out = os.environ.get("MEASURE_SITES_REPORT")
    if not out:
        return
    import site_builder.importer as importer
    original = importer.import_posts

    def import_posts(*args, **kwargs):
        report = original(*args, **kwargs)
        rows = [
            {
                "source": str(p.source),
                "written": str(p.written) if p.written is not None else None,
                "skipped": p.skipped,
                "kind": p.kind,
                "failed": p.failed,
                "notes": [str(n) for n in p.notes],
            }
            for p in report.posts
        ]
        with open(out, "w", encoding="utf-8") as handle:
            json.dump({"format": report.format, "posts": rows}, handle)
        return report

    importer.import_posts = import_posts

_observe()
"""

# What else a reader must not see, beside ``visible_leftovers``: a template tag left open,
# a GitHub/Obsidian alert marker.
HTML_KIND = "HTML as text"
EXTRA_VISIBLE = (
    (re.compile(r"\{\{|\{%"), "template tag"),
    (re.compile(r"\[![A-Za-z-]+\][+-]?"), "alert marker"),
    (re.compile(r"</?(?:div|span|img|figure|p|br|iframe)(?=[\s>/])"), HTML_KIND),
)

# MathJax packages by the names configurations use (MathJax 2's extension files too).
MATHJAX_PACKAGES = {
    "action": "action", "ams": "ams", "amsmath": "ams", "amssymbols": "ams", "amscd": "amscd",
    "bbox": "bbox", "boldsymbol": "boldsymbol", "braket": "braket", "bussproofs": "bussproofs",
    "cancel": "cancel", "cases": "cases", "centernot": "centernot", "color": "color",
    "colorv2": "colorv2", "colortbl": "colortbl", "empheq": "empheq", "enclose": "enclose",
    "extpfeil": "extpfeil", "gensymb": "gensymb", "html": "html", "mathtools": "mathtools",
    "mhchem": "mhchem", "physics": "physics", "textcomp": "textcomp",
    "textmacros": "textmacros", "upgreek": "upgreek", "unicode": "unicode", "verb": "verb",
    "setoptions": "setoptions", "tagformat": "tagformat",
}  # fmt: skip
# What MathJax 3's combined components (tex-chtml.js, tex-mml-chtml.js...) load on a
# command's first use (its ``autoload``): with --mathjax-autoload, every site has them.
AUTOLOAD = (
    "action", "amscd", "bbox", "boldsymbol", "braket", "cancel", "cases",
    "centernot", "color", "colortbl", "empheq", "enclose", "extpfeil", "gensymb", "html",
    "mathtools", "mhchem", "upgreek", "unicode", "verb",
)  # fmt: skip
CONFIG_SUFFIXES = {
    ".html", ".htm", ".js", ".mjs", ".cjs", ".ts", ".tsx", ".jsx", ".yml", ".yaml", ".toml",
    ".json", ".liquid", ".njk", ".ejs", ".astro", ".vue", ".svelte", ".py", ".hbs", ".pug",
    ".swig", ".php", ".txt", ".j2", ".jinja", ".tmpl", ".gohtml",
}  # fmt: skip
VENDORED = re.compile(r"(?:^|/)(?:mathjax|katex)[^/]*/", re.IGNORECASE)
MAX_CONFIG_BYTES = 300_000
POST_SUFFIXES = (".md", ".markdown", ".mdx", ".qmd", ".ipynb", ".Rmd", ".rmd", ".Rmarkdown")
POST_DIRS = {"_posts", "posts", "post", "blog", "_notebooks", "articles", "_articles"}
SKIP_DIRS = {"node_modules", "vendor", "_site", "_freeze", "_extensions", "public", "dist"}
REPO_FILES = {"readme", "license", "licence", "changelog", "contributing", "code_of_conduct"}
ENGINE_WORDS = (
    "al-folio", "fastpages", "jekyll", "hugo", "quarto", "zola", "hexo", "pelican", "mkdocs",
    "eleventy", "11ty", "astro", "gatsby", "docusaurus", "quartz", "distill", "nikola",
    "blogdown", "next.js", "nextjs", "nuxt", "sphinx", "jupyter book", "vuepress",
    "octopress", "gridsome", "middleman", "hakyll", "wordpress", "ghost", "obsidian",
)  # fmt: skip


# --- records ---------------------------------------------------------------------------


@dataclass
class PostOutcome:
    """One post the import found, and what became of it."""

    source: str  # as the import names it: <name>/_posts/x.md
    written: str | None  # relative to the site: content/posts/x.md; None if skipped
    stage: str = "clean"  # skipped | draft | build | leftovers | clean
    details: list[str] = field(default_factory=list)
    named: bool = True  # the import log names it at a path:line (or says why it skipped it)
    kind: str = "post"

    @property
    def built(self) -> bool:
        return self.stage in ("clean", "leftovers")


@dataclass
class FormulaUse:
    """One formula as the build converted it, in its post, and MathJax's verdict on it."""

    tex: str
    display: bool
    ok: bool = True
    message: str = ""
    mathjax_ok: bool | None = None
    mathjax_message: str = ""


@dataclass
class Unique:
    """A (TeX, display) formula of one site, over all its uses."""

    tex: str
    display: bool
    post: str  # the first post it is in
    ok: bool = True
    message: str = ""
    mathjax_ok: bool = True
    mathjax_message: str = ""
    uses: int = 0


@dataclass
class SiteResult:
    """Everything measured on one blog."""

    name: str
    engine: str = ""
    source_posts: int = 0
    source_rule: str = ""
    import_code: int | None = None
    import_format: str = ""
    build_passed: bool = False
    build_rounds: int = 0
    site_error: str = ""  # the import or the build failed for the whole site
    tracebacks: list[str] = field(default_factory=list)
    outcomes: list[PostOutcome] = field(default_factory=list)
    formulas: dict[str, list[FormulaUse]] = field(default_factory=dict)  # by written post
    render_problems: list[str] = field(default_factory=list)
    packages: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def found(self) -> int:
        return len(self.outcomes)

    def stages(self) -> Counter[str]:
        return Counter(o.stage for o in self.outcomes)

    @property
    def built(self) -> int:
        return sum(1 for o in self.outcomes if o.built)

    @property
    def clean(self) -> int:
        return sum(1 for o in self.outcomes if o.stage == "clean")

    @property
    def unnamed(self) -> int:
        return sum(1 for o in self.outcomes if not o.built and not o.named)

    def unique(self) -> list[Unique]:
        """One entry per (TeX, display): converts only if every use converts."""
        found: dict[tuple[str, bool], Unique] = {}
        for post, uses in self.formulas.items():
            for use in uses:
                key = (use.tex.strip(), use.display)
                entry = found.setdefault(key, Unique(key[0], use.display, post))
                entry.uses += 1
                if not use.ok and entry.ok:
                    entry.ok, entry.message = False, use.message
                if use.mathjax_ok is False and entry.mathjax_ok:
                    entry.mathjax_ok, entry.mathjax_message = False, use.mathjax_message
        return list(found.values())


# --- running the commands --------------------------------------------------------------


def fresh_site(folder: Path) -> Path:
    """An empty site beside the others: a minimal site.yaml, this repository's templates and
    static files. Whatever an earlier run left there is removed first."""
    if folder.is_symlink() or folder.is_file():
        folder.unlink()
    elif folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    (folder / "site.yaml").write_text(SITE_YAML, encoding="utf-8")
    (folder / "templates").symlink_to(ROOT / "templates")
    # A copy: the import writes into static/ (an al-folio profile's photo), never into
    # this repository's own.
    shutil.copytree(ROOT / "static", folder / "static")
    return folder


def run(command: list[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[int, str]:
    """Exit code and output (stdout then stderr) of a command; a timeout is exit code -1."""
    try:
        done = subprocess.run(
            command,
            cwd=cwd,
            env=env,
            capture_output=True,
            text=True,
            errors="replace",
            timeout=TIMEOUT,
        )
    except subprocess.TimeoutExpired as exc:
        out = _text(exc.stdout) + _text(exc.stderr)
        return -1, out + f"\n[measure_sites: timed out after {TIMEOUT} s]\n"
    return done.returncode, done.stdout + done.stderr


def _text(data: bytes | str | None) -> str:
    """A timed-out command's partial output, which may come as bytes even in text mode."""
    if data is None:
        return ""
    return data if isinstance(data, str) else data.decode("utf-8", "replace")


def run_import(site: Path, source: Path, log: Path) -> tuple[int, str, dict[str, Any] | None]:
    """``site-builder import SOURCE`` in ``site``, plain; its exit code, its output and the
    report it made (see ``OBSERVER``), None when it made none (it stopped early)."""
    with tempfile.TemporaryDirectory(prefix="measure-sites-") as tmp:
        (Path(tmp) / "sitecustomize.py").write_text(OBSERVER, encoding="utf-8")
        report = Path(tmp) / "report.json"
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [tmp, env.get("PYTHONPATH")]))
        env["MEASURE_SITES_REPORT"] = str(report)
        code, output = run([str(SITE_BUILDER), "import", str(source)], site, env)
        data = json.loads(report.read_text(encoding="utf-8")) if report.is_file() else None
    log.write_text(
        f"$ cd {site} && site-builder import {source}\n{output}\nexit code: {code}\n",
        encoding="utf-8",
    )
    return code, output, data


ERROR_LINE = re.compile(r"^(content/[^:\n]+?)(?::(\d+))?(?::\d+)?: (.*)$", re.MULTILINE)


def build_until_passes(
    site: Path, failed: Path, log: Path
) -> tuple[bool, int, dict[str, list[str]], str, str]:
    """Build; while the build fails, move each post its errors name out of content/ (into
    ``failed``) and build again. Returns whether it passed, the builds run, the moved
    posts (site-relative file or folder) with their error lines, the last output (the
    site's error when it never passed) and every output, for tracebacks."""
    moved: dict[str, list[str]] = {}
    outputs: list[str] = []
    rounds = 0
    last = ""
    with log.open("w", encoding="utf-8") as handle:
        for rounds in range(1, MAX_ROUNDS + 1):
            code, last = run([str(SITE_BUILDER), "build", "--jobs", BUILD_JOBS], site)
            outputs.append(last)
            handle.write(f"$ site-builder build  # round {rounds}\n{last}\nexit code: {code}\n\n")
            handle.flush()
            if code == 0:
                return True, rounds, moved, "", "\n".join(outputs)
            named = _named_units(site, last)
            fresh = {unit: lines for unit, lines in named.items() if unit not in moved}
            if code != 1 or not fresh:
                break  # a crash, or errors no post owns (site.yaml, a template)
            for unit, lines in fresh.items():
                target = failed / unit
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.move(str(site / unit), str(target))
                moved[unit] = lines
                handle.write(f"[measure_sites: moved {unit} to {target}]\n")
    return False, rounds, moved, last, "\n".join(outputs)


def _named_units(site: Path, output: str) -> dict[str, list[str]]:
    """The posts (a post's file or folder) the build's errors name, with those lines."""
    found: dict[str, list[str]] = {}
    for match in ERROR_LINE.finditer(output):
        if match.group(3).startswith("warning:"):
            continue
        unit = _unit(site, Path(match.group(1)))
        if unit is not None:
            found.setdefault(unit, []).append(match.group(0))
    return found


def _unit(site: Path, path: Path) -> str | None:
    """What to move for an error at ``path``: a post's file, or its folder (a bundle); a
    page's file. None for anything else (content/references.bib serves every post)."""
    parts = path.parts
    if len(parts) >= 3 and parts[1] == "posts":
        unit = Path(*parts[:3])
    elif len(parts) >= 3 and parts[1] == "pages" and path.suffix in (".md", ".ipynb"):
        unit = path
    else:
        return None
    return unit.as_posix() if (site / unit).exists() else None


# --- formulas as the build sees them -----------------------------------------------------


class Recorder:
    """Every formula the Markdown stage converts, with its verdict.

    Why wrappers: the verdict must be the build's own, in the post's context (its macros,
    its ``\\newcommand``, the labels an ``\\eqref`` refers to). In the math plugin,
    ``_prepare_one`` meets each formula first, ``_report`` is where each failure goes (with
    ``math: {errors: show}`` the whole post renders, every failure reported) and
    ``_convert_one`` meets each formula the page keeps: a ``$\\eqref{x}$`` alone is taken
    out before it by cross-references, whose ``_latex_ref`` judges it, as it judges an
    ``\\eqref{x}`` in the text (which MathJax read as a formula too)."""

    WRAPPED = (
        ("site_builder.markdown.math.plugin", "_prepare_one"),
        ("site_builder.markdown.math.plugin", "_report"),
        ("site_builder.markdown.math.plugin", "_convert_one"),
        ("site_builder.markdown.crossrefs", "_latex_ref"),
    )

    def __init__(self) -> None:
        self.uses: list[FormulaUse] = []
        self._tokens: dict[int, tuple[Any, FormulaUse]] = {}  # the token kept: ids stay unique
        self._kept: set[int] = set()  # ids of the uses the page keeps

    def _use(self, token: Any) -> FormulaUse | None:
        entry = self._tokens.get(id(token))
        return entry[1] if entry is not None and entry[0] is token else None

    def prepare_one(self, original: Any, env: Any, token: Any, display: bool, *rest: Any) -> Any:
        use = FormulaUse(str(token.content), bool(display))
        self.uses.append(use)
        self._tokens[id(token)] = (token, use)
        return original(env, token, display, *rest)

    def report(
        self, original: Any, env: Any, formula: Any, where: Any, exc: Any, token: Any
    ) -> Any:
        use = self._use(token)
        if use is not None and use.ok:
            use.ok, use.message = False, str(exc.message)
        return original(env, formula, where, exc, token)

    def convert_one(self, original: Any, env: Any, token: Any) -> Any:
        use = self._use(token)
        if use is not None:
            self._kept.add(id(use))
        return original(env, token)

    def latex_ref(self, original: Any, env: Any, command: str, label: str, line: Any) -> Any:
        tokens = original(env, command, label, line)
        use = FormulaUse(f"\\{command}{{{label}}}", False)
        failed = [t.meta["failed"] for t in tokens if "failed" in t.meta]
        if failed:
            use.ok, use.message = False, str(failed[0])
        self.uses.append(use)
        self._kept.add(id(use))
        return tokens

    @contextmanager
    def installed(self) -> Iterator[Recorder]:
        """The four functions wrapped while in the block."""
        import importlib

        saved = []
        for module_name, name in self.WRAPPED:
            module = importlib.import_module(module_name)
            original = getattr(module, name, None)
            if not callable(original):
                raise SystemExit(f"{module_name}.{name} is gone: update Recorder")
            saved.append((module, name, original))
            wrapper = getattr(self, name.removeprefix("_"))
            setattr(module, name, _bound(wrapper, original))
        try:
            yield self
        finally:
            for module, name, original in saved:
                setattr(module, name, original)

    def take(self) -> tuple[list[FormulaUse], int]:
        """The uses of the render just done that its page kept, in order, and how many it
        did not keep (a render that stopped early keeps none); then forget them."""
        kept = [use for use in self.uses if id(use) in self._kept]
        dropped = len(self.uses) - len(kept)
        self.uses, self._tokens, self._kept = [], {}, set()
        return kept, dropped


def _bound(wrapper: Any, original: Any) -> Any:
    """``wrapper`` with the wrapped function as its first argument."""

    def call(*args: Any) -> Any:
        return wrapper(original, *args)

    return call


def collect_formulas(
    site: Path, written: list[str]
) -> tuple[dict[str, list[FormulaUse]], list[str]]:
    """Render each written post as the build does (``render.render_inputs`` and
    ``render.render_markdown``: the site's macros, then the post's front matter's), with
    ``math: {errors: show}`` so that one render meets every formula; the formulas of
    each post, and the problems met outside formulas."""
    from site_builder import bibliography, content, kinds, render
    from site_builder.config import load_config
    from site_builder.errors import BuildError, BuildErrors
    from site_builder.routes import SourceRoute

    problems: list[str] = []
    try:
        config = load_config(site)
    except BuildError as exc:
        return {}, [f"site.yaml: {exc}"]
    config = dataclasses.replace(config, math_errors="show", drafts=True)
    kind_of = {rel: kind for kind, rel, _ in kinds.find_sources(site)}

    def bib(named: Path | None) -> tuple[Path | None, str]:
        return bibliography.file_for(named, config.root), ""

    found: dict[str, list[FormulaUse]] = {}
    recorder = Recorder()
    with recorder.installed():
        for rel in written:
            kind = kind_of.get(rel)
            if kind is None:
                problems.append(f"{rel}: not a source the build reads")
                continue
            stopped = ""
            try:
                source, _ = content.read_post(site / rel, Path(rel), config, None, kind)
                source, body, text = content.reload(source, config)
                route = SourceRoute(source, kind.path(source.slug), None, None, ())
                inputs = render.render_inputs(route, config, bib)
                if inputs.bibliography and not (site / inputs.bibliography).is_file():
                    inputs = dataclasses.replace(inputs, bibliography=None)
                runners = render.uncached_runners(source, config)
                render.render_markdown(body, inputs, config.root, None, runners, text)
            except (BuildError, BuildErrors) as exc:
                stopped = str(exc).splitlines()[0][:200]
            except Exception as exc:  # the build would crash here too: a finding
                stopped = f"CRASH {type(exc).__name__}: {exc}"[:300]
            found[rel], dropped = recorder.take()
            if stopped:
                unjudged = f" ({dropped} formulas not judged)" if dropped else ""
                problems.append(f"{rel}: {stopped}{unjudged}")
    return found, problems


# --- MathJax ---------------------------------------------------------------------------


def mathjax_macros(site: Path, post: Path) -> dict[str, Any]:
    """site.yaml's ``math: macros`` then the post's front matter's, in MathJax's form:
    a body that takes arguments (``#1``) as ``[body, n]``, as MathJax needs."""
    table: dict[str, Any] = {}
    for data in (_yaml_file(site / "site.yaml"), _front_matter(post)):
        math = data.get("math") if isinstance(data, dict) else None
        macros = math.get("macros") if isinstance(math, dict) else None
        if not isinstance(macros, dict):
            continue
        for key, value in macros.items():
            name = str(key).removeprefix("\\") if len(str(key)) > 1 else str(key)
            table[name] = _mathjax_macro(value)
    return table


def _mathjax_macro(value: Any) -> Any:
    """One macro in MathJax's form. site.yaml may give a body with ``#1`` and no count
    (the build counts the arguments itself); MathJax needs ``[body, n]``."""
    if isinstance(value, list) and value:
        return [str(value[0]), *value[1:]]
    body = str(value)
    count = max((int(n) for n in re.findall(r"(?<!#)#([1-9])", body)), default=0)
    return [body, count] if count else body


def _yaml_file(path: Path) -> Any:
    """The file's YAML, or None: a site.yaml the build refuses has no macros to share."""
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError):
        return None


def _front_matter(path: Path) -> Any:
    """A Markdown post's front matter as written (MathJax's macro lists kept as lists), or
    None; a notebook's macros are the site's alone here."""
    if path.suffix != ".md":
        return None
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return None
    match = re.match(r"---[ \t]*\n(.*?)\n---[ \t]*\n", text, re.DOTALL)
    if match is None:
        return None
    try:
        return yaml.safe_load(match.group(1))
    except yaml.YAMLError:
        return None


def site_packages(source: Path) -> list[str]:
    """The TeX packages the old site loaded beyond MathJax's usual ones: named in a MathJax
    (or KaTeX) configuration in its layouts and config files (``packages``, ``load``,
    ``[tex]/physics``, MathJax 2's ``extensions``), or ``\\require{...}`` anywhere."""
    found: set[str] = set()
    window = re.compile(r"mathjax|katex", re.IGNORECASE)
    lists = re.compile(
        r"(?:packages|load|extensions)\W{0,6}[:=]\s*(\{[^{}]*\}|\[[^\]]*\])", re.IGNORECASE
    )
    for path in _files(source):
        suffix = path.suffix.lower()
        if suffix not in CONFIG_SUFFIXES and suffix not in POST_SUFFIXES:
            continue
        if VENDORED.search(path.relative_to(source).as_posix()):
            continue  # a copy of MathJax or KaTeX names every package it has
        try:
            if path.stat().st_size > MAX_CONFIG_BYTES:
                continue  # a bundle of scripts, not a configuration
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        names = re.findall(r"\\require\{(\w+)\}", text) + re.findall(r"\[tex\]/(\w+)", text)
        for hit in window.finditer(text):  # a post may configure MathJax in a <script> too
            part = text[hit.start() : hit.start() + 4000]
            for listed in lists.finditer(part):
                names += re.findall(r"([A-Za-z]+)(?:\.js)?['\"]", listed.group(1))
            if suffix in CONFIG_SUFFIXES:  # KaTeX's contrib/mhchem.js and the like
                names += re.findall(r"\b(mhchem|physics)\b", part)
        found.update(MATHJAX_PACKAGES[n.lower()] for n in names if n.lower() in MATHJAX_PACKAGES)
    return sorted(found - {"ams"})


def _files(folder: Path) -> Iterator[Path]:
    """The files under ``folder``, outside hidden folders, dependencies and build output."""
    for base, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d not in SKIP_DIRS]
        for name in files:
            yield Path(base) / name


def mathjax_verdicts(
    result: SiteResult, site: Path, cache: dict[str, list[list[Any]]], cached: bool
) -> None:
    """Set MathJax's verdict on each formula use, one MathJax document per post (its
    ``\\newcommand`` and labels hold for that post alone). Verdicts are cached by the
    hash of a post's whole input; the cache is read only when ``cached``."""
    packages = result.packages
    pending: list[tuple[str, str, list[dict[str, Any]]]] = []
    for post, uses in result.formulas.items():
        if not uses:
            continue
        macros = mathjax_macros(site, site / post)
        lines = [
            {"tex": u.tex, "display": u.display, "macros": macros, "packages": packages}
            for u in uses
        ]
        key = hashlib.sha256(
            json.dumps([lines, "v1"], sort_keys=True, ensure_ascii=False).encode()
        ).hexdigest()
        if cached and key in cache and len(cache[key]) == len(uses):
            _apply(uses, cache[key])
        else:
            pending.append((post, key, lines))
    if not pending:
        return
    verdicts = _run_mathjax([line | {"doc": post} for post, _, lines in pending for line in lines])
    if verdicts is None:  # one post's formulas crashed node: find it, post by post
        verdicts = []
        for post, _, lines in pending:
            mine = _run_mathjax([line | {"doc": post} for line in lines])
            verdicts += mine or [[False, "mathjax_verdicts.mjs crashed on this post"]] * len(lines)
    position = 0
    for post, key, lines in pending:
        mine = verdicts[position : position + len(lines)]
        position += len(lines)
        cache[key] = mine
        _apply(result.formulas[post], mine)
    broken = {m for _, m in verdicts if str(m).startswith("configuration:")}
    result.render_problems += [f"MathJax {m}: every formula fails" for m in sorted(broken)]


def _run_mathjax(lines: list[dict[str, Any]]) -> list[list[Any]] | None:
    """``[ok, message]`` per line from ``mathjax_verdicts.mjs``; None if it failed."""
    stdin = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
    try:
        done = subprocess.run(
            ["node", str(MATHJAX)], input=stdin, capture_output=True, text=True, timeout=TIMEOUT
        )
    except subprocess.TimeoutExpired:
        return None
    out = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    if done.returncode != 0 or len(out) != len(lines):
        return None
    return [[v["ok"], v.get("message", "")] for v in out]


def _apply(uses: list[FormulaUse], verdicts: list[list[Any]]) -> None:
    for use, (ok, message) in zip(uses, verdicts, strict=True):
        use.mathjax_ok, use.mathjax_message = bool(ok), str(message)


# --- outcomes --------------------------------------------------------------------------


def page_leftovers(html: str) -> list[str]:
    """What a reader sees of unconverted material: ``visible_leftovers`` and the
    ``EXTRA_VISIBLE`` patterns (outside spans the first already found). Its "HTML as
    text" is replaced by a stricter one: ``n<p`` (n less than p) is prose, not a tag."""
    found = [f"{k}: {snippet}" for k, snippet in visible_leftovers(html) if k != HTML_KIND]
    parser = _Text()
    parser.feed(html)
    text = "".join(parser.parts)
    spans = [m.span() for p, kind in VISIBLE if kind != HTML_KIND for m in p.finditer(text)]
    for pattern, kind in EXTRA_VISIBLE:
        for match in pattern.finditer(text):
            if any(start <= match.start() < end for start, end in spans):
                continue
            around = text[max(0, match.start() - 25) : match.end() + 25]
            found.append(f"{kind}: {' '.join(around.split())}")
    # A formula the build could not convert, shown as its TeX in a marked box
    # (``math: {errors: show}``, which the import sets when formulas fail).
    errors = MATH_ERROR.findall(html)
    if errors:
        found.append(f"formula shown as its TeX: {len(errors)}, the first {errors[0][:60]!r}")
    return found


MATH_ERROR = re.compile(r'class="math-error" title="([^"]*)"')


def classify(
    result: SiteResult,
    site: Path,
    rows: list[dict[str, Any]],
    log: str,
    moved: dict[str, list[str]],
    passed: bool,
    site_error: str,
) -> None:
    """One outcome per post the import found."""
    from site_builder import content, kinds
    from site_builder.config import load_config

    sources: dict[str, Any] = {}
    if passed:
        config = dataclasses.replace(load_config(site), drafts=True)
        sources = {post.path.as_posix(): post for post in content.load_posts(config).posts}
    root = site.resolve()
    for row in rows:
        written = _relative(row["written"], root)
        outcome = PostOutcome(row["source"], written, kind=row.get("kind", "post"))
        result.outcomes.append(outcome)
        if written is None:
            outcome.stage, outcome.details = "skipped", [row["skipped"]]
            outcome.named = f"{row['source']}: skipped" in log
            continue
        unit = next((u for u in moved if written == u or written.startswith(u + "/")), None)
        if unit is not None:
            outcome.stage, outcome.details = "build", moved[unit]
        elif not passed:
            outcome.stage = "build"
            outcome.details = ["the site did not build: " + _first_error(site_error)]
        elif written not in sources:
            outcome.stage, outcome.details = "build", ["the build did not read it"]
        elif sources[written].draft:
            outcome.stage, outcome.details = "draft", ["imported as a draft"]
        else:
            post = sources[written]
            page = site / "public" / kinds.BY_NAME[post.kind].path(post.slug) / "index.html"
            if not page.is_file():
                outcome.stage, outcome.details = "build", [f"no page at {page.relative_to(site)}"]
            else:
                found = page_leftovers(page.read_text(encoding="utf-8", errors="replace"))
                if found:
                    outcome.stage, outcome.details = "leftovers", found
        if not outcome.built:
            paths = f"(?:{re.escape(row['source'])}|{re.escape(written)})"
            at = re.compile(rf"{paths}(?::\d+|: cell \d+, line \d+)")  # a notebook's cell
            outcome.named = at.search(log) is not None


def _relative(path: str | None, root: Path) -> str | None:
    """A written file as the build names it (relative to the site), so the import's and the
    build's messages can be matched."""
    if path is None:
        return None
    full = Path(path).resolve()
    return full.relative_to(root).as_posix() if root in full.parents else full.as_posix()


def _first_error(output: str) -> str:
    """The line that says what went wrong: a traceback's exception, else the first line
    that is not a warning."""
    if TRACEBACK in output:
        return tracebacks(output, "crash")[0]
    lines = [line for line in output.splitlines() if line.strip() and "warning:" not in line]
    return lines[0][:200] if lines else "(no output)"


def tracebacks(output: str, where: str) -> list[str]:
    """Each Python traceback in a command's output, as its last line (the exception)."""
    found = []
    for part in output.split(TRACEBACK)[1:]:
        lines = [line for line in part.splitlines() if line.strip()]
        tail = next((line for line in reversed(lines) if not line.startswith(" ")), "?")
        found.append(f"{where}: {tail.strip()[:300]}")
    return found


# --- counting source posts, and the engine ----------------------------------------------


def source_posts(source: Path) -> tuple[list[Path], str]:
    """Post-like files, found without the importer, as a check on its count: those in a
    posts folder (``_posts``, ``posts``, ``blog``...), else Hugo's ``content/``, else every
    Markdown-like file; and the rule used. Twins (``x.Rmd`` beside ``x.md``) count once;
    drafts folders and ``_``-prefixed files (``_index.md``) not at all."""
    files = [p for p in _files(source) if _post_like(p, source)]
    in_posts = [p for p in files if POST_DIRS & {part.lower() for part in _dirs(p, source)}]
    if in_posts:
        files, rule = in_posts, "files in posts folders"
    elif (source / "content").is_dir():
        files = [p for p in files if "content" in _dirs(p, source)[:1]]
        files, rule = [p for p in files if p.parent != source / "content"], "Hugo content/"
    else:
        rule = "every Markdown-like file"
    once = {(p.parent, p.stem): p for p in sorted(files)}
    return sorted(once.values()), rule


def _dirs(path: Path, source: Path) -> tuple[str, ...]:
    """The folders between ``source`` and the file."""
    return path.relative_to(source).parts[:-1]


def _post_like(path: Path, source: Path) -> bool:
    parts = _dirs(path, source)
    if path.name.startswith("_") or "_drafts" in parts:
        return False
    if len(parts) == 0 and path.stem.lower() in REPO_FILES:
        return False
    if path.suffix in POST_SUFFIXES:
        return True
    return path.suffix in (".html", ".textile") and "_posts" in parts  # Jekyll's other posts


def engine_of(sources_md: Path, name: str) -> str:
    """The blog's engine as SOURCES.md gives it: the engine column of a table row naming
    the blog, else an engine word on a line (or in a section) naming it."""
    if not sources_md.is_file():
        return ""
    lines = sources_md.read_text(encoding="utf-8", errors="replace").splitlines()
    named = re.compile(rf"(?<![\w./-]){re.escape(name)}(?![\w-])", re.IGNORECASE)
    header: list[str] = []
    for index, line in enumerate(lines):
        if line.lstrip().startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not header or not any(named.search(c) for c in cells):
                if not set("".join(cells)) <= set("-: ") and not header:
                    header = [c.lower() for c in cells]
                continue
            for column, title in enumerate(header):
                if re.search(r"engine|generator|ssg|framework", title) and column < len(cells):
                    return cells[column]
        else:
            header = []
        if not named.search(line):
            continue
        word = _engine_word(line)
        if word:
            return word
        if line.lstrip().startswith("#"):
            for after in lines[index + 1 : index + 30]:
                if after.lstrip().startswith("#"):
                    break
                word = _engine_word(after)
                if word:
                    return word
    return ""


def _engine_word(line: str) -> str:
    lower = line.lower()
    hits = [(lower.find(w), w) for w in ENGINE_WORDS if re.search(rf"\b{re.escape(w)}\b", lower)]
    return min(hits)[1] if hits else ""


# --- one site ----------------------------------------------------------------------------


def measure_site(
    set_dir: Path, name: str, cache: dict[str, list[list[Any]]], cached: bool, autoload: bool
) -> SiteResult:
    """Import, build, classify, and collect and judge the formulas of one blog."""
    started = time.perf_counter()
    source = (set_dir / "sites" / name).resolve()
    work = set_dir.resolve() / "work"
    work.mkdir(exist_ok=True)
    result = SiteResult(name, engine=engine_of(set_dir / "SOURCES.md", name))
    counted, result.source_rule = source_posts(source)
    result.source_posts = len(counted)
    result.packages = sorted(set(site_packages(source)) | set(AUTOLOAD if autoload else ()))
    site = fresh_site(work / name)
    failed = work / f"{name}.failed"
    if failed.exists():
        shutil.rmtree(failed)
    code, log, report = run_import(site, source, work / f"{name}.import.log")
    result.import_code = code
    result.tracebacks += tracebacks(log, "import")
    if report is None:  # the import stopped: the posts counted without it did not come across
        result.site_error = "import: " + _first_error(log)
        why = f"the import stopped: {_first_error(log)}"
        shown = [p.relative_to(source.parent).as_posix() for p in counted]
        result.outcomes = [PostOutcome(p, None, "skipped", [why], named=False) for p in shown]
        result.seconds = time.perf_counter() - started
        return result
    result.import_format = report["format"]
    rows = report["posts"]
    for row in rows:
        if row["skipped"].startswith(IMPORTER_CRASH):
            result.tracebacks.append(f"import, {row['source']}: {row['skipped'][:300]}")
    root = site.resolve()
    written = [w for w in (_relative(r["written"], root) for r in rows) if w is not None]
    result.formulas, result.render_problems = collect_formulas(site, written)
    passed, rounds, moved, last, outputs = build_until_passes(
        site, failed, work / f"{name}.build.log"
    )
    result.build_passed, result.build_rounds = passed, rounds
    result.tracebacks += tracebacks(outputs, "build")
    if not passed:
        result.site_error = "build: " + _first_error(last)
    classify(result, site, rows, log, moved, passed, last)
    if any(result.formulas.values()):
        mathjax_verdicts(result, site, cache, cached)
    result.seconds = time.perf_counter() - started
    return result


# --- the report --------------------------------------------------------------------------


def share(part: int, whole: int) -> float:
    """A percentage; nothing to measure counts as all of it (no formulas: none failed)."""
    return 100.0 * part / whole if whole else 100.0


def formula_shares(result: SiteResult, display_only: bool) -> tuple[int, int, int]:
    """(unique formulas, converted by site_builder, read by MathJax)."""
    unique = [u for u in result.unique() if u.display or not display_only]
    return len(unique), sum(u.ok for u in unique), sum(u.mathjax_ok for u in unique)


def print_report(results: list[SiteResult], verbose: bool) -> bool:
    """Per site, then totals and the five targets; True when every target is met."""
    head = (
        f"{'site':22} {'engine':12} {'posts':>5} {'src':>5} {'draft':>5} {'built':>5} "
        f"{'clean':>5} {'unnmd':>5}  {'formulas sb/MJ %':>22}  {'display sb/MJ %':>21}"
    )
    print(head)
    print("-" * len(head))
    for r in results:
        n, sb, mj = formula_shares(r, False)
        dn, dsb, dmj = formula_shares(r, True)
        engine = re.sub(r"\s*\(.*", "", r.engine)  # "Jekyll (minima, MathJax 3)": Jekyll
        engine = engine or (f"({r.import_format})" if r.import_format else "?")
        print(
            f"{r.name[:22]:22} {engine[:12]:12} {r.found:5} {r.source_posts:5} "
            f"{r.stages()['draft']:5} {r.built:5} {r.clean:5} {r.unnamed:5}  "
            f"{share(sb, n):6.1f}/{share(mj, n):5.1f} ({n:6})"
            f"  {share(dsb, dn):6.1f}/{share(dmj, dn):5.1f} ({dn:5})"
            + (f"  !! {r.site_error[:80]}" if r.site_error else "")
            + (f"  !! {len(r.tracebacks)} traceback(s)" if r.tracebacks else "")
        )
    if verbose:
        print_details(results)
        print_causes(results)
    posts = sum(r.found for r in results)
    built = sum(r.built for r in results)
    clean = sum(r.clean for r in results)
    unnamed = sum(r.unnamed for r in results)
    counted = sum(r.source_posts for r in results)
    n = sum(formula_shares(r, False)[0] for r in results)
    sb = sum(formula_shares(r, False)[1] for r in results)
    mj = sum(formula_shares(r, False)[2] for r in results)
    dn = sum(formula_shares(r, True)[0] for r in results)
    dsb = sum(formula_shares(r, True)[1] for r in results)
    dmj = sum(formula_shares(r, True)[2] for r in results)
    stages: Counter[str] = Counter()
    for r in results:
        stages.update(r.stages())
    print()
    print(
        f"Totals: {len(results)} sites, {posts} posts found by the import "
        f"({counted} post-like source files counted without it); outcomes {dict(stages)}"
    )
    print(f"        {n} unique formulas ({dn} display)")
    published = posts - stages["draft"]
    print(
        f"        without the {stages['draft']} drafts (the old site did not publish them "
        f"either): built {share(built, published):.2f}%, clean {share(clean, published):.2f}%"
    )
    # A page whose text its old layout made (a listing, a tag cloud) has none to bring.
    empty = sum(
        1
        for r in results
        for o in r.outcomes
        if o.stage == "skipped" and any("no text of its own" in d for d in o.details)
    )
    written = published - empty
    print(
        f"        and without the {empty} pages with no text of their own (their old layout "
        f"made them): built {share(built, written):.2f}%, clean {share(clean, written):.2f}%"
    )
    targets = [
        (
            f"formulas, as the build sees them: site_builder {share(sb, n):.2f}% "
            f"vs MathJax {share(mj, n):.2f}% (>= MathJax - 0.5)",
            share(sb, n) >= share(mj, n) - 0.5,
        ),
        (
            f"display formulas: site_builder {share(dsb, dn):.2f}% "
            f"vs MathJax {share(dmj, dn):.2f}% (>= MathJax - 0.5)",
            share(dsb, dn) >= share(dmj, dn) - 0.5,
        ),
        (
            f"posts that build after a plain import: {built}/{posts} = "
            f"{share(built, posts):.2f}% (>= 95%)",
            share(built, posts) >= 95.0,
        ),
        (
            f"posts clean: {clean}/{posts} = {share(clean, posts):.2f}% (>= 95%)",
            share(clean, posts) >= 95.0,
        ),
        (f"posts not built and not named by import at a line: {unnamed} (0)", unnamed == 0),
    ]
    print("\nTargets:")
    for text, met in targets:
        print(f"  [{'met' if met else 'NOT MET':7}] {text}")
    return all(met for _, met in targets)


def print_details(results: list[SiteResult]) -> None:
    """Every non-clean post, traceback and formula the build fails on."""
    for r in results:
        unique = r.unique()
        only_sb = sum(1 for u in unique if not u.ok and u.mathjax_ok)
        only_mj = sum(1 for u in unique if u.ok and not u.mathjax_ok)
        both = sum(1 for u in unique if not u.ok and not u.mathjax_ok)
        print(f"\n== {r.name}: {r.engine or r.import_format}; {r.build_rounds} build(s)")
        print(f"  MathJax packages beyond the base: {', '.join(r.packages) or '-'}")
        print(
            f"  unique formulas failing: {only_sb} in site_builder only, {only_mj} in MathJax "
            f"only, {both} in both; source posts counted by: {r.source_rule}"
        )
        if r.site_error:
            print(f"  SITE: {r.site_error}")
        for trace in r.tracebacks:
            print(f"  TRACEBACK {trace}")
        for problem in r.render_problems:
            print(f"  render: {problem[:200]}")
        for o in r.outcomes:
            if o.stage == "clean":
                continue
            flag = "" if o.built or o.named else "  [NOT NAMED BY IMPORT]"
            print(f"  {o.stage:9} {o.source}{flag}")
            for detail in o.details[:3]:
                print(f"              {detail[:160]}")
        for u in unique:
            if not u.ok:
                mathjax = "ok" if u.mathjax_ok else f"fails too: {u.mathjax_message[:70]}"
                tex = " ".join(u.tex.split())[:90]
                kind = "display" if u.display else "inline"
                print(f"  formula ({kind}, {u.post}): {tex}")
                print(f"      site_builder: {u.message[:110]}; MathJax {mathjax}")


def print_causes(results: list[SiteResult]) -> None:
    """Posts not clean by cause, and formulas site_builder fails by message: what to fix
    first. A cause is the first detail's kind, without what differs from post to post."""
    causes: Counter[str] = Counter()
    for r in results:
        for o in r.outcomes:
            if o.stage != "clean":
                kinds = {_cause(d) for d in o.details[:5]} or {""}
                causes.update(f"{o.stage}: {kind}" for kind in kinds)
    formulas: Counter[str] = Counter()
    for r in results:
        formulas.update(_cause(u.message) for u in r.unique() if not u.ok)
    for title, counter in (("Posts not clean, by cause", causes), ("Formulas", formulas)):
        if counter:
            print(f"\n{title}:")
            for cause, count in counter.most_common(25):
                print(f"  {count:5}  {cause}")


def _cause(detail: str) -> str:
    """``detail`` without its particulars (its path, quoted text, arguments, numbers, the
    snippet after the kind), keeping a command's name: ``unknown LaTeX command \\rule``."""
    head = re.sub(r"^content/\S+?(?::\d+)*: ", "", detail).split(": ", 1)[0]
    head = re.sub(r" \(did you mean [^)]*\)", "", head)
    head = re.sub(r"'[^']*'|\"[^\"]*\"|\{[^{}]*\}|\d+", "…", head)
    return head[:80]


def as_json(results: list[SiteResult]) -> list[dict[str, Any]]:
    """Every site's numbers, every post's outcome and every unique formula."""
    out = []
    for r in results:
        out.append(
            {
                "name": r.name,
                "engine": r.engine,
                "import_format": r.import_format,
                "import_code": r.import_code,
                "posts": r.found,
                "source_posts": r.source_posts,
                "source_rule": r.source_rule,
                "built": r.built,
                "clean": r.clean,
                "unnamed": r.unnamed,
                "build_passed": r.build_passed,
                "build_rounds": r.build_rounds,
                "site_error": r.site_error,
                "tracebacks": r.tracebacks,
                "render_problems": r.render_problems,
                "packages": r.packages,
                "seconds": round(r.seconds, 1),
                "outcomes": [dataclasses.asdict(o) for o in r.outcomes],
                "formulas": [dataclasses.asdict(u) for u in r.unique()],
            }
        )
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("set_dir", type=Path, help="holds sites/<name>/ and SOURCES.md")
    parser.add_argument("--only", help="one site by name")
    parser.add_argument("--verbose", "-v", action="store_true", help="list every problem")
    parser.add_argument("--json", type=Path, help="write every outcome here")
    parser.add_argument(
        "--mathjax-cached", action="store_true", help="reuse MathJax verdicts from the cache"
    )
    parser.add_argument(
        "--mathjax-autoload",
        action="store_true",
        help="give MathJax the packages its default components load on first use, too",
    )
    args = parser.parse_args()
    sites = sorted(p.name for p in (args.set_dir / "sites").iterdir() if p.is_dir())
    if args.only:
        sites = [s for s in sites if s == args.only]
        if not sites:
            parser.error(f"no site {args.only!r} in {args.set_dir / 'sites'}")
    cache_file = args.set_dir / "mathjax_cache.json"
    cache: dict[str, list[list[Any]]] = {}
    if cache_file.is_file():
        cache = json.loads(cache_file.read_text(encoding="utf-8"))
    results = []
    for name in sites:
        print(f"[{name}] ...", file=sys.stderr, flush=True)
        result = measure_site(args.set_dir, name, cache, args.mathjax_cached, args.mathjax_autoload)
        print(f"[{name}] {result.seconds:.0f} s", file=sys.stderr, flush=True)
        results.append(result)
        cache_file.write_text(json.dumps(cache, ensure_ascii=False), encoding="utf-8")
    print_report(results, args.verbose)
    if args.json:
        args.json.write_text(json.dumps(as_json(results), indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
