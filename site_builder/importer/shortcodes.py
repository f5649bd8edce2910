"""A Hugo site's own shortcodes, expanded from their templates where those only fill in.

Hugo's built-in shortcodes (``figure``, ``highlight``, ``ref``...) have a meaning here and
``hugo`` converts them. A site also writes its own, in ``layouts/shortcodes/<name>.html``
(or its theme's): ``{{< image-pair first="a.png" second="b.png" >}}`` drawing two
images side by side. Most such templates only place their parameters in HTML
(``{{ .Get "first" }}``, ``{{ .Get 0 }}``, ``{{ .Inner }}``): those are expanded here,
as Hugo would, and the files they name are found like any other. A template that does
more (``range``, ``resources``, ``partial``) is Go code this importer does not run: its
shortcode is left to the report.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from re import Match

from site_builder.importer.divs import THEOREMS, callout_kind
from site_builder.importer.report import PostNotes
from site_builder.importer.text import Text

# A parameter: named or positional, in Go's string forms.
PARAM = re.compile(r"""(?:([\w-]+)\s*=\s*)?(?:"((?:[^"\\]|\\.)*)"|`([^`]*)`|([^\s"`=]+))""")
ACTION = re.compile(r"(?s)\{\{-?\s*(.*?)\s*-?\}\}")
# What an expandable template may do: get a parameter or the inner text (into a variable,
# ``$src := .Get "src"``, or not), or a variable; through filters that change nothing
# here, or ``default``; comments.
SIMPLE = re.compile(
    r"""^(?:/\*.*\*/|(?:\$(?P<var>\w+)\s*:=\s*)?"""
    r"""(?:\.Get\s+(?:"(?P<name>[\w-]+)"|(?P<index>\d+))|\.(?P<inner>Inner)|\$(?P<ref>\w+))"""
    r"""(?:\s*\|\s*(?:markdownify|safeHTML|safeHTMLAttr|htmlUnescape|plainify|\.Page\.RenderString"""
    r"""|default\s+"(?P<default>[^"]*)"))*)$""",
    re.S,
)


def site_variables(source: Path) -> dict[str, dict[str, str]]:
    """``{"shortcodes": {name: template}}``: the site's own over its themes'."""
    found: dict[str, str] = {}
    folders = [*sorted(source.glob("themes/*/layouts/shortcodes")), source / "layouts/shortcodes"]
    for folder in folders:
        for file in sorted(folder.glob("*.html")) if folder.is_dir() else []:
            try:
                found[file.stem] = file.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
    media = {k: "video" if "<video" in v else "image" for k, v in found.items() if _media(v)}
    return {
        "shortcodes": {k: v for k, v in found.items() if _expandable(v)},
        "shortcode_blocks": {k: "" for k, v in found.items() if ".Inner" in v},
        "shortcode_media": {k: v for k, v in media.items() if not _expandable(found[k])},
    }


def _media(template: str) -> bool:
    """A template that shows one video or image a parameter names (``file``, ``src``)."""
    shows = len(re.findall(r"<(?:video|img)\b", template)) == 1
    return shows and ".Inner" not in template and bool(re.search(MEDIA_PARAMS, template))


# The parameter a media shortcode names its file by (or its first positional one).
MEDIA_PARAMS = r"""\.Get\s+(?:"(?:src|file|path|url|video|image|img)"|0)"""
MEDIA_NAMES = ("src", "file", "path", "url", "video", "image", "img")


def media(
    text: Text,
    kinds: dict[str, str],
    notes: PostNotes,
    figure: Callable[[str, str], str],
    local: Callable[[str], str],
) -> None:
    """A site's own shortcode that shows one video or image (``{{< webm-video file="x.webm"
    caption="..." >}}``, its template Go code this importer does not run): the file it
    names (``local`` finds it), as this site shows a video or a figure, and its caption."""
    if not kinds:
        return

    def one(match: Match[str], line: int) -> str:
        named, positional = _params(match.group(3))
        src = next((named[n] for n in MEDIA_NAMES if named.get(n)), None)
        src = src or (positional[0] if positional else "")
        if not re.search(r"\.\w{2,5}$", src):  # no file's name (``range`` over a prefix)
            return match.group(0)
        caption = " ".join((named.get("caption") or named.get("title") or "").split())
        if kinds[match.group(2)] == "image":
            return figure(src, caption)
        notes.add(
            line, f"shortcode {match.group(2)!r}: its video shown with the browser's controls"
        )
        video = f'<video src="{local(src)}" controls muted playsinline></video>'
        return f"\n\n{video}\n\n" + (f"{caption}\n\n" if caption else "")

    text.sub(_single(_alternation(kinds)), one)


def _expandable(template: str) -> bool:
    return all(SIMPLE.match(m.group(1)) for m in ACTION.finditer(template))


def expand(text: Text, templates: dict[str, str]) -> None:
    """Every call of a shortcode whose template only fills in, replaced by what it makes."""
    if not templates:
        return
    names = _alternation(templates)
    _innermost_first(
        text, names, lambda m, _l: _render(templates[m.group(2)], m.group(3), m.group(4))
    )
    text.sub(_single(names), lambda m, _l: _render(templates[m.group(2)], m.group(3), ""))


def _alternation(names: dict[str, str]) -> str:
    """The shortcodes ``names`` as a regex alternation, the longest first."""
    return "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))


def _single(names: str) -> re.Pattern[str]:
    """A call of one of the shortcodes ``names`` (an alternation): its name (group 2) and
    its parameters (group 3), which never reach past its own ``}}``."""
    return re.compile(rf"(?s)\{{\{{([<%])\s*({names})(?![\w-])((?:(?!\}}\}}).)*?)\s*/?[>%]\}}\}}")


def _params(raw: str) -> tuple[dict[str, str], list[str]]:
    """A call's named and positional parameters, as Hugo reads them."""
    named: dict[str, str] = {}
    positional: list[str] = []
    for match in PARAM.finditer(raw):
        quoted, raw_string, bare = match.group(2, 3, 4)
        value = re.sub(r"\\(.)", r"\1", quoted) if quoted is not None else raw_string or bare
        if match.group(1):
            named[match.group(1)] = value or ""
        else:
            positional.append(value or "")
    return named, positional


def _render(template: str, raw: str, inner: str) -> str:
    named, positional = _params(raw)

    variables: dict[str, str] = {}

    def action(match: Match[str]) -> str:
        simple = SIMPLE.match(match.group(1))
        if simple is None or match.group(1).startswith("/*"):
            return ""
        if simple.group("inner"):
            value = "\x0e"  # the inner text, once the template's lines are tidied
        elif simple.group("name") is not None:
            value = named.get(simple.group("name"), "")
        elif simple.group("index") is not None:
            index = int(simple.group("index"))
            value = positional[index] if index < len(positional) else ""
        else:
            value = variables.get(simple.group("ref"), "")
        value = value or simple.group("default") or ""
        if simple.group("var"):
            variables[simple.group("var")] = value
            return ""
        return value

    # Unindented and without blank lines: either would end the HTML block in Markdown (or
    # make code of it). The inner text is Markdown: set off by blank lines, it renders.
    lines = [line.strip() for line in ACTION.sub(action, template).split("\n")]
    rendered = "\n".join(line for line in lines if line)
    return "\n\n" + rendered.replace("\x0e", "\n\n" + inner.strip("\n") + "\n\n") + "\n\n"


def blocks(
    text: Text, names: dict[str, str], notes: PostNotes, figure: Callable[[str, str], str]
) -> None:
    """The site's own block shortcodes whose templates do more than fill in (``{{% env
    type="theorem" title="T" %}}...{{% /env %}}``): their inner Markdown is what the
    reader read. A theorem, lemma, proof or callout by name or ``type`` becomes this
    site's; one with a ``src`` is a figure, its inner text the caption (``figure(src,
    caption)`` writes it); any other keeps its inner text (reported), only its frame lost."""
    if not names:
        return
    count = 0

    def block(match: Match[str], line: int) -> str:
        nonlocal count
        name, raw, inner = match.group(2), match.group(3), match.group(4).strip("\n")
        named, positional = _params(raw)
        # Longer than any fence inside, so that an inner block closes before this one.
        fence = ":" * max([3, *(len(f) + 1 for f in re.findall(r"(?m)^:{3,}", inner))])
        given = named.get("type") or named.get("kind") or ""
        candidates = [c.lower() for c in (given, *positional[:1], name) if c]
        kind = next((c for c in candidates if c in THEOREMS or c == "proof"), None)
        title = (named.get("title") or named.get("name") or "").replace('"', "'")
        if named.get("src"):
            return figure(named["src"], " ".join(inner.split()))
        if kind == "proof":
            return f"\n\n{fence} {{.proof}}\n{inner}\n{fence}\n\n"
        if kind is not None:
            count += 1
            attrs = f"#{THEOREMS[kind]}-block-{count}" + (f' name="{title}"' if title else "")
            return f"\n\n{fence} {{{attrs}}}\n{inner}\n{fence}\n\n"
        callout = next((k for c in candidates if (k := callout_kind(c))), None)
        label = title
        if callout is None:  # ``env type="remark"``: a note headed by its kind
            head = (given or name).replace("-", " ").replace("_", " ").capitalize()
            label = f"{head} ({title})" if title else head
            notes.add(line, f"shortcode {name!r} is a note here; its text is kept")
        head = f"{fence} {{.callout-{callout or 'note'}" + (f' title="{label}"}}' if label else "}")
        return f"\n\n{head}\n{inner}\n{fence}\n\n"

    _innermost_first(text, _alternation(names), block)


def _innermost_first(text: Text, names: str, replace: Callable[[Match[str], int], str]) -> None:
    """Replace each paired call of the shortcodes ``names`` (a regex alternation), the
    innermost first, so that ``{{% list %}}{{% item %}}...{{% /item %}}{{% /list %}}``
    and a block inside one of its own kind close where Hugo closes them. The match's
    groups: 2 the name, 3 the parameters, 4 the inner text."""
    paired = re.compile(
        rf"(?s)\{{\{{([<%])\s*({names})(?![\w-])((?:(?!\}}\}}).)*?)\s*[>%]\}}\}}"
        rf"((?:(?!\{{\{{[<%]\s*(?:{names})(?![\w-])).)*?)"
        rf"\{{\{{[<%]\s*/\2\s*[>%]\}}\}}"
    )
    while True:
        before = text.text
        text.sub(paired, replace)
        if text.text == before:
            return
