"""What an import did, and every construct it could not convert, each with its source line.

The report is the author's to-do list after an import: one ``path:line:
message`` per thing that did not come across, in file and line order, the
same shape as the build's errors so an editor can jump to each.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Note:
    """One construct that did not come across (or came across changed), where it was."""

    path: Path
    line: int | None
    message: str
    column: int | None = None

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else f"{self.path}"
        if self.line and self.column:
            where += f":{self.column}"
        return f"{where}: {self.message}"


@dataclass
class PostNotes:
    """Collects the notes for one source file while it is converted."""

    path: Path
    notes: list[Note] = field(default_factory=list)

    def add(self, line: int | None, message: str, column: int | None = None) -> None:
        self.notes.append(Note(self.path, line, message, column))


@dataclass(frozen=True)
class Imported:
    """One source post and what became of it."""

    source: Path
    written: Path | None  # the post file written; None when it was skipped
    notes: tuple[Note, ...]
    assets: int = 0  # files copied beside it
    skipped: str = ""  # why nothing was written (exists already, not UTF-8, ...)
    kind: str = "post"  # or "page": it had no date
    failed: int = 0  # formulas in it that do not convert


@dataclass
class ImportReport:
    """Every post of one import, in source order."""

    format: str
    posts: list[Imported] = field(default_factory=list)
    site_notes: list[Note] = field(default_factory=list)  # the site's macros, not a post's
    macros: list[str] = field(default_factory=list)  # written into site.yaml
    site_parts: list[str] = field(default_factory=list)  # an al-folio site's papers, home, profile
    errors_shown: bool = False  # formulas failed: ``math.errors: show`` written to site.yaml

    @property
    def notes(self) -> list[Note]:
        found = [*self.site_notes, *(note for post in self.posts for note in post.notes)]
        return sorted(found, key=lambda n: (str(n.path), n.line or 0, n.column or 0))

    def summary(self) -> str:
        written = sum(1 for p in self.posts if p.written is not None)
        clean = sum(1 for p in self.posts if p.written is not None and not p.notes)
        skipped = len(self.posts) - written
        pages = sum(1 for p in self.posts if p.written is not None and p.kind == "page")
        parts = [f"Imported {written} of {len(self.posts)} {self.format} posts"]
        if pages:
            parts[0] += f" ({pages} undated, as pages)"
        if self.posts or not self.site_parts:
            parts.append(f"{clean} with nothing left to fix")
        else:  # an al-folio site without posts
            parts = ["Imported no posts"]
        if skipped:
            parts.append(f"{skipped} skipped")
        if self.macros:
            parts.append(f"{_count(len(self.macros), 'site macro')} written to site.yaml")
        if self.site_parts:
            parts.append("from al-folio: " + "; ".join(self.site_parts))
        notes = len(self.notes)
        parts.append(f"{_count(notes, 'construct')} to check by hand")
        line = ", ".join(parts)
        failed = sum(p.failed for p in self.posts)
        if failed:
            posts = _count(sum(1 for p in self.posts if p.failed), "post")
            verb = "does" if failed == 1 else "do"
            line += f".\n{_count(failed, 'formula')} in {posts} {verb} not convert (listed above,"
            if self.errors_shown:
                line += (
                    " each at its line). The build shows each as its TeX in a marked box, as"
                    " MathJax shows a formula it cannot read, with a warning: site.yaml now"
                    " sets `math: {errors: show}`."
                    " Fix them, then remove it so that the build stops on such a formula"
                )
            else:
                line += (
                    " each at its line), and the build stops on them: fix them, or set"
                    " `math: {errors: show}` in site.yaml to show each as its TeX in a marked"
                    " box with a warning, as MathJax shows a formula it cannot read"
                )
        return line


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'s' if number != 1 else ''}"
