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
from pathlib import Path
from re import Match

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
    return {"shortcodes": {k: v for k, v in found.items() if _expandable(v)}}


def _expandable(template: str) -> bool:
    return all(SIMPLE.match(m.group(1)) for m in ACTION.finditer(template))


def expand(text: Text, templates: dict[str, str]) -> None:
    """Every call of a shortcode whose template only fills in, replaced by what it makes."""
    if not templates:
        return
    names = "|".join(re.escape(n) for n in sorted(templates, key=len, reverse=True))
    paired = re.compile(
        rf"(?s)\{{\{{([<%])\s*({names})\b(.*?)\s*[>%]\}}\}}(.*?)\{{\{{[<%]\s*/\2\s*[>%]\}}\}}"
    )
    single = re.compile(rf"(?s)\{{\{{([<%])\s*({names})\b(.*?)\s*/?[>%]\}}\}}")
    text.sub(paired, lambda m, _l: _render(templates[m.group(2)], m.group(3), m.group(4)))
    text.sub(single, lambda m, _l: _render(templates[m.group(2)], m.group(3), ""))


def _render(template: str, raw: str, inner: str) -> str:
    named: dict[str, str] = {}
    positional: list[str] = []
    for match in PARAM.finditer(raw):
        quoted, raw_string, bare = match.group(2, 3, 4)
        value = re.sub(r"\\(.)", r"\1", quoted) if quoted is not None else raw_string or bare
        if match.group(1):
            named[match.group(1)] = value or ""
        else:
            positional.append(value or "")

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
