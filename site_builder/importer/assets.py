"""Files a post references (images, videos, HTML figures, PDFs), found and copied beside it.

Blogs keep assets in one tree (al-folio's ``assets/img/<post>/``, Hugo's
``static/``) and link them site-absolute, or in a page bundle beside the post.
Here a post with files is a folder, ``<slug>/index.md`` with its files beside
it, so each reference is resolved where the old site would have served it
from, copied in, and rewritten relative to the post.
"""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlsplit

_TEMPLATED = (
    (
        re.compile(
            r"""\{\{-?\s*['"]/?([^'"]+)['"]\s*\|\s*(?:relative_url|absolute_url)\s*-?\}\}"""
        ),
        r"/\1",
    ),
    (
        re.compile(r"""\{\{-?\s*['"]/?([^'"]+)['"]\s*\|\s*prepend:\s*site\.baseurl\s*-?\}\}"""),
        r"/\1",
    ),
    (re.compile(r"\{\{-?\s*site\.(?:baseurl|base_url|url)\s*-?\}\}"), ""),
    (re.compile(r"""\{\{<\s*(?:rel)?ref\s+['"]?([^'">\s]+)['"]?\s*>\}\}"""), r"\1"),
)


def untemplate(value: str) -> str:
    """``{{ 'assets/x.png' | relative_url }}`` and ``{{ site.baseurl }}/x`` as plain paths."""
    for pattern, replacement in _TEMPLATED:
        value = pattern.sub(replacement, value)
    return value


class Assets:
    """Resolves a post's references against the places its old site served files from."""

    def __init__(self, post_dir: Path, site_roots: list[Path]) -> None:
        self.post_dir = post_dir
        self.site_roots = site_roots
        self.copies: dict[str, Path] = {}  # name in the post folder -> source file

    def find(self, ref: str) -> Path | None:
        """The file ``ref`` names, or None (a URL, an anchor, or nothing there)."""
        parts = urlsplit(untemplate(ref).strip())
        if parts.scheme or parts.netloc or not parts.path:
            return None
        path = unquote(parts.path)
        if path in self.copies:  # already rewritten by the format's converter
            return self.copies[path]
        # ``../../assets/x.png`` climbed from the page's URL to the site's root.
        rooted = re.sub(r"^(?:\.\./)+", "", path).lstrip("/")
        candidates = [root / rooted for root in self.site_roots]
        if not path.startswith("/"):
            candidates.insert(0, self.post_dir / path)
        # ``/blog/images/x.png`` on a site served under ``/blog/`` (Hugo's ``baseURL``,
        # Jekyll's ``baseurl``, Pelican's ``SITEURL``): the file is ``images/x.png``.
        head, _, rest = rooted.partition("/")
        if path.startswith("/") and head and "/" in rest:
            candidates += [root / rest for root in self.site_roots]
        for candidate in candidates:
            if candidate.is_file():
                return candidate
        return None

    def local(self, ref: str) -> str | None:
        """The reference rewritten to a copy beside the post (its fragment kept), or None."""
        found = self.find(ref)
        if found is None:
            return None
        path = unquote(urlsplit(untemplate(ref).strip()).path)
        name = path if self.copies.get(path) == found else self._name_for(found)
        fragment = urlsplit(untemplate(ref).strip()).fragment
        return name + (f"#{fragment}" if fragment else "")

    def _name_for(self, found: Path) -> str:
        try:  # a page bundle's own files keep their place in it
            name = found.resolve().relative_to(self.post_dir.resolve()).as_posix()
        except ValueError:
            name = found.name
        stem, suffix = PurePosixPath(name).stem, PurePosixPath(name).suffix
        candidate, number = name, 1
        # the same file by another path (``../images/x.png``) is the same copy
        while candidate in self.copies and self.copies[candidate].resolve() != found.resolve():
            number += 1
            candidate = f"{stem}-{number}{suffix}"
        if candidate in ("index.md",):
            candidate = f"{stem}-file{suffix}"
        self.copies[candidate] = found
        return candidate
