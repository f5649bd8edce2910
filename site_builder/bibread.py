"""BibTeX source to pybtex's data, every problem a ``path:line: message``.

Both readers of ``.bib`` files (a post's references, ``bibliography``; the
publications page) parse through here. pybtex runs strict (an error raises instead
of being printed and skipped), and what it reports without a line (a repeated key
or field) is found in the text. A form feed between entries, which BibTeX reads as
whitespace, is dropped at the start of a line.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from site_builder.bibnames import biblatex_names
from site_builder.errors import BuildError

# A form feed at the start of a line: a page break in a file that was once printed. One
# inside a field is still the control character a page must not get (``sources``).
_PAGE_BREAK = re.compile(r"^\f+", re.MULTILINE)


def read_bibtex(text: str, shown: Path | str) -> Any:
    """pybtex's ``BibliographyData`` for ``text``; any problem is a BuildError at its line.

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
    try:
        data = Parser().parse_string(text)
    except UndefinedMacro as exc:
        name = str(exc).split(": ", 1)[-1]
        message = (
            f"undefined @string macro '{name}': define it (@string{{{name} = {{...}}}}) "
            f"or brace the value ({{{name}}})"
        )
        raise BuildError(shown, exc.lineno, message) from None
    except PybtexSyntaxError as exc:
        detail = str(exc).split(": ", 1)[-1]  # drop pybtex's own "syntax error in line N"
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
    return data


def _duplicate_line(text: str, message: str) -> int | None:
    """pybtex names a repeated key or field but not where: the line of its second one."""
    field = re.match(r"entry with key (\S+) has a duplicate (\S+) field", message)
    if field is not None:
        key, name = field.groups()
        entry = re.search(rf"@\w+\s*[{{(]\s*{re.escape(key)}\s*,", text)
        found = re.finditer(
            rf"(?im)^\s*{re.escape(name)}\s*=", text[entry.end() :] if entry else ""
        )
        starts = [entry.end() + m.start() for m in found] if entry else []
    else:
        key = message.rsplit(":", 1)[-1].strip()
        starts = [m.start() for m in re.finditer(rf"@\w+\s*[{{(]\s*{re.escape(key)}\s*,", text)]
    return text.count("\n", 0, starts[1]) + 1 if len(starts) > 1 else None
