"""Shortcodes Hugo's popular themes (and newer Hugo itself) ship, with their meaning here.

A site's own shortcodes are expanded from its templates (``shortcodes``); these come
with a theme the site pulls as a module, so their templates are not in the site:

- ``{{< katex [display] >}}x{{< /katex >}}`` (Hugo Book and kin) sets its TeX as
  inline or display math; one whose body holds its own ``$`` only loses its tags;
- ``{{< details "Title" [open] >}}`` (Hugo Book; Hugo's own since 0.140, with
  ``summary=``) is a ``<details>`` with that summary;
- ``{{< tabs >}}`` with ``{{< tab "Name" >}}`` (Hugo Book; Docsy's ``tabpane`` and
  ``tab header=``): each tab shown, its name in bold over its body;
- ``{{< gist user id >}}`` is a link to the gist.
"""

from __future__ import annotations

import re
from re import Match

from site_builder.importer.report import PostNotes
from site_builder.importer.shortcodes import PARAM
from site_builder.importer.text import Text

KATEX = re.compile(r"(?s)\{\{[<%]\s*katex\b([^>%]*)[>%]\}\}(.*?)\{\{[<%]\s*/katex\s*[>%]\}\}")
DETAILS = re.compile(r"\{\{[<%]\s*details\b([^>%]*)[>%]\}\}")
DETAILS_END = re.compile(r"\{\{[<%]\s*/details\s*[>%]\}\}")
TAB = re.compile(r"\{\{[<%]\s*tab\b([^>%]*)[>%]\}\}[ \t]*\n?")
TAB_END = re.compile(r"[ \t]*\{\{[<%]\s*/tab\s*[>%]\}\}")
TABS = re.compile(r"[ \t]*\{\{[<%]\s*/?(?:tabs|tabpane)\b[^>%]*[>%]\}\}[ \t]*")
GIST = re.compile(r"\{\{[<%]\s*gist\s+([^>%]*?)\s*[>%]\}\}")


def convert(text: Text, notes: PostNotes) -> None:
    """Every theme shortcode above; run before math is read (``katex`` makes math)."""
    text.sub(KATEX, _katex)
    text.sub(DETAILS, lambda m, _l: _details(m.group(1)))
    text.sub(DETAILS_END, lambda m, _l: "\n\n</details>")
    text.sub(TAB, lambda m, _l: _tab(m.group(1)))
    text.sub(TAB_END, lambda m, _l: "")
    text.sub(TABS, lambda m, _l: "")

    def gist(match: Match[str], line: int) -> str:
        words = [value for _, value in _params(match.group(1))]
        if len(words) < 2:
            return match.group(0)
        notes.add(line, "gist embedded as a link")
        return f"<https://gist.github.com/{words[0]}/{words[1]}>"

    text.sub(GIST, gist)


def _params(raw: str) -> list[tuple[str, str]]:
    """(name or "", value) of each parameter, in order."""
    return [(m[1] or "", m[2] or m[3] or m[4] or "") for m in PARAM.finditer(raw)]


def _katex(match: Match[str], _line: int) -> str:
    params, body = _params(match.group(1)), match.group(2).strip()
    if "$" in body or "\\(" in body or "\\[" in body:
        return body  # delimited already: only the tags go
    display = any(v == "display" or (k == "display" and v != "false") for k, v in params)
    return f"\n\n$$\n{body}\n$$\n\n" if display else f"${body}$"


def _details(raw: str) -> str:
    params = _params(raw)
    named = {k: v for k, v in params if k}
    title = (
        named.get("summary")
        or named.get("title")
        or next((v for k, v in params if not k and v != "open"), "Details")
    )
    opened = " open" if named.get("open") == "true" or ("", "open") in params else ""
    return f"<details{opened}>\n<summary>{title}</summary>\n\n"


def _tab(raw: str) -> str:
    params = _params(raw)
    named = {k: v for k, v in params if k}
    title = named.get("header") or named.get("name") or next((v for k, v in params if not k), "")
    return f"\n\n**{title}**\n\n" if title else "\n\n"
