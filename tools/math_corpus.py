"""Extract the LaTeX formulas of Markdown blog posts into a JSONL test corpus.

Why: the math engine is tuned and judged on formulas; hand-written examples miss
what real ML blog posts contain (kramdown ``$$`` used inline, per-post macro
preambles, bare ``align`` blocks, ...). This script turns public posts into
``tests/data/math_corpus.jsonl`` (plus a held-out file), which tests read; it is
never run at test time and nothing here touches the network.

Regenerate (the commits are the ones recorded in ``tests/data/math_corpus.README.md``;
the mirrors are bare git dirs brought by the session's ``fetch`` tool)::

    M=/work/.mirror; T=/tmp/math_corpus_src; rm -rf $T; mkdir -p $T
    x() { mkdir -p $T/$1; git --git-dir=$M/$1/repo archive $2 "${@:3}" | tar -x -C $T/$1; }
    x iclr-blogposts+2023 4f03e75677d48fac2b616f80eb8e79afa8bb0b94 _posts
    x iclr-blogposts+2024 f8d8b1265493ecf1c20ad52cc980b317449babcc _posts
    x iclr-blogposts+2025 7e3ce92708b48cd6d6d32b5a26756127d16fee9e _posts
    x lilianweng+lil-log 0fa5d155bbaccd388397ed3797c5b44d5cc66e01 _posts
    x benanne+benanne.github.io 9c8fecea554468c70df5756b12c12dc89748e1ce _posts
    x KaTeX+KaTeX 613c3da85b083f602c0d5265da0f735ddb728dbb docs/supported.md docs/support_table.md
    .venv/bin/python tools/math_corpus.py build \\
        --src iclr-blogposts/2023=$T/iclr-blogposts+2023 \\
        --src iclr-blogposts/2024=$T/iclr-blogposts+2024 \\
        --src iclr-blogposts/2025=$T/iclr-blogposts+2025 \\
        --src lilianweng/lil-log=$T/lilianweng+lil-log \\
        --src benanne/benanne.github.io=$T/benanne+benanne.github.io \\
        --src KaTeX/KaTeX=$T/KaTeX+KaTeX:autorender \\
        --heldout iclr-blogposts/2024 \\
        --out /tmp/corpus.jsonl --heldout-out /tmp/heldout.jsonl
    node tools/katex_verdicts.mjs < /tmp/corpus.jsonl > tests/data/math_corpus.jsonl
    node tools/katex_verdicts.mjs < /tmp/heldout.jsonl > tests/data/math_corpus_heldout.jsonl

A single directory can be dumped with ``tools/math_corpus.py extract DIR LABEL``.

Rules (how a Markdown author means the math, see the README for the rationale):

* ``$$...$$`` whose opener starts its line (after indentation, ``>`` or a list
  marker) and whose closer ends its line is display; any other ``$$...$$`` is
  inline (kramdown). With the ``autorender`` style (KaTeX's own docs, rendered
  by auto-render) every ``$$...$$`` is display and only dollars delimit math.
* ``$...$`` is inline, pandoc's rule: the opener is not followed by a space, the
  closer not preceded by one nor followed by a digit, no unescaped ``$`` and no
  blank line in between (so ``$5 and $10`` is not math); ``\\$`` is a dollar.
* ``\\(...\\)`` is inline; ``\\[...\\]`` is display when ``\\[`` starts its line
  (mid-line ``\\[`` is kramdown's escaped bracket, as in ``\\[TCal\\]``).
* ``\\begin{equation|align|gather|multline|eqnarray}`` (starred too) outside math
  is display, the whole environment kept.
* Skipped: front matter, fenced code, ``{% highlight %}``, ``<pre>``, ``<code>``,
  ``<script>``, ``<style>``, HTML comments and inline code spans.
* The TeX is kept verbatim but for surrounding whitespace; empty formulas are
  dropped; duplicates on ``(tex, display)`` keep the first in source order.
* A formula using a macro that another formula of the same post defines
  (``\\newcommand``, ``\\renewcommand``, ``\\providecommand``, ``\\def``, ``\\gdef``,
  ``\\edef``, ``\\xdef``, ``\\let``, ``\\DeclareMathOperator``) gets that post's
  definition formulas, in order, joined by newlines, as ``preamble``.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

SUFFIXES = (".md", ".markdown", ".qmd")
ENVS = ("equation", "align", "gather", "multline", "eqnarray")

# Block-level regions whose text is never math. Replaced by spaces (newlines kept)
# so that line numbers stay right.
BLOCK_MASKS = (
    re.compile(r"<!--.*?-->", re.S),
    re.compile(r"<(script|style|pre)\b[^>]*>.*?</\1\s*>", re.S | re.I),
    re.compile(r"<code\b[^>]*>.*?</code\s*>", re.S | re.I),
    re.compile(r"\{%-?\s*highlight\b.*?\{%-?\s*endhighlight\s*-?%\}", re.S),
    # HTML tags with quoted attributes (``onerror="$('.x')..."``); math has no ``="``.
    re.compile(r"<[A-Za-z][\w-]*\s[^<>]*?=\s*[\"'][^<>]*>"),
)
FENCE = re.compile(r"^[ \t>]*(`{3,}|~{3,})")
FRONT_MATTER_END = re.compile(r"^(---|\.\.\.)\s*$")
# What may precede a block opener on its line: indentation, quotes, a list marker.
LINE_START = re.compile(r"[ \t]*(?:>[ \t]*)*(?:(?:[-*+]|\d+[.)])[ \t]+)?\Z")
BEGIN_ENV = re.compile(r"\\begin\{(" + "|".join(ENVS) + r")(\*?)\}")
BLANK_LINE = re.compile(r"\n[ \t]*\n")
DEFINERS = re.compile(
    r"\\(?:(?:re|provide|new)command\*?|DeclareMathOperator\*?)\s*\{?\s*(\\[A-Za-z]+|\\.)"
    r"|\\(?:[gex]?def|let)\s*(\\[A-Za-z]+|\\.)"
)
CONTROL_WORD = re.compile(r"\\[A-Za-z]+|\\.")


@dataclass(frozen=True)
class Formula:
    """One formula as found: its TeX, display flag, file and 1-based line."""

    tex: str
    display: bool
    path: str
    line: int
    offset: int


def _blank(match: re.Match[str]) -> str:
    """Replace a match by spaces, keeping its newlines."""
    return re.sub(r"[^\n]", " ", match.group(0))


def mask_blocks(text: str) -> str:
    """Blank out front matter, fenced code and the HTML/Liquid regions never holding math."""
    lines = text.split("\n")
    out: list[str] = []
    in_front = bool(lines) and lines[0].strip() == "---"
    fence: str | None = None
    for index, line in enumerate(lines):
        blank = " " * len(line)
        if in_front:
            out.append(blank)
            if index > 0 and FRONT_MATTER_END.match(line):
                in_front = False
            continue
        found = FENCE.match(line)
        if fence is None and found:
            fence = found.group(1)
            out.append(blank)
        elif fence is not None:
            closing = found and found.group(1)[0] == fence[0] and len(found.group(1)) >= len(fence)
            if closing and not line.strip().lstrip(">").strip().strip(fence[0]):
                fence = None
            out.append(blank)
        else:
            out.append(line)
    text = "\n".join(out)
    for pattern in BLOCK_MASKS:
        text = pattern.sub(_blank, text)
    return text


def _at_line_start(text: str, pos: int) -> bool:
    """True if only indentation, quote or list markers precede pos on its line."""
    start = text.rfind("\n", 0, pos) + 1
    return LINE_START.match(text[start:pos]) is not None


def _at_line_end(text: str, pos: int) -> bool:
    """True if only whitespace follows pos up to the end of its line."""
    end = text.find("\n", pos)
    return not text[pos : len(text) if end < 0 else end].strip()


def _find_unescaped(text: str, token: str, pos: int) -> int:
    """Index of the next token at or after pos not escaped by a backslash, or -1."""
    i = pos
    while i < len(text):
        if text[i] == "\\":
            if text.startswith(token, i):
                return i
            i += 2
            continue
        if text.startswith(token, i):
            return i
        i += 1
    return -1


def _single_dollar_close(text: str, pos: int) -> int:
    """Closer of a ``$`` opened just before pos, pandoc's rule, or -1."""
    if pos >= len(text) or text[pos].isspace() or text[pos] == "$":
        return -1
    i = pos
    while i < len(text):
        char = text[i]
        if char == "\\":
            i += 2
            continue
        if char == "\n" and BLANK_LINE.match(text, i):
            return -1
        if char == "$":
            if text[i - 1].isspace() or (i + 1 < len(text) and text[i + 1].isdigit()):
                return -1
            return i
        i += 1
    return -1


def scan(text: str, autorender: bool = False) -> Iterator[tuple[str, bool, int]]:
    """Yield (tex, display, offset) for each formula of masked Markdown text."""
    i = 0
    n = len(text)
    while i < n:
        char = text[i]
        if char == "`":
            run = len(text[i:]) - len(text[i:].lstrip("`"))
            close = text.find("`" * run, i + run)
            while close >= 0 and close + run < n and text[close + run] == "`":
                close = text.find("`" * run, close + run + 1)
            if close >= 0 and BLANK_LINE.search(text, i, close):
                close = -1
            i = i + run if close < 0 else close + run
            continue
        if char == "$" and text.startswith("$$", i):
            close = _find_unescaped(text, "$$", i + 2)
            if close < 0:
                i += 2
                continue
            block = _at_line_start(text, i) and _at_line_end(text, close + 2)
            if not block and BLANK_LINE.search(text, i, close):
                # Span math lives in one paragraph: an unpaired ``$$`` is literal.
                i += 2
                continue
            display = autorender or block
            yield text[i + 2 : close], display, i
            i = close + 2
            continue
        if char == "$":
            close = _single_dollar_close(text, i + 1)
            if close < 0:
                i += 1
                continue
            yield text[i + 1 : close], False, i
            i = close + 1
            continue
        if char == "\\" and autorender:
            # Auto-render pages: a dollar after backslashes (``\\$`` in a table) is text.
            # Otherwise an odd run escapes the next character, as in Markdown.
            run = len(text[i:]) - len(text[i:].lstrip("\\"))
            i += run + (text.startswith("$", i + run) or run % 2)
            continue
        if char == "\\":
            if text.startswith("\\(", i):
                close = _find_unescaped(text, "\\)", i + 2)
                if close >= 0 and not BLANK_LINE.search(text, i, close):
                    yield text[i + 2 : close], False, i
                    i = close + 2
                    continue
            elif text.startswith("\\[", i) and _at_line_start(text, i):
                close = _find_unescaped(text, "\\]", i + 2)
                if close >= 0:
                    yield text[i + 2 : close], True, i
                    i = close + 2
                    continue
            elif begin := BEGIN_ENV.match(text, i):
                end = "\\end{" + begin.group(1) + begin.group(2) + "}"
                close = text.find(end, begin.end())
                if close >= 0:
                    yield text[i : close + len(end)], True, i
                    i = close + len(end)
                    continue
            i += 2
            continue
        i += 1


def defined_macros(tex: str) -> set[str]:
    """Names of the macros a formula defines."""
    return {a or b for a, b in DEFINERS.findall(tex)}


def extract_file(path: Path, rel: str, autorender: bool = False) -> list[Formula]:
    """Formulas of one Markdown file, in order."""
    raw = path.read_text(encoding="utf-8", errors="replace").replace("\r\n", "\n")
    masked = mask_blocks(raw)
    found: list[Formula] = []
    for tex, display, offset in scan(masked, autorender):
        tex = tex.strip()
        if tex:
            found.append(Formula(tex, display, rel, masked.count("\n", 0, offset) + 1, offset))
    return found


def records_for_post(formulas: list[Formula], label: str) -> list[dict[str, object]]:
    """JSON records of one post, each with the preamble its macros need."""
    definitions = [(f, defined_macros(f.tex)) for f in formulas]
    definitions = [(f, names) for f, names in definitions if names]
    records: list[dict[str, object]] = []
    for formula in formulas:
        used = set(CONTROL_WORD.findall(formula.tex)) - defined_macros(formula.tex)
        others = [(f, names) for f, names in definitions if f is not formula]
        needs = any(used & names for _, names in others)
        preamble = "\n".join(f.tex for f, _ in others) if needs else ""
        records.append(
            {
                "tex": formula.tex,
                "display": formula.display,
                "source": f"{label}:{formula.path}:{formula.line}",
                "preamble": preamble,
                "katex": None,
            }
        )
    return records


def extract_dir(root: Path, label: str, autorender: bool = False) -> list[dict[str, object]]:
    """Records of every Markdown file under root, in path and line order, not deduplicated."""
    records: list[dict[str, object]] = []
    files = sorted(p for p in root.rglob("*") if p.is_file() and p.suffix.lower() in SUFFIXES)
    for path in files:
        rel = path.relative_to(root).as_posix()
        records.extend(records_for_post(extract_file(path, rel, autorender), label))
    return records


def dedupe(records: Iterable[dict[str, object]]) -> list[dict[str, object]]:
    """Keep the first record of each (tex, display)."""
    seen: set[tuple[object, object]] = set()
    kept: list[dict[str, object]] = []
    for record in records:
        key = (record["tex"], record["display"])
        if key not in seen:
            seen.add(key)
            kept.append(record)
    return kept


def write_jsonl(records: Iterable[dict[str, object]], out: Path | None) -> None:
    """Write records one per line (stdout if out is None)."""
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
    if out is None:
        sys.stdout.write(text)
    else:
        out.write_text(text, encoding="utf-8")


def _source_key(record: dict[str, object]) -> tuple[str, str, int]:
    """Sort key: repository label, file path, line number."""
    label, path, line = str(record["source"]).rsplit(":", 2)
    return label, path, int(line)


def _parse_src(spec: str) -> tuple[str, Path, bool]:
    """Split ``owner/repo=DIR[:autorender]``."""
    label, _, rest = spec.partition("=")
    autorender = rest.endswith(":autorender")
    return label, Path(rest.removesuffix(":autorender")), autorender


def main(argv: list[str] | None = None) -> None:
    """Command line: ``extract`` one directory or ``build`` the corpus files."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    one = sub.add_parser("extract", help="dump one directory's formulas (deduplicated)")
    one.add_argument("root", type=Path)
    one.add_argument("label")
    one.add_argument("--autorender", action="store_true")
    build = sub.add_parser("build", help="corpus and held-out files from several sources")
    build.add_argument("--src", action="append", required=True, help="owner/repo=DIR[:autorender]")
    build.add_argument("--heldout", default="", help="label whose formulas go to the held-out file")
    build.add_argument("--out", type=Path, required=True)
    build.add_argument("--heldout-out", type=Path)
    args = parser.parse_args(argv)
    if args.command == "extract":
        write_jsonl(dedupe(extract_dir(args.root, args.label, args.autorender)), None)
        return
    main_records: list[dict[str, object]] = []
    held_records: list[dict[str, object]] = []
    for spec in args.src:
        label, root, autorender = _parse_src(spec)
        target = held_records if label == args.heldout else main_records
        target.extend(extract_dir(root, label, autorender))
    # The held-out set comes last so that a formula also seen elsewhere stays out of it.
    kept = sorted(dedupe(main_records + held_records), key=_source_key)
    held = {id(r) for r in held_records}
    write_jsonl([r for r in kept if id(r) not in held], args.out)
    if args.heldout_out is not None:
        write_jsonl([r for r in kept if id(r) in held], args.heldout_out)


if __name__ == "__main__":
    main()
