"""Site configuration: parsed, defaulted and validated in one place, then passed down.

The single frozen :class:`SiteConfig` replaces a global settings dict; CLI
overrides are applied by :func:`with_overrides`, so no stage reads flags itself.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from site_builder.errors import BuildError
from site_builder.menu import MenuItem, parse_menu
from site_builder.widgets import WidgetSpec, discover

if TYPE_CHECKING:
    from site_builder.profile import Profile

KNOWN_KEYS = {
    "title",
    "author",
    "description",
    "base_url",
    "language",
    "timezone",
    "raw_html",
    "citation_style",
    "cite",
    "math",
    "toc",
    "toc-depth",
    "search",
    "menu",
    "execute",
    "publications",
}
CITATION_STYLES = ("numeric", "author-year")
MATH_ERRORS = ("stop", "show")


@dataclass(frozen=True)
class SiteConfig:
    """Everything a build needs to know about the site, independent of its posts."""

    root: Path
    title: str
    author: str
    base_url: str
    description: str = ""
    language: str = "en"
    timezone: str = "UTC"
    raw_html: bool = True
    drafts: bool = False
    citation_style: str = "numeric"  # how [@key] reads: "[1]" or "(Vaswani et al., 2017)"
    cite_type: str = "article"  # ``cite: {type: misc}``: the "Cite this post" entry's type
    # ``math: {macros: {R: '\\mathbb{R}'}}``: (name, LaTeX) pairs every formula can use.
    math_macros: tuple[tuple[str, str], ...] = ()
    # ``math: {errors: show}``: a formula that does not convert is a warning, shown as its
    # TeX in a marked box; "stop" (the default) makes it an error.
    math_errors: str = "stop"
    toc: bool = False  # ``toc: true``: every post lists its sections (a post may say false)
    toc_depth: int = 3  # ``toc-depth``: the deepest heading level listed
    # ``search: true``: a Pagefind index and a search page (see site_builder/search.py).
    search: bool = False
    # ``menu:``: the header's links in order; None: the default (``menu.site_menu``).
    menu: tuple[MenuItem, ...] | None = None
    # ``execute: true``: notebook posts run at build time (nbclient), unless one says false.
    execute: bool = False
    # ``widgets/<name>/`` folders (see site_builder/widgets.py). Not in ``key`` or ``repr``:
    # a post's render key names the widgets it uses, so an edited widget re-renders only those.
    widgets: tuple[WidgetSpec, ...] = field(default=(), repr=False, compare=False)
    # ``author:`` as a mapping (site_builder/profile.py); ``author`` above is its name.
    profile: Profile | None = None
    # ``publications: papers.bib``: the .bib of the publications page, relative to the site.
    publications: Path | None = None

    @property
    def base_path(self) -> str:
        """The URL path the site is served under: ``/`` or ``/repo/``. Internal links start here."""
        path = urlsplit(self.base_url).path or "/"
        return path if path.endswith("/") else path + "/"

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)

    @functools.cached_property
    def key(self) -> str:
        """The settings as text for cache keys: all of them but where the site is. Kept:
        the plan asks for it once a post."""
        return repr(dataclasses.replace(self, root=Path(".")))

    def url(self, path: str) -> str:
        """Site-relative path (``posts/x/``) to a root-relative link that honours the base path."""
        return self.base_path + path.lstrip("/")

    def absolute_url(self, path: str) -> str:
        """Site-relative path to the absolute URL used in feeds, canonical links and citations."""
        return self.base_url.rstrip("/") + "/" + path.lstrip("/")


def normalise_base_url(url: str, where: Path, line: int | None = None) -> str:
    """Accept ``https://host/`` or ``https://host/path``; always end with a slash."""
    url = url.strip()
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise BuildError(where, line, f"base_url must be an absolute http(s) URL, got {url!r}")
    if parts.query or parts.fragment or url.endswith(("?", "#")) or any(c.isspace() for c in url):
        # every page's address is made by appending to it: ``?x=1`` or a space broke them all
        message = f"base_url must be a site's address, without spaces, '?' or '#', got {url!r}"
        raise BuildError(where, line, message)
    return url if url.endswith("/") else url + "/"


def load_config(root: Path, parse: Callable[[str, Path], Any] | None = None) -> SiteConfig:
    """Read ``site.yaml`` under ``root``. A missing or malformed file is a :class:`BuildError`.

    ``parse`` turns the YAML text into data (``yamlload.load_yaml`` by default); the
    incremental layer passes one that remembers the answer, so a build whose
    ``site.yaml`` did not change need not import YAML at all.
    """
    path = Path("site.yaml")  # as shown in messages: relative to the site
    try:
        text = (root / path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BuildError(path, None, "site.yaml not found: is this a site directory?") from None
    except (OSError, UnicodeDecodeError) as exc:  # a folder, unreadable, not UTF-8
        reason = exc.strerror if isinstance(exc, OSError) else "it is not valid UTF-8"
        raise BuildError(path, None, f"cannot read site.yaml: {reason}") from None
    data: Any = (parse or _load_yaml)(text, path)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise BuildError(path, 1, "site.yaml must be a mapping of keys to values")
    for key in ("title", "author", "base_url"):
        if key == "author" and isinstance(data.get(key), dict):
            continue  # the profile form, checked by load_profile
        if not isinstance(data.get(key), str) or not data[key].strip():
            raise BuildError(path, _line_of(text, key), f"'{key}' is required and must be text")
    unknown = sorted(set(data) - KNOWN_KEYS)
    if unknown:
        raise BuildError(path, _line_of(text, unknown[0]), f"unknown key '{unknown[0]}'")
    for key in ("description", "language", "timezone"):  # ``language: [en]`` reached pages
        if key in data and not isinstance(data[key], str):
            raise BuildError(path, _line_of(text, key), f"'{key}' must be text")
    tz = str(data.get("timezone", "UTC"))
    try:
        ZoneInfo(tz)
    except (ZoneInfoNotFoundError, ValueError):
        raise BuildError(path, _line_of(text, "timezone"), f"unknown time zone {tz!r}") from None
    style = data.get("citation_style", "numeric")
    if style not in CITATION_STYLES:
        raise BuildError(
            path,
            _line_of(text, "citation_style"),
            f"citation_style must be 'numeric' or 'author-year', got {style!r}",
        )
    cite_type = _cite_type(data.get("cite"), text, path)
    macros = math_macros(data.get("math"), site=True)
    if isinstance(macros, str):
        raise BuildError(path, _line_of(text, "math"), macros)
    errors = data["math"].get("errors", "stop") if isinstance(data.get("math"), dict) else "stop"
    if errors not in MATH_ERRORS:
        close = difflib.get_close_matches(str(errors), MATH_ERRORS, n=1)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        line = _line_of(text, "math") or 1  # ``errors:`` on it, or the first line after it
        line += next(
            (n for n, row in enumerate(text.splitlines()[line - 1 :]) if "errors" in row), 0
        )
        raise BuildError(path, line, f"math errors must be 'show' or 'stop', got {errors!r}{hint}")
    toc, depth = data.get("toc", False), data.get("toc-depth", 3)
    for key, problem in (("toc", toc_problem(toc, None)), ("toc-depth", toc_problem(None, depth))):
        if problem:
            raise BuildError(path, _line_of(text, key), problem)
    for key, default in (("search", False), ("execute", False), ("raw_html", True)):
        # A quoted "false" would be true to bool(): raw_html: "false" let <script> through.
        if not isinstance(data.get(key, default), bool):
            raise BuildError(path, _line_of(text, key), f"'{key}' must be true or false")
    search, execute = data.get("search", False), data.get("execute", False)
    menu = data.get("menu")
    if menu is not None:
        menu = parse_menu(menu, path, _line_of(text, "menu"))
    profile = None
    if isinstance(data["author"], dict):  # the profile form: only such sites import it
        from site_builder.profile import load_profile

        profile = load_profile(data["author"], text, root)
    return SiteConfig(
        execute=execute,
        menu=menu,
        profile=profile,
        publications=_publications(data.get("publications"), root, _line_of(text, "publications")),
        search=search,
        toc=toc,
        toc_depth=depth,
        root=root,
        math_macros=macros,
        math_errors=errors,
        citation_style=style,
        cite_type=cite_type,
        title=data["title"],
        author=profile.name if profile else data["author"],
        base_url=normalise_base_url(data["base_url"], path, _line_of(text, "base_url")),
        description=str(data.get("description", "")),
        language=str(data.get("language", "en")),
        timezone=tz,
        raw_html=data.get("raw_html", True),
        widgets=discover(root),
    )


def _cite_type(cite: object, text: str, path: Path) -> str:
    """``cite: {type: misc}``: the "Cite this post" entry's type (``cite_box.ENTRY_FIELDS``)."""
    if cite is None:
        return "article"
    line = _line_of(text, "cite")
    if not isinstance(cite, dict) or set(cite) != {"type"}:
        raise BuildError(path, line, "'cite' takes one key, type: such as {type: misc}")
    from site_builder.cite_box import ENTRY_FIELDS

    if isinstance(cite["type"], str) and cite["type"] in ENTRY_FIELDS:
        return cite["type"]
    where = line  # ``cite: {type: x}``, or in a block mapping its ``type:`` line below
    for number, row in enumerate(text.splitlines()[line or 0 :], start=(line or 0) + 1):
        if not row[:1].isspace():
            break
        if row.strip().startswith("type:"):
            where = number
    close = difflib.get_close_matches(str(cite["type"]), list(ENTRY_FIELDS), n=1)
    hint = f" (did you mean '{close[0]}'?)" if close else ""
    choices = ", ".join(f"'{name}'" for name in ENTRY_FIELDS)
    message = f"cite type must be one of {choices}, got {cite['type']!r}{hint}"
    raise BuildError(path, where, message)


def _publications(value: object, root: Path, line: int | None) -> Path | None:
    """``publications:``: a .bib file of the site, which must exist."""
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip().endswith(".bib"):
        raise BuildError(Path("site.yaml"), line, "'publications' must name a .bib file")
    if not (root / value.strip()).is_file():
        raise BuildError(Path("site.yaml"), line, f"publications file not found: {value.strip()}")
    return Path(value.strip())


def _load_yaml(text: str, path: Path) -> Any:
    from site_builder.yamlload import load_yaml  # imported only when site.yaml is parsed

    return load_yaml(text, path)


def with_overrides(config: SiteConfig, *, base_url: str | None, drafts: bool) -> SiteConfig:
    """Apply command-line overrides; the one place flags meet configuration."""
    changes: dict[str, Any] = {"drafts": drafts}
    if base_url:
        changes["base_url"] = normalise_base_url(base_url, Path("--base-url"))
    return dataclasses.replace(config, **changes)


def _line_of(text: str, key: str) -> int | None:
    """The 1-based line where a top-level key is defined, for error messages."""
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith(f"{key}:"):
            return number
    return None


__all__ = ["SiteConfig", "load_config", "with_overrides"]


def toc_problem(toc: object, depth: object) -> str | None:
    """What is wrong with ``toc`` or ``toc-depth`` (site.yaml or front matter), if anything."""
    if toc is not None and not isinstance(toc, bool):
        return "'toc' must be true or false"
    if depth is not None and (isinstance(depth, bool) or depth not in range(1, 7)):
        return "'toc-depth' must be a heading level from 1 to 6"
    return None


_MACRO_NAME = re.compile(r"[A-Za-z]+")


def control_symbol(name: str) -> bool:
    """A macro named by one character other than a letter (``\\|``, as ``\\def\\|`` makes),
    which math-core cannot take: it is expanded before conversion (``math.expand``)."""
    return len(name) == 1 and not name.isalpha() and name not in "{}%#$ \t\n"


def math_macros(data: object, site: bool = False) -> tuple[tuple[str, str], ...] | str:
    """``math: {macros: {...}}`` (site.yaml or front matter), or what is wrong with it.
    site.yaml's may also say ``errors:`` (checked by ``load_config``).

    Names are letters, with or without the backslash (``R`` or ``\\R``), or one other
    character, a control symbol as ``\\def\\|{...}`` makes (``'\\|'``); a body uses
    ``#1``, ``#2`` for arguments, as ``\\newcommand`` does. A value may also be MathJax's
    list, ``[body, nargs]`` or ``[body, nargs, default]``: the first argument optional.
    """
    if data is None:
        return ()
    if not isinstance(data, dict) or set(data) - ({"macros", "errors"} if site else {"macros"}):
        also = " (and, in site.yaml, errors: show or stop)" if site else ""
        return f"'math' takes macros: a mapping such as {{R: '\\mathbb{{R}}'}}{also}"
    table = data.get("macros") or {}
    if not isinstance(table, dict):
        return "math macros must be a mapping such as {R: '\\mathbb{R}'}"
    out = []
    for key, value in table.items():
        name = str(key)
        name = name[1:] if name.startswith("\\") and len(name) > 1 else name
        if not (_MACRO_NAME.fullmatch(name) or control_symbol(name)):
            return (
                f"math macro name {key!r} must be letters, as in R or norm, or one symbol, "
                "as in \\|"
            )
        if isinstance(value, list):  # MathJax's form: [body, nargs] or [body, nargs, default]
            shape = [str, int, str][: len(value)]
            if not 1 <= len(value) <= 3 or not all(
                isinstance(v, t) and not isinstance(v, bool)
                for v, t in zip(value, shape, strict=False)
            ):
                return f"math macro {name} must be LaTeX text, or [body, arguments, default]"
            if len(value) == 3:  # its first argument optional: expanded before math-core
                from site_builder.markdown.math.expand import here_macro

                out.append(here_macro(name, value[1], value[2], value[0]))
                continue
            value = value[0]
        if not isinstance(value, str | int | float) or isinstance(value, bool):
            return f"math macro {name} must be LaTeX text"
        out.append((name, str(value)))
    return tuple(out)
