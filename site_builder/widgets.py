"""Widgets: interactive figures that live in the site, not in this package.

A widget is a folder, ``widgets/<name>/``::

    widget.py      def data(params) -> JSON-able value, computed at build time
    widget.js      an ES module: export default function (figure, data) { ... }
    fallback.html  a Jinja template of what the figure shows without JavaScript
    widget.css     optional: loaded only by pages that use the widget

and a post uses it as ``::: {#fig-x widget="<name>" key=value}`` (see
``markdown/figures.py``). The registry is found here, once per build, from
the site folder; the Markdown stage is handed callables and never imports a
site's code itself.

Each folder has a fingerprint, a hash of every file in it: it keys the cached
output (so an unchanged widget is not run again, and NumPy is not even
imported) and the render key of every post that uses it (so editing
``widget.py`` re-renders exactly those posts). A widget's code runs with
bytecode writing off: a ``__pycache__`` in the site folder would be one more
input that changed.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import re
import sys
import traceback
import types
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from functools import cache, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from site_builder.errors import BuildError

if TYPE_CHECKING:
    from site_builder.markdown import WidgetOutput
    from site_builder.writer import Output

FOLDER = "widgets"
PARTS = ("widget.py", "widget.js", "fallback.html")
LOADER = "static/js/widgets.js"  # the package's loader (site_builder/widgets.js), once per site
NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_IGNORED = ("__pycache__", ".")


@dataclass(frozen=True)
class WidgetSpec:
    name: str
    folder: Path  # relative to the site root
    fingerprint: str  # of every file in the folder
    stylesheet: bool = False  # has widget.css

    @property
    def script(self) -> str:
        return f"static/widgets/{self.name}/widget.js"

    def assets(self) -> list[tuple[str, str]]:
        """(site-relative output, file in the folder) for what the browser loads."""
        names = ["widget.js", *(["widget.css"] if self.stylesheet else [])]
        return [(f"static/widgets/{self.name}/{n}", n) for n in names]


def discover(root: Path) -> tuple[WidgetSpec, ...]:
    """Every ``widgets/<name>/`` of the site, sorted; a malformed one is a BuildError."""
    base = root / FOLDER
    if not base.is_dir():
        return ()
    from site_builder.incremental.keys import hash_parts

    found = []
    for folder in sorted(base.iterdir()):
        if not folder.is_dir() or folder.name.startswith(_IGNORED):
            continue
        rel = folder.relative_to(root)
        if not NAME.fullmatch(folder.name):
            message = "a widget's name is lower-case letters, digits and hyphens"
            raise BuildError(rel, None, f"{message}, e.g. widgets/loss-slider")
        missing = [part for part in PARTS if not (folder / part).is_file()]
        if missing:
            raise BuildError(rel, None, f"widget needs {', '.join(missing)} (see the README)")
        files = [
            path
            for path in sorted(folder.rglob("*"))
            if path.is_file() and not any(p.startswith(_IGNORED) for p in path.parts[-2:])
        ]
        fingerprint = hash_parts(
            *(part for f in files for part in (f.relative_to(folder).as_posix(), f.read_bytes()))
        )
        found.append(WidgetSpec(folder.name, rel, fingerprint, (folder / "widget.css").is_file()))
    return tuple(found)


def runners(
    specs: tuple[WidgetSpec, ...], root: Path
) -> dict[str, Callable[[Mapping[str, str]], WidgetOutput]]:
    """What the Markdown stage calls: name -> params -> output (see ``MarkdownContext``).
    The incremental layer wraps :func:`run` with its cache instead (``cached``)."""
    return {spec.name: partial(run, spec, root) for spec in specs}


def key(spec: WidgetSpec, params: Mapping[str, str]) -> str:
    """Everything a widget's output depends on: its folder's files and the params."""
    from site_builder.incremental.keys import code_version, hash_parts

    return hash_parts(code_version(), spec.name, spec.fingerprint, _canonical(params))


def _canonical(params: Mapping[str, str]) -> str:
    return json.dumps(dict(params), sort_keys=True, ensure_ascii=False)


def run(spec: WidgetSpec, root: Path, params: Mapping[str, str]) -> WidgetOutput:
    """The widget's output for ``params`` (computed once per process). Raises FigureError."""
    return memo(key(spec, params), partial(compute, spec, root, params))


def memo(found: str, make: Callable[[], WidgetOutput]) -> WidgetOutput:
    """This process's output by ``key`` (a post may show a widget twice), made once."""
    known = _MEMO.get(found)
    if known is None:
        known = _MEMO[found] = make()
    return known


_MEMO: dict[str, Any] = {}


def compute(spec: WidgetSpec, root: Path, params: Mapping[str, str]) -> WidgetOutput:
    """The widget's output for ``params``, computed now. Raises FigureError."""
    from site_builder.incremental.keys import hash_parts
    from site_builder.markdown import FigureError, WidgetOutput

    suffix = hash_parts(_canonical(params))[:8] if params else ""
    params = dict(params)
    folder = root / spec.folder
    with _reported(spec, root, "data()"):
        value = load_module(root, spec.name).data(params)
    try:
        text = json.dumps(
            value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
        )
    except (TypeError, ValueError) as exc:
        raise FigureError(
            f"data() must return JSON (dicts, lists, str, numbers, bools, None): {exc}",
            spec.folder / "widget.py",
        ) from None
    with _reported(spec, root, "fallback.html"):
        html = _template(folder).render(data=value, params=params)
    return WidgetOutput(
        html=html,
        data_file=f"{spec.name}-{suffix}.json" if suffix else f"{spec.name}.json",
        data=(text + "\n").encode("utf-8"),
        script=spec.script,
        stylesheet=f"static/widgets/{spec.name}/widget.css" if spec.stylesheet else None,
    )


def _template(folder: Path) -> Any:
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(folder)),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    return env.get_template("fallback.html")


@contextmanager
def _reported(spec: WidgetSpec, root: Path, what: str) -> Iterator[None]:
    """Any exception in the widget's code or template as a FigureError at its own line."""
    from site_builder.markdown import FigureError

    try:
        yield
    except FigureError:
        raise
    except (Exception, SystemExit) as exc:  # sys.exit() or argparse in a widget: its error
        where = author_frame(exc, root / spec.folder, root)
        path, line = where if where else (spec.folder / "widget.py", None)
        if what == "fallback.html" and where is None:
            path, line = spec.folder / what, getattr(exc, "lineno", None)
        message = f"{what} raised {type(exc).__name__}: {exc}{import_hint(exc, root / spec.folder)}"
        raise FigureError(message, path, line) from None


def import_hint(exc: BaseException, folder: Path) -> str:
    """``import helpers`` of a neighbour fails: the folder is a package, not on sys.path (so
    two folders' ``helpers.py`` never meet). Say how to import it."""
    name = getattr(exc, "name", None)
    if isinstance(exc, ModuleNotFoundError) and name and (folder / f"{name}.py").is_file():
        return f" (import a neighbour relatively: from .{name} import ...)"
    return ""


def author_frame(exc: BaseException, folder: Path, root: Path) -> tuple[Path, int | None] | None:
    """The innermost traceback frame in a file under ``folder``: where the author's code
    failed, as (path relative to the site, line). Jinja puts template lines in tracebacks."""
    base = folder.resolve()
    found = None
    for frame in traceback.extract_tb(exc.__traceback__):
        path = Path(frame.filename)
        if path.is_absolute() and path.resolve().is_relative_to(base):
            found = (path.resolve().relative_to(root.resolve()), frame.lineno)
    filename, lineno = getattr(exc, "filename", None), getattr(exc, "lineno", None)
    if found is None and filename and lineno:
        path = Path(str(filename))  # a SyntaxError or TemplateSyntaxError: no frame
        if path.is_absolute() and path.resolve().is_relative_to(base):
            found = (path.resolve().relative_to(root.resolve()), int(lineno))
    return found


def preload(root: Path, names: Iterable[str]) -> None:
    """Import these widgets' modules, and Jinja for their fallbacks, ahead of their first
    ``data()`` (a helper process does, while the main one parses: ``Session``). A failure
    is left for that call to report."""
    import jinja2  # noqa: F401

    for name in names:
        with suppress(Exception):
            load_module(root, name)


def load_module(root: Path, name: str, module: str = "widget") -> Any:
    """``widgets/<name>/<module>.py``, imported as :func:`import_from` does."""
    return import_from(root / FOLDER / name, module)


def import_from(folder: Path, module: str) -> Any:
    """Import ``<folder>/<module>.py`` as part of a package made of the folder, so it may
    import its neighbours (``from .attention import attention``) without two sites' or two
    posts' ``utils.py`` meeting in ``sys.modules``."""
    folder = folder.resolve()
    return _import(str(folder), module, _stamp(folder))


def _stamp(folder: Path) -> tuple[tuple[str, int], ...]:
    """Source files and their mtimes: an edited file in a long-lived process (serve) loads anew."""
    return tuple(
        (p.relative_to(folder).as_posix(), p.stat().st_mtime_ns)
        for p in sorted(folder.rglob("*.py"))
        if "__pycache__" not in p.parts
    )


@cache
def _import(folder: str, module: str, stamp: tuple[tuple[str, int], ...]) -> Any:
    package = "_site_widget_" + hashlib.sha256(repr((folder, stamp)).encode()).hexdigest()[:16]
    if package not in sys.modules:
        holder = types.ModuleType(package)
        holder.__path__ = [folder]
        sys.modules[package] = holder
    writing = sys.dont_write_bytecode
    sys.dont_write_bytecode = True  # no __pycache__ in the site's folder
    try:
        with one_blas_thread():
            return importlib.import_module(f"{package}.{module}")
    finally:
        sys.dont_write_bytecode = writing


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """NumPy first imported by a site's code starts OpenBLAS with one thread, not one a core.

    OpenBLAS starts its threads as it loads, and they spin a while: 0.08 CPU-seconds of the
    seed's cold build of 1.0, for a figure's small arrays, where a large build's workers
    have the cores already. Only the load reads the variable, so it is put back after (a
    notebook's kernel, started later, gets the environment as it was); one set by the
    user is kept."""
    name = "OPENBLAS_NUM_THREADS"
    if name in os.environ:
        yield
        return
    os.environ[name] = "1"
    try:
        yield
    finally:
        del os.environ[name]


def fingerprints(specs: tuple[WidgetSpec, ...]) -> str:
    """All widgets as one string, for keys that depend on every widget."""
    return " ".join(f"{spec.name}={spec.fingerprint}" for spec in specs)


def generated_files(specs: tuple[WidgetSpec, ...]) -> dict[str, str]:
    """What ``write_assets`` writes, by output path, in words: planned with the routes, so a
    site's own ``static/js/widgets.js`` is a collision, not a silent replacement."""
    if not specs:
        return {}
    files = {LOADER: "the widget loader"}
    for spec in specs:
        files.update({rel: f"widgets/{spec.name}/{name}" for rel, name in spec.assets()})
    return files


def write_assets(root: Path, specs: tuple[WidgetSpec, ...], output: Output) -> None:
    """Each widget's module (and stylesheet) under ``static/widgets/``, and the loader that
    runs them; nothing for a site without widgets."""
    if not specs:
        return
    output.write(LOADER, (Path(__file__).parent / "widgets.js").read_text(encoding="utf-8"))
    for spec in specs:
        for rel, name in spec.assets():
            output.copy(rel, root / spec.folder / name)
