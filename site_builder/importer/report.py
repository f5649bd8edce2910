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

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else f"{self.path}"
        return f"{where}: {self.message}"


@dataclass
class PostNotes:
    """Collects the notes for one source file while it is converted."""

    path: Path
    notes: list[Note] = field(default_factory=list)

    def add(self, line: int | None, message: str) -> None:
        self.notes.append(Note(self.path, line, message))


@dataclass(frozen=True)
class Imported:
    """One source post and what became of it."""

    source: Path
    written: Path | None  # the post file written; None when it was skipped
    notes: tuple[Note, ...]
    assets: int = 0  # files copied beside it
    skipped: str = ""  # why nothing was written (exists already, not UTF-8, ...)
    kind: str = "post"  # or "page": it had no date


@dataclass
class ImportReport:
    """Every post of one import, in source order."""

    format: str
    posts: list[Imported] = field(default_factory=list)

    @property
    def notes(self) -> list[Note]:
        found = [note for post in self.posts for note in post.notes]
        return sorted(found, key=lambda n: (str(n.path), n.line or 0))

    def summary(self) -> str:
        written = sum(1 for p in self.posts if p.written is not None)
        clean = sum(1 for p in self.posts if p.written is not None and not p.notes)
        skipped = len(self.posts) - written
        pages = sum(1 for p in self.posts if p.written is not None and p.kind == "page")
        parts = [f"Imported {written} of {len(self.posts)} {self.format} posts"]
        if pages:
            parts[0] += f" ({pages} undated, as pages)"
        parts.append(f"{clean} with nothing left to fix")
        if skipped:
            parts.append(f"{skipped} skipped")
        notes = len(self.notes)
        parts.append(f"{notes} construct{'s' if notes != 1 else ''} to check by hand")
        return ", ".join(parts)
