"""A post's bibliography, brought across beside it: found where the old site kept it,
as BibTeX (a CSL JSON file converted), and cleaned of what BibTeX only warned about (a
repeated entry, a repeated field), which this site's build would warn about on every build."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import yaml

from site_builder.importer.report import PostNotes

BIB_ENTRY = re.compile(r"(?m)^[ \t]*@\s*(\w+)\s*[{(]\s*([^,\s]+)\s*,")


def bring(
    bibliography: Any,
    path: Path,
    roots: list[Path],
    front: dict[str, Any],
    written: dict[str, str],
    notes: PostNotes,
) -> tuple[frozenset[str] | None, dict[str, str]]:
    """The cleaned ``.bib`` into ``written`` and its name into ``front``; its keys (None:
    no bibliography) and the keys a citation here cannot spell, each with its new name."""
    if isinstance(bibliography, list) and bibliography:
        bibliography = bibliography[0]
    if not isinstance(bibliography, str) or not bibliography.strip():
        return None, {}
    found = _find_bib(bibliography.strip(), path, roots)
    if found is None:
        notes.add(1, f"bibliography {bibliography} not found; citations kept as text")
        return None, {}
    raw_bib = found.read_text(encoding="utf-8", errors="replace")
    name = found.name
    if found.suffix.lower() in (".json", ".yaml", ".yml"):  # CSL (Zotero's, Pandoc's): BibTeX
        yaml_csl = found.suffix.lower() != ".json"
        raw_bib = csl_to_bibtex(csl_yaml_as_json(raw_bib) if yaml_csl else raw_bib)
        name = found.stem + ".bib"
        notes.add(1, f"{found.name} (CSL {'YAML' if yaml_csl else 'JSON'}) written as {name}")
    renamed = safe_keys(raw_bib)
    cleaned, messages = tidy(raw_bib, name)
    for message in messages:
        notes.add(1, message)
    written[name] = cleaned
    front["bibliography"] = name
    keys = frozenset(k for kind, k in BIB_ENTRY.findall(cleaned) if kind.lower() != "string")
    return keys, renamed


def tidy(raw_bib: str, name: str) -> tuple[str, list[str]]:
    """The ``.bib`` as the build reads it, and what was changed: BibTeX (and citeproc)
    took repeated entries and fields, undefined ``@string`` names and lists of names
    that pybtex refuses or splits wrongly."""
    messages: list[str] = []
    cleaned, dropped = clean_bib(raw_bib)
    if dropped:
        messages.append(f"{name}: repeated entries dropped: {', '.join(dropped)}")
    cleaned, fields = drop_repeated_fields(cleaned)
    if fields:
        messages.append(f"{name}: repeated fields dropped (the first kept): {', '.join(fields)}")
    cleaned, strings = undefined_strings(cleaned)
    if strings:
        messages.append(f"{name}: names no @string defines, kept as text: {', '.join(strings)}")
    cleaned, names = brace_lists_of_names(cleaned)
    if names:
        messages.append(f"{name}: names BibTeX would split wrongly, kept whole: {'; '.join(names)}")
    return cleaned, messages


SCHOLAR_FILE = re.compile(r"\{%-?\s*(?:bibliography|cite)\b[^%]*?--file\s+[\"']?([^\s\"'%]+)")


def scholar(site: dict[str, Any] | None, body: str) -> str | None:
    """The site-wide ``.bib`` jekyll-scholar reads (``scholar: {bibliography, bibliography_dir}``
    in ``_config.yml``; its defaults ``references.bib`` in ``_bibliography/``), for a post
    that cites with ``{% cite %}`` and names no bibliography of its own."""
    if not site or not re.search(r"\{%-?\s*cite\s", body):
        return None
    settings = site.get("scholar")
    settings = settings if isinstance(settings, dict) else {}
    # ``{% bibliography --file normflow %}`` (or a ``{% cite k --file x %}``): the post's own.
    named = SCHOLAR_FILE.search(body)
    name = named.group(1) if named else str(settings.get("bibliography") or "references")
    name = name if name.endswith((".bib", ".bibtex")) else name + ".bib"
    return f"{str(settings.get('bibliography_dir') or '_bibliography').strip('/')}/{name}"


# hugo-cite's ``{{< cite "key" >}}`` and the like, citing from one site-wide file.
HUGO_CITE = re.compile(r"\{\{[<%]\s*cite[pt]?\s")
SITE_WIDE = ("data/bib.json", "references.bib", "bibliography.bib", "refs.bib", "assets/bib.json")


def site_wide(roots: list[Path], body: str) -> str | None:
    """For a Hugo post that cites with a shortcode and names no bibliography: the site's
    file that holds its first key (hugo-cite reads ``data/bib.json``; a root
    ``references.bib`` may be the author's own papers), or else the first there is."""
    match = HUGO_CITE.search(body)
    if match is None:
        return None
    found = [(n, r / n) for n in SITE_WIDE for r in roots if (r / n).is_file()]
    key = re.match(r"""\s*["']?([^"'\s,>%]+)""", body[match.end() :])
    for name, path in found:
        if key and key.group(1) in path.read_text(encoding="utf-8", errors="replace"):
            return name
    return found[0][0] if found else None


def _find_bib(name: str, post: Path, roots: list[Path]) -> Path | None:
    """al-folio keeps ``.bib`` files in ``assets/bibliography/``; others beside the post."""
    for base in [post.parent, *roots, *(r / "assets" / "bibliography" for r in roots)]:
        candidate = base / name.lstrip("/")
        if candidate.is_file():
            return candidate
    return None


_CSL_TYPES = {
    **{"article-journal": "article", "paper-conference": "inproceedings", "book": "book"},
    **{"chapter": "incollection", "thesis": "phdthesis", "report": "techreport"},
}


def csl_to_bibtex(source: str) -> str:
    """A CSL JSON bibliography as BibTeX, which the build reads: the fields a reference
    shows (authors, title, year, venue, volume, pages, DOI, URL). Not JSON: no entries."""
    try:
        items = json.loads(source)
    except ValueError:
        return ""
    entries = []
    for item in items if isinstance(items, list) else []:
        key = isinstance(item, dict) and (item.get("id") or item.get("citation-key"))
        if not key:
            continue
        kind = _CSL_TYPES.get(str(item.get("type", "")), "misc")
        venue = "journal" if kind == "article" else "booktitle"
        fields = {
            "author": _csl_names(item.get("author")),
            "editor": _csl_names(item.get("editor")),
            "title": item.get("title"),
            "year": _csl_year(item.get("issued")),
            venue: item.get("container-title"),
            "volume": item.get("volume"),
            "number": item.get("issue") or item.get("number"),
            "pages": item.get("page"),
            "publisher": item.get("publisher"),
            "doi": item.get("DOI"),
            "url": item.get("URL"),
        }
        body = "".join(
            f"  {name} = {{{_csl_value(value)}}},\n" for name, value in fields.items() if value
        )
        entries.append(f"@{kind}{{{key},\n{body}}}\n")
    return "\n".join(entries)


def csl_yaml_as_json(source: str) -> str:
    """Pandoc's CSL YAML (``references:``, a list of CSL items, ``issued: {year: 2011}``
    allowed) as the CSL JSON ``csl_to_bibtex`` reads. Not YAML: no entries."""
    try:  # a metadata block between ``---`` lines, as Pandoc writes it, or a bare list
        data = next((d for d in yaml.safe_load_all(source) if d is not None), None)
    except yaml.YAMLError:
        return "[]"
    items = data.get("references") if isinstance(data, dict) else data
    items = [i for i in items if isinstance(i, dict)] if isinstance(items, list) else []
    for item in items:
        issued = item.get("issued")
        if isinstance(issued, dict) and "year" in issued and "date-parts" not in issued:
            item["issued"] = {"date-parts": [[issued["year"]]]}
        elif isinstance(issued, list) and issued and isinstance(issued[0], dict):
            item["issued"] = {"date-parts": [[issued[0].get("year")]]}
    return json.dumps(items, default=str)


def _csl_names(names: object) -> str:
    if not isinstance(names, list):
        return ""
    parts = [
        n.get("literal") or ", ".join(p for p in (n.get("family"), n.get("given")) if p)
        for n in names
        if isinstance(n, dict)
    ]
    return " and ".join(p for p in parts if p)


def _csl_year(issued: object) -> str:
    if isinstance(issued, dict):
        parts = issued.get("date-parts")
        if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
            return str(parts[0][0])
        return str(issued.get("literal") or issued.get("raw") or "")[:4]
    return ""


def _csl_value(value: object) -> str:
    """Braces would unbalance the entry; a title's own case is kept by the outer ones."""
    return " ".join(str(value).replace("{", "").replace("}", "").split())


BIB_MATH_BRACE = re.compile(r"\$\\([{}])\$")
KEY_UNSAFE = re.compile(r"[^\w:.#$%&+?<>~/-]")


def safe_keys(source: str) -> dict[str, str]:
    """Keys a citation here cannot spell (``d'oro2022``), each with the name it gets."""
    renamed = {}
    for _kind, key in BIB_ENTRY.findall(source):
        if KEY_UNSAFE.search(key) or not re.match(r"\w", key):
            renamed[key] = KEY_UNSAFE.sub("", key).lstrip(":.#$%&+?<>~/-") or "key"
    return renamed


def clean_bib(source: str) -> tuple[str, list[str]]:
    """The .bib without repeated entries (the first is kept), and the keys dropped.

    BibTeX warns about a repeat; pybtex, and so this site's build, stops on one.
    Google Scholar's ``$\\{$Semi-Supervised$\\}$`` (braces drawn as math) would show
    its dollars here: the braces go. Keys a citation cannot spell are renamed
    (``safe_keys``); the post's citations follow.
    """
    source = BIB_MATH_BRACE.sub("", source)
    for key, new in safe_keys(source).items():
        source = re.sub(r"([{(]\s*)" + re.escape(key) + r"(\s*,)", rf"\g<1>{new}\2", source)
    starts = [m for m in BIB_ENTRY.finditer(source)]
    seen: set[str] = set()
    dropped: list[str] = []
    pieces = [source[: starts[0].start()] if starts else source]
    for index, match in enumerate(starts):
        end = starts[index + 1].start() if index + 1 < len(starts) else len(source)
        key = match.group(2).lower()
        if match.group(1).lower() in ("string", "preamble", "comment") or key not in seen:
            seen.add(key)
            pieces.append(source[match.start() : end])
        else:
            dropped.append(match.group(2))
    return "".join(pieces), dropped


FIELD = re.compile(r"\s*([A-Za-z][\w-]*)\s*=")


def drop_repeated_fields(source: str) -> tuple[str, list[str]]:
    """Each entry without a field it repeats (BibTeX keeps the first and warns; pybtex, and
    so the build, stops): the text, and ``key.field`` for each field dropped."""
    dropped: list[str] = []
    starts = list(BIB_ENTRY.finditer(source))
    pieces, done = [], 0
    for match in starts:
        if match.group(1).lower() in ("string", "preamble", "comment"):
            continue
        cuts, seen, depth, quoted, field_start = [], set(), 1, False, match.end()
        index = match.end()
        while index < len(source) and depth > 0:
            char = source[index]
            if char == "\\":
                index += 2
                continue
            if char == '"' and depth == 1:
                quoted = not quoted
            elif not quoted and char in "{(":
                depth += 1
            elif not quoted and char in "})":
                depth -= 1
            if depth == 0 or (char == "," and depth == 1 and not quoted):
                name = FIELD.match(source, field_start)
                if name:
                    key = name.group(1).lower()
                    if key in seen:
                        end = len(source[:index].rstrip())  # the line break before } stays
                        cuts.append((field_start - 1, end))  # with the comma before it
                        dropped.append(f"{match.group(2)}.{key}")
                    seen.add(key)
                field_start = index + 1
            index += 1
        for start, end in cuts:
            pieces.append(source[done:start])
            done = end
    pieces.append(source[done:])
    return "".join(pieces), dropped


NAMES_FIELD = re.compile(r"(?im)^([ \t]*(?:author|editor)[ \t]*=[ \t]*\{)(.*)(\}[ \t]*,?[ \t]*)$")
AND = re.compile(r"\s+and\s+", re.I)


def brace_lists_of_names(source: str) -> tuple[str, list[str]]:
    """``author = {ILO, OECD, IMF, WB}``: a name has at most two commas (``von Last, Jr,
    First``); BibTeX warns of "too many commas" and goes on, pybtex (and so the build)
    stops. Such a name is braced, one name as written; a ``\\,`` in a name is a space.
    Returns the text and the names changed."""
    changed: list[str] = []

    def field(match: re.Match[str]) -> str:
        names = AND.split(match.group(2))
        # ``Martin\,Neil``: a thin space whose comma BibTeX takes as a name's separator
        fixed = [n.replace("\\,", " ") for n in names]
        fixed = [f"{{{n}}}" if _commas(n) > 2 else n for n in fixed]
        changed.extend(n for n, f in zip(names, fixed, strict=True) if n != f)
        return match.group(1) + " and ".join(fixed) + match.group(3)

    return NAMES_FIELD.sub(field, source), changed


def _commas(name: str) -> int:
    """Commas outside braces."""
    depth = count = 0
    for char in name:
        depth += {"{": 1, "}": -1}.get(char, 0)
        count += char == "," and depth == 0
    return count


# ``booktitle = NAACL18,``: a bare name is an ``@string`` macro; one the file never
# defines stops pybtex (BibTeX warned and left the field empty, citeproc printed it).
BARE_VALUE = re.compile(
    r"(?m)^([ \t]*[A-Za-z][\w-]*[ \t]*=[ \t]*)([A-Za-z_][\w:.-]*)([ \t]*,?[ \t]*)$"
)
STRING_DEF = re.compile(r"(?im)^[ \t]*@string\s*[{(]\s*([\w:.-]+)\s*=")
MONTHS = frozenset(
    ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
)


def undefined_strings(source: str) -> tuple[str, list[str]]:
    """Each bare value no ``@string`` defines (and no month, which BibTeX knows) as the
    text it names, braced: ``{NAACL18}``; and those names."""
    defined = {name.lower() for name in STRING_DEF.findall(source)} | MONTHS
    found: list[str] = []

    def brace(match: re.Match[str]) -> str:
        name = match.group(2)
        if name.lower() in defined:
            return match.group(0)
        if name not in found:
            found.append(name)
        return f"{match.group(1)}{{{name}}}{match.group(3)}"

    return BARE_VALUE.sub(brace, source), found
