"""The directives and roles of Pelican's plugins, Nikola and Sphinx that posts use, in a
light form for docutils (``rst``): ``code-block`` with Pygments' options, ``math`` with
a label, ``youtube``/``vimeo``, ABlog's ``post``, Nikola's ``thumbnail``, and Sphinx's
``:ref:``, ``:doc:``, ``:cite:``, ``:eq:`` and code roles, so that they come across
rather than becoming errors."""

from __future__ import annotations

import re
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import Directive, directives, roles
from docutils.parsers.rst.directives.body import CodeBlock, MathBlock
from docutils.parsers.rst.directives.images import Figure

from site_builder.importer.common import page_link


class video(nodes.General, nodes.Element):  # type: ignore[misc]
    """A ``youtube``/``vimeo`` video: ``site`` and ``url``."""


class ablog_post(nodes.Invisible, nodes.Element):  # type: ignore[misc]
    """ABlog's ``post`` directive: its front matter in ``meta``."""


FLAG_OPTIONS = ("linenos", "nowrap", "noclasses", "anchorlinenos", "force", "number")
VALUE_OPTIONS = (
    *("hl_lines", "linenostart", "lineanchors", "linespans", "cssclass", "cssstyles"),
    *("prestyles", "tagsfile", "tagurlformat", "emphasize-lines", "lineno-start", "dedent"),
)


class _Code(CodeBlock):  # type: ignore[misc]
    """``code-block``/``sourcecode`` as Pelican's and Sphinx's take it: any of their
    options (line numbers, highlighted lines: the build has its own), a caption."""

    option_spec: ClassVar[dict[str, Any]] = {
        **CodeBlock.option_spec,
        **dict.fromkeys(FLAG_OPTIONS, directives.unchanged),
        **dict.fromkeys(VALUE_OPTIONS, directives.unchanged),
        "caption": directives.unchanged,
        "filename": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        self.options.pop("number-lines", None)
        result: list[nodes.Node] = super().run()
        caption = self.options.get("caption") or self.options.get("filename")
        if caption and result and isinstance(result[0], nodes.literal_block):
            result[0]["caption"] = caption
        return result


class _Math(MathBlock):  # type: ignore[misc]
    """``math`` with Sphinx's ``:label:`` (a name here) and ``:nowrap:``."""

    option_spec: ClassVar[dict[str, Any]] = {
        **MathBlock.option_spec,
        "label": directives.unchanged,
        "nowrap": directives.flag,
    }

    def run(self) -> list[nodes.Node]:
        if self.options.get("label") and not self.options.get("name"):
            self.options["name"] = self.options["label"]
        result: list[nodes.Node] = super().run()
        return result


class _Video(Directive):  # type: ignore[misc]
    """Pelican's and Nikola's ``youtube``/``vimeo``: a link to the video here."""

    required_arguments = 1
    optional_arguments = 0
    option_spec: ClassVar[dict[str, Any]] = {
        k: directives.unchanged for k in ("width", "height", "align", "start", "title")
    }
    has_content = False
    URLS: ClassVar[dict[str, tuple[str, str]]] = {
        "youtube": ("YouTube", "https://www.youtube.com/watch?v={}"),
        "vimeo": ("Vimeo", "https://vimeo.com/{}"),
    }

    def run(self) -> list[nodes.Node]:
        site, url = self.URLS[self.name]
        node = video(site=site, url=url.format(self.arguments[0]))
        node.line = self.lineno
        return [node]


class _AblogPost(Directive):  # type: ignore[misc]
    """ABlog's ``.. post:: 2020-01-31`` and its options: the post's front matter."""

    optional_arguments = 1
    final_argument_whitespace = True
    has_content = True
    option_spec: ClassVar[dict[str, Any]] = {
        k: directives.unchanged
        for k in (
            *("tags", "category", "author", "location", "language", "redirect", "title"),
            *("image", "excerpt", "exclude", "nocomments", "external_link", "update"),
        )
    }

    def run(self) -> list[nodes.Node]:
        meta: dict[str, Any] = dict(self.options)
        if self.arguments:
            meta["date"] = self.arguments[0]
        if "category" in meta:
            meta["categories"] = meta.pop("category")
        if "update" in meta:
            meta["lastmod"] = meta.pop("update")
        return [ablog_post(meta=meta)]


Role = tuple[list[Any], list[Any]]  # the nodes a role makes, and its messages
TARGET = re.compile(r"^(.*?)\s*<([^<>]+)>$", re.S)


def _shown_role(name: str, raw: str, text: str, lineno: int, inliner: Any, **_: Any) -> Role:
    """Sphinx's ``:ref:``/``:doc:``/``:numref:``: their text (or target), unlinked."""
    found = TARGET.match(text)
    shown = found.group(1) if found and found.group(1) else text.lstrip("~!")
    message = inliner.reporter.warning(f"Sphinx's :{name}: link kept as its text", line=lineno)
    return [nodes.Text(shown)], [message]


def _doc_role(name: str, raw: str, text: str, lineno: int, inliner: Any, **_: Any) -> Role:
    """Nikola's (and Sphinx's) ``:doc:`text <slug>```: a link to that post here."""
    found = TARGET.match(text)
    target = found.group(2) if found else text
    shown = found.group(1) if found and found.group(1) else target
    return [nodes.reference(raw, shown, refuri=page_link(target.strip()))], []


def _literal_role(name: str, raw: str, text: str, lineno: int, inliner: Any, **_: Any) -> Role:
    """Sphinx's ``:func:``, ``:class:``, ``:kbd:``...: the name as code."""
    found = TARGET.match(text)
    shown = found.group(1) if found and found.group(1) else text.lstrip("~!")
    return [nodes.literal(raw, shown)], []


def _cite_role(name: str, raw: str, text: str, lineno: int, inliner: Any, **_: Any) -> Role:
    """sphinxcontrib-bibtex's ``:cite:`a,b``` as the citation ``[@a; @b]``."""
    keys = [k.strip() for k in text.split(",") if k.strip()]
    return [nodes.inline(raw, text, classes=["cite"], keys=keys)], []


def _eq_role(name: str, raw: str, text: str, lineno: int, inliner: Any, **_: Any) -> Role:
    """Sphinx's ``:eq:`label``` as ``@eq-label``."""
    return [nodes.inline(raw, text, classes=["eqref"], label=text.strip())], []


LITERAL_ROLES = (
    *("func", "meth", "class", "mod", "attr", "data", "exc", "obj", "const", "kbd", "file"),
    *("command", "program", "envvar", "samp", "option", "makevar", "mimetype", "regexp"),
    *("py:func", "py:meth", "py:class", "py:mod", "py:attr", "py:data", "py:exc", "py:obj"),
    *("c:func", "c:type", "c:macro", "c:member", "cpp:func", "cpp:class", "guilabel"),
)


def register() -> None:
    """Make these the directives and roles docutils knows (its registry is global)."""
    for name in ("code-block", "sourcecode", "code"):
        directives.register_directive(name, _Code)
    directives.register_directive("math", _Math)
    for name in ("youtube", "vimeo"):
        directives.register_directive(name, _Video)
    directives.register_directive("post", _AblogPost)
    directives.register_directive("thumbnail", Figure)  # Nikola's: a figure of the image
    roles.register_local_role("doc", _doc_role)
    for name in ("ref", "numref", "any", "term", "download"):
        roles.register_local_role(name, _shown_role)
    for name in LITERAL_ROLES:
        roles.register_local_role(name, _literal_role)
    for name in ("cite", "cite:p", "cite:t", "citep", "citet"):
        roles.register_local_role(name, _cite_role)
    roles.register_local_role("eq", _eq_role)
