"""Measure ``site-builder import`` on real blogs: the share of posts that come across cleanly.

Why: the importer is tuned on a handful of posts in ``tests/data/import``; what
matters is how it does on posts nobody looked at. This script imports each post
of a corpus of public blogs into a scratch site of its own, builds it, runs
``check``, and reads the built page's text (outside code and math) for markup
that did not come across: Liquid ``{%``/``{{``, Hugo shortcodes, ``<d-...>``
elements, ``$`` or ``\\(`` beside or instead of math, ``\\begin``, kramdown
``{:``, Pandoc ``:::`` and unresolved ``[@key]``. A post is *clean* when it
imports, builds and shows none of these.

The corpus is listed in ``tools/import_corpus.json`` (repository, commit, post
paths, and whether a post is in the ``dev`` set used while fixing the importer or
the ``heldout`` set measured only at the end). The posts themselves are not in
this repository: ``gather`` extracts them from bare git mirrors (the session's
``fetch`` tool puts them under ``/work/.mirror/<owner>+<name>/repo``) into
``.corpus/`` (ignored by git). Nothing here touches the network.

    .venv/bin/python tools/import_corpus.py gather
    .venv/bin/python tools/import_corpus.py measure --set dev [--only iclr2024] [-v]

``heldout`` was measured blind once the work on ``dev`` was done, ``heldout2``,
``heldout3`` to ``heldout7`` are blogs gathered later; README.md has the rates.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = Path(__file__).with_suffix(".json")
CORPUS = ROOT / ".corpus"
MIRRORS = Path("/work/.mirror")

# What a reader must not see in a post's text (code and math excluded).
VISIBLE = (
    (re.compile(r"\{%.*?%\}"), "Liquid tag"),
    (re.compile(r"\{\{<.*?>\}\}|\{\{%.*?%\}\}"), "Hugo shortcode"),
    (re.compile(r"\{\{[^{}\n]*\}\}"), "Liquid expression"),
    (re.compile(r"<d-[a-z]+|</d-[a-z]+>"), "Distill element as text"),
    (re.compile(r"\\(?:begin|end)\{[A-Za-z*]+\}"), "raw \\begin"),
    (re.compile(r"\\\(|\\\)|\\\[|\\\]"), "raw \\( or \\["),
    (re.compile(r"\$\$|\$(?![\d\s.,)/\]])"), "visible $"),  # "Cost ($/query)" is a price
    (re.compile(r"\{:\s*[.#\w]"), "kramdown IAL"),
    (re.compile(r"(?m)^\s*:::"), "Pandoc ::: fence"),
    (re.compile(r"\[-?@[\w:-]+"), "unresolved citation"),
    (re.compile(r"\\(?:ref|eqref|cite|label)\{"), "raw \\ref"),
    (re.compile(r"<(?:div|span|img|figure|p|br|iframe)\b"), "HTML as text"),
)
SKIP = frozenset({"code", "pre", "script", "style", "math", "svg", "textarea", "kbd", "samp"})


class _Text(HTMLParser):
    """The text of a page's ``<article>`` a reader sees, without code and math."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.skip = 0
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "article":
            self.depth += 1
        if tag in SKIP:
            self.skip += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "article" and self.depth:
            self.depth -= 1
        if tag in SKIP and self.skip:
            self.skip -= 1

    def handle_data(self, data: str) -> None:
        if self.depth and not self.skip:
            self.parts.append(data)


def visible_leftovers(html: str) -> list[tuple[str, str]]:
    """(kind, snippet) for each leftover in the page's article text."""
    parser = _Text()
    parser.feed(html)
    text = "".join(parser.parts)
    found = []
    for pattern, kind in VISIBLE:
        for match in pattern.finditer(text):
            around = text[max(0, match.start() - 25) : match.end() + 25]
            found.append((kind, " ".join(around.split())))
    return found


@dataclass
class Outcome:
    post: str
    source: str
    stage: str = "clean"  # clean | skipped | build | leftovers
    details: list[str] = field(default_factory=list)
    notes: int = 0
    check_problems: list[str] = field(default_factory=list)


def gather() -> None:
    """Extract each source's tree at its recorded commit into ``.corpus/src/<name>``."""
    for source in json.loads(MANIFEST.read_text())["sources"]:
        target = CORPUS / "src" / source["name"]
        if target.is_dir():
            continue
        mirror = MIRRORS / source["repo"].replace("/", "+") / "repo"
        if (mirror / ".git").is_dir():  # some snapshots arrive as a checkout
            mirror = mirror / ".git"
        if not mirror.is_dir():
            print(f"{source['repo']}: no mirror at {mirror}; skipped", file=sys.stderr)
            continue
        _extract(mirror, source["commit"], target)
        print(f"{source['name']}: {source['repo']}@{source['commit'][:10]}")


def _extract(mirror: Path, commit: str, target: Path) -> None:
    """Every file of the commit that the mirror holds (a mirror lacks its largest files)."""
    git = ["git", "--git-dir", str(mirror)]
    listing = subprocess.run(
        [*git, "ls-tree", "-r", "-z", commit], check=True, capture_output=True
    ).stdout.decode()
    blobs = []
    for item in filter(None, listing.split("\0")):
        meta, path = item.split("\t", 1)
        mode, kind, sha = meta.split()
        if kind == "blob" and mode != "120000":
            blobs.append((sha, path))
    batch = subprocess.run(
        [*git, "cat-file", "--batch"],
        input="".join(f"{sha}\n" for sha, _ in blobs).encode(),
        check=True,
        capture_output=True,
    ).stdout
    pos = 0
    for _sha, path in blobs:
        end = batch.index(b"\n", pos)
        header = batch[pos:end].split()
        pos = end + 1
        if header[-1] == b"missing":
            continue
        size = int(header[2])
        file = target / path
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_bytes(batch[pos : pos + size])
        pos += size + 1


def _scratch_site(base: Path) -> Path:
    """A site with this repository's templates and static files and no posts."""
    base.mkdir(parents=True, exist_ok=True)
    for name in ("templates", "static"):
        (base / name).symlink_to(ROOT / name)
    (base / "site.yaml").write_text(
        "title: Corpus\nauthor: Corpus\nbase_url: https://example.org/\nsearch: false\n"
    )
    return base


def measure_post(source_root: Path, post: Path, fmt: str, site: Path) -> Outcome:
    from site_builder.build import build
    from site_builder.check import check_site
    from site_builder.config import load_config
    from site_builder.errors import BuildError, BuildErrors
    from site_builder.importer import _hugo_passthrough, _write, convert_post, find_posts

    shown = post.relative_to(source_root)
    outcome = Outcome(str(shown), source_root.name)
    found, roots = find_posts(source_root, fmt)
    if post not in found:
        outcome.stage, outcome.details = "skipped", [f"not found by the {fmt} importer"]
        return outcome
    passthrough = fmt != "hugo" or _hugo_passthrough(source_root)
    into = site / "content" / "posts"
    converted = convert_post(post, shown, fmt, [r for r in roots if r.is_dir()], passthrough)
    written = _write(converted, post, into, set())
    outcome.notes = len(written.notes)
    if written.written is None:
        outcome.stage, outcome.details = "skipped", [written.skipped]
        return outcome
    config = load_config(site)
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            build(config, site / "public", jobs=1, use_cache=False)
    except BuildErrors as exc:
        outcome.stage = "build"
        outcome.details = [e.message for e in exc.errors]
        return outcome
    except BuildError as exc:
        outcome.stage, outcome.details = "build", [exc.message]
        return outcome
    report = check_site(site / "public", config)
    outcome.check_problems = [str(p) for p in report.problems]
    pages = list((site / "public" / "posts").glob("*/index.html"))
    found = [f"{k}: {s}" for page in pages for k, s in visible_leftovers(page.read_text())]
    found += [w.split(": warning: ", 1)[-1] for w in report.warnings]
    if found:
        outcome.stage, outcome.details = "leftovers", found
    return outcome


def _cause(detail: str) -> str:
    """A failure's cause without the parts that differ from post to post."""
    head = detail.split(":", 1)[0] if not detail.startswith("math") else detail
    head = re.sub(r"'[^']*'|\"[^\"]*\"|\\[A-Za-z]+|\d+", "…", head)
    return head[:70]


def measure(which: str, only: str | None, verbose: bool) -> list[Outcome]:
    manifest = json.loads(MANIFEST.read_text())
    outcomes: list[Outcome] = []
    with tempfile.TemporaryDirectory(prefix="import-corpus-") as tmp:
        for source in manifest["sources"]:
            if only and source["name"] != only:
                continue
            root = CORPUS / "src" / source["name"]
            for entry in source["posts"]:
                if which != "all" and entry["set"] != which:
                    continue
                site = _scratch_site(Path(tmp) / f"{source['name']}-{len(outcomes)}")
                try:
                    outcome = measure_post(root, root / entry["path"], source["format"], site)
                except Exception as exc:  # a crash is a finding, not the end of the run
                    outcome = Outcome(entry["path"], source["name"], "crash", [repr(exc)])
                outcomes.append(outcome)
                shutil.rmtree(site, ignore_errors=True)
                if verbose and outcome.stage != "clean":
                    print(f"{source['name']}/{outcome.post}: {outcome.stage}")
                    for detail in outcome.details[:6]:
                        print(f"    {detail[:160]}")
    return outcomes


def summarise(outcomes: list[Outcome]) -> None:
    by_source: dict[str, Counter[str]] = {}
    for o in outcomes:
        by_source.setdefault(o.source, Counter())[o.stage] += 1
    for name, stages in by_source.items():
        total = sum(stages.values())
        print(f"{name:14} {stages['clean']:3} of {total:3} clean  {dict(stages)}")
    clean = sum(1 for o in outcomes if o.stage == "clean")
    total = len(outcomes)
    share = 100 * clean / total if total else 0.0
    print(f"{'all':14} {clean:3} of {total:3} clean ({share:.1f}%)")
    causes: Counter[str] = Counter()
    for o in outcomes:
        if o.stage != "clean":
            for cause in {f"{o.stage}: {_cause(d)}" for d in o.details}:
                causes[cause] += 1
    if causes:
        print("\nFailures by cause (posts):")
        for cause, count in causes.most_common():
            print(f"  {count:3}  {cause}")
    problems = sum(1 for o in outcomes if o.check_problems)
    print(f"\nPosts with check problems (links to posts not imported, mostly): {problems}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("gather", help="extract the corpus from the git mirrors into .corpus/")
    run = sub.add_parser("measure", help="import, build and scan every post of a set")
    sets = (
        "dev",
        "heldout",
        "heldout2",
        "heldout3",
        "heldout4",
        "heldout5",
        "heldout6",
        "heldout7",
        "all",
    )
    run.add_argument("--set", default="dev", choices=sets)
    run.add_argument("--only", help="one source by name")
    run.add_argument("-v", "--verbose", action="store_true", help="print each failure")
    run.add_argument("--json", type=Path, help="write every outcome here")
    args = parser.parse_args()
    if args.command == "gather":
        gather()
        return 0
    sys.path.insert(0, str(ROOT))
    outcomes = measure(args.set, args.only, args.verbose)
    summarise(outcomes)
    if args.json:
        args.json.write_text(json.dumps([o.__dict__ for o in outcomes], indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
