"""The inline half of ``rst_markdown``: reStructuredText's text, as this site's Markdown.

Text is escaped wherever Markdown would read it otherwise (``*``, ``_``, ``$``, which
is math here, ``[``); emphasis, code, math, links, images, footnote references and
Sphinx's citations and equation references take this site's forms. Code and math are
hidden from the rewrites that follow (``Text.hide``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from docutils import nodes

from site_builder.importer.report import PostNotes
from site_builder.slug import slugify

# Markdown's own characters in text: escaped, so the text reads as the rST showed it.
ESCAPED = re.compile(r"([\\`*_\[\]<$~|])")
WIDTH = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(px|%|em|rem)?\s*$")


def line_of(node: nodes.Node, default: int = 1) -> int:
    """The source line of ``node`` or of the nearest element around it that has one."""
    while node is not None:
        line = getattr(node, "line", None)
        if line:
            return int(line)
        node = node.parent
    return default


class Inline:
    """Writes inline content; ``labels`` are the ids the author named (``.. _x:``)."""

    notes: PostNotes
    hide: Callable[[str], str]
    labels: set[str]
    footnotes: dict[str, str]

    def image(self, node: nodes.Element, text: str | None = None, ident: str = "") -> str:
        alt = text if text is not None else self.escape(node.get("alt", ""))
        uri = node["uri"].replace(" ", "%20")
        attrs = [ident] if ident else []
        width = WIDTH.match(str(node.get("width", "")))
        if width:
            attrs.append(
                f"width={width.group(1)}{'' if width.group(2) == 'px' else width.group(2) or ''}"
            )
        shown = f"![{alt}]({uri})" + ("{" + " ".join(attrs) + "}" if attrs else "")
        target = node.parent.get("refuri") if isinstance(node.parent, nodes.reference) else None
        if node.get("target"):
            target = node["target"]
        return f"[{shown}]({target})" if target and not text else shown

    def escape(self, text: str) -> str:
        text = ESCAPED.sub(r"\\\1", text)
        return re.sub(r"&(?=#?\w+;)", "&amp;", text)

    def inline(self, node: nodes.Node) -> str:
        """The Markdown of ``node``'s inline content."""
        if isinstance(node, nodes.Text):
            return self.escape(node.astext())  # str() keeps its \\x00 escapes
        name = node.tagname
        method = getattr(self, f"inline_{name}", None)
        if method is not None:
            result: str = method(node)
            return result
        if isinstance(node, nodes.system_message | nodes.target | nodes.comment):
            return ""
        return "".join(self.inline(c) for c in node.children)

    def wrap(self, node: nodes.Element, mark: str) -> str:
        inner = "".join(self.inline(c) for c in node.children)
        stripped = inner.strip()
        if not stripped:
            return inner
        lead, tail = inner[: len(inner) - len(inner.lstrip())], inner[len(inner.rstrip()) :]
        return f"{lead}{mark}{stripped}{mark}{tail}"

    def inline_emphasis(self, node: nodes.Element) -> str:
        return self.wrap(node, "*")

    inline_title_reference = inline_emphasis

    def inline_strong(self, node: nodes.Element) -> str:
        return self.wrap(node, "**")

    def inline_literal(self, node: nodes.Element) -> str:
        code = " ".join(node.astext().split("\n"))
        runs = max([0, *(len(m) for m in re.findall(r"`+", code))])
        ticks = "`" * (runs + 1)
        pad = " " if code.startswith("`") or code.endswith("`") else ""
        return self.hide(f"{ticks}{pad}{code}{pad}{ticks}")

    def inline_math(self, node: nodes.Element) -> str:
        return self.hide("$" + " ".join(node.astext().split()) + "$")

    def inline_subscript(self, node: nodes.Element) -> str:
        return f"<sub>{self.inline_children(node)}</sub>"

    def inline_superscript(self, node: nodes.Element) -> str:
        return f"<sup>{self.inline_children(node)}</sup>"

    def inline_children(self, node: nodes.Element) -> str:
        return "".join(self.inline(c) for c in node.children)

    def inline_reference(self, node: nodes.Element) -> str:
        if node.next_node(nodes.image) is not None:
            return self.image(node.next_node(nodes.image))
        text = self.inline_children(node)
        uri = node.get("refuri")
        if uri is None and node.get("refid"):
            uri = "#" + (slugify(node["refid"]) if node["refid"] in self.labels else node["refid"])
        if uri is None:
            self.notes.add(line_of(node), f"link {node.astext()!r} goes nowhere: kept as text")
            return text
        if node.astext() == uri and re.match(r"^[a-z][\w+.-]*:", uri):
            return f"<{uri}>"
        uri = uri.replace(" ", "%20").replace(")", "%29").replace("(", "%28")
        return f"[{text}]({uri})"

    def inline_footnote_reference(self, node: nodes.Element) -> str:
        return f"[^{self.footnotes.get(node.get('refid', ''), node.astext())}]"

    inline_citation_reference = inline_footnote_reference

    def inline_image(self, node: nodes.Element) -> str:
        return self.image(node)

    def inline_raw(self, node: nodes.Element) -> str:
        if "html" in node.get("format", "").split():
            return self.hide(node.astext())
        self.notes.add(line_of(node), f"raw {node.get('format', '')} text left out")
        return ""

    def inline_problematic(self, node: nodes.Element) -> str:
        return self.escape(node.astext())  # the rST as written; the report names it

    def inline_inline(self, node: nodes.Element) -> str:
        if "cite" in node["classes"]:
            return "[" + "; ".join("@" + k for k in node["keys"]) + "]"
        if "eqref" in node["classes"]:
            return "@eq-" + slugify(node["label"])
        return self.inline_children(node)

    def inline_footnote(self, node: nodes.Element) -> str:
        return ""

    def inline_generated(self, node: nodes.Element) -> str:
        return ""  # section numbers and the like, which the page makes itself
