"""An al-folio site's researcher parts: its papers, its About page and its profile.

al-folio's home page is not a blog: ``_bibliography/papers.bib`` is its
publications page, ``_pages/about.md`` (``layout: about``, ``permalink: /``) its
home page with a photo, and ``_config.yml`` or ``_data/socials.yml`` the links
under the photo. Here they become ``papers.bib`` with ``publications:`` in
site.yaml (the PDFs its ``pdf`` fields name copied from ``assets/pdf/`` to
``static/pdf/``), ``content/index.md``, and ``author:`` as a mapping
(``site_builder.profile``). Its other ``_pages`` come across as pages when they
are written in Markdown; the ones al-folio builds from its data with Liquid
(cv, projects, news, repositories) are reported, not half-converted. Nothing
the site has already (a ``papers.bib``, a home text, a profile) is overwritten.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

from site_builder.errors import BuildError
from site_builder.importer import frontmatter, jekyll, siteyaml, socials
from site_builder.importer.bib import tidy
from site_builder.importer.report import ImportReport, Note, PostNotes

LAYOUTS = ("page", "post", "distill")  # the layouts that lay out the page's own text
# Liquid that builds a page from the site's data: nothing here could stand in for it.
LOGIC = re.compile(
    r"\{%-?\s*(for|if|unless|case|assign|bibliography|include(?!\s+(?:figure|video)\b))\b"
)
URL = re.compile(r"[a-z][a-z0-9+.-]*://", re.IGNORECASE)


def detect(source: Path) -> bool:
    """Is ``source`` an al-folio site: a ``papers.bib`` where jekyll-scholar reads it, or
    an About page laid out by al-folio's ``about`` layout?"""
    bib = source / "_bibliography" / "papers.bib"
    return source.is_dir() and (bib.is_file() or find_about(source) is not None)


def find_about(source: Path) -> Path | None:
    """The page with ``layout: about`` (``_pages/about.md`` in every al-folio site seen)."""
    folder = source / "_pages"
    files = sorted(folder.glob("*.md")) if folder.is_dir() else []
    files.sort(key=lambda p: p.name != "about.md")
    return next((p for p in files if _meta(p).get("layout") == "about"), None)


def add(source: Path, site: Path | None, posts: list[Path], report: ImportReport) -> list[Path]:
    """The files to import as posts and pages; the papers, home text and profile are
    written now, when there is a site to write them into."""
    if not (source / "_posts").is_dir():  # its other Markdown (README, _news) is not posts;
        collections = jekyll.collections(source)  # its published collections' notes are
        posts = [p for p in posts if any(c in p.parents for c in collections)]
    if site is None:
        why = "papers.bib, the About page and the profile not imported: no site to write them to"
        report.site_notes.append(Note(source, None, why))
    else:
        import_site(source, site, source.parent, report)
    return [*posts, *pages(source, source.parent, report.site_notes)]


def pages(source: Path, base: Path, notes: list[Note]) -> list[Path]:
    """The ``_pages`` files to import as pages; a note for each one left out, and why."""
    folder = source / "_pages"
    about = find_about(source)
    found = []
    for path in sorted(folder.glob("*")) if folder.is_dir() else []:
        if path.suffix not in (".md", ".markdown") or path.name.startswith(("_", ".")):
            continue  # Jekyll does not publish them either
        if path == about:
            continue  # the home page's text (``import_site``)
        raw = path.read_text(encoding="utf-8", errors="replace")
        source_text = frontmatter.split(raw, PostNotes(path))
        meta, body = source_text.meta, source_text.body
        layout = str(meta.get("layout") or "page")
        logic = LOGIC.search(body)
        why = ""
        if path.stem == "404" or str(meta.get("permalink", "")).endswith("404.html"):
            why = "this site makes its own 404 page"
        elif logic and logic.group(1) == "bibliography":
            why = "a publications page: publications/ is made from papers.bib"
        elif layout not in LAYOUTS:
            why = f"al-folio's '{layout}' layout builds it from the site's data"
        elif logic:
            line = source_text.body_line + body.count("\n", 0, logic.start())
            tag = f"{{% {logic.group(1)} %}}"
            why = f"Liquid builds it ({tag} at line {line}); write it in Markdown"
        if why:
            notes.append(Note(_shown(path, base), 1, f"page not imported: {why}"))
        else:
            found.append(path)
    return found


def import_site(source: Path, site: Path, base: Path, report: ImportReport) -> None:
    """Write the papers, the home text and the profile into the site at ``site``."""
    notes = report.site_notes
    config = socials.read_yaml(source / "_config.yml", notes)
    about = find_about(source)
    meta = _meta(about) if about else {}
    report.site_parts.extend(_papers(source, site, base, notes))
    if about is not None:
        report.site_parts.extend(_home(about, source, site, base, meta, report))
    report.site_parts.extend(_profile(source, site, config, meta, notes))
    notes[:] = [replace(note, path=_shown(note.path, base)) for note in notes]


def _papers(source: Path, site: Path, base: Path, notes: list[Note]) -> list[str]:
    """``papers.bib`` at the site's root and in ``publications:``, its PDFs in static/pdf/."""
    from site_builder.publications.source import scan

    bib = source / "_bibliography" / "papers.bib"
    if not bib.is_file():
        return []
    shown, target = _shown(bib, base), site / "papers.bib"
    # Tidied as a post's .bib is: ``month = july`` (no @string) stopped the whole build.
    text, messages = tidy(bib.read_text(encoding="utf-8", errors="replace"), "papers.bib")
    if target.exists() and target.read_text(encoding="utf-8", errors="replace") != text:
        notes.append(Note(shown, None, "not imported: the site has a papers.bib already"))
        return []
    target.write_text(text, encoding="utf-8")
    notes.extend(Note(shown, None, message) for message in messages)
    copied = 0
    for entry in scan(bib.read_text(encoding="utf-8", errors="replace")).values():
        for field in entry.fields:
            name = field.value.strip()[1:-1].strip() if field.value[:1] in '{"' else ""
            if field.name.lower() != "pdf" or not name or URL.match(name):
                continue
            pdf = source / "assets" / "pdf" / name.lstrip("/").removeprefix("assets/pdf/")
            if ".." in Path(name).parts or not pdf.is_file():
                notes.append(Note(shown, field.line, f"pdf {name} not found in assets/pdf/"))
                continue
            dest = site / "static" / "pdf" / pdf.relative_to(source / "assets" / "pdf")
            if not dest.exists():
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(pdf, dest)
                copied += 1
    written = _set(site, "publications", "papers.bib", shown, notes)
    pdfs = f" ({copied} PDF{'s' if copied != 1 else ''} into static/pdf/)" if copied else ""
    return [f"papers.bib{pdfs}" + ("" if written else ", publications: not set")]


def _home(
    about: Path, source: Path, site: Path, base: Path, meta: dict[str, Any], report: ImportReport
) -> list[str]:
    """The About page's text as ``content/index.md``, its subtitle as the description."""
    from site_builder.importer import convert_post

    shown = _shown(about, base)
    target = site / "content" / "index.md"
    if target.exists():
        report.site_notes.append(Note(shown, None, "not imported: content/index.md exists"))
        return []
    post = convert_post(about, shown, "jekyll", [source])
    report.site_notes.extend(n for n in post.notes.notes if not n.message.startswith("no date"))
    if post.skipped:
        report.site_notes.append(Note(shown, None, f"not imported: {post.skipped}"))
        return []
    for name in post.files:
        message = f"{name}: the home text's files are not copied; put it under static/"
        report.site_notes.append(Note(shown, None, message))
    body = post.text.split("\n---\n", 1)[1].lstrip("\n")  # less convert_post's front matter
    description = socials.plain(str(meta.get("subtitle") or meta.get("description") or ""))
    head = frontmatter.dump({"description": description}) + "\n" if description else ""
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(head + body, encoding="utf-8")
    return ["content/index.md (the About page)"]


def _profile(
    source: Path, site: Path, config: dict[str, Any], meta: dict[str, Any], notes: list[Note]
) -> list[str]:
    """``author:`` as a mapping: the name, the About page's photo and lines, the links."""
    from site_builder.profile import link_url, load_profile

    where = source / "_config.yml"
    parts = (config.get(k) for k in ("first_name", "middle_name", "last_name"))
    name = " ".join(str(p).strip() for p in parts if p and str(p).strip())
    if not name:
        notes.append(Note(where, None, "no first_name/last_name: author: left as it is"))
        return []
    author: dict[str, Any] = {"name": name}
    profile: dict[str, Any] = meta.get("profile") or {}
    if not isinstance(profile, dict):
        profile = {}
    image = str(profile.get("image") or "").strip()
    photo = source / "assets" / "img" / image
    if image and (".." in Path(image).parts or not photo.is_file()):
        notes.append(Note(where, None, f"profile image {image} not found in assets/img/"))
    elif image:
        dest = site / "static" / "img" / image
        if dest.exists() and dest.read_bytes() != photo.read_bytes():
            notes.append(Note(where, None, f"static/img/{image} exists: the photo left out"))
        else:
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(photo, dest)
            author["photo"] = f"img/{image}"
    links = socials.read(source, config, notes)
    # The subtitle under the name, then the address lines under the photo, less a line
    # that is only a link the icons give already (al-folio's examples put the email there).
    linked = {f"]({link_url(kind, value)[1]})" for kind, value in links.items()}
    address = socials.html_lines(str(profile.get("more_info") or ""))
    address = [t for t in address if not (t.startswith("[") and t.endswith(tuple(linked)))]
    bio = [" · ".join(socials.html_lines(str(meta.get("subtitle") or ""))), " · ".join(address)]
    if any(bio):
        author["bio"] = "\n\n".join(part for part in bio if part)
    if links:
        author["links"] = links
    text = siteyaml.dump({"author": author})
    try:  # the build's own reading of it, so the import writes nothing the build refuses
        load_profile(author, text, site)
    except BuildError as error:
        notes.append(Note(where, None, f"profile not written: {error.message}"))
        return []
    if not _set(site, "author", author, where, notes):
        return []
    count = f"{len(links)} link{'s' if len(links) != 1 else ''}"
    return [f"author: {name}" + (", a photo" if "photo" in author else "") + f", {count}"]


def _set(site: Path, key: str, value: Any, where: Path, notes: list[Note]) -> bool:
    """Set ``key`` in site.yaml unless the author set it to something else already."""
    config = site / "site.yaml"
    have = siteyaml.top_level(config).get(key)
    if have == value:
        return True
    if isinstance(have, dict) or (have is not None and key != "author"):  # not a plain name
        notes.append(Note(where, None, f"site.yaml has its own '{key}': kept"))
        return False
    try:
        siteyaml.set_key(config, key, value)
    except (OSError, ValueError) as exc:
        why = exc.strerror if isinstance(exc, OSError) else str(exc)
        notes.append(Note(config, None, f"'{key}' not written: {why}"))
        return False
    return True


def _meta(path: Path) -> dict[str, Any]:
    raw = path.read_text(encoding="utf-8", errors="replace")
    return frontmatter.split(raw, PostNotes(path)).meta


def _shown(path: Path, base: Path) -> Path:
    return path.relative_to(base) if base in path.parents else path
