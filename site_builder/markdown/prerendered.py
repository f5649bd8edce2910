"""HTML made before Markdown by a trusted stage, placed in the document by key.

A notebook's outputs (a DataFrame's table, a traceback, stream text) are HTML
already, and must reach the page even on a site with ``raw_html: false``. The
notebook stage (``site_builder.notebooks``) writes each one as a fence::

    ```{=prerendered}
    out-3-1
    ```

and hands the HTML in ``MarkdownContext.prerendered`` under that key. This core
rule, run right after block parsing, turns such a fence into an ``html_block``
holding the HTML. Only the context can supply HTML, never the text: a Markdown
post that writes this fence has an empty mapping, and the fence stays a code
block as before. The fences are block tokens, so Markdown between two of them
(a ``text/markdown`` output, a caption) is parsed as usual, and an opening
``<details>`` and its ``</details>`` can be two blocks around a code fence.

The context's ``files`` (a notebook's images, made before the Markdown) join
the document's files here, so they are written beside the page with the rest.
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore

from site_builder.markdown.state import document

INFO = "{=prerendered}"


def prerendered_plugin(md: MarkdownIt) -> None:
    md.core.ruler.after("block", "prerendered", _place)


def _place(state: StateCore) -> None:
    ctx = state.env["ctx"]
    blocks = ctx.prerendered
    if ctx.files:
        document(state.env).files.update(ctx.files)
    if not blocks:
        return
    for token in state.tokens:
        if token.type != "fence" or token.info.strip() != INFO:
            continue
        html = blocks.get(token.content.strip())
        if html is None:
            continue
        token.type = "html_block"
        token.tag = ""
        token.info = ""
        token.content = html if html.endswith("\n") else html + "\n"
