"""The code version: what every cache key and the no-op check include.

A hash of this package's source and of the versions of the libraries that
shape the HTML, so an upgrade or an edit to a renderer invalidates whatever was
computed by the old code. Kept apart from ``cache`` so the no-op check
(``snapshot``) can use it without importing the rest of the build.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent

LIBRARIES = (
    "markdown-it-py",
    "mdit-py-plugins",
    "math-core",
    "pygments",
    "jinja2",
    "fonttools",
    "numpy",
    "linkify-it-py",
    "pybtex",
    "latexcodec",
    "matplotlib",  # plots' SVG (site_builder/plots.py)
)


@cache
def code_version() -> str:
    """Hash of this package's source and the renderer libraries' versions."""
    digest = hashlib.sha256()
    for rel in _package_sources():
        digest.update(rel.encode())
        digest.update((PACKAGE / rel).read_bytes())
    installed = _installed_versions()
    for name in LIBRARIES:
        digest.update(f"{name}={installed.get(_normalise(name), 'none')}".encode())
    return digest.hexdigest()


def _normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def _installed_versions() -> dict[str, str]:
    """Versions from ``*.dist-info`` folder names: importlib.metadata would cost more start-up
    time than a whole no-op build."""
    versions: dict[str, str] = {}
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for folder in names:
            if folder.endswith(".dist-info") and "-" in folder:
                name, version = folder[: -len(".dist-info")].rsplit("-", 1)
                versions.setdefault(_normalise(name), version)
    return versions


def _package_sources() -> list[str]:
    """Every ``.py`` file of the package, relative to it, sorted (``os.walk``: no pathlib glob)."""
    found = []
    for folder, dirs, files in os.walk(PACKAGE):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        rel = os.path.relpath(folder, PACKAGE).replace(os.sep, "/")
        prefix = "" if rel == "." else rel + "/"
        found += [prefix + name for name in files if name.endswith(".py")]
    return sorted(found)
