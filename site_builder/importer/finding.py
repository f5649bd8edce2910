"""Where a source site keeps its posts, and which generator wrote it.

A site is Jekyll, Hugo or Quarto by its configuration file; one with none of them
(Gatsby, Astro, Docusaurus, Eleventy, MkDocs) is read as Markdown with MathJax-style
math, which the Jekyll converter handles. Posts are looked for where the generator
reads them, never in dependencies, build output or the repository's own documents.
"""

from __future__ import annotations

import re
from pathlib import Path

from site_builder.importer import distill, jekyll, zola
from site_builder.importer.common import HUGO_CONFIGS


def detect(source: Path) -> str:
    """The source's format from its configuration files, else from its posts' syntax."""
    if source.is_file() and source.suffix == ".ipynb":  # fastpages' Liquid only in _notebooks/
        return "jekyll" if source.parent.name == "_notebooks" else "quarto"
    if source.is_file():
        return "quarto" if source.suffix == ".qmd" else _sniff([source])
    if (source / "_quarto.yml").exists() or (source / "_quarto.yaml").exists():
        return "quarto"
    if distill.is_distill(source):  # before Jekyll: its posts are in ``_posts/`` too
        return "distill"
    if any((source / name).exists() for name in ("_config.yml", "_posts", "_notebooks")):
        return "jekyll"
    if zola.is_zola(source):
        return "zola"
    if any((source / name).is_file() for name in HUGO_CONFIGS if name.startswith("hugo")):
        return "hugo"
    if (source / "content").is_dir() and any(  # ``config.yml`` beside Hugo's content/
        (source / name).exists() for name in (*HUGO_CONFIGS, "config/_default")
    ):
        return "hugo"
    if any(source.rglob("*.qmd")):
        return "quarto"
    return _sniff(_walk(source, MARKDOWN)[:50])


def _sniff(files: list[Path]) -> str:
    text = "".join(f.read_text(encoding="utf-8", errors="replace")[:20000] for f in files)
    if "{{<" in text or "{{%" in text or text.lstrip().startswith("+++"):
        return "hugo"
    return "jekyll"


# Folders no generator reads posts from: dependencies, build output, version control.
NOT_CONTENT = {"node_modules", "vendor", "_site", "_freeze", "_extensions", "public", "dist"}
# A repository's own documents, beside the site in its root.
REPO_FILES = {
    *("readme", "license", "licence", "changelog", "contributing", "code_of_conduct"),
    *("todo", "security", "agents", "claude", "gemini"),  # notes to people and coding agents
}
MARKDOWN = (".md", ".markdown", ".mdx")  # .mdx: Gatsby, Astro, Docusaurus, Next.js
R_MARKDOWN = (".Rmd", ".rmd", ".Rmarkdown")  # blogdown and Quarto render them too
RST = (".rst",)  # reStructuredText: Pelican's, Nikola's and ABlog's (``rst``)
# A post read as reStructuredText: Nikola's ``.txt`` too, found only through its ``POSTS``
RST_POSTS = (*RST, ".txt")


def _walk(folder: Path, suffixes: tuple[str, ...]) -> list[Path]:
    """The files under ``folder`` with one of ``suffixes``, outside hidden folders and the
    folders in ``NOT_CONTENT``; an R Markdown file whose rendered twin (``x.Rmarkdown``
    beside ``x.markdown``, blogdown's way) is there too gives way to the twin, which
    holds the code's output."""
    found = []
    for p in folder.rglob("*"):
        parts = p.relative_to(folder).parts
        if p.suffix not in suffixes or NOT_CONTENT & set(parts[:-1]):
            continue
        if any(part.startswith(".") for part in parts):
            continue
        if len(parts) == 1 and p.stem.lower() in REPO_FILES:
            continue
        if p.suffix in R_MARKDOWN and any(p.with_suffix(s).exists() for s in MARKDOWN):
            continue
        found.append(p)
    return sorted(found)


def find_posts(source: Path, fmt: str) -> tuple[list[Path], list[Path]]:
    """The source's post files, and the roots its site served files from."""
    if source.is_file():
        return [source], [source.parent]
    if fmt == "distill":
        return distill.posts(source), [source]
    if fmt == "jekyll":
        # ``collections_dir: collections`` puts ``_posts`` (and each collection) there.
        base = source / str(jekyll.site_config(source).get("collections_dir") or "")
        posts = base / "_posts" if (base / "_posts").is_dir() else source / "_posts"
        # Posts and every published collection (al-folio's ``_stats-ml/`` notes may be all
        # there is); with neither, the site's Markdown wherever Jekyll renders it.
        folders = [posts] if posts.is_dir() else []
        folders = [*folders, *jekyll.collections(source)] or [source]
        if folders == [source] and (source / "source" / "_posts").is_dir():  # Hexo: not its
            folders = [source / "source"]  # scaffolds/ (new posts' templates) nor themes/
        files = [  # Jekyll ignores files and folders whose name starts with _ or .
            p
            for folder in folders
            for p in _walk(folder, MARKDOWN)
            if not p.name.startswith("_") and not _underscored(p.relative_to(folder).parts[:-1])
        ]
        if posts.is_dir():  # a post written in HTML, with front matter (``html_posts``)
            files += [p for p in _walk(posts, (".html", ".htm")) if _has_front_matter(p)]
        hexo = [source / "source"] if folders == [source / "source"] else []  # its site root
        if folders == [source]:  # Pelican, Nikola, ABlog: their posts in reST too
            files += [p for p in rst_posts(source) if p not in files]
        return sorted(files), [source, *hexo, *_pelican_content(source)]
    if fmt in ("hugo", "zola"):
        content = source / "content" if (source / "content").is_dir() else source
        pages = [p for p in _walk(content, MARKDOWN + R_MARKDOWN) if p.stem != "_index"]
        files = [p for p in pages if p.parent != content] or pages
        return sorted(files), [source / "static", content, source, source / "assets"]
    # Quarto renders .md pages too (a site of notes may hold nothing else); a .md beside a
    # .qmd of its name is that one's render, or its twin.
    files = [
        p
        for p in _walk(source, (".qmd", ".md", *R_MARKDOWN))
        if not p.name.startswith("_")
        and p.parent != source
        and (p.suffix != ".md" or not p.with_suffix(".qmd").exists())
    ] or _walk(source, (".qmd",))
    return sorted(files), [source]


def _has_front_matter(path: Path) -> bool:
    try:
        with path.open(encoding="utf-8", errors="replace") as file:
            return file.readline().rstrip() == "---"
    except OSError:
        return False


def _underscored(folders: tuple[str, ...]) -> bool:
    """A folder Jekyll does not render (``_drafts``, ``_includes``, ``_temp``), but Hexo's
    ``_posts`` under ``source/``."""
    return any(f.startswith("_") and f != "_posts" for f in folders)


def _pelican_content(source: Path) -> list[Path]:
    """Pelican serves ``content/images/x.png`` (its ``PATH``'s static folders) at
    ``/images/x.png``: that folder is a root the posts' images are found in."""
    config = source / "pelicanconf.py"
    if not config.is_file():
        return []
    found = re.search(r"(?m)^PATH\s*=\s*['\"]([^'\"]+)['\"]", config.read_text(errors="replace"))
    folder = source / (found.group(1) if found else "content")
    return [folder] if folder.is_dir() else []


def rst_posts(source: Path) -> list[Path]:
    """The posts written in reStructuredText, where the generator reads them: Pelican's
    content folder but its pages, Nikola's ``POSTS`` globs, ABlog's files holding a
    ``.. post::`` directive; with none of them, every ``.rst`` file of the folder."""
    if (source / "pelicanconf.py").is_file() or (source / "publishconf.py").is_file():
        config = _read(source / "pelicanconf.py")
        content = (_pelican_content(source) or [source / "content"])[0]
        if not content.is_dir():
            content = source
        pages = set(_quoted(config, "PAGE_PATHS") or ["pages"])
        articles = _quoted(config, "ARTICLE_PATHS")
        files = [
            p
            for p in _walk(content, RST)
            if not pages & set(_parents(p, content))
            and (not articles or any(a.strip("/") in _parents(p, content) for a in articles))
        ]
        return files
    config = _read(source / "conf.py")
    posts = re.search(r"(?ms)^POSTS\s*=\s*\((.*?)^\)", config)
    if posts is not None:  # Nikola: ``("posts/*.rst", "posts", "post.tmpl")``, and ``.txt``
        lines = [line for line in posts.group(1).split("\n") if not line.strip().startswith("#")]
        globs = re.findall(r"\(\s*[\"']([^\"']+\.(?:rst|txt))[\"']", "\n".join(lines))
        return sorted({p for pattern in globs for p in source.glob(pattern) if p.is_file()})
    if "ablog" in config:  # Sphinx with ABlog: a post is a page with a ``post`` directive
        return [p for p in _walk(source, RST) if "\n.. post::" in "\n" + _read(p)]
    return [] if config else _walk(source, RST)  # conf.py alone: Sphinx's documentation


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def _quoted(config: str, name: str) -> list[str]:
    """The strings of a list setting (``PAGE_PATHS = ["pages", "about"]``)."""
    found = re.search(rf"(?m)^{name}\s*=\s*[\[(]([^\])]*)[\])]", config)
    return re.findall(r"[\"']([^\"']+)[\"']", found.group(1)) if found else []


def _parents(path: Path, folder: Path) -> list[str]:
    """The folders between ``folder`` and ``path``, each as a path from ``folder``."""
    parts = path.relative_to(folder).parts[:-1]
    return [*parts, *("/".join(parts[: i + 1]) for i in range(1, len(parts)))]


# Generators this importer reads as Markdown with MathJax's delimiters (the Jekyll
# converter), named by their configuration file, so the report names what it read.
ENGINES = {
    "quartz.config.ts": "Quartz",
    "astro.config.mjs": "Astro",
    "astro.config.ts": "Astro",
    "gatsby-config.js": "Gatsby",
    "gatsby-config.ts": "Gatsby",
    "docusaurus.config.js": "Docusaurus",
    "docusaurus.config.ts": "Docusaurus",
    "mkdocs.yml": "MkDocs",
    "pelicanconf.py": "Pelican",
    "publishconf.py": "Pelican",
    ".eleventy.js": "Eleventy",
    "eleventy.config.js": "Eleventy",
}


def engine(source: Path, fmt: str) -> str:
    """The generator's name for the report: ``fmt``, or the one a configuration names
    when the posts are read as Markdown (Hexo keeps a ``_config.yml`` as Jekyll does)."""
    if fmt != "jekyll" or source.is_file():
        return fmt
    if (source / "source" / "_posts").is_dir() and not (source / "_posts").is_dir():
        return "Hexo"
    config = _read(source / "conf.py")
    if re.search(r"(?m)^POSTS\s*=", config):
        return "Nikola"
    if "ablog" in config:
        return "ABlog"
    return next((name for file, name in ENGINES.items() if (source / file).exists()), fmt)
