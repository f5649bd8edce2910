"""Site search: a Pagefind index of the posts, made at build time.

Pagefind (PyPI ``pagefind`` with its binary) splits the index into small
fragments that the search page fetches as a query needs them, so the site stays
static (GitHub Pages, any base path) and a post page loads none of it. The
index is fed the posts' rendered Markdown rather than the written pages, so it
does not depend on which pages this build rendered and which it kept: the same
posts give the same bytes. Two things are changed for the index only:

- a formula is indexed by its LaTeX (the MathML annotation), which is what a
  reader types (``softmax``, ``\\sqrt{d}``), not by MathML's scattered symbols;
- the sidenote copies of the footnotes and the ``#`` heading links are left
  out, so a note is found once, from the Notes list.

Result URLs are site-relative (``posts/x/``); the search page passes the base
path to Pagefind, so the index is the same under ``/`` and ``/blog/``.
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path

from site_builder.errors import BuildError

OUT = "pagefind/"
# What the search page's script loads: the API, its WebAssembly and the index itself. The
# ready-made UIs Pagefind also writes are left out: the site has its own small one.
_KEEP = re.compile(
    r"^(pagefind\.js|pagefind-entry\.json|wasm\..*|pagefind\.[^/]*\.pf_meta|"
    r"(fragment|index|filter)/.*)$"
)
_MATH = re.compile(r"<math\b.*?</math>", re.S)
_TEX = re.compile(r'<annotation encoding="application/x-tex">(.*?)</annotation>', re.S)


@dataclass(frozen=True)
class Document:
    """One post as the index sees it."""

    path: str  # site-relative, "posts/x/"
    title: str
    date: str  # as the page shows it, "29 November 2026"
    html: str  # the rendered body, with the Notes list after it
    language: str


def index_html(doc: Document) -> str:
    """The page Pagefind reads for ``doc``: title, date as metadata, body with math as TeX."""
    body = _MATH.sub(_tex_of, doc.html)
    return (
        f'<!doctype html><html lang="{escape(doc.language)}"><head><meta charset="utf-8">'
        f"<title>{escape(doc.title)}</title></head><body><main data-pagefind-body>"
        f'<h1>{escape(doc.title)}</h1><p data-pagefind-meta="date" '
        f"data-pagefind-ignore>{escape(doc.date)}</p>{body}</main></body></html>"
    )


def _tex_of(match: re.Match[str]) -> str:
    tex = _TEX.search(match.group(0))
    return f"<span> {tex.group(1)} </span>" if tex else ""


def build_index(docs: Sequence[Document]) -> list[tuple[str, bytes]]:
    """(site-relative path, bytes) of every file the search page needs, in path order.

    The posts are written as small pages into a temporary folder and indexed there by
    Pagefind's command-line binary. (Its Python service API hung on a site of a
    thousand posts, waiting on replies the service never sent.)
    """
    from pagefind_bin import get_executable

    ordered = sorted(docs, key=lambda d: d.path)
    with tempfile.TemporaryDirectory(prefix="pagefind-") as tmp:
        site, out = Path(tmp) / "site", Path(tmp) / "out"
        for doc in ordered:
            page = site / doc.path / "index.html"
            page.parent.mkdir(parents=True, exist_ok=True)
            page.write_text(index_html(doc), encoding="utf-8")
        site.mkdir(exist_ok=True)  # a site without posts still gets an (empty) index
        command = [str(get_executable()), "--site", str(site), "--output-path", str(out)]
        for selector in (".sidenote", ".heading-anchor", ".footnote-backref"):
            command += ["--exclude-selectors", selector]
        language = ordered[0].language if ordered else "en"
        command += ["--force-language", language, "--silent"]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise BuildError("search", None, f"pagefind failed: {done.stderr.strip()[:500]}")
        return [
            (OUT + rel, (out / rel).read_bytes()) for rel in sorted(_files(out)) if _KEEP.match(rel)
        ]


def _files(root: Path) -> Iterator[str]:
    for path in root.rglob("*"):
        if path.is_file():
            yield path.relative_to(root).as_posix()
