"""An SVG file made safe to put inside the page: ``![Caption](diagram.svg){.inline}``.

Inline, a drawing's ``currentColor`` is the text colour around it, so a diagram
drawn in ``currentColor`` follows the page into dark mode, which an ``<img>``
cannot do. The file becomes part of the page, so it is cleaned first:

* no ``<script>``, ``<foreignObject>`` or embedded documents, no ``on...``
  event attributes, no link that is not a fragment or a web address, and
  nothing but a link pointing off the site (an ``<image>`` or ``<use>`` of a
  remote file would be a request to another host);
* no DOCTYPE (entities are how an XML file grows to gigabytes) and nothing
  but a single ``<svg>`` root;
* every ``id`` gets the figure's id as a prefix, and every reference to one
  (``url(#x)``, ``href="#x"``, ``aria-labelledby``) follows it, so two
  drawings that both say ``id="arrow"`` don't draw each other's arrows;
* a ``<style>`` is scoped to the drawing (inline, its rules would otherwise
  reach the whole page: Matplotlib's ``*{stroke-linejoin: round}`` would).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

SVG = "http://www.w3.org/2000/svg"
XLINK = "http://www.w3.org/1999/xlink"
_DROP = frozenset({"script", "foreignObject", "iframe", "object", "embed", "handler"})
_HREFS = ("href", f"{{{XLINK}}}href")
_ID_LISTS = ("aria-labelledby", "aria-describedby")
_URL_REF = re.compile(r"url\(\s*(['\"]?)#([^'\")\s]+)\1\s*\)")
_SAFE_LINK = re.compile(r"^(?:#|https?:|mailto:|[^:]*$)", re.IGNORECASE)
_LOCAL_REF = re.compile(r"^(?:#|(?!//)[^:]*$)")  # a fragment or a file beside the page
_RULE = re.compile(r"([^{}@]+)\{([^{}]*)\}")

ET.register_namespace("", SVG)
ET.register_namespace("xlink", XLINK)


class SvgError(ValueError):
    """Why a file cannot be inlined, in words for the author."""


def inline_svg(data: bytes, prefix: str, label: str) -> str:
    """The cleaned ``<svg>`` element as HTML, labelled for screen readers."""
    if b"<!DOCTYPE" in data or b"<!ENTITY" in data:
        raise SvgError("an SVG with a DOCTYPE cannot be inlined: remove the <!DOCTYPE ...> line")
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        raise SvgError(f"not a well-formed SVG file ({exc})") from None
    if root.tag != f"{{{SVG}}}svg":
        raise SvgError("the file's root element is not <svg> in the SVG namespace")
    ids = {el.get("id", "") for el in root.iter()} - {""}
    _clean(root, prefix, ids)
    root.set("role", "img")
    root.set("aria-label", label)
    classes = root.get("class", "").split()
    root.set("class", " ".join(dict.fromkeys([*classes, "inline-svg"])))
    root.set("data-svg", prefix)  # what the scoped <style> rules select
    return ET.tostring(root, encoding="unicode")


def _clean(element: ET.Element, prefix: str, ids: set[str]) -> None:
    for child in list(element):
        if not isinstance(child.tag, str) or _local(child.tag) in _DROP:
            element.remove(child)  # comments and processing instructions too
            continue
        _clean(child, prefix, ids)
    for name in list(element.attrib):
        value = element.attrib[name]
        local = _local(name).lower()
        if local.startswith("on"):
            del element.attrib[name]
        elif name in _HREFS:
            link = _local(element.tag) == "a"  # only a link may leave the page; an <image> not
            if not (_SAFE_LINK if link else _LOCAL_REF).match(value.strip()):
                del element.attrib[name]
            elif value.startswith("#") and value[1:] in ids:
                element.set(name, f"#{prefix}-{value[1:]}")
        elif name == "id":
            element.set(name, f"{prefix}-{value}")
        elif name in _ID_LISTS:
            element.set(name, " ".join(f"{prefix}-{v}" if v in ids else v for v in value.split()))
        elif "url(" in value:
            element.set(name, _rename_urls(value, prefix, ids))
    if _local(element.tag) == "style" and element.text:
        element.text = _scope_css(_rename_urls(element.text, prefix, ids), prefix, ids)


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _rename_urls(text: str, prefix: str, ids: set[str]) -> str:
    def rename(match: re.Match[str]) -> str:
        name = match.group(2)
        return f"url(#{prefix}-{name})" if name in ids else match.group(0)

    return _URL_REF.sub(rename, text)


def _scope_css(css: str, prefix: str, ids: set[str]) -> str:
    """Each rule's selectors prefixed with this drawing; at-rules (``@import``, ``@media``,
    ``@font-face``) are dropped rather than let out."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.DOTALL)
    css = re.sub(r"@[^{;]*;", "", css)  # @import, @charset
    scoped = []
    for selectors, body in _RULE.findall(_drop_blocks(css)):
        parts = []
        for selector in selectors.split(","):
            selector = _ID_SELECTOR.sub(lambda m: _renamed(m, prefix, ids), selector.strip())
            parts.append(f'[data-svg="{prefix}"] {selector}')
        scoped.append(f"{', '.join(parts)} {{{body.strip()}}}")
    return "\n".join(scoped)


_ID_SELECTOR = re.compile(r"#([\w-]+)")


def _renamed(match: re.Match[str], prefix: str, ids: set[str]) -> str:
    return f"#{prefix}-{match.group(1)}" if match.group(1) in ids else match.group(0)


def _drop_blocks(css: str) -> str:
    """``css`` without its ``@...{ ... }`` blocks (nested braces counted)."""
    out, index = [], 0
    while (at := css.find("@", index)) >= 0:
        out.append(css[index:at])
        depth, pos = 0, css.find("{", at)
        if pos < 0:
            return "".join(out)
        while pos < len(css):
            depth += {"{": 1, "}": -1}.get(css[pos], 0)
            pos += 1
            if depth == 0:
                break
        index = pos
    out.append(css[index:])
    return "".join(out)
