"""Cache keys: ``hash_parts`` and the code version every key includes.

The code version is a hash of this package's source and of the versions of the
libraries that shape the HTML, so an upgrade or an edit to a renderer
invalidates whatever the old code computed. The no-op check (``noop``) uses
``code_stamp`` instead, the same inputs by size and modification time: it reads
no source and imports no hash (OpenSSL's ``_hashlib`` alone is ~2 ms of a no-op).
"""

from __future__ import annotations

import os
import re
import sys
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent  # site_builder/

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


def hash_parts(*parts: object) -> str:
    """A stable key from text/bytes parts (``str`` of anything else).

    Each text part is length-prefixed and each bytes part hashed on its own, so
    no two different lists of parts give the same joined text; the whole is then
    hashed once (a no-op build computes thousands of these).
    """
    import hashlib

    pieces = []
    for part in parts:
        if isinstance(part, bytes):
            pieces.append("b" + hashlib.sha256(part).hexdigest())
        else:
            text = part if isinstance(part, str) else str(part)
            pieces.append(f"s{len(text)}:{text}")
    return hashlib.sha256("".join(pieces).encode("utf-8", "surrogatepass")).hexdigest()


@cache
def code_version() -> str:
    """Hash of this package's source and the renderer libraries' versions."""
    import hashlib

    digest = hashlib.sha256()
    for rel in _package_sources():
        digest.update(rel.encode())
        digest.update((PACKAGE / rel).read_bytes())
    installed = installed_versions()
    for name in LIBRARIES:
        digest.update(f"{name}={installed.get(_normalise(name), 'none')}".encode())
    return digest.hexdigest()


def code_stamp() -> tuple[object, ...]:
    """The code version's inputs by file metadata: each source's name, size and modification
    time, and the libraries' versions. Equal stamps mean an equal code version."""
    stats = []
    for rel in _package_sources():
        stat = os.stat(PACKAGE / rel)
        stats.append((rel, stat.st_size, stat.st_mtime_ns))
    installed = installed_versions()
    return (*stats, *(installed.get(_normalise(name), "none") for name in LIBRARIES))


def installed_version(name: str) -> str:
    """The version of an installed distribution (``pagefind_bin``), "none" if not installed."""
    return installed_versions().get(_normalise(name), "none")


def _normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


@cache
def installed_versions() -> dict[str, str]:
    """Versions from ``*.dist-info`` folder names, the first found on ``sys.path`` as
    ``importlib.metadata`` finds them: importing that would cost more start-up time than
    a whole no-op build."""
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
