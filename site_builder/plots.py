"""Plots from Python: ``::: {#fig-loss plot="plots.py:loss_curve"}`` in a post folder.

The build imports ``plots.py`` from the post's folder (as a package of that folder,
so it may import its neighbours), calls ``loss_curve`` with the figure's other
attributes as keyword arguments (strings), and writes the Matplotlib figure it
returns as SVG beside the page. A function with a ``dark`` parameter is called
twice, ``dark=False`` and ``dark=True``, and the page shows the dark one under
``prefers-color-scheme: dark``.

The bytes are deterministic: ``svg.hashsalt`` fixes the ids Matplotlib makes up,
``Date`` and ``Creator`` are left out, text is drawn as paths (no font needed on
the reader's side). Results are cached by the hash of every ``.py`` file in the
folder (so an import of a neighbour counts), the function, its arguments and
Matplotlib's version: an unchanged plot costs nothing, Matplotlib is not even
imported. Matplotlib is the optional extra ``plots``; a site without plots never
imports it.
"""

from __future__ import annotations

import inspect
import io
import json
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from site_builder.widgets import author_frame, import_from, import_hint

if TYPE_CHECKING:
    from site_builder.frontmatter import SourcePost
    from site_builder.markdown import PlotOutput

INSTALL = 'pip install "site-builder[plots]" (here: .venv/bin/pip install -e ".[plots]")'
RC: dict[str, Any] = {"svg.hashsalt": "site-builder", "svg.fonttype": "path"}
METADATA = {"Date": None, "Creator": None}


def runner(source: SourcePost, root: Path) -> Callable[[str, Mapping[str, str]], PlotOutput] | None:
    """What the Markdown stage calls for a post; None for a post that is a single file. The
    incremental layer wraps :func:`run` with its cache instead (``cached``)."""
    folder = source.bundle_dir
    if folder is None:
        return None
    return lambda spec, params: run(root / folder, root, spec, params)


def key(folder: Path, spec: str, params: Mapping[str, str]) -> str:
    """Everything a plot depends on: every ``.py`` file in the post's folder (a plot may
    import its neighbours), the function, its arguments. Raises FigureError."""
    from site_builder.incremental.keys import code_version, hash_parts

    _locate(folder, spec)
    sources = [
        p for p in sorted(folder.rglob("*.py")) if "__pycache__" not in p.parts and p.is_file()
    ]
    return hash_parts(
        code_version(),
        spec,
        json.dumps(dict(params), sort_keys=True),
        *(part for p in sources for part in (p.relative_to(folder).as_posix(), p.read_bytes())),
    )


def run(folder: Path, root: Path, spec: str, params: Mapping[str, str]) -> PlotOutput:
    """The plot's SVG, made now. Raises FigureError."""
    path, function = _locate(folder, spec)
    output: PlotOutput = _make(folder, root, path, function, dict(params))
    return output


def _locate(folder: Path, spec: str) -> tuple[Path, str]:
    """``plots.py:loss_curve`` as the file's path and the function's name."""
    from site_builder.markdown import FigureError

    file, _, function = spec.rpartition(":")
    if not file.endswith(".py") or not function.isidentifier():
        raise FigureError(f'plot="{spec}" must name a file and a function: plot="plots.py:loss"')
    path = (folder / file).resolve()
    if not path.is_relative_to(folder.resolve()) or not path.is_file():
        raise FigureError(f"{file} not found in {folder.name}/ (plots live beside index.md)")
    return path, function


def _make(folder: Path, root: Path, path: Path, function: str, params: dict[str, Any]) -> Any:
    from site_builder.markdown import FigureError, PlotOutput

    try:
        import matplotlib
    except ImportError:
        raise FigureError(f"plots need Matplotlib, which is not installed: {INSTALL}") from None
    matplotlib.use("Agg")  # no window, no display: the same bytes on every machine
    module_name = path.relative_to(folder.resolve()).with_suffix("").as_posix().replace("/", ".")
    try:
        module = import_from(folder, module_name)
        make = getattr(module, function, None)
        if not callable(make):
            shown = path.relative_to(root.resolve())
            raise FigureError(f"{shown} has no function {function}()", shown)
        dark = "dark" in inspect.signature(make).parameters
        light_svg = _svg(make, params | ({"dark": False} if dark else {}))
        dark_svg = _svg(make, params | {"dark": True}) if dark else None
    except FigureError:
        raise
    except Exception as exc:
        frame = author_frame(exc, folder, root)
        message = f"{function}() raised {type(exc).__name__}: {exc}{import_hint(exc, folder)}"
        raise FigureError(message, *(frame or (None, None))) from None
    return PlotOutput(light_svg, dark_svg, svg_size(light_svg))


def _svg(make: Callable[..., Any], kwargs: dict[str, Any]) -> bytes:
    import matplotlib
    import matplotlib.pyplot as plt
    from matplotlib.figure import Figure

    from site_builder.markdown import FigureError

    with matplotlib.rc_context(RC):  # type: ignore[arg-type]
        figure = make(**kwargs)
        if not isinstance(figure, Figure):
            plt.close("all")
            kind = type(figure).__name__
            raise FigureError(f"{make.__name__}() must return a Matplotlib Figure, not {kind}")
        buffer = io.BytesIO()
        figure.savefig(buffer, format="svg", metadata=METADATA)
        plt.close(figure)
    # What is left of the RDF block (type and format) says nothing a reader needs.
    return _METADATA_BLOCK.sub(b"", buffer.getvalue(), count=1)


_METADATA_BLOCK = re.compile(rb"\s*<metadata>.*?</metadata>", re.DOTALL)


def svg_size(svg: bytes) -> tuple[int, int] | None:
    """CSS pixels from the root's ``width``/``height`` (Matplotlib writes points)."""
    head = svg[: svg.find(b">", svg.find(b"<svg")) + 1]
    sizes = []
    for name in (b"width", b"height"):
        match = re.search(rb"\s" + name + rb'="([\d.]+)(pt|px)?"', head)
        if match is None:
            return None
        value = float(match.group(1)) * (4 / 3 if match.group(2) == b"pt" else 1)
        sizes.append(round(value))
    return sizes[0], sizes[1]
