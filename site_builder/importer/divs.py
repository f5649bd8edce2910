"""Callouts and Pandoc ``:::`` blocks: what this site renders is kept, layout is unwrapped.

This site renders Quarto's callouts (``::: {.callout-note}``), figures
(``#fig-``), theorems (``#thm-``...), proofs and margin notes. Quarto posts also
hold blocks that only laid out the old page (``.column-page``, ``.columns``,
``.panel-tabset``): a ``:::`` the site does not know would show as text, so
its fences go and its content stays. Hugo's and al-folio's callouts become
Quarto's, which the site renders.
"""

from __future__ import annotations

import re
from re import Match

from site_builder.importer.report import PostNotes
from site_builder.importer.text import Text
from site_builder.markdown.crossrefs import KINDS as REF_KINDS
from site_builder.markdown.theorems import THEOREM_KINDS

FENCE = re.compile(r"^[ \t]*(:{3,})[ \t]*(.*?)[ \t]*$")
CALLOUT_KINDS = ("note", "tip", "warning", "important", "caution")
_KEPT = re.compile(
    r"(?:^|\s)(?:\.callout-(?:" + "|".join(CALLOUT_KINDS) + r")\b|#fig-|\.figure\b"
    r"|\.column-margin\b|\.proof\b|#(?:" + "|".join(THEOREM_KINDS) + r")-)"
)
# Layout only: unwrapping them loses nothing a reader needs.
_LAYOUT = re.compile(
    r"^(?:column-[\w-]+|columns?|panel-[\w-]+|content-visible|page-columns|page-full"
    r"|grid|g-col-\d+|g-col-\w+-\d+|cell|cell-output[\w-]*|center|smaller|small"
    r"|l-(?:body|page|screen)(?:-[\w-]+)?|layout-chunk)$"  # Distill's layout classes
)
# A kind elsewhere -> this site's callout kind.
CALLOUT_ALIASES = {
    "info": "note",
    "danger": "caution",
    "error": "caution",
    "success": "tip",
    "hint": "tip",
    "example": "note",
    "question": "note",
    # Obsidian's (and Quartz's) callout types beyond GitHub's five alerts.
    "abstract": "note",
    "summary": "note",
    "tldr": "note",
    "todo": "note",
    "help": "note",
    "faq": "note",
    "quote": "note",
    "cite": "note",
    "check": "tip",
    "done": "tip",
    "attention": "warning",
    "failure": "caution",
    "fail": "caution",
    "missing": "caution",
    "bug": "caution",
}


def callout_kind(name: str) -> str | None:
    name = name.lower()
    if name in CALLOUT_KINDS:
        return name
    return CALLOUT_ALIASES.get(name)


def unwrap_unknown_divs(text: Text, notes: PostNotes) -> None:
    """Remove the fences of ``:::`` blocks this site would not render; keep their content."""
    lines = text.text.split("\n")
    stack: list[tuple[int, bool]] = []  # (line index of the opening fence, kept)
    closers: dict[int, str] = {}  # stack depth -> what closes it instead of ``:::``
    drop: set[int] = set()
    hidden: set[int] = set()  # opening fences of ``{.hidden}`` blocks
    original = text.text.split("\n")
    for index, line in enumerate(lines):
        match = FENCE.match(line)
        if match is None:
            continue
        params = match.group(2)
        if not params:  # a closing fence
            if stack:
                closer = closers.pop(len(stack), None)
                start, kept = stack.pop()
                if kept and _imageless_figure(lines[start], lines[start + 1 : index]):
                    origin = text.origin[start] if start < len(text.origin) else None
                    why = "a cell or a filter drew it, or it was not found"
                    notes.add(origin, f"figure {lines[start].strip()} has no image ({why})")
                    kept = False
                if closer:
                    lines[index] = "\n" + closer
                elif not kept:
                    drop.update((start, index))
                if start in hidden:  # Quarto showed none of it: its formulas only define
                    prose = [i for i in range(start + 1, index) if _shown_text(lines[i])]
                    drop.update(prose)
                    if prose:
                        origin = text.origin[start] if start < len(text.origin) else None
                        notes.add(
                            origin, "::: {.hidden} block: its text was left out, as Quarto hid it"
                        )
            else:  # closes nothing: Pandoc showed it as a stray ":::"
                drop.add(index)
                origin = text.origin[index] if index < len(text.origin) else None
                notes.add(origin, "a ::: that closes no block was left out")
            continue
        braced = params.startswith("{") and params.endswith("}")
        zenn = ZENN.match(params)
        if zenn and not braced:  # Zenn's ``:::message`` and ``:::details Title``
            lines[index] = _zenn_open(zenn.group(1), zenn.group(2).strip(), match.group(1))
            stack.append((index, True))
            if zenn.group(1) == "details":
                closers[len(stack)] = "</details>"
            continue
        container = CONTAINER.match(params) if not braced else None
        if container and callout_kind(container.group(1)):  # ``:::tip Title``
            kind = callout_kind(container.group(1))
            title = (container.group(2) or container.group(3) or "").strip().replace('"', "'")
            named = f' title="{title}"' if title else ""
            lines[index] = f"{match.group(1)} {{.callout-{kind}{named}}}"
            stack.append((index, True))
            continue
        inner = params[1:-1] if braced else "." + params
        classes = re.findall(r"(?:^|\s)\.([\w-]+)", inner)
        if "aside" in classes or "l-gutter" in classes:  # Quarto's ``::: aside``, Distill's gutter
            lines[index] = match.group(1) + " {.column-margin}"
            inner = ".column-margin"
        kept = bool(_KEPT.search(inner))
        stack.append((index, kept))
        if "hidden" in classes:
            hidden.add(index)
        elif not kept and not (classes and all(_LAYOUT.match(c) for c in classes)):
            origin = text.origin[index] if index < len(text.origin) else None
            notes.add(origin, f"::: block {params} has no meaning here: its content was kept")
    edits = []
    offset = 0
    for index, line in enumerate(original):
        if index in drop:
            edits.append((offset, offset + len(line), ""))
        elif lines[index] != line:
            edits.append((offset, offset + len(line), lines[index]))
        offset += len(line) + 1
    text.splice(edits)


def _shown_text(line: str) -> bool:
    """Whether a line of a hidden block shows something: not blank, not only formulas
    (masked, so placeholders: a macro definition block shows nothing)."""
    return bool(re.sub("\x00\\d+\x00", "", line).strip())


def _imageless_figure(fence: str, body: list[str]) -> bool:
    """A ``::: {#fig-x}`` whose image a Quarto cell or filter (``{.tikz}``) made, or whose
    image file is missing: the build would stop on a figure with nothing to show, so its
    fences go (its content stays)."""
    if "#fig-" not in fence or "widget=" in fence:
        return False
    shown = re.sub(r"(?s)<!--.*?-->", "", "\n".join(body))  # an image not found: commented out
    return not re.search(r"!\[|<img\b|<svg\b|<video\b|<iframe\b", shown)


# Docusaurus' admonitions (``:::tip[Title]``, ``:::note Title``) and VuePress' and
# VitePress' containers (``::: warning Title``): a callout's kind, then its title.
CONTAINER = re.compile(r"^([A-Za-z]+)(?:\[([^\]\n]*)\]|[ \t]+(.*))?$")
ZENN = re.compile(r"^(message|details)\b\s*(.*)$")


def _zenn_open(kind: str, rest: str, colons: str) -> str:
    if kind == "details":
        return f"<details>\n<summary>{rest}</summary>\n"
    return colons + (" {.callout-warning}" if rest == "alert" else " {.callout-note}")


HUGO_CALLOUT = re.compile(
    r"(?s)\{\{([<%])\s*(?:callout|alert|admonition|notice|hint)\s+['\"]?(\w+)['\"]?[^>%]*[>%]\}\}"
    r"[ \t]*\n?(.*?)\{\{[<%]\s*/(?:callout|alert|admonition|notice|hint)\s*[>%]\}\}"
)


def hugo_callouts(text: Text, notes: PostNotes) -> None:
    """``{{% callout note %}}...{{% /callout %}}`` (Wowchemy/Hugo Blox and kin) -> a callout."""

    def callout(match: Match[str], line: int) -> str:
        kind = callout_kind(match.group(2))
        if kind is None:
            notes.add(line, f"callout kind {match.group(2)!r} is a note here")
            kind = "note"
        return f"\n\n::: {{.callout-{kind}}}\n{match.group(3).strip()}\n:::\n\n"

    text.sub(HUGO_CALLOUT, callout)


# GitHub's alerts (``> [!NOTE]``) and Obsidian's callouts (``> [!example]- Title``, the
# ``-``/``+`` folding it): a blockquote whose first line names its kind.
# One inside a quote (``> > [!update]``) keeps the outer quote's markers on its lines.
ALERT = re.compile(
    r"(?m)^((?:[ \t]*>)*?[ \t]*)> ?\[!([\w-]+)\][+-]?[ \t]*([^\n]*)\n"
    r"((?:\1>[^\n]*(?:\n|$))*)"
)


# A theorem-like block's kind, by its name (an alert's ``[!lemma]``, a shortcode's
# ``type="lemma"``), as this site's ``#thm-`` ... ids name it (``crossrefs.KINDS``).
THEOREMS = {REF_KINDS[prefix][1]: prefix for prefix in THEOREM_KINDS}


def alerts(text: Text, notes: PostNotes) -> None:
    """Alerts and callouts written as blockquotes become this site's callouts; a kind it
    does not know is a note, and reported."""

    count = 0

    def alert(match: Match[str], line: int) -> str:
        nonlocal count
        outer, name, title, body = match.group(1), match.group(2), match.group(3), match.group(4)
        inner = re.sub(rf"(?m)^{re.escape(outer)}> ?", "", body).rstrip("\n")
        quoted = title.strip().replace('"', "'")  # the attribute parser reads no escapes
        named = f' name="{quoted}"' if quoted else ""
        # ``[!theorem] Title``: this site's numbered theorem (Obsidian's ``[!example]`` is
        # a callout of its own)
        if name.lower() in THEOREMS and name.lower() != "example":
            count += 1
            head = f"::: {{#{THEOREMS[name.lower()]}-alert-{count}{named}}}"
        elif name.lower() == "proof":
            head = f"::: {{.proof{named}}}"
        else:
            kind = callout_kind(name)
            if kind is None:  # ``[!remark]``: a note headed by its kind, as it was
                notes.add(line, f"callout [!{name}] has no kind here: it is a note")
                kind, quoted = "note", quoted or name.replace("-", " ").capitalize()
            titled = f' title="{quoted}"' if quoted else ""
            head = f"::: {{.callout-{kind}{titled}}}"
        block = f"{head}\n{inner}\n:::" if inner else f"{head}\n:::"
        return "\n".join(outer + row if outer.strip() else row for row in block.split("\n")) + "\n"

    text.sub(ALERT, alert)


FIGURE_BLOCK = re.compile(r"(?ms)^([ \t]*:{3,})[ \t]*\{#fig-[^}\n]*\}[ \t]*\n.*?^\1[ \t]*$")
IMAGE_THEN_TEXT = re.compile(r"(?m)^([ \t]*!\[[^\n]*\)(?:\{[^}\n]*\})?[ \t]*)\n(?=[ \t]*[^\s:])")
IMG_LINE = re.compile(r"(?im)^[ \t]*<img\b([^>]*?)/?>[ \t]*$")
_IMG_ATTRIBUTE = re.compile(r"""\b(src|alt|width)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""")


def figure_images(text: Text) -> None:
    """``<img src="x.png" width="96%">`` alone on its line in a ``::: {#fig-x}`` block (set
    in HTML for its width) as the Markdown image the figure needs, its width kept; an
    image line with text right under it set apart from it."""

    def image(match: Match[str]) -> str:
        found = {
            m[1].lower(): m[2] or m[3] or m[4] or "" for m in _IMG_ATTRIBUTE.finditer(match[1])
        }
        if not found.get("src"):
            return match.group(0)
        width = f'{{width="{found["width"]}"}}' if found.get("width") else ""
        return f"![{found.get('alt', '')}]({found['src']}){width}"

    def block(match: Match[str], _line: int) -> str:
        # An image with its caption on the next line is one paragraph, where the figure
        # wants the image alone: Pandoc read the last paragraph as the caption all the same.
        return IMAGE_THEN_TEXT.sub("\\1\n\n", IMG_LINE.sub(image, match.group(0)))

    text.sub(FIGURE_BLOCK, block)
