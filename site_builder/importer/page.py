"""A post body that carries its old page around it: an HTML page wrapper, the title again
as the first heading, and the placeholders a blog's own renderer filled in.

Hugging Face's blog posts (and posts saved from a notebook's HTML export) start with
``<html><head><style>...</style></head><body>`` and repeat the front matter's title as
an ``<h1>``: here the template writes the ``<html>``, the ``<head>`` and the title, so
kept they would show the title twice and put a ``<style>`` in the page, restyling it.
"""

from __future__ import annotations

import html
import re

from site_builder.importer.text import Text

# The page's frame (a <head> with whatever it holds) and any <style> in the body.
FRAME = re.compile(
    r"(?is)<!DOCTYPE[^>]*>|<head\b[^>]*>.*?</head\s*>|</?(?:html|body)\b[^>]*>"
    r"|<style\b[^>]*>.*?</style\s*>"
)
# Hugging Face's ``{blog_metadata}`` and ``{authors}``, filled in by its renderer.
PLACEHOLDER = re.compile(r"(?m)^[ \t]*(?:<!--\s*)?\{(?:blog_metadata|authors)\}(?:\s*-->)?[ \t]*$")
# After any HTML comments (a note to the author above Jekyll's ``# {{ page.title }}``).
# A comment cannot reach past its own ``-->``: with ``.*?`` a body of many comments (or
# one left open) made the search try every way of pairing them, and the import hung.
LEADING_TITLE = re.compile(
    r"(?is)\A(?:\s*<!--(?:(?!-->).)*+-->)*+\s*"
    r"(?P<h>(?:<h1\b[^>]*>(.*?)</h1\s*>|#[ \t]+([^\n]+?)[ \t#]*$))",
    re.M,
)
TAG = re.compile(r"<[^>]+>")


def unwrap(text: Text) -> None:
    """Remove the page frame, its styles and the renderer's placeholders."""
    text.sub(FRAME, lambda m, _l: "")
    text.sub(PLACEHOLDER, lambda m, _l: "")


def leading_title(text: Text, title: str | None) -> str | None:
    """The text of a first-level heading that opens the body, removed when it repeats
    ``title`` or when there is no title (it becomes the title); None when there is none."""
    match = LEADING_TITLE.match(text.text)
    if match is None:
        return None
    raw = match.group(2) if match.group(2) is not None else match.group(3)
    heading = " ".join(html.unescape(TAG.sub("", raw)).split())
    if not heading:
        return None
    if title is None or _same(heading, title):
        text.splice([(match.start("h"), match.end(), "")])
        return heading
    return None


def _same(a: str, b: str) -> bool:
    def fold(s: str) -> str:
        return re.sub(r"[\W_]+", " ", s).strip().casefold()

    return fold(a) == fold(b)
