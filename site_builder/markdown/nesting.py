"""A nesting limit that stops the build at the line instead of dropping text.

markdown-it guards its recursion with ``maxNesting``: past it, the block parser
silently skips the rest of the document (a list ten levels deep under the
CommonMark preset's limit of 20 lost its last item and every paragraph after
it, with exit status 0). The limit itself is needed, since each level is a few
Python frames and a hostile post can nest thousands, but losing text is not.

So the limit is raised far beyond what prose needs and this block rule, which
runs before every other, reports the first line that goes deeper. The build
then fails, so nothing is rendered with text missing. ``maxNesting`` stays a
little above ``LIMIT`` because one step can open two levels (a list and its
item) and markdown-it's own check must never be the one that fires.
"""

from __future__ import annotations

from dataclasses import dataclass

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock

from site_builder.markdown.state import extension_state, report


@dataclass
class NestingState:
    reported: bool = False  # one message for a document nested too deep, not one a line


LIMIT = 100  # block levels: a list level counts two (list + item), a quote one


def nesting_plugin(md: MarkdownIt) -> None:
    md.options["maxNesting"] = LIMIT + 4
    first = md.block.ruler.get_all_rules()[0]  # before every rule, extensions' included
    md.block.ruler.before(first, "nesting_limit", _guard)


def _guard(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    if state.level < LIMIT or silent:
        return False
    nesting = extension_state(state.env, "nesting", NestingState)
    if not nesting.reported:
        nesting.reported = True
        offset: int = state.env["ctx"].line_offset
        report(
            state.env,
            None,
            f"lists and block quotes are nested more than {LIMIT} levels deep here: flatten them",
            line=offset + start + 1,
        )
    state.line = end  # the build fails: nothing deeper is parsed, so recursion stays bounded
    return True
