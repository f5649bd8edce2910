"""A tiny same-origin crawler for tests: every href, src, srcset and CSS url() must load.

It follows links from the start pages, stays on the server it was given, and
checks that every ``#fragment`` names an element id on the target page.
"""

from __future__ import annotations

import html as html_lib
import re
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urldefrag, urljoin, urlsplit

CSS_URL = re.compile(r"url\(\s*['\"]?([^'\")]+)['\"]?\s*\)")
URL_ATTRS = {"href", "src", "poster", "data"}


class _Refs(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.refs: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v for k, v in attrs if v is not None}
        for key in ("id", "name") if tag == "a" else ("id",):
            if key in values:
                self.ids.add(values[key])
        for key, value in values.items():
            if key in URL_ATTRS:
                self.refs.append(value)
            elif key == "srcset":
                self.refs += [part.strip().split()[0] for part in value.split(",") if part.strip()]
        if tag == "meta" and values.get("property") == "og:url":
            self.refs.append(values["content"])


@dataclass
class CrawlResult:
    fetched: dict[str, int] = field(default_factory=dict)  # url -> status
    broken: list[str] = field(default_factory=list)  # "source -> url (status)"

    @property
    def pages(self) -> int:
        return len(self.fetched)


def crawl(start: list[str]) -> CrawlResult:
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(start[0]))
    result = CrawlResult()
    ids: dict[str, set[str]] = {}
    fragments: list[tuple[str, str, str]] = []
    queue = [(url, "(start)") for url in start]
    while queue:
        url, source = queue.pop()
        if url in result.fetched:
            continue
        try:
            with urllib.request.urlopen(url, timeout=10) as response:
                status, body = response.status, response.read()
                kind = response.headers.get_content_type()
        except urllib.error.HTTPError as exc:
            status, body, kind = exc.code, b"", ""
        result.fetched[url] = status
        if status >= 400:
            result.broken.append(f"{source} -> {url} ({status})")
            continue
        refs: list[str] = []
        if kind == "text/html":
            parser = _Refs()
            parser.feed(body.decode("utf-8"))
            ids[url] = parser.ids
            refs = parser.refs
        elif kind == "text/css":
            refs = CSS_URL.findall(body.decode("utf-8"))
        elif kind.endswith("xml"):  # feed and sitemap: links are absolute, entities escaped
            text = html_lib.unescape(body.decode("utf-8"))
            refs = re.findall(r'<(?:link|loc)\b[^>]*?(?:href="([^"]+)"|>([^<]+)</loc>)', text)
            refs = [a or b for a, b in refs]
        for ref in refs:
            target, fragment = urldefrag(urljoin(url, ref))
            if not target.startswith(origin + "/"):
                continue  # another site, or mailto:/data:
            if fragment:
                fragments.append((url, target, fragment))
            queue.append((target, url))
    for source, target, fragment in fragments:
        if target in ids and fragment not in ids[target]:
            result.broken.append(f"{source} -> {target}#{fragment} (no such id)")
    return result
