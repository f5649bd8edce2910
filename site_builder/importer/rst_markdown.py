"""A reStructuredText doctree (docutils) written as this site's Markdown.

``Writer`` walks the tree docutils parsed and returns the post's body as blocks, each
with the source line it came from, so the report names the line the author wrote.
Code and math go behind the body's placeholders (``Text.hide``): the Markdown rewrites
after this one never touch them. Every element this site has a form for takes it
(``$x$``, fenced code with its language, ``[^n]`` footnotes, ``{#fig-...}`` figures,
pipe tables, callouts, ``{#id}`` headings where the rST gave a label); one it has none
for keeps its text, and a directive docutils did not know is kept as a comment and
named in the report.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from docutils import nodes

from site_builder.importer.common import comment_out
from site_builder.importer.divs import callout_kind
from site_builder.importer.report import PostNotes
from site_builder.importer.rst_inline import Inline, line_of
from site_builder.importer.rst_tables import table
from site_builder.importer.text import Text
from site_builder.slug import slugify

# A paragraph opening with a list marker, a heading, a quote or a fence is text there.
LINE_START = re.compile(r"^(\s*)([#>+=-]|:::|\d+[.)](?=\s|$))")
# docutils' ``attention`` is a stronger word than the other sites' (``divs.callout_kind``)
RST_CALLOUTS = {"attention": "caution"}
Block = tuple[int, str]  # (source line, Markdown text)
PLACEHOLDER = re.compile("\x00\\d+\x00")


def fence(code: str, info: str = "") -> str:
    """A fenced code block longer than any run of backticks the code holds."""
    runs = [len(m.group(0)) for m in re.finditer(r"`{3,}", code)]
    marks = "`" * max([3, *(n + 1 for n in runs)])
    return f"{marks}{info}\n{code.rstrip()}\n{marks}"


class Writer(Inline):
    """Writes one document's body; ``hide`` keeps a finished piece from later rewrites."""

    def __init__(self, notes: PostNotes, text: Text, slug: str) -> None:
        self.notes = notes
        self.text = text
        self.hide = text.hide
        self.slug = slug
        self.labels: set[str] = set()  # ids an explicit ``.. _label:`` gave
        self.footnotes: dict[str, str] = {}  # docutils id -> this post's footnote name
        self.definitions: list[Block] = []  # footnotes and citations, at the end
        self.figures = 0
        self.front: dict[str, Any] = {}  # what the body says of the post: toc

    # -- the document --------------------------------------------------------------

    def document(self, doc: nodes.document) -> list[Block]:
        """The body's blocks, footnotes last."""
        self.labels = {t["refid"] for t in doc.findall(nodes.target) if t.get("refid")}
        for note in (*doc.findall(nodes.footnote), *doc.findall(nodes.citation)):
            names = note["names"] or [note.children[0].astext()]
            for ident in note["ids"]:
                self.footnotes[ident] = re.sub(r"[^\w-]+", "-", names[0]).strip("-") or "n"
        blocks = self.blocks(doc.children, 1)
        return blocks + self.definitions

    def blocks(self, children: list[nodes.Node], depth: int) -> list[Block]:
        out: list[Block] = []
        for child in children:
            out += self.block(child, depth)
        return [(line, text) for line, text in out if text.strip()]

    def block(self, node: nodes.Node, depth: int) -> list[Block]:
        """One body element as Markdown blocks; ``depth`` is its section's level."""
        line = line_of(node)
        name = node.tagname
        method = getattr(self, f"block_{name}", None)
        if method is not None:
            result: list[Block] = method(node, depth, line)
            return result
        if isinstance(node, nodes.Admonition):
            return self.admonition(node, depth, line)
        if isinstance(node, nodes.Invisible | nodes.decoration | nodes.docinfo):
            return []
        if isinstance(node, nodes.TextElement):
            return [(line, self.paragraph_text(node))]
        if isinstance(node, nodes.Element):  # container, compound, line...: their content
            return self.blocks(node.children, depth)
        return [(line, self.escape(node.astext()))]

    def text_of(self, blocks: list[Block]) -> str:
        return "\n\n".join(text for _, text in blocks)

    # -- blocks --------------------------------------------------------------------

    def block_section(self, node: nodes.section, depth: int, line: int) -> list[Block]:
        title = node.next_node(nodes.title)
        ids = [i for i in node["ids"] if i in self.labels]
        head = "#" * min(depth + 1, 6) + " " + (self.inline(title) if title else "")
        if ids:
            head += " {#" + slugify(ids[0]) + "}"
        rest = [c for c in node.children if c is not title]
        return [(line_of(title or node, line), head), *self.blocks(rest, depth + 1)]

    def block_title(self, node: nodes.title, depth: int, line: int) -> list[Block]:
        return []  # the document's: its front matter; a section's: its heading

    def block_paragraph(self, node: nodes.paragraph, depth: int, line: int) -> list[Block]:
        return [(line, self.paragraph_text(node))]

    def paragraph_text(self, node: nodes.Element) -> str:
        text = " ".join(self.inline(node).split("\n"))
        return LINE_START.sub(lambda m: m.group(1) + "\\" + m.group(2), text.strip(), count=1)

    def block_literal_block(self, node: nodes.Element, depth: int, line: int) -> list[Block]:
        classes = [c for c in node["classes"] if c not in ("code", "literal-block")]
        language = classes[0] if classes else node.get("language", "")
        info = language
        if node.get("caption"):
            info = f'{language or "text"} filename="{node["caption"]}"'
        return [(line, self.hide(fence(node.astext(), info)))]

    def block_doctest_block(self, node: nodes.Element, depth: int, line: int) -> list[Block]:
        return [(line, self.hide(fence(node.astext(), "pycon")))]

    def block_math_block(self, node: nodes.Element, depth: int, line: int) -> list[Block]:
        tex = node.astext().strip()
        if re.search(r"\\\\|(?<!\\)&", tex) and "\\begin" not in tex:
            tex = "\\begin{aligned}\n" + tex + "\n\\end{aligned}"  # Sphinx's ``split``
        ident = node["ids"][0] if node["ids"] and node["names"] else ""
        label = " {#eq-" + slugify(ident) + "}" if ident else ""
        return [(line, self.hide(f"$$\n{tex}\n$$" + label))]

    def block_bullet_list(self, node: nodes.Element, depth: int, line: int) -> list[Block]:
        return self.items(node, lambda _n: "- ", depth, line)

    def block_enumerated_list(self, node: nodes.Element, depth: int, line: int) -> list[Block]:
        start = int(node.get("start", 1))
        if node.get("enumtype", "arabic") != "arabic":
            self.notes.add(line, f"{node['enumtype']} list numbered 1, 2, 3 here")
        return self.items(node, lambda n: f"{start + n}. ", depth, line)

    def items(
        self, node: nodes.Element, marker: Callable[[int], str], depth: int, line: int
    ) -> list[Block]:
        parts = [self.blocks(item.children, depth) for item in node.children]
        loose = any(len(p) > 1 for p in parts)
        out = []
        for number, part in enumerate(parts):
            mark = marker(number)
            body = self.text_of(part) or ""
            out.append(mark + self.indent(body, " " * len(mark)).lstrip())
        return [(line, ("\n\n" if loose else "\n").join(out))]

    def block_definition_list(self, node: nodes.Element, depth: int, line: int) -> list[Block]:
        out = []
        for item in node.children:
            term = " ".join(self.inline(t) for t in item.children if t.tagname == "term")
            classifiers = [self.inline(c) for c in item.children if c.tagname == "classifier"]
            if classifiers:
                term += " : " + " : ".join(classifiers)
            definition = item.next_node(nodes.definition)
            body = self.text_of(self.blocks(definition.children, depth)) if definition else ""
            out.append(f"{self.paragraph_text_of(term)}\n: " + self.indent(body, "  ").lstrip())
        return [(line, "\n\n".join(out))]

    def paragraph_text_of(self, text: str) -> str:
        return LINE_START.sub(lambda m: m.group(1) + "\\" + m.group(2), text.strip(), count=1)

    def block_field_list(self, node: nodes.Element, depth: int, line: int) -> list[Block]:
        out = []
        for field in node.children:
            name = self.inline(field.children[0])
            body = self.text_of(self.blocks(field.children[1].children, depth))
            out.append(f"- **{name}:** " + self.indent(body, "  ").lstrip())
        return [(line, "\n".join(out))]

    def block_option_list(self, node: nodes.Element, depth: int, line: int) -> list[Block]:
        out = []
        for item in node.children:
            options = item.next_node(nodes.option_group)
            body = item.next_node(nodes.description)
            text = self.text_of(self.blocks(body.children, depth)) if body else ""
            shown = options.astext() if options else ""
            out.append(f"`{shown}`\n: " + self.indent(text, "  ").lstrip())
        return [(line, "\n\n".join(out))]

    def block_block_quote(self, node: nodes.Element, depth: int, line: int) -> list[Block]:
        body = self.text_of(self.blocks(node.children, depth))
        return [(line, self.indent(body, "> ", blank=">"))]

    def block_attribution(self, node: nodes.Element, depth: int, line: int) -> list[Block]:
        return [(line, "— " + self.inline(node))]

    def block_line_block(self, node: nodes.Element, depth: int, line: int) -> list[Block]:
        lines = []
        for child in node.children:
            if isinstance(child, nodes.line_block):
                lines.append(self.text_of(self.block_line_block(child, depth, line)))
            else:
                lines.append(self.inline(child) or "&nbsp;")
        return [(line, "\\\n".join(lines))]

    def block_transition(self, node: nodes.Element, depth: int, line: int) -> list[Block]:
        return [(line, "---")]

    def block_rubric(self, node: nodes.Element, depth: int, line: int) -> list[Block]:
        return [(line, f"**{self.inline(node)}**")]

    def block_topic(self, node: nodes.Element, depth: int, line: int) -> list[Block]:
        if "contents" in node["classes"]:  # ``.. contents::``: the page's own table
            self.front["toc"] = True
            return []
        return self.admonition(node, depth, line, "note")

    def block_sidebar(self, node: nodes.Element, depth: int, line: int) -> list[Block]:
        body = self.blocks([c for c in node.children if c.tagname != "title"], depth)
        title = node.next_node(nodes.title)
        head = [(line, f"**{self.inline(title)}**")] if title else []
        return [(line, "::: {.column-margin}\n" + self.text_of(head + body) + "\n:::")]

    def admonition(
        self, node: nodes.Element, depth: int, line: int, kind: str | None = None
    ) -> list[Block]:
        name = node.tagname
        kind = kind or RST_CALLOUTS.get(name) or callout_kind(name) or "note"
        title_node = node.next_node(nodes.title) if node.children else None
        title = self.inline(title_node).replace('"', "'") if title_node else ""
        if not title and name in ("danger", "error", "attention", "hint"):
            title = name.capitalize()  # a kind of its own there, shown by its name here
        body = self.blocks([c for c in node.children if c is not title_node], depth)
        head = f'::: {{.callout-{kind} title="{title}"}}' if title else f"::: {{.callout-{kind}}}"
        return [(line, head + "\n" + self.text_of(body) + "\n:::")]

    def block_image(self, node: nodes.Element, depth: int, line: int) -> list[Block]:
        return [(line, self.image(node))]

    def block_figure(self, node: nodes.Element, depth: int, line: int) -> list[Block]:
        image = node.next_node(nodes.image)
        caption = node.next_node(nodes.caption)
        legend = node.next_node(nodes.legend)
        if image is None:
            return self.blocks(node.children, depth)
        self.figures += 1
        names = image["names"] or node["names"]
        ident = slugify(names[0]) if names else f"{self.slug or 'post'}-{self.figures}"
        text = self.inline(caption) if caption else self.escape(image.get("alt", ""))
        out = [(line, self.image(image, text, f"#fig-{ident}"))]
        if legend is not None:
            out += self.blocks(legend.children, depth)
        return out

    def block_footnote(self, node: nodes.Element, depth: int, line: int) -> list[Block]:
        name = self.footnotes.get(node["ids"][0], "n") if node["ids"] else "n"
        body = self.text_of(self.blocks([c for c in node.children if c.tagname != "label"], depth))
        self.definitions.append((line, f"[^{name}]: " + self.indent(body, "    ").lstrip()))
        return []

    block_citation = block_footnote

    def block_table(self, node: nodes.Element, depth: int, line: int) -> list[Block]:
        return [(line, table(node, self.inline, self.notes, line))]

    def block_raw(self, node: nodes.Element, depth: int, line: int) -> list[Block]:
        if "html" in node.get("format", "").split():
            return [(line, self.hide(node.astext()))]
        self.notes.add(line, f"raw {node.get('format', '')} block left out")
        return [(line, self.hide(comment_out(node.astext())))]

    def block_system_message(self, node: nodes.Element, depth: int, line: int) -> list[Block]:
        source = node.next_node(nodes.literal_block)  # a directive docutils did not know
        return [(line, self.hide(comment_out(source.astext())))] if source else []

    def block_video(self, node: nodes.Element, depth: int, line: int) -> list[Block]:
        self.notes.add(line, f"{node['site']} video embedded as a link")
        return [(line, f"[Video on {node['site']}]({node['url']})")]

    def indent(self, body: str, prefix: str, blank: str = "") -> str:
        """``body`` with ``prefix`` before each line, the lines of code and math hidden in
        it too (a list item's code block is indented as the item is)."""
        for found in PLACEHOLDER.finditer(body):
            self.text.rehide(found.group(0), lambda s: s.replace("\n", "\n" + prefix))
        return "\n".join(prefix + line if line.strip() else blank for line in body.split("\n"))
