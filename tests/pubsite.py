"""A site with a profile and a publications file, rendered through the real templates.

The publications route is not wired into the build yet (the route table does that), so
these helpers render ``publications.html`` and a home page the way the build will: a
Jinja environment from ``pages.make_environment`` and ``pages.render_template``. The
parsed HTML is a small tree (``Node``) the tests query by tag and class.
"""

from __future__ import annotations

import shutil
import struct
import zlib
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

from site_builder.config import SiteConfig, load_config
from site_builder.menu import site_menu
from site_builder.meta import home_meta, page_meta
from site_builder.pages import make_environment, render_template
from site_builder.publications import Publications, load_publications, selected

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "publications"

# The home page as the build will make it: the profile, then the selected papers.
HOME = """{% extends "base.html" %}
{% from "_profile.html" import profile with context %}
{% from "_publication.html" import selected_publications, publication_styles with context %}
{% block head %}{{ publication_styles(math) }}{% endblock %}
{% block main %}
<div class="listing">
<h1 class="visually-hidden">{{ config.title }}</h1>
{% if config.profile %}{{ profile(config.profile) }}{% endif %}
{{ selected_publications(papers) }}
</div>
{% endblock %}
"""


def png(width: int, height: int) -> bytes:
    """A small valid PNG (a gradient) of the given size, for the profile photo."""
    rows = b"".join(
        b"\x00" + b"".join(bytes([x * 255 // width, y * 255 // height, 160]) for x in range(width))
        for y in range(height)
    )

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


def make_site(
    root: Path, author_yaml: str, bib: str | None = None, files: tuple[str, ...] = ()
) -> Path:
    """A site at ``root``: this repository's templates and static files, a site.yaml with
    ``author_yaml`` (the ``author:`` block), ``bib`` copied from tests/data/publications as
    ``papers.bib``, and empty ``files`` under static/ (the PDFs its entries name)."""
    root.mkdir(parents=True, exist_ok=True)
    shutil.copytree(ROOT / "templates", root / "templates")
    shutil.copytree(ROOT / "static", root / "static")
    (root / "static" / "img").mkdir(exist_ok=True)
    (root / "static" / "img" / "me.png").write_bytes(png(96, 120))
    for name in files:
        (root / "static" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "static" / name).write_bytes(b"%PDF-1.4\n")
    lines = ["title: A Researcher", author_yaml.rstrip(), "base_url: https://example.org/"]
    if bib:
        shutil.copy(DATA / bib, root / "papers.bib")
        lines.append("publications: papers.bib")
    (root / "site.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root


@dataclass
class Rendered:
    config: SiteConfig
    publications: Publications
    page: str  # publications/index.html
    home: str


def render(root: Path) -> Rendered:
    """The publications page and the home page of the site at ``root``."""
    config = load_config(root)
    assert config.publications is not None
    pubs = load_publications(config.publications, root, config.author, config.math_macros)
    env = make_environment(config)
    env.globals["menu"] = site_menu(config, (), lambda page: "")  # the build's site.menu
    meta = page_meta(config, "publications/", "Publications", f"Papers by {config.author}.")
    page = render_template(
        env, "publications.html", publications=pubs, page_path="publications/", meta=meta
    )
    papers = selected(pubs)
    math = any("<math" in p.title_html + p.abstract_html for p in papers)
    home = env.from_string(HOME).render(
        papers=papers, math=math, page_path="", meta=home_meta(config)
    )
    return Rendered(config, pubs, page, home)


# --- a small HTML tree ---------------------------------------------------------------------


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    children: list[Node | str] = field(default_factory=list)

    @property
    def classes(self) -> list[str]:
        return self.attrs.get("class", "").split()

    @property
    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text for c in self.children)

    def find_all(self, tag: str | None = None, cls: str | None = None) -> list[Node]:
        out = []
        for child in self.children:
            if isinstance(child, Node):
                if (tag is None or child.tag == tag) and (cls is None or cls in child.classes):
                    out.append(child)
                out.extend(child.find_all(tag, cls))
        return out

    def find(self, tag: str | None = None, cls: str | None = None) -> Node | None:
        found = self.find_all(tag, cls)
        return found[0] if found else None


_VOID = {"meta", "link", "img", "br", "hr", "input", "source", "path"}


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", {})
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(node)
        if tag not in _VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack[-1].children.append(Node(tag, {k: v or "" for k, v in attrs}))

    def handle_endtag(self, tag: str) -> None:
        for index in range(len(self.stack) - 1, 0, -1):
            if self.stack[index].tag == tag:
                del self.stack[index:]
                return

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def parse_html(text: str) -> Node:
    builder = _Builder()
    builder.feed(text)
    return builder.root
