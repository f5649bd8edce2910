"""The site author's profile: ``author:`` in site.yaml as a mapping instead of a name.

::

    author:
      name: Yichi Zhang
      photo: img/me.jpg          # a file under static/
      bio: PhD student at [Michigan](https://umich.edu), working on embodied agents.
      links: {github: 594zyc, scholar: xkBBhY8AAAAJ, mastodon: "@yichi@sigmoid.social"}

The home page shows the photo (with its width and height, so nothing moves when it
loads), the bio and the links as icons; the JSON-LD names a schema.org ``Person``.
A link may be written as the site knows it (a user name, an ORCID iD, an address)
or as a full URL. Mistakes stop the build at their line in site.yaml, with a
"did you mean" for a misspelt key, as front matter keys are checked.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from site_builder.errors import BuildError
from site_builder.profile_icons import ICONS

KEYS = ("name", "photo", "photo_alt", "bio", "links")
_URL = re.compile(r"https?://[^\s/$.?#][^\s]*", re.IGNORECASE)


@dataclass(frozen=True)
class _Kind:
    label: str  # the link's accessible name
    pattern: str  # what a short form looks like (a regex with one group, the id)
    url: str  # the short form's URL, ``{}`` for the id (``{1}`` ``{2}`` for two groups)
    example: str  # for messages


LINKS: dict[str, _Kind] = {
    "github": _Kind("GitHub", r"@?([A-Za-z0-9][A-Za-z0-9-]*)", "https://github.com/{0}", "octocat"),
    "scholar": _Kind(
        "Google Scholar",
        r"([A-Za-z0-9_-]{6,})",
        "https://scholar.google.com/citations?user={0}",
        "a user id such as xkBBhY8AAAAJ",
    ),
    "orcid": _Kind(
        "ORCID", r"(\d{4}-\d{4}-\d{4}-\d{3}[\dX])", "https://orcid.org/{0}", "0000-0002-1825-0097"
    ),
    "arxiv": _Kind("arXiv", r"([a-z0-9_]+)", "https://arxiv.org/a/{0}", "an author id: sahu_s_1"),
    "x": _Kind("X", r"@?(\w{1,15})", "https://x.com/{0}", "@handle"),
    "mastodon": _Kind(
        "Mastodon",
        r"@?([\w.]+)@([\w-]+(?:\.[\w-]+)+)",
        "https://{1}/@{0}",
        "@user@instance.social",
    ),
    "bluesky": _Kind(
        "Bluesky",
        r"@?((?:[\w-]+\.)+[A-Za-z]+|did:plc:[a-z0-9]+)",
        "https://bsky.app/profile/{0}",
        "handle.bsky.social",
    ),
    "linkedin": _Kind(
        "LinkedIn", r"([\w-]{3,100})", "https://www.linkedin.com/in/{0}", "a profile name"
    ),
    "email": _Kind(
        "Email", r"(?:mailto:)?([^@\s]+@[^@\s]+\.[^@\s]+)", "mailto:{0}", "you@example.org"
    ),
}


@dataclass(frozen=True)
class ProfileLink:
    """One icon link. ``rel`` is ``me`` for Mastodon, which verifies a profile by it."""

    kind: str  # a key of LINKS: "github", "mastodon", ...
    label: str
    url: str
    rel: str = ""

    @property
    def view_box(self) -> str:
        return ICONS[self.kind][0]

    @property
    def path(self) -> str:
        """The icon's SVG path data (site_builder/profile_icons.py)."""
        return ICONS[self.kind][1]


@dataclass(frozen=True)
class Photo:
    """A photo under static/: its site path (``static/img/me.jpg``) and pixel size."""

    path: str
    width: int
    height: int
    alt: str


@dataclass(frozen=True)
class Profile:
    """``author:`` as a mapping. ``bio`` is Markdown (links, emphasis), shown as HTML."""

    name: str
    photo: Photo | None = None
    bio: str = ""
    links: tuple[ProfileLink, ...] = ()

    @property
    def bio_html(self) -> str:
        return _markdown(self.bio) if self.bio.strip() else ""


def load_profile(data: dict[Any, Any], text: str, root: Path) -> Profile:
    """The profile from site.yaml's ``author:`` mapping (``text`` is site.yaml, for lines)."""

    def fail(keys: tuple[str, ...], message: str) -> BuildError:
        return BuildError(Path("site.yaml"), yaml_line(text, ("author", *keys)), message)

    _no_unknown(data, KEYS, "author", fail, ())
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise fail(("name",) if "name" in data else (), "'author' needs a 'name' (text)")
    for key in ("photo", "photo_alt", "bio"):
        if key in data and not isinstance(data[key], str):
            raise fail((key,), f"author '{key}' must be text")
    photo = None
    if data.get("photo"):
        alt = data.get("photo_alt") or f"Photo of {name.strip()}"
        photo = _photo(data["photo"], alt, root, lambda m: fail(("photo",), m))
    links = data.get("links") or {}
    if not isinstance(links, dict):
        raise fail(("links",), "author 'links' must be a mapping such as {github: octocat}")
    _no_unknown(links, tuple(LINKS), "author.links", fail, ("links",))
    out = []
    for kind, value in links.items():
        problem, url = link_url(kind, value)
        if problem:
            raise fail(("links", kind), problem)
        out.append(ProfileLink(kind, LINKS[kind].label, url, "me" if kind == "mastodon" else ""))
    return Profile(name.strip(), photo, str(data.get("bio") or "").strip(), tuple(out))


def link_url(kind: str, value: object) -> tuple[str, str]:
    """(problem or "", URL) for one ``links:`` value: a full URL, or the kind's short form."""
    spec = LINKS[kind]
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)  # YAML reads a numeric handle as a number
    if not isinstance(value, str) or not value.strip():
        return f"author link '{kind}' must be text, such as {spec.example}", ""
    value = value.strip()
    if kind != "email" and _URL.fullmatch(value):
        return "", value
    match = re.fullmatch(spec.pattern, value)
    if not match:
        return f"author link '{kind}': {value!r} is not a URL nor {spec.example}", ""
    return "", spec.url.format(*match.groups())


def person_ld(profile: Profile, url: str, absolute: Callable[[str], str]) -> dict[str, Any]:
    """The schema.org ``Person`` for the home page's JSON-LD. ``url`` is the site's address;
    ``absolute`` makes a site path absolute (``SiteConfig.absolute_url``)."""
    ld: dict[str, Any] = {
        "@context": "https://schema.org",
        "@type": "Person",
        "name": profile.name,
        "url": url,
    }
    if profile.photo:
        ld["image"] = absolute(profile.photo.path)
    if profile.bio:
        ld["description"] = _plain(profile.bio)
    same = [link.url for link in profile.links if link.kind != "email"]
    if same:
        ld["sameAs"] = same
    email = [link.url for link in profile.links if link.kind == "email"]
    if email:
        ld["email"] = email[0]
    return ld


def _photo(value: str, alt: str, root: Path, fail: Callable[[str], BuildError]) -> Photo:
    """The photo's file under static/ (``img/me.jpg`` or ``static/img/me.jpg``) and size."""
    import imagesize

    relative = value.strip().lstrip("/").removeprefix("static/")
    if ".." in Path(relative).parts or not relative:
        raise fail(f"the photo must be a file under static/, got {value!r}")
    path = root / "static" / relative
    if not path.is_file():
        raise fail(f"photo not found: static/{relative}")
    width, height = imagesize.get(str(path))
    if width <= 0 or height <= 0:
        raise fail(f"cannot read the size of static/{relative}: use a PNG, JPEG, GIF or WebP")
    return Photo(f"static/{relative}", int(width), int(height), alt.strip())


def _no_unknown(
    data: dict[Any, Any],
    known: tuple[str, ...],
    where: str,
    fail: Callable[[tuple[str, ...], str], BuildError],
    keys: tuple[str, ...],
) -> None:
    for key in data:
        if key not in known:
            close = difflib.get_close_matches(str(key), known, n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else f" (known: {', '.join(known)})"
            raise fail((*keys, str(key)), f"unknown key '{key}' in {where}{hint}")


def yaml_line(text: str, keys: tuple[str, ...]) -> int | None:
    """The 1-based line of the nested key ``keys`` in YAML ``text`` (the deepest one found).

    Only asked when something is wrong, so a good site.yaml is never composed twice."""
    import yaml

    try:
        node: Any = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return None
    line = None
    for key in keys:
        if not isinstance(node, yaml.MappingNode):
            break
        found = next(((k, v) for k, v in node.value if k.value == key), None)
        if found is None:
            break
        line = found[0].start_mark.line + 1
        node = found[1]
    return line


@lru_cache(maxsize=8)
def _markdown(text: str) -> str:
    """The bio as HTML: CommonMark without raw HTML (a bio is not where markup goes)."""
    from markdown_it import MarkdownIt

    return str(MarkdownIt("commonmark", {"html": False}).render(text))


def _plain(text: str) -> str:
    """The bio without Markdown's link syntax, for JSON-LD: ``[MIT](url)`` reads "MIT"."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return " ".join(re.sub(r"[*_`]", "", text).split())
