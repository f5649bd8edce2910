"""Hugo on the same corpus, when ``hugo`` is on PATH: the peer the README compares with.

The posts are copied into a minimal Hugo site (one single-page layout that prints
the rendered Markdown, list pages for the index and the tags), then built cold
with ``hugo`` into a fresh directory. Hugo renders the Markdown and highlights
the code with Chroma but leaves the math as text: it does less than this build,
which converts every formula to MathML. ``apt-get install hugo`` provides it.

``with_search`` runs Pagefind's command line over Hugo's output after it, which is
how a Hugo site gets search: the same Pagefind as the build's (``pagefind_bin``), the
posts' articles marked ``data-pagefind-body`` so that it indexes the posts alone, as
the build's index does.
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

LAYOUT = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>{{ .Title }}</title></head><body><main>{{ block "main" . }}{{ end }}</main></body></html>
"""
SINGLE = """{{ define "main" }}<article data-pagefind-body><h1>{{ .Title }}</h1>
<time>{{ .Date.Format "2 January 2006" }}</time>{{ .Content }}</article>{{ end }}
"""
LIST = """{{ define "main" }}<h1>{{ .Title }}</h1><ol>{{ range .Pages }}
<li><a href="{{ .RelPermalink }}">{{ .Title }}</a> {{ .ReadingTime }} min</li>
{{ end }}</ol>{{ end }}
"""
CONFIG = """baseURL = "https://example.org/"
title = "Bench"
disableKinds = ["RSS"]
[markup.highlight]
noClasses = false
[taxonomies]
tag = "tags"
"""


def available() -> bool:
    return shutil.which("hugo") is not None


def make_site(posts: Path, dest: Path) -> Path:
    """A Hugo site holding copies of ``posts`` (front matter with title, date, tags)."""
    (dest / "layouts" / "_default").mkdir(parents=True)
    (dest / "layouts" / "_default" / "baseof.html").write_text(LAYOUT, encoding="utf-8")
    (dest / "layouts" / "_default" / "single.html").write_text(SINGLE, encoding="utf-8")
    (dest / "layouts" / "_default" / "list.html").write_text(LIST, encoding="utf-8")
    (dest / "hugo.toml").write_text(CONFIG, encoding="utf-8")
    shutil.copytree(posts, dest / "content" / "posts")
    return dest


def run(posts: Path, runs: int) -> float:
    """Median seconds of a cold ``hugo`` build of ``posts`` (no cache, fresh output)."""
    with tempfile.TemporaryDirectory(prefix="hugo-bench-") as tmp:
        site = make_site(posts, Path(tmp) / "site")
        return statistics.median(timed(site, Path(tmp) / f"run-{n}") for n in range(runs))


def timed(site: Path, scratch: Path, with_search: bool = False) -> float:
    """Seconds of one cold build of the Hugo ``site`` (from ``make_site``) into ``scratch``,
    and of Pagefind's command line over its output if ``with_search``."""
    out, cache = scratch / "public", scratch / "cache"
    started = time.perf_counter()
    subprocess.run(
        ["hugo", "--quiet", "--source", str(site), "--destination", str(out),
         "--cacheDir", str(cache)],
        check=True,
    )  # fmt: skip
    if with_search:
        from pagefind_bin import get_executable

        subprocess.run([str(get_executable()), "--site", str(out), "--silent"], check=True)
    return time.perf_counter() - started
