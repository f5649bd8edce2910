"""BibTeX source to pybtex's data, every problem a ``path:line: message``.

Both readers of ``.bib`` files (a post's references, ``bibliography``; the
publications page) parse through here. pybtex runs strict (an error raises instead
of being printed and skipped), and what it reports without a line (a repeated key
or field) is found in the text. A form feed between entries, which BibTeX reads as
whitespace, is dropped at the start of a line.

A repeated entry or field is a warning, not an error: BibTeX and biber keep the first
and go on, so real files hold them (a DBLP entry pasted twice, Google Scholar's second
``year``) and their LaTeX builds; 7 of 37 real files measured stopped the build here.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

from site_builder.bibnames import biblatex_names
from site_builder.errors import BuildError, BuildWarning, Location

# A form feed at the start of a line: a page break in a file that was once printed. One
# inside a field is still the control character a page must not get (``sources``).
_PAGE_BREAK = re.compile(r"^\f+", re.MULTILINE)


def read_bibtex(text: str, shown: Path | str) -> tuple[Any, tuple[BuildWarning, ...]]:
    """pybtex's ``BibliographyData`` for ``text``, and a warning for each repeated entry or
    field (the first kept, as BibTeX does); any other problem is a BuildError at its line.

    The publications page (site_builder/publications/) reads the same files its own way.
    """
    import pybtex.errors
    from pybtex.database import BibliographyDataError
    from pybtex.database.input.bibtex import Parser, UndefinedMacro
    from pybtex.exceptions import PybtexError
    from pybtex.scanner import PybtexSyntaxError

    from site_builder.sources import check_control_characters

    text = _PAGE_BREAK.sub("", text)  # between entries: whitespace to BibTeX
    check_control_characters(text, shown)
    text = biblatex_names(text)
    strict = pybtex.errors.strict
    pybtex.errors.set_strict_mode(True)  # errors raise instead of printing and going on
    parser = _keep_first(Parser)()
    try:
        data = parser.parse_string(text)
    except UndefinedMacro as exc:
        name = str(exc).split(": ", 1)[-1]
        message = (
            f"undefined @string macro '{name}': define it (@string{{{name} = {{...}}}}) "
            f"or brace the value ({{{name}}})"
        )
        raise BuildError(shown, exc.lineno, message) from None
    except PybtexSyntaxError as exc:
        detail = str(exc).split(": ", 1)[-1]  # drop pybtex's own "syntax error in line N"
        detail += _missing_comma(text, exc.lineno, detail)
        raise BuildError(shown, exc.lineno, f"BibTeX syntax error: {detail}") from None
    except BibliographyDataError as exc:
        line = _duplicate_line(text, str(exc))
        hint = "; delete one (BibTeX keeps the first)" if "duplicate" in str(exc) else ""
        raise BuildError(shown, line, f"BibTeX: {exc}{hint}") from None
    except PybtexError as exc:  # a name pybtex cannot split, and the like: at its line
        quoted = re.search(r"'(.+)'", str(exc))
        at = text.find(quoted.group(1)) if quoted else -1
        line = text.count("\n", 0, at) + 1 if at >= 0 else None
        raise BuildError(shown, line, f"BibTeX: {exc}") from None
    finally:
        pybtex.errors.set_strict_mode(strict)
    warnings = tuple(
        BuildWarning(Location(shown, _duplicate_line(text, message)), f"BibTeX: {message}{hint}")
        for message, hint in parser.repeated
    )
    return data, warnings


@cache  # one class for every parse, made on the first
def _keep_first(parser: type) -> type:
    """pybtex's parser, keeping the first of a repeated entry or field as BibTeX does and
    noting the rest (``repeated``) instead of raising."""
    from pybtex.database.input.bibtex import DuplicateField

    class KeepFirst(parser):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.repeated: list[tuple[str, str]] = []  # (pybtex's message, what was done)

        def process_entry(self, entry_type: str, key: str | None, fields: Any) -> None:
            if key is not None and key in self.data.entries:
                message = f"repeated bibliography entry: {key}"
                self.repeated.append((message, "; BibTeX keeps the first and ignores this one"))
                return
            super().process_entry(entry_type, key, fields)

        def handle_error(self, error: Exception) -> None:
            if not isinstance(error, DuplicateField):
                super().handle_error(error)
                return
            self.repeated.append((str(error), "; BibTeX keeps the first"))

    return KeepFirst


_FIELD_START = re.compile(r"\s*[\w.:+-]+\s*=")


def _missing_comma(text: str, line: int | None, detail: str) -> str:
    """A hint when the entry's end was expected where a field starts: the line before
    lacks its comma (``publisher = {Elsevier}`` then ``google_scholar_id = {..}``)."""
    lines = text.split("\n")
    if line is None or detail not in ("'}' expected", "')' expected") or line > len(lines):
        return ""
    if not _FIELD_START.match(lines[line - 1]):
        return ""
    before = next((n for n in range(line - 1, 0, -1) if lines[n - 1].strip()), None)
    return f": is a ',' missing at the end of line {before}?" if before else ""


def _duplicate_line(text: str, message: str) -> int | None:
    """pybtex names a repeated key or field but not where: the line of its second one."""
    field = re.match(r"entry with key (\S+) has a duplicate (\S+) field", message)
    if field is not None:
        key, name = field.groups()
        entry = re.search(rf"@\w+\s*[{{(]\s*{re.escape(key)}\s*,", text)
        found = re.finditer(  # a field starts a line or follows a comma (a one-line entry)
            rf"(?im)(?:^|,)\s*({re.escape(name)})\s*=", text[entry.end() :] if entry else ""
        )
        starts = sorted({entry.end() + m.start(1) for m in found}) if entry else []
    else:
        key = message.split("repeated bibliography entry: ", 1)[-1].strip()  # DBLP:conf/..
        starts = [m.start() for m in re.finditer(rf"@\w+\s*[{{(]\s*{re.escape(key)}\s*,", text)]
    return text.count("\n", 0, starts[1]) + 1 if len(starts) > 1 else None
