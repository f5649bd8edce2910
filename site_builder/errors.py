"""One error type for every user mistake, so the CLI can print ``path:line: message``.

Every stage raises :class:`BuildError` (or collects several into a
:class:`BuildErrors`) instead of letting a library exception escape: a
traceback is never the right answer to a typo in a post.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Location:
    """Where a problem is: a file and, when the input has one, a 1-based line (and column)."""

    path: Path | str
    line: int | None = None
    column: int | None = None

    def __str__(self) -> str:
        if not self.line:
            return f"{self.path}"
        column = f":{self.column}" if self.column else ""
        return f"{self.path}:{self.line}{column}"


class BuildError(Exception):
    """A mistake in the site's input. Carries its location for the message."""

    def __init__(
        self, path: Path | str, line: int | None, message: str, column: int | None = None
    ) -> None:
        super().__init__(f"{Location(path, line, column)}: {message}")
        self.location = Location(path, line, column)
        self.message = message

    def __reduce__(
        self,
    ) -> tuple[type[BuildError], tuple[Path | str, int | None, str, int | None]]:
        """Picklable with its own arguments: errors come back from worker processes."""
        loc = self.location
        return (type(self), (loc.path, loc.line, self.message, loc.column))

    def at(self, path: Path | str, line_offset: int = 0) -> BuildError:
        """The same error re-anchored in a file, e.g. a post body shifted by its front matter."""
        line = None if self.location.line is None else self.location.line + line_offset
        return BuildError(path, line, self.message, self.location.column)


class BuildErrors(Exception):
    """Several independent mistakes found in one run: all are reported, not just the first."""

    def __init__(self, errors: list[BuildError], warnings: tuple[BuildWarning, ...] = ()) -> None:
        super().__init__("\n".join(str(e) for e in errors))
        self.errors = sorted(errors, key=_sort_key)
        self.warnings = warnings

    def __reduce__(
        self,
    ) -> tuple[type[BuildErrors], tuple[list[BuildError], tuple[BuildWarning, ...]]]:
        return (type(self), (self.errors, self.warnings))


def _sort_key(error: BuildError) -> tuple[str, int, int]:
    """Report in file order, then line order, so output is stable and easy to follow."""
    loc = error.location
    return (str(loc.path), loc.line or 0, loc.column or 0)


@dataclass(frozen=True)
class BuildWarning:
    """A likely mistake that does not stop the build (unless ``--strict``)."""

    location: Location
    message: str

    def __str__(self) -> str:
        return f"{self.location}: warning: {self.message}"
