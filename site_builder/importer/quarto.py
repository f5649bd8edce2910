"""Quarto posts: mostly this site's syntax already; executable cells and callouts differ.

A ```` ```{python} ```` cell is code Quarto ran at render time; the importer
cannot run it, so it is kept as a plain code block (its output is lost) and
reported. Callouts, figures and theorems are this site's syntax too; other ``:::``
blocks (page layout) are unwrapped.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from re import Match
from typing import Any

import yaml

from site_builder.importer import divs, dollars, markup
from site_builder.importer.common import PostContext, comment_out
from site_builder.importer.report import PostNotes
from site_builder.importer.text import Text
from site_builder.markdown.theorems import THEOREM_KINDS

# An executable cell, its options (``{r, echo=FALSE}`` or ``#| echo: false`` lines) and code.
CELL = re.compile(
    r"(?ms)^([ \t]*)(`{3,})\{(\w+)([^}\n]*)\}[ \t]*\n"
    r"((?:[ \t]*#\|[^\n]*\n)*)(.*?)^[ \t]*\2[ \t]*$"
)
# ``echo: false`` (the code not shown) or ``include: false`` (nothing shown).
HIDDEN = re.compile(r"(?i)\b(echo|include)\s*[:=]\s*(?:false|F)\b")
TEX = re.compile(r"\\[A-Za-z]+|[_^]")


FIGURES = re.compile(r"(?<![\w/.-])[\w.-]+_files/figure-html/")
INCLUDE = re.compile(r"\{\{<\s*include\s+(\"[^\"\n]+\"|'[^'\n]+'|[^\s>]+)\s*>\}\}")
_INCLUDE_DEPTH = 8


def includes(text: Text, path: Path, root: Path, notes: PostNotes) -> None:
    """``{{< include _macros.qmd >}}`` as Quarto renders it: the file's text in its place
    (relative to the post, or with ``/`` to the project), before anything else reads
    the post. A site keeps its macros or a shared note so; one not found is reported."""

    def expand(body: str, here: Path, line: int, depth: int) -> str:
        def inline(match: Match[str]) -> str:
            name = match.group(1).strip("\"'")
            target = root / name.lstrip("/") if name.startswith("/") else here.parent / name
            try:
                included = target.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                notes.add(line, f"include {name}: no such file; left out")
                return ""
            if depth >= _INCLUDE_DEPTH:
                notes.add(line, f"include {name}: included within itself; left out")
                return ""
            if included.startswith("---\n") and "\n---" in included[4:]:  # its own metadata
                included = included[included.index("\n---", 4) + 4 :].split("\n", 1)[-1]
            return expand(included.strip("\n"), target, line, depth + 1)

        return INCLUDE.sub(inline, body)

    text.sub(INCLUDE, lambda m, line: expand(m.group(0), path, line, 0))


def frozen(path: Path, roots: list[Path], notes: PostNotes) -> str | None:
    """The post as Quarto last rendered it, its cells' output in place, when the project
    keeps ``_freeze/`` (``freeze: auto``): the text of ``execute-results/html.json``,
    its figures pointed at the frozen ``figure-html/`` folder the import copies from."""
    if not roots or not path.is_relative_to(roots[0]):
        return None
    folder = roots[0] / "_freeze" / path.relative_to(roots[0]).with_suffix("")
    results = folder / "execute-results" / "html.json"
    try:
        markdown = json.loads(results.read_text(encoding="utf-8"))["result"]["markdown"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not isinstance(markdown, str):
        return None
    shown = results.relative_to(roots[0]).as_posix()
    notes.add(1, f"read from {shown} (the last render, with its cells' output): lines are its")
    figures = os.path.relpath(folder / "figure-html", path.parent).replace(os.sep, "/") + "/"
    return FIGURES.sub(lambda _m: figures, markdown)


def cells(text: Text, notes: PostNotes) -> None:
    """Executable cells (Quarto's, R Markdown's ```` ```{r, echo=FALSE} ````) as code, as
    the old page showed it: without its ``#|`` option lines, and not at all when its
    options hid the code (``echo: false``, ``include: false``)."""

    def cell(match: Match[str], line: int) -> str:
        indent, ticks, lang, inline, options, code = match.groups()
        hidden = HIDDEN.search(inline + "\n" + options)
        if hidden:
            why = f"{hidden.group(1).lower()}: false"
            notes.add(line, f"executable {{{lang}}} cell hidden on the old page ({why}): left out")
            return ""
        notes.add(line, f"executable {{{lang}}} cell kept as code; its output is not included")
        return f"{indent}{ticks}{lang}\n{code}{indent}{ticks}"

    text.sub(CELL, cell)


# A fence with Pandoc's attributes, as a render writes code: ```` ```{.r .cell-code} ````.
CODE_ATTRIBUTES = re.compile(r"(?m)^([ \t]*`{3,})\{\.([\w+-]+)[^}\n]*\}[ \t]*$")


# ``::: {#thm-}``: a theorem with no label of its own, numbered like the rest; Quarto
# gave every one the id ``thm-``, which here must name one theorem.
EMPTY_LABEL = re.compile(r"(\{[^}\n]*#(?:" + "|".join(THEOREM_KINDS) + r")-)(?=[\s}])")


def unnamed_theorems(text: Text) -> None:
    """Each ``#thm-`` with no name gets one of its own (``#thm-unnamed-1``...)."""
    count = iter(range(1, 10**6))
    text.sub(EMPTY_LABEL, lambda m, _l: f"{m.group(1)}unnamed-{next(count)}")


# pandoc-crossref's labels and references (``{#fig:loss}``, ``@fig:loss``), which Quarto
# spells ``#fig-loss`` and ``@fig-loss``: in its spelling they number and link here too.
CROSSREF_LABEL = re.compile(r"([{\s]#|(?<![\w@])@)(fig|tbl|eq|sec|thm|lem|cor|def):(?=[\w])")


# ``![Naive](x.svg){#fig-naive}`` on a line of its own inside a paragraph: a figure for its
# author (it has a label, a reference may name it), an inline image for Pandoc. Set apart,
# it is the figure its label says; the build stops on a figure image beside text.
FIGURE_LINE = re.compile(r"(?m)^([ \t]*!\[[^\n]*\]\([^)\n]*\)\{[^}\n]*#fig-[^}\n]*\}[ \t]*)$")


# An image's or a link's ``{...}``, and a comma after a value there, before the next key.
ATTRIBUTES = re.compile(r"(?<=\))\{[^{}\n]*\}")
ATTRIBUTE_COMMA = re.compile(r"([\w%\"']),(?=[ \t]+[\w-]+=)")


def convert(text: Text, ctx: PostContext) -> None:
    cells(text, ctx.notes)
    unnamed_theorems(text)
    text.sub(FIGURE_LINE, lambda m, _l: f"\n{m.group(1)}\n")
    text.sub(CROSSREF_LABEL, lambda m, _l: f"{m.group(1)}{m.group(2)}-")
    text.sub(CODE_ATTRIBUTES, lambda m, _l: m.group(1) + m.group(2))
    # ``{width=80%, fig-align="center"}``: Pandoc split at the space and kept ``80%,``.
    text.sub(ATTRIBUTES, lambda m, _l: ATTRIBUTE_COMMA.sub(r"\1", m.group(0)))
    divs.figure_images(text)
    markup.mask_code(text)
    dollars.entity_delimiters(text)
    dollars.escape_lone_doubles(text, ctx.notes)
    bare = (markup.BARE_DISPLAY, markup.BARE_INLINE)
    tex = [m for b in bare for m in b.finditer(text.text) if TEX.search(m.group(1))]
    if tex:  # pasted from a chatbot: meant as math, shown as garbled text by the old page
        why = "not math for Quarto (Pandoc's tex_math_single_backslash is off by default)"
        first = min(tex, key=lambda m: m.start())
        shown = "\\[...\\]" if first.group(0).startswith("\\[") else "\\(...\\)"
        ctx.notes.add(text.line(first.start()), f"{shown} {why}: brought across as math")
    markup.normalise_math(text, ctx.notes, kramdown=False, backslash=bool(tex))
    markup.mask_math(text, ctx.notes, mathjax=False)
    drop_raw_tex(text, ctx)


# Pandoc's raw_tex: a LaTeX environment or command in the Markdown is raw LaTeX, which
# the HTML writer leaves out (a math environment, once ``mask_math`` took it, is not here).
RAW_ENV = re.compile(r"(?s)\\begin\{([A-Za-z]+\*?)\}.*?\\end\{\1\}")
LONE_ENV = re.compile(r"\\(?:begin|end)\{[A-Za-z]+\*?\}")
RAW_COMMAND = re.compile(
    r"\\(?!begin\b|end\b|(?:eq)?ref\b)[A-Za-z]+\*?(?:\s*\[[^\]\n]*\])?(?:\{(?:[^{}\n]|\{[^{}\n]*\})*\})*"
)


def drop_raw_tex(text: Text, ctx: PostContext) -> None:
    """Raw LaTeX Quarto's HTML did not show (``\\begin{tabular}``, ``\\newpage``): left
    out here too, each reported at its line."""

    def drop(match: Match[str], line: int) -> str:
        shown = " ".join(match.group(0).split())
        shown = shown if len(shown) < 60 else shown[:57] + "..."
        ctx.notes.add(line, f"raw LaTeX {shown} left out, as Quarto's HTML did")
        return text.hide(comment_out(match.group(0)))

    text.sub(RAW_ENV, drop)
    text.sub(LONE_ENV, drop)  # ``\\end{document}`` with no ``\\begin`` before it
    text.sub(RAW_COMMAND, drop)


def draft_mode(source: Path) -> str:
    """``website: draft-mode:`` of a Quarto site: ``gone`` (Quarto's default: a draft is
    published empty), ``unlinked`` (rendered, linked from nowhere) or ``visible``."""
    for name in ("_quarto.yml", "_quarto.yaml"):
        try:
            config = yaml.safe_load((source / name).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, yaml.YAMLError):
            continue
        website = config.get("website") if isinstance(config, dict) else None
        mode = website.get("draft-mode") if isinstance(website, dict) else None
        return mode if mode in ("unlinked", "visible") else "gone"
    return "gone"


def bring_draft(front: dict[str, Any], mode: str, line: int, notes: PostNotes) -> str:
    """What a draft becomes, as the old site published it: the kind it is written as.

    ``gone``, Hugo's and Jekyll's drafts were not on the site: a draft here too, which the
    build leaves out. ``unlinked`` was on the site at its address but in no listing, feed
    or sitemap: an undated page (built, not listed). ``visible``: a post like any other."""
    if not front.get("draft"):
        return "post"
    if mode == "visible":
        del front["draft"]
        notes.add(line, "draft: the old site showed it (draft-mode: visible): a post here")
        return "post"
    if mode == "unlinked":
        del front["draft"]
        why = "the old site published it unlinked (draft-mode: unlinked)"
        notes.add(line, f"draft: {why}: an undated page here, built and listed nowhere")
        return "page"
    notes.add(line, "draft: kept as a draft, as on the old site: the build leaves it out")
    return "post"


# Keys of a folder's ``_metadata.yml`` that name a file, relative to that folder.
FILE_KEYS = ("bibliography", "csl")


def folder_metadata(path: Path, root: Path) -> dict[str, Any]:
    """The options ``_metadata.yml`` files set for the posts under their folder (the
    nearer folder's over the farther's), as defaults under a post's own front matter:
    ``posts/_metadata.yml``'s ``bibliography: ../references.bib`` serves every post
    there. A file it names is given relative to the post's folder."""
    found: dict[str, Any] = {}
    if root not in path.parents:
        return found
    folders = [root, *reversed([p for p in path.parents if root in p.parents])]
    for folder in folders:
        config = folder / "_metadata.yml"
        try:
            data = yaml.safe_load(config.read_text(encoding="utf-8")) if config.is_file() else {}
        except (OSError, UnicodeDecodeError, yaml.YAMLError):
            continue
        if not isinstance(data, dict):
            continue
        for key, value in data.items():
            if key in FILE_KEYS and isinstance(value, str):
                value = os.path.relpath(os.path.normpath(folder / value), path.parent)
            found[str(key)] = value
    return found
