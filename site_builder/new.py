"""``site-builder new "Title"``: start a post with valid front matter and today's date.

The post starts as a draft (``draft: true``), as ``hugo new`` makes them: the
deploy workflow builds every push to ``main``, so a post that was published from
the moment it existed would go live with "Write here." as its text. ``serve
--drafts`` previews it; deleting the line publishes it.

``--bundle`` makes the folder form, ``content/posts/<slug>/index.md``, which a
post needs for images or a ``bibliography:`` file beside it.

``--widget NAME`` starts a widget instead: ``widgets/<name>/`` with a
``widget.py``, ``widget.js`` and ``fallback.html`` that already work together
(a slider over values computed at build time), to be edited into the real one.

The date is "today" in the site's time zone (``site.yaml``), not the
machine's, so a post started late in the evening is not dated tomorrow; the
same clock as the build's (``SOURCE_DATE_EPOCH`` pins it), so it is due at once.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

from site_builder.clock import reference_time
from site_builder.config import SiteConfig
from site_builder.errors import BuildError
from site_builder.slug import slugify


def post_text(title: str, today: str) -> str:
    """Front matter plus a first line. JSON strings are YAML, so any title is quoted safely."""
    return (
        "---\n"
        f"title: {json.dumps(title, ensure_ascii=False)}\n"
        f"date: {today}\n"
        'description: ""\n'
        "tags: []\n"
        "draft: true  # left out of the build until this line is removed; serve --drafts shows it\n"
        "---\n\n"
        "Write here.\n"
    )


def new_post(
    config: SiteConfig, title: str, now: datetime | None = None, *, bundle: bool = False
) -> Path:
    """Create ``content/posts/<slug>.md`` (``<slug>/index.md`` with ``bundle``); refuse to
    overwrite a post with the same slug in either form."""
    title = title.strip()
    if not title:
        raise BuildError("new", None, "the title must not be empty")
    slug = _shortened(slugify(title))
    posts = config.root / "content" / "posts"
    single, folder = posts / f"{slug}.md", posts / slug / "index.md"
    path = folder if bundle else single
    for existing in (single, folder):
        if existing.exists():
            raise BuildError(
                existing.relative_to(config.root),
                None,
                "already exists; choose another title or edit that file",
            )
    today = (now or reference_time()).astimezone(config.tz).date().isoformat()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("x", encoding="utf-8") as file:  # "x": never clobber, even in a race
            file.write(post_text(title, today))
    except OSError as exc:  # content/posts a file, a read-only disk
        where = path.relative_to(config.root)
        raise BuildError(where, None, f"cannot write: {exc.strerror}") from None
    return path


WIDGET_PY = '''"""Widget "{name}": the data its figure shows, computed when the site is built.

A post uses it as ``::: {{#fig-x widget="{name}" count=5}}`` (the block's text is the
caption). The build calls data() with the figure's other attributes as strings and
writes what it returns, as JSON, beside the page; fallback.html renders it for
readers without JavaScript and widget.js makes it interactive.
"""

from collections.abc import Mapping
from typing import Any


def data(params: Mapping[str, str]) -> dict[str, Any]:
    numbers = range(1, int(params.get("count", "5")) + 1)
    return {{"labels": [f"x{{i}}" for i in numbers], "squares": [i * i for i in numbers]}}
'''

WIDGET_JS = """// Widget "{name}": the site's loader calls mount() once per figure, with the
// figure element and the JSON that widget.py's data() returned. The fallback
// (fallback.html) is already on the page: enhance it rather than replace it.
export default function mount(figure, data) {{
  const output = figure.querySelector(".{name}-value");
  const slider = document.createElement("input");
  slider.type = "range";
  slider.min = "0";
  slider.max = String(data.squares.length - 1);
  slider.value = "0";
  slider.setAttribute("aria-label", "Which value");
  slider.addEventListener("input", () => {{
    const i = Number(slider.value);
    output.textContent = `${{data.labels[i]}} = ${{data.squares[i]}}`;
  }});
  output.before(slider);
}}
"""

FALLBACK_HTML = """{{#- What the figure shows without JavaScript: `data` is what data() returned,
    `params` the figure's attributes. Autoescaped, like the site's templates. -#}}
<p class="{name}">
<output class="{name}-value">{{{{ data.labels[0] }}}} = {{{{ data.squares[0] }}}}</output>
</p>
"""


def new_widget(config: SiteConfig, name: str) -> Path:
    """Create ``widgets/<name>/`` with a working widget; refuse an existing one or a bad name."""
    from site_builder.widgets import FOLDER, NAME

    if not NAME.fullmatch(name):
        message = "a widget's name is lower-case letters, digits and hyphens, e.g. loss-slider"
        raise BuildError("new", None, message)
    folder = config.root / FOLDER / name
    if folder.exists():
        raise BuildError(
            folder.relative_to(config.root), None, "already exists; choose another name"
        )
    try:
        folder.mkdir(parents=True)
        for file, text in (
            ("widget.py", WIDGET_PY),
            ("widget.js", WIDGET_JS),
            ("fallback.html", FALLBACK_HTML),
        ):
            (folder / file).write_text(text.format(name=name), encoding="utf-8")
    except OSError as exc:  # widgets/ a file or a broken link, a name too long, read-only
        where = folder.relative_to(config.root)
        raise BuildError(where, None, f"cannot write: {exc.strerror}") from None
    return folder


_LONGEST_SLUG = 80  # a file name holds 255 bytes; an address this long is long already


def _shortened(slug: str) -> str:
    """A long title's slug cut at a word (``-``) within 80 characters: a 60-word title made
    a file name the system refused (``File name too long``)."""
    if len(slug) <= _LONGEST_SLUG:
        return slug
    cut = slug[: _LONGEST_SLUG + 1].rsplit("-", 1)[0]
    return cut if cut else slug[:_LONGEST_SLUG]
