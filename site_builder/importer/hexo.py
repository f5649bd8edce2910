"""Hexo's (and Octopress's) tag plugins, which the Jekyll converter reads otherwise.

- ``{% codeblock [title] [lang:x] %}...{% endcodeblock %}`` is a fenced code block,
  its title the block's ``filename``;
- ``{% include_code [title] [lang:x] path %}`` is the file Hexo inlined from
  ``source/downloads/code/`` (its ``code_dir``), as a fenced block; Pelican's
  liquid_tags read it from its ``CODE_DIR`` under ``content/`` (``code``);
- Octopress's and Pelican's ``{% video url [width height] [poster] %}`` is a
  ``<video>``, its file and poster copied as an image's are;
- ``{% asset_img name [title] %}`` is an image in the post's asset folder
  (``source/_posts/<post>/name``);
- NexT's ``{% note info [title] %}...{% endnote %}`` is a callout, ``{% blockquote
  author, source %}`` a quotation with its attribution, ``{% post_link slug [text] %}``
  and ``{% link text url %}`` links, ``{% youtube id %}`` a link to the video.

A tag whose file is missing is left to the report, as any other Liquid tag.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from re import Match

from site_builder.importer import jekyll
from site_builder.importer.report import PostNotes
from site_builder.importer.text import Text

CODEBLOCK = re.compile(
    r"(?ms)^([ \t]*)\{%-?\s*codeblock\b([^%]*?)-?%\}[ \t]*\n(.*?)\n"
    r"[ \t]*\{%-?\s*endcodeblock\s*-?%\}"
)
INCLUDE_CODE = re.compile(r"\{%-?\s*include_code\b([^%]*?)-?%\}")
ASSET_IMG = re.compile(r"\{%-?\s*asset_img\b([^%]*?)-?%\}")
# NexT's ``{% note info %}`` (the most used Hexo theme), Hexo's own quotes, links, video.
NOTE = re.compile(r"(?s)\{%-?\s*note\b([^%]*?)-?%\}[ \t]*\n?(.*?)\{%-?\s*endnote\s*-?%\}")
QUOTE = re.compile(
    r"(?s)\{%-?\s*(blockquote|pullquote)\b([^%]*?)-?%\}[ \t]*\n?(.*?)"
    r"\{%-?\s*end(?:blockquote|pullquote)\s*-?%\}"
)
POST_LINK = re.compile(r"\{%-?\s*post_link\s+([^%]*?)-?%\}")
LINK = re.compile(r"\{%-?\s*link\s+([^%]*?)-?%\}")
VIDEO = re.compile(r"\{%-?\s*(youtube|vimeo|iframe)\s+([^\s%]+)[^%]*-?%\}")
FILE_VIDEO = re.compile(r"\{%-?\s*video\s+(\S+\.(?:mp4|webm|ogv|ogg|mov))\b([^%]*?)-?%\}")
_CODE_DIR = re.compile(r"""(?m)^CODE_DIR\s*=\s*['"]([^'"]+)['"]""")
_NOTE_KINDS = {"success": "tip", "warning": "warning", "danger": "caution"}  # the rest: notes
_VIDEO_URL = {"youtube": "https://www.youtube.com/watch?v={}", "vimeo": "https://vimeo.com/{}"}


def _words(raw: str) -> list[str]:
    try:
        return shlex.split(raw)
    except ValueError:  # an unclosed quote: as written
        return raw.split()


def _fence(body: str, words: list[str], indent: str = "") -> str:
    """The block Jekyll's converter writes (``jekyll._fence``), its info string from the
    tag's ``lang:x`` and title."""
    lang = next((w[5:] for w in words if w.startswith("lang:")), "")
    title = " ".join(w for w in words if ":" not in w and "/" not in w)
    return jekyll._fence(lang + (f' filename="{title}"' if title and lang else ""), body, indent)


def convert(text: Text, notes: PostNotes, post: Path, root: Path) -> None:
    """Hexo's tags in ``text`` (the post at ``post``, its site at ``root``), before Liquid."""

    def codeblock(match: Match[str], _line: int) -> str:
        return text.hide(_fence(match.group(3), _words(match.group(2)), match.group(1)))

    def include_code(match: Match[str], line: int) -> str:
        words = _words(match.group(1))
        paths = [w for w in words if ":" not in w]
        if not paths:
            return match.group(0)
        # Hexo's path is its last word, Pelican's its first: the one that names a file.
        found = next(
            (
                (p, d / p)
                for p in (paths[-1], paths[0])
                for d in _code_dirs(root)
                if (d / p).is_file()
            ),
            None,
        )
        if found is None:
            where = " or ".join(str(d.relative_to(root)) for d in _code_dirs(root))
            notes.add(line, f"include_code {paths[-1]}: no such file in {where}")
            return match.group(0)
        body = found[1].read_text(encoding="utf-8", errors="replace").rstrip("\n")
        words.remove(found[0])
        if not any(w.startswith("lang:") for w in words):
            words.append(f"lang:{found[1].suffix[1:]}")
        return text.hide(_fence(body, words))

    def asset_img(match: Match[str], _line: int) -> str:
        words = _words(match.group(1))
        names = [w for w in words if "." in w and not w.isdigit()]
        if not names:
            return match.group(0)
        title = " ".join(w for w in words[words.index(names[0]) + 1 :] if not w.isdigit())
        return f"![{title}]({post.stem}/{names[0]})"

    def note(match: Match[str], _line: int) -> str:
        words = [w for w in _words(match.group(1)) if w != "no-icon"]
        kind = _NOTE_KINDS.get(words[0], "note") if words else "note"
        title = " ".join(words[1:]).replace('"', "'")
        head = f'::: {{.callout-{kind} title="{title}"}}' if title else f"::: {{.callout-{kind}}}"
        return f"\n\n{head}\n{match.group(2).strip()}\n:::\n\n"

    def quote(match: Match[str], _line: int) -> str:
        body = "\n".join(
            "> " + line if line.strip() else ">" for line in match.group(3).strip().split("\n")
        )
        words = [w for w in _words(match.group(2)) if not w.startswith("class:")]
        source = " ".join(w for w in words if not w.startswith("http"))
        return (
            f"\n\n{body}\n>\n> — {source}\n\n"
            if source and match.group(1) == "blockquote"
            else f"\n\n{body}\n\n"
        )

    def post_link(match: Match[str], _line: int) -> str:
        words = [w for w in _words(match.group(1)) if w not in ("true", "false")]
        if not words:
            return match.group(0)
        slug = words[0].rsplit("/", 1)[-1].removesuffix(".md")
        return f"[{' '.join(words[1:]) or slug}]({jekyll._post_link(slug)})"

    def link(match: Match[str], _line: int) -> str:
        words = _words(match.group(1))
        url = next((w for w in words if re.match(r"https?://|/", w)), None)
        if url is None:
            return match.group(0)
        return f"[{' '.join(words[: words.index(url)]) or url}]({url})"

    def video(match: Match[str], line: int) -> str:
        name, ident = match.group(1), match.group(2).strip("\"'")
        notes.add(line, f"{name} video embedded as a link")
        return f"<{_VIDEO_URL.get(name, '{}').format(ident)}>"

    def file_video(match: Match[str], _line: int) -> str:
        words = _words(match.group(2))
        size = "".join(
            f' {k}="{v}"' for k, v in zip(("width", "height"), words, strict=False) if v.isdigit()
        )
        poster = next((f' poster="{w}"' for w in words if not w.isdigit()), "")
        return f'<video src="{match.group(1)}"{size}{poster} controls></video>'

    text.sub(NOTE, note)
    text.sub(QUOTE, quote)
    text.sub(POST_LINK, post_link)
    text.sub(LINK, link)
    text.sub(VIDEO, video)
    text.sub(FILE_VIDEO, file_video)
    text.sub(CODEBLOCK, codeblock)
    text.sub(INCLUDE_CODE, include_code)
    text.sub(ASSET_IMG, asset_img)


def _code_dirs(root: Path) -> list[Path]:
    """Where ``include_code`` read files: Hexo's ``code_dir``, Pelican's ``CODE_DIR``."""
    pelican = root / "pelicanconf.py"
    text = pelican.read_text(encoding="utf-8", errors="replace") if pelican.is_file() else ""
    named = _CODE_DIR.search(text)
    return [
        root / "source" / "downloads" / "code",
        root / "content" / (named.group(1) if named else "code"),
    ]
