"""``site-builder check``: is the built site whole? Links, anchors, assets, HTML, feed, sitemap.

The output directory is the ground truth: it checks what the browser will get,
including links that templates (not Markdown) made. Every reference is resolved
the way a browser would, against the page's URL under the site's base path, so
a link that forgets the base path (``/posts/x/`` on a project site) is caught
even though a file ``posts/x/index.html`` exists.
"""

from __future__ import annotations

import difflib
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

from site_builder.config import SiteConfig
from site_builder.content import line_in_post

VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}
    | {"track", "wbr"}
)
# Elements whose end tag HTML lets you leave out: their absence is not a problem.
OPTIONAL_END = frozenset(
    {"p", "li", "dt", "dd", "tr", "td", "th", "thead", "tbody", "tfoot", "option", "optgroup"}
    | {"rt", "rp", "colgroup", "caption", "head", "body", "html"}
)
SKIP_SCHEMES = frozenset({"mailto", "tel", "data", "javascript", "about", "blob"})
ASSET_ATTRS = {"src", "poster", "data"}
CSS_URL = re.compile(r"url\(\s*['\"]?([^'\")]+?)['\"]?\s*\)")
ATOM = "{http://www.w3.org/2005/Atom}"
SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


@dataclass(frozen=True)
class Problem:
    path: str  # site-relative output file
    line: int | None
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.message}"


@dataclass(frozen=True)
class Ref:
    value: str
    line: int
    kind: str  # "link" or "asset"


@dataclass
class Report:
    problems: list[Problem] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # leftovers from another tool's markup
    pages: int = 0
    links: int = 0
    assets: int = 0

    def summary(self) -> str:
        counts = f"{self.pages} pages, {self.links} links and {self.assets} assets"
        warned = f", {len(self.warnings)} warning(s)" if self.warnings else ""
        if not self.problems:
            return f"Checked {counts}: no problems{warned}"
        return f"Checked {counts}: {len(self.problems)} problem(s){warned}"


class PageParser(HTMLParser):
    """Collects ids and references, and notices tags that are not closed where they should be."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: dict[str, int] = {}
        self.refs: list[Ref] = []
        self.errors: list[tuple[int, str]] = []
        self.stack: list[tuple[str, int]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._element(tag, attrs)
        if tag not in VOID:
            self.stack.append((tag, self.getpos()[0]))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._element(tag, attrs)  # <mspace/>, <path/>: foreign elements close themselves

    def handle_endtag(self, tag: str) -> None:
        line = self.getpos()[0]
        if tag in VOID:
            return
        if not any(open_tag == tag for open_tag, _ in self.stack):
            self.errors.append((line, f"stray </{tag}> closes nothing"))
            return
        while self.stack:
            open_tag, opened = self.stack.pop()
            if open_tag == tag:
                break
            if open_tag not in OPTIONAL_END:
                self.errors.append((opened, f"<{open_tag}> is not closed before </{tag}>"))

    def close(self) -> None:
        super().close()
        for open_tag, opened in self.stack:
            if open_tag not in OPTIONAL_END:
                self.errors.append((opened, f"<{open_tag}> is never closed"))

    def _element(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        line = self.getpos()[0]
        values = {key: value for key, value in attrs if value is not None}
        for key in ("id", "name") if tag == "a" else ("id",):
            ident = values.get(key)
            if ident is None:
                continue
            if key == "id" and ident in self.ids:
                first = self.ids[ident]
                self.errors.append((line, f"duplicate id '{ident}' (also on line {first})"))
            self.ids.setdefault(ident, line)
        if "href" in values:
            is_asset = tag == "link" and values.get("rel", "") in ("stylesheet", "icon", "preload")
            self.refs.append(Ref(values["href"], line, "asset" if is_asset else "link"))
        for key in ASSET_ATTRS & values.keys():
            if tag != "object" and key == "data":
                continue
            self.refs.append(Ref(values[key], line, "asset"))
        if "srcset" in values:
            for candidate in values["srcset"].split(","):
                if candidate.strip():
                    self.refs.append(Ref(candidate.split()[0], line, "asset"))
        if tag == "meta" and values.get("property") == "og:url" and "content" in values:
            self.refs.append(Ref(values["content"], line, "link"))


class Checker:
    """Resolves references against the files in ``public`` as a browser under the base URL would."""

    def __init__(
        self, public: Path, config: SiteConfig, sources: dict[str, Path] | None = None
    ) -> None:
        self.public = public
        self.root = config.root
        self.base_url = config.base_url
        self.base_path = config.base_path
        self.files = {p.relative_to(public).as_posix() for p in public.rglob("*") if p.is_file()}
        self.pages: dict[str, PageParser] = {}
        self.report = Report()
        # A post's page -> its Markdown (relative to the site): problems are the author's
        # to fix there, so they are reported at the source line.
        self.sources = sources or {}

    def run(self) -> Report:
        for rel in sorted(self.files):
            if rel.endswith(".html"):
                self.pages[rel] = self._parse(rel)
        self.report.pages = len(self.pages)
        for rel, page in self.pages.items():
            for ref in page.refs:
                self._check_ref(rel, ref)
        for rel in sorted(f for f in self.files if f.endswith(".css")):
            text = (self.public / rel).read_text(encoding="utf-8", errors="replace")
            for match in CSS_URL.finditer(text):
                line = text.count("\n", 0, match.start()) + 1
                self._check_ref(rel, Ref(match.group(1), line, "asset"))
        self._check_xml("feed.xml", f"{ATOM}feed", f".//{ATOM}link")
        self._check_xml("sitemap.xml", f"{SITEMAP}urlset", f".//{SITEMAP}loc")
        return self.report

    def problem(self, rel: str, line: int | None, message: str) -> None:
        self.report.problems.append(Problem(rel, line, message))

    def _parse(self, rel: str) -> PageParser:
        parser = PageParser()
        try:
            parser.feed((self.public / rel).read_text(encoding="utf-8", errors="replace"))
        except OSError as exc:  # unreadable, or gone since the listing
            self.problem(rel, None, f"cannot read: {exc.strerror}")
        parser.close()
        for line, message in parser.errors:
            self.problem(rel, line, message)
        return parser

    def _check_ref(self, rel: str, ref: Ref) -> None:
        value = ref.value.strip()
        try:
            parts = urlsplit(value)
        except ValueError as exc:  # ``http://[oops/``: no address at all
            self.problem(rel, ref.line, f"malformed link {ref.value!r}: {exc}")
            return
        if parts.scheme in SKIP_SCHEMES or (ref.kind == "link" and not value):
            return
        if parts.scheme or parts.netloc:  # absolute: ours only if under the base URL
            if not value.startswith(self.base_url):
                return
            value = self.base_path + value[len(self.base_url) :]
        if ref.kind == "asset":
            self.report.assets += 1
        else:
            self.report.links += 1
        page_dir = rel.rsplit("/", 1)[0] + "/" if "/" in rel else ""
        resolved = urlsplit(urljoin(self.base_path + page_dir, value))
        noun = "missing asset" if ref.kind == "asset" else "broken link"
        if not resolved.path.startswith(self.base_path):
            where = f"outside the site ({self.base_path})"
            self.problem(rel, ref.line, f"{noun} {ref.value!r}: {where}")
            return
        path = unquote(resolved.path[len(self.base_path) :])
        target = self._file_for(path)
        if target is None:
            hint = self._closest_post(path, ref.value)
            self.post_problem(rel, ref, f"{noun} {ref.value!r}: no such file in the output{hint}")
        elif (
            resolved.fragment
            and target in self.pages
            and unquote(resolved.fragment) not in self.pages[target].ids
        ):
            message = f"broken anchor {ref.value!r}: no id '{resolved.fragment}' in {target}"
            self.post_problem(rel, ref, message)

    def post_problem(self, rel: str, ref: Ref, message: str) -> None:
        """A problem in a post's page, at the line of its Markdown that wrote the reference
        (the page's line follows in brackets); elsewhere, at the page's line."""
        source = self.sources.get(rel)
        line = line_in_post(self.root, source, ref.value) if source is not None else None
        if source is None or line is None:
            self.problem(rel, ref.line, message)
            return
        where = f"{rel}:{ref.line}" if ref.line else rel
        self.problem(source.as_posix(), line, f"{message} (in {where})")

    def _closest_post(self, path: str, written: str) -> str:
        """`` (did you mean '../alibi/'?)`` when the link names a post that is not there."""
        parts = path.split("/")
        if len(parts) < 2 or parts[0] != "posts" or not parts[1]:
            return ""
        slugs = sorted({f.split("/")[1] for f in self.files if f.startswith("posts/")})
        close = difflib.get_close_matches(parts[1], slugs, n=1, cutoff=0.6)
        if not close or parts[1] not in written:
            return ""
        return f" (did you mean {written.replace(parts[1], close[0], 1)!r}?)"

    def _file_for(self, path: str) -> str | None:
        """The output file a URL path serves: ``dir/`` is ``dir/index.html``, as on GitHub Pages."""
        if path == "" or path.endswith("/"):
            candidate = path + "index.html"
            return candidate if candidate in self.files else None
        if path in self.files:
            return path
        return path + "/index.html" if path + "/index.html" in self.files else None

    def _check_xml(self, rel: str, root_tag: str, link_path: str) -> None:
        if rel not in self.files:
            self.problem(rel, None, "missing")
            return
        try:
            root = ET.parse(self.public / rel).getroot()
        except ET.ParseError as exc:
            self.problem(rel, exc.position[0], f"not well-formed XML: {exc}")
            return
        if root.tag != root_tag:
            self.problem(rel, 1, f"root element is {root.tag}, expected {root_tag}")
        for element in root.iterfind(link_path):
            url = element.get("href") or (element.text or "").strip()
            self._check_ref(rel, Ref(url, 0, "link"))


def check_site(public: Path, config: SiteConfig) -> Report:
    """Check a built site; ``config`` must be the one it was built with (base URL)."""
    from site_builder.content import load_posts
    from site_builder.leftovers import find_leftovers
    from site_builder.routes import plan_routes

    sources = plan_routes(config, load_posts(config).posts).page_sources()
    report = Checker(public, config, sources).run()
    # Markup another blog tool left in a post's page (see ``leftovers``), by source line.
    report.warnings = find_leftovers(public, config.root, sources)
    return report
