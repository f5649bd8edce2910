"""Slugs within one import: what the site has already, and namesakes renamed.

A course's notes reuse folder names across parts (``representation/directed/`` and
``learning/directed/``); both would want ``directed``. The later one in file order
takes its parent folder's name too. This site has no redirects, so the report names
the new slug: the old URL is the author's to link or redirect.
"""

from __future__ import annotations

from pathlib import Path

from site_builder.importer.report import PostNotes
from site_builder.slug import slugify


def existing(folder: Path) -> dict[str, str]:
    """The slugs already in ``folder``, each claimed by no file of this import ("")."""
    if not folder.is_dir():
        return {}
    return {p.name.removesuffix(".md").removesuffix(".ipynb"): "" for p in folder.iterdir()}


def unclaimed(slug: str, path: Path, taken: dict[str, str], notes: PostNotes) -> str:
    """A slug an earlier file of this import took (``representation/directed/index.md``,
    then ``learning/directed/index.md``) takes the name of its parent folder too
    (``learning-directed``); a slug that was in the site before is never renamed."""
    if not slug or not taken.get(slug):
        return slug
    bundle = path.parent if path.stem in ("index", "_index") else path
    new = slugify(f"{bundle.parent.name}-{slug}") or slug
    first, number = new, 2
    while new in taken:
        new, number = f"{first}-{number}", number + 1
    notes.add(None, f"{slug!r} is the slug of {taken[slug]} already: this one is {new!r}")
    return new
